/**
 * The experience table and combat level (RuneScape's formulas).
 * xp for level L: floor(sum_{n=1}^{L-1} floor(n + 300 * 2^(n/7)) / 4). Level 99 = 13,034,431 xp;
 * xp is capped at 200,000,000. A character keeps its xp in tenths (XP_TENTHS), as the genre does:
 * 17.5 xp is 175 tenths; whole xp (what levels and the protocol's `xp` use) is tenths / 10 rounded down.
 */

/**
 * The skills a character row stores (a level and an xp column each). The spec's character record
 * names attack … cooking; the rest are the skills the content uses (mining, smithing, prayer, …).
 * Content spells "defence"; the record's column is `defenseLevel`: the game layer maps the name.
 */
export const SKILLS = [
  "attack",
  "strength",
  "defense",
  "constitution",
  "ranged",
  "magic",
  "prayer",
  "woodcutting",
  "mining",
  "fishing",
  "firemaking",
  "cooking",
  "smithing",
  "crafting",
  "fletching",
  "runecrafting",
  "agility",
] as const;
export type Skill = (typeof SKILLS)[number];

/** Constitution starts at level 10 (spec default), which is 1,154 xp on the standard table. */
export const CONSTITUTION_START_LEVEL = 10;
export const CONSTITUTION_START_XP = 1154;

export const MAX_LEVEL = 99;
export const MAX_XP = 200_000_000;
/** Tenths in one xp: the unit xp is kept in. */
export const XP_TENTHS = 10;
export const MAX_XP_TENTHS = MAX_XP * XP_TENTHS;

/** A skill as the genre names it in words: "Smithing", "Defence", "Hitpoints" (the ids `defense`, `constitution`). */
export function skillTitle(skill: string): string {
  if (skill === "defense") return "Defence";
  if (skill === "constitution") return "Hitpoints";
  return skill.charAt(0).toUpperCase() + skill.slice(1);
}

/** Whole xp of an xp kept in tenths (rounded down: 17.9 xp is 17). */
export function wholeXp(tenths: number): number {
  return Math.floor(tenths / XP_TENTHS);
}

/** The exact xp of an xp kept in tenths (175 tenths: 17.5). */
export function exactXp(tenths: number): number {
  return tenths / XP_TENTHS;
}

/** Tenths of a whole xp (a level's threshold, a test's starting xp). */
export function xpTenths(xp: number): number {
  return Math.round(xp * XP_TENTHS);
}

/** XP_FOR_LEVEL[L] = xp needed for level L (index 0 unused, XP_FOR_LEVEL[1] = 0). */
export const XP_FOR_LEVEL: readonly number[] = (() => {
  const table = [0, 0];
  let points = 0;
  for (let lvl = 1; lvl < MAX_LEVEL; lvl++) {
    points += Math.floor(lvl + 300 * 2 ** (lvl / 7));
    table.push(Math.floor(points / 4));
  }
  return table;
})();

/** The level of an xp kept in tenths. */
export function levelForTenths(tenths: number): number {
  return levelForXp(wholeXp(tenths));
}

export function levelForXp(xp: number): number {
  let lo = 1;
  let hi = MAX_LEVEL;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (XP_FOR_LEVEL[mid]! <= xp) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface SkillLevels {
  attack: number;
  strength: number;
  defense: number;
  constitution: number;
  ranged: number;
  magic: number;
  prayer: number;
}

/** RuneScape's combat level: base from defence/constitution/prayer, plus the best of melee, ranged, magic. */
export function combatLevel(s: SkillLevels): number {
  const base = 0.25 * (s.defense + s.constitution + Math.floor(s.prayer / 2));
  const melee = 0.325 * (s.attack + s.strength);
  const ranged = 0.325 * Math.floor(s.ranged * 1.5);
  const magic = 0.325 * Math.floor(s.magic * 1.5);
  return Math.floor(base + Math.max(melee, ranged, magic));
}
