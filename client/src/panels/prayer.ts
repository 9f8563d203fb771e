/**
 * The Prayer panel: prayer points (of the Prayer level), and each prayer of the content with its
 * level and what it does, as a toggle button (`prayer:toggle`), pressed while active. A prayer above
 * the player's level is greyed (`aria-disabled`) and says what it needs instead of asking the server.
 */
import type { PlayerState } from "../../../schema/WorldState.ts";
import type { Content } from "../content.ts";
import type { Send } from "../worldMenu.ts";

export class PrayerPanel {
  private readonly points: HTMLElement;
  private readonly list: HTMLElement;
  private readonly content: Content;
  private readonly send: Send;
  private readonly say: (text: string) => void;
  private shown = "";

  constructor(content: Content, send: Send, say: (text: string) => void) {
    this.content = content;
    this.send = send;
    this.say = say;
    this.points = document.getElementById("prayer-points")!;
    this.list = document.getElementById("prayer-list")!;
  }

  render(p: PlayerState): void {
    const level = p.skills.get("prayer")?.level ?? 1;
    const active = [...p.activePrayers];
    const key = JSON.stringify([level, p.prayerPoints, active]);
    if (key === this.shown) return;
    this.shown = key;
    this.points.textContent = `Prayer points ${p.prayerPoints} / ${level}`;
    const focused = (document.activeElement as HTMLElement | null)?.dataset.prayer;
    this.list.replaceChildren(
      ...[...this.content.registry.prayers.values()].map((prayer) => {
        const li = document.createElement("li");
        const on = active.includes(prayer.id);
        const locked = prayer.level > level;
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.prayer = prayer.id;
        b.textContent = prayer.name;
        b.setAttribute("aria-pressed", String(on));
        if (locked) b.setAttribute("aria-disabled", "true");
        const what = document.createElement("span");
        what.className = "prayer-what";
        what.id = `prayer-what-${prayer.id}`;
        what.textContent = `Level ${prayer.level}${prayer.description !== undefined ? ` · ${prayer.description}` : ""}`;
        b.setAttribute("aria-describedby", what.id);
        b.addEventListener("click", () => {
          if (locked) this.say(`You need Prayer level ${prayer.level} to use ${prayer.name}.`);
          else this.send("prayer:toggle", { prayerId: prayer.id, active: !on });
        });
        li.className = locked ? "locked" : on ? "active" : "";
        li.append(b, what);
        if (focused === prayer.id) queueMicrotask(() => b.focus());
        return li;
      }),
    );
  }
}
