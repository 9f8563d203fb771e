/**
 * The Combat panel: your combat level, the wielded weapon (or unarmed) with its kind and the attack type of the style
 * in force, and a button for each style the weapon offers (`player:setCombatStyle`), the current
 * one pressed (named by the genre's action, "Punch", "Stab", "Lunge", "Slash", "Block", the style and what
 * it trains beside it: "Aggressive · Slash · xp to Strength", its accessible description). Which styles, and their attack types, come from the server's own rules
 * (src/game/combatStyles.ts, imported), so the panel offers exactly what the server accepts.
 * Below them the Auto Retaliate toggle (`player:setAutoRetaliate`, pressed while on: the server's
 * synced `autoRetaliate`, src/game/retaliate.ts).
 */
import { attackTypeOf, effectiveStyle, parseCombatStyle, styleKind, styleLabel, stylesOffered, styleTitle, styleXp } from "../../../src/game/combatStyles.ts";
import type { PlayerState } from "../../../schema/WorldState.ts";
import type { Content } from "../content.ts";
import type { Send } from "../worldMenu.ts";
import { skillName } from "./skills.ts";

const title = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** What a style trains, in words: `xp to Strength`, `xp to Attack, Strength and Defence`. */
function trains(skills: string[]): string {
  const names = skills.map(skillName);
  return `xp to ${names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}` : names[0]!}`;
}

export class CombatPanel {
  private readonly level: HTMLElement;
  private readonly weapon: HTMLElement;
  private readonly list: HTMLElement;
  private readonly retaliate: HTMLButtonElement;
  private retaliating = true;
  private readonly content: Content;
  private readonly send: Send;
  private shown = "";

  constructor(content: Content, send: Send) {
    this.content = content;
    this.send = send;
    this.level = document.getElementById("combat-level")!;
    this.weapon = document.getElementById("combat-weapon")!;
    this.list = document.getElementById("combat-styles")!;
    this.retaliate = document.getElementById("auto-retaliate") as HTMLButtonElement;
    // Assigned, not added: a session after a logout or a hop makes the panel again.
    this.retaliate.onclick = () => this.send("player:setAutoRetaliate", { on: !this.retaliating });
  }

  render(p: PlayerState): void {
    const worn = p.equipment.get("weapon");
    const def = worn !== undefined && worn.itemId !== "" ? this.content.registry.items.get(worn.itemId) : undefined;
    const current = effectiveStyle(parseCombatStyle(p.combatStyle), def);
    // The combat level at the tab's top, as the genre's Combat tab has it (the server's combatLevel,
    // src/game/skills.ts: the OSRS formula).
    const level = `Combat level ${p.combatLevel}`;
    if (this.level.textContent !== level) this.level.textContent = level;
    this.retaliating = p.autoRetaliate;
    const label = `Auto Retaliate (${p.autoRetaliate ? "on" : "off"})`;
    if (this.retaliate.textContent !== label) this.retaliate.textContent = label;
    const pressed = String(p.autoRetaliate);
    if (this.retaliate.getAttribute("aria-pressed") !== pressed) this.retaliate.setAttribute("aria-pressed", pressed);
    const key = JSON.stringify([def?.id, current]);
    if (key === this.shown) return;
    this.shown = key;
    const kind = styleKind(def) === "ranged" ? "ranged" : "melee";
    const name = def === undefined ? "Unarmed" : def.name;
    this.weapon.textContent = `${name} (${kind}${def?.weaponType !== undefined ? `, ${def.weaponType.toLowerCase()}` : ""}) · attack type ${title(attackTypeOf(current, def))}`;
    const focused = (document.activeElement as HTMLElement | null)?.dataset.style;
    this.list.replaceChildren(
      ...[...stylesOffered(def)].map(([style, type]) => {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.style = style;
        b.textContent = styleLabel(style, def);
        b.setAttribute("aria-pressed", String(style === current));
        b.addEventListener("click", () => this.send("player:setCombatStyle", { style: style }));
        const what = document.createElement("span");
        what.className = "style-what";
        const label = styleLabel(style, def);
        const kindWord = styleTitle(style) === label ? "" : `${styleTitle(style)} · `;
        what.textContent = `${kindWord}${title(type)} · ${trains(Object.keys(styleXp(style, def)))}`;
        what.id = `combat-style-${style}`;
        b.setAttribute("aria-describedby", what.id);
        li.append(b, what);
        if (focused === style) queueMicrotask(() => b.focus());
        return li;
      }),
    );
  }
}
