/**
 * The Skills panel: each skill's level, xp and progress to the next level, from the server's own
 * experience table (src/game/skills.ts, imported), plus the total level.
 */
import { MAX_LEVEL, SKILLS, XP_FOR_LEVEL } from "../../../src/game/skills.ts";
import type { PlayerState } from "../../../schema/WorldState.ts";

/**
 * A skill's name as the genre writes it (display only: the ids stay the server's): `defense` is
 * Defence, as RuneScape spells it, and `constitution` (RuneScape 3's name) is Hitpoints, the name
 * RuneScape 2 and Old School give it.
 */
const SKILL_NAMES: Readonly<Record<string, string>> = { defense: "Defence", constitution: "Hitpoints" };
export const skillName = (s: string) => SKILL_NAMES[s] ?? s[0]!.toUpperCase() + s.slice(1);
const fmt = new Intl.NumberFormat("en");

/** Progress through the current level, 0..1 (1 at the top level). */
export function levelProgress(level: number, xp: number): { next: number | undefined; fraction: number } {
  if (level >= MAX_LEVEL) return { next: undefined, fraction: 1 };
  const from = XP_FOR_LEVEL[level]!;
  const to = XP_FOR_LEVEL[level + 1]!;
  return { next: to, fraction: Math.max(0, Math.min(1, (xp - from) / (to - from))) };
}

export class SkillsPanel {
  private readonly body: HTMLElement;
  private readonly total: HTMLElement;
  private shown = "";

  constructor() {
    this.body = document.getElementById("skills-rows")!;
    this.total = document.getElementById("skills-total")!;
  }

  render(p: PlayerState): void {
    const rows = SKILLS.map((skill) => {
      const s = p.skills.get(skill);
      return { skill, level: s?.level ?? 1, xp: s?.xp ?? 0 };
    });
    const key = JSON.stringify(rows) + p.combatLevel;
    if (key === this.shown) return;
    this.shown = key;
    this.body.replaceChildren(
      ...rows.map(({ skill, level, xp }) => {
        const tr = document.createElement("tr");
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = skillName(skill);
        const lv = document.createElement("td");
        lv.className = "level";
        lv.textContent = String(level);
        const cell = document.createElement("td");
        const { next, fraction } = levelProgress(level, xp);
        const bar = document.createElement("progress");
        bar.max = 100;
        bar.value = Math.floor(fraction * 100);
        const words = next === undefined ? `${fmt.format(xp)} xp, top level` : `${fmt.format(xp)} of ${fmt.format(next)} xp for level ${level + 1}`;
        bar.setAttribute("aria-label", `${skillName(skill)} progress: ${words}`);
        const text = document.createElement("span");
        text.className = "xp";
        text.textContent = next === undefined ? `${fmt.format(xp)} xp` : `${fmt.format(xp)} / ${fmt.format(next)} xp`;
        cell.append(bar, text);
        tr.append(th, lv, cell);
        return tr;
      }),
    );
    const total = rows.reduce((n, r) => n + r.level, 0);
    this.total.textContent = `Total level ${total} · Combat level ${p.combatLevel}`;
  }
}
