/**
 * The Equipment panel: every equipment slot with what is worn there, and a Remove button for each
 * worn item (`equipment:remove`), named `Remove Bronze sword`; and, as the genre opens them from its
 * "Equipment Stats" button, the worn items' bonuses (attack and defence by type, then strength and
 * prayer, summed by the server's own rule, src/game/equipmentStats.ts) in place of the slots while
 * the tab's **Equipment stats** button is pressed (`aria-expanded`): at the top of the tab, unscrolled
 * (below the eleven slots they needed the tab's scroll, docs/playtest.md session 29).
 */
import { EQUIPMENT_SLOTS } from "../../../src/game/clientEvents.ts";
import type { PlayerState } from "../../../schema/WorldState.ts";
import { itemLabel, type Content } from "../content.ts";
import type { Send } from "../worldMenu.ts";
import { showItem } from "../art/itemIcon.ts";
import { equipmentStats, STAT_TYPES } from "../../../src/game/equipmentStats.ts";

/** A bonus as the genre writes it: +14, -5, 0. */
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

const title = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export class EquipmentPanel {
  private readonly list: HTMLElement;
  private readonly statRows: HTMLElement;
  private readonly statOther: HTMLElement;
  private readonly content: Content;
  private readonly send: Send;
  private shown = "";

  constructor(content: Content, send: Send) {
    this.content = content;
    this.send = send;
    this.list = document.getElementById("equipment-slots")!;
    this.statRows = document.getElementById("equipment-stats-rows")!;
    this.statOther = document.getElementById("equipment-stats-other")!;
    const toggle = document.getElementById("equipment-stats-toggle")!;
    const view = document.getElementById("equipment-stats-view")!;
    toggle.addEventListener("click", () => {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      view.hidden = !open;
      this.list.hidden = open;
      view.closest(".panel")?.scrollTo({ top: 0 });
    });
  }

  render(p: PlayerState): void {
    const worn = EQUIPMENT_SLOTS.map((slot) => {
      const e = p.equipment.get(slot);
      return { slot, item: e !== undefined && e.itemId !== "" ? { itemId: e.itemId, quantity: e.quantity } : undefined };
    });
    const key = JSON.stringify(worn);
    if (key === this.shown) return;
    this.shown = key;
    this.renderStats(worn.map((w) => (w.item === undefined ? undefined : this.content.registry.items.get(w.item.itemId))));
    // Focus on a Remove button survives a redraw when that slot is still worn.
    const focused = (document.activeElement as HTMLElement | null)?.dataset.slot;
    this.list.replaceChildren(
      ...worn.map(({ slot, item }) => {
        const li = document.createElement("li");
        const name = document.createElement("span");
        name.className = "equip-slot";
        name.textContent = title(slot);
        const what = document.createElement("span");
        what.className = item === undefined ? "equip-item empty" : "equip-item";
        if (item === undefined) what.textContent = "nothing";
        else {
          const label = itemLabel(this.content, item.itemId, item.quantity);
          showItem(what, this.content, item.itemId, label, label);
        }
        li.append(name, what);
        if (item !== undefined) {
          const b = document.createElement("button");
          b.type = "button";
          b.dataset.slot = slot;
          b.textContent = "Remove";
          b.setAttribute("aria-label", `Remove ${this.content.registry.items.get(item.itemId)?.name ?? item.itemId}`);
          b.addEventListener("click", () => this.send("equipment:remove", { slot }));
          li.append(b);
          if (focused === slot) queueMicrotask(() => b.focus());
        }
        return li;
      }),
    );
  }

  private renderStats(worn: Parameters<typeof equipmentStats>[0]): void {
    const stats = equipmentStats(worn);
    this.statRows.replaceChildren(
      ...(["attack", "defence"] as const).map((kind) => {
        const tr = document.createElement("tr");
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = title(kind);
        tr.append(th, ...STAT_TYPES.map((t) => Object.assign(document.createElement("td"), { textContent: signed(stats[kind][t]) })));
        return tr;
      }),
    );
    this.statOther.textContent = `Melee strength ${signed(stats.meleeStrength)} · Ranged strength ${signed(stats.rangedStrength)} · Prayer ${signed(stats.prayer)}`;
  }
}
