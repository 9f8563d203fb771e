/**
 * The Spellbook panel: the content's combat spells with the Magic level and runes each needs, greyed
 * (`aria-disabled`) when the player cannot cast it now and saying why; choosing a spell and then a
 * monster casts it (`player:action {action: "cast"}`, main.ts), and each spell's Autocast toggle
 * (`player:setAutocast`) makes attacks cast it while a staff is wielded.
 */
import type { PlayerState } from "../../../schema/WorldState.ts";
import type { Spell } from "../../../src/manifests/magicContent.ts";
import type { Content } from "../content.ts";
import type { Send } from "../worldMenu.ts";
import { counted } from "../names.ts";

export interface SpellbookHost {
  content: Content;
  send: Send;
  /** A line in the chat from the client itself. */
  say(text: string): void;
}

interface Row {
  spell: Spell;
  /** Why it cannot be cast now; undefined when it can. */
  blocked: string | undefined;
}

export class SpellbookPanel {
  private readonly list: HTMLElement;
  private readonly hint: HTMLElement;
  private readonly host: SpellbookHost;
  private selectedId: string | undefined;
  private shown = "";
  private last: PlayerState | undefined;

  constructor(host: SpellbookHost) {
    this.host = host;
    this.list = document.getElementById("spellbook-spells")!;
    this.hint = document.getElementById("spellbook-hint")!;
    document.addEventListener("keydown", this.onKey);
  }

  private readonly onKey = (ev: KeyboardEvent): void => {
    if (ev.key === "Escape" && this.selectedId !== undefined) this.select(undefined);
  };

  /** The session ended (logout, a hop): the book stops listening to the page. */
  dispose(): void {
    document.removeEventListener("keydown", this.onKey);
  }

  /** The spell chosen to cast on the next monster clicked, if any. */
  selected(): Spell | undefined {
    return this.selectedId === undefined ? undefined : this.host.content.registry.magic.spells.get(this.selectedId);
  }

  /** The chosen spell was cast (or given up): the book no longer holds it. */
  select(spellId: string | undefined): void {
    this.selectedId = spellId;
    this.shown = "";
    if (this.last !== undefined) this.render(this.last);
  }

  private rows(p: PlayerState): { rows: Row[]; staff: boolean } {
    const magic = this.host.content.registry.magic;
    const level = p.skills.get("magic")?.level ?? 1;
    const weapon = p.equipment.get("weapon")?.itemId ?? "";
    const weaponDef = this.host.content.registry.items.get(weapon);
    const staff = weaponDef !== undefined && (/staff/i.test(weaponDef.weaponType ?? "") || magic.staves.has(weapon));
    const free = magic.staves.get(weapon) ?? [];
    const have = (itemId: string) => p.inventory.reduce((n, s) => n + (s.itemId === itemId ? s.quantity : 0), 0);
    const rows = [...magic.spells.values()].map((spell) => {
      if (level < spell.level) return { spell, blocked: `needs Magic level ${spell.level}` };
      const short = spell.runes.filter((r) => !free.includes(r.runeId) && have(r.runeId) < r.quantity).map((r) => this.runeName(r.runeId));
      return { spell, blocked: short.length > 0 ? `not enough ${short.join(" and ")}` : undefined };
    });
    return { rows, staff };
  }

  private runeName(id: string): string {
    return this.host.content.registry.items.get(id)?.name ?? id;
  }

  /** "1 Air rune, 2 Earth runes": a count of more than one is plural, as the genre writes it. */
  private runesText(spell: Spell): string {
    return spell.runes.map((r) => counted(r.quantity, this.runeName(r.runeId))).join(", ");
  }

  render(p: PlayerState): void {
    this.last = p;
    const { rows, staff } = this.rows(p);
    const key = JSON.stringify([rows.map((r) => r.blocked ?? ""), staff, p.autocast, this.selectedId]);
    if (key === this.shown) return;
    this.shown = key;
    const focused = (document.activeElement as HTMLElement | null)?.dataset.spell;
    const chosen = this.selected();
    this.hint.textContent =
      rows.length === 0
        ? "This world has no combat spells."
        : chosen !== undefined
          ? `${chosen.name}: choose a monster to cast it on (Escape to cancel).`
          : p.autocast !== ""
            ? `Autocasting ${this.host.content.registry.magic.spells.get(p.autocast)?.name ?? p.autocast}: your attacks cast it.`
            : "Choose a spell, then a monster to cast it on.";
    this.list.replaceChildren(
      ...rows.map(({ spell, blocked }) => {
        const li = document.createElement("li");
        const cast = document.createElement("button");
        cast.type = "button";
        cast.className = blocked === undefined ? "spell" : "spell unavailable";
        cast.dataset.spell = spell.id;
        const name = document.createElement("span");
        name.className = "spell-name";
        name.textContent = spell.name;
        const needs = document.createElement("span");
        needs.className = "spell-needs";
        needs.textContent = `Level ${spell.level} · ${this.runesText(spell)}`;
        cast.append(name, needs);
        cast.setAttribute(
          "aria-label",
          `${spell.name}, level ${spell.level}, ${this.runesText(spell)}${blocked === undefined ? "" : `: unavailable, ${blocked}`}`,
        );
        cast.setAttribute("aria-disabled", String(blocked !== undefined));
        cast.setAttribute("aria-pressed", String(this.selectedId === spell.id));
        cast.addEventListener("click", () => {
          if (blocked !== undefined) {
            this.host.say(`You cannot cast ${spell.name}: ${blocked}.`);
            return;
          }
          this.select(this.selectedId === spell.id ? undefined : spell.id);
        });
        const auto = document.createElement("button");
        auto.type = "button";
        auto.className = "autocast";
        auto.dataset.spell = `${spell.id}:auto`;
        auto.textContent = "Autocast";
        const on = p.autocast === spell.id;
        const autoBlocked = !staff
          ? "wield a staff to autocast"
          : (p.skills.get("magic")?.level ?? 1) < spell.level
            ? `needs Magic level ${spell.level}`
            : undefined;
        auto.setAttribute("aria-label", `Autocast ${spell.name}${autoBlocked === undefined || on ? "" : `: unavailable, ${autoBlocked}`}`);
        auto.setAttribute("aria-pressed", String(on));
        auto.setAttribute("aria-disabled", String(autoBlocked !== undefined && !on));
        auto.addEventListener("click", () => {
          if (on) this.host.send("player:setAutocast", { spellId: null });
          else if (autoBlocked !== undefined) this.host.say(`You cannot autocast ${spell.name}: ${autoBlocked}.`);
          else this.host.send("player:setAutocast", { spellId: spell.id });
        });
        li.append(cast, auto);
        if (focused === spell.id) queueMicrotask(() => cast.focus());
        else if (focused === `${spell.id}:auto`) queueMicrotask(() => auto.focus());
        return li;
      }),
    );
  }
}
