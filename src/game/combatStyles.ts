/**
 * Attack styles, as Old School RuneScape has them (OSRS wiki "Combat Options", "Maximum melee hit",
 * "Damage per second/Melee", "Damage per second/Ranged"):
 * - each style adds an invisible bonus to an effective level: effective level =
 *   ⌊level × prayer⌋ + style bonus + 8 (no prayers here, so level + style bonus + 8);
 *   melee accurate +3 Attack, aggressive +3 Strength, defensive +3 Defence, controlled +1 to each;
 *   ranged accurate +3 Ranged (its accuracy and its strength alike), rapid nothing, longrange +3 Defence;
 * - rapid attacks one tick sooner; longrange reaches 2 tiles further, at most 10;
 * - xp per hitpoint of damage: 4 to the style's skill, controlled 1⅓ to each of Attack, Strength
 *   and Defence, longrange 2 to Ranged and 2 to Defence (plus 1⅓ to Constitution, combat.ts).
 * Which styles a weapon offers and the attack type (stab, slash, crush) each uses follow the
 * genre's weapon categories (OSRS wiki "Weapons/Types", https://oldschool.runescape.wiki/w/Weapons/Types;
 * "Combat Options" for the "alternative aggressive" fourth style): content names the category
 * (`weaponType`), and a category this table does not know offers all four melee styles with the
 * weapon's best attack bonus type, since the manifests then say nothing more.
 * Pure rules: no transport, no database.
 */
import type { Skill } from "./skills.ts";
import type { ItemDef } from "../manifests/schemas/items.ts";

/** Every style name (the protocol's `player:setCombatStyle`); which apply depends on the weapon. */
export const COMBAT_STYLES = ["accurate", "aggressive", "defensive", "controlled", "rapid", "longrange", "alt_aggressive"] as const;
export type CombatStyle = (typeof COMBAT_STYLES)[number];
export type StyleKind = "melee" | "ranged";
export type AttackType = "stab" | "slash" | "crush" | "ranged";

/** The style a character has before it picks one (the first slot), and the one a stored style this weapon lacks reads as. */
export const DEFAULT_COMBAT_STYLE: CombatStyle = "accurate";
/** Longrange never reaches beyond this (OSRS: a weapon's range plus 2, at most 10). */
export const MAX_ATTACK_RANGE = 10;

/**
 * In the genre's order on the Combat tab: accurate, aggressive, then the third slot (controlled,
 * or the alternative aggressive: a second aggressive style of another attack type, e.g. a
 * dagger's Slash), defensive last.
 */
export const MELEE_STYLES = ["accurate", "aggressive", "alt_aggressive", "controlled", "defensive"] as const satisfies readonly CombatStyle[];
export const RANGED_STYLES = ["accurate", "rapid", "longrange"] as const satisfies readonly CombatStyle[];

export interface StyleBonus {
  attack: number;
  strength: number;
  defence: number;
  ranged: number;
}

/** A melee category content names but this table does not know: these four, with the weapon's best attack type. */
const FOUR_STYLES = ["accurate", "aggressive", "controlled", "defensive"] as const satisfies readonly CombatStyle[];

const NONE: StyleBonus = { attack: 0, strength: 0, defence: 0, ranged: 0 };
const BONUSES: Record<StyleKind, Partial<Record<CombatStyle, StyleBonus>>> = {
  melee: {
    accurate: { ...NONE, attack: 3 },
    aggressive: { ...NONE, strength: 3 },
    alt_aggressive: { ...NONE, strength: 3 },
    defensive: { ...NONE, defence: 3 },
    controlled: { attack: 1, strength: 1, defence: 1, ranged: 0 },
  },
  ranged: {
    accurate: { ...NONE, ranged: 3 },
    rapid: NONE,
    longrange: { ...NONE, defence: 3 },
  },
};

/**
 * Melee weapon categories: the attack type of each style they offer (a missing style is not
 * offered), as the OSRS wiki's "Weapons/Types" lists them (https://oldschool.runescape.wiki/w/Weapons/Types).
 */
const STAB_SWORD = { accurate: "stab", aggressive: "stab", alt_aggressive: "slash", defensive: "stab" } as const;
const MELEE_CATEGORIES: Record<string, Partial<Record<CombatStyle, AttackType>>> = {
  // Unarmed: Punch (accurate), Kick (aggressive), Block (defensive), all crush.
  UNARMED: { accurate: "crush", aggressive: "crush", defensive: "crush" },
  // Stab sword (daggers, and the genre's swords: bronze to rune sword): Stab (accurate, stab),
  // Lunge (aggressive, stab), Slash (aggressive, slash), Block (defensive, stab).
  DAGGER: STAB_SWORD,
  SWORD: STAB_SWORD,
  // Spiked (maces): Pound (accurate, crush), Pummel (aggressive, crush), Spike (controlled, stab), Block (defensive, crush).
  MACE: { accurate: "crush", aggressive: "crush", controlled: "stab", defensive: "crush" },
  // Axe (hatchets): Chop (accurate, slash), Hack (aggressive, slash), Smash (aggressive, crush), Block (defensive, slash).
  AXE: { accurate: "slash", aggressive: "slash", alt_aggressive: "crush", defensive: "slash" },
  // Pickaxe: Spike (accurate, stab), Impale (aggressive, stab), Smash (aggressive, crush), Block (defensive, stab).
  PICKAXE: { accurate: "stab", aggressive: "stab", alt_aggressive: "crush", defensive: "stab" },
  // Staff: Bash (accurate), Pound (aggressive), Focus (defensive), all crush (its spell styles are magic.ts's autocast).
  STAFF: { accurate: "crush", aggressive: "crush", defensive: "crush" },
};

/**
 * The Combat tab's name of each style of a category, the action the genre's button shows (OSRS wiki
 * "Weapons/Types", the same page as above): the style itself (Accurate, Aggressive) only for a
 * category this table does not know, and for bows, whose buttons the genre names so.
 */
const STAB_SWORD_NAMES = { accurate: "Stab", aggressive: "Lunge", alt_aggressive: "Slash", defensive: "Block" } as const;
const STYLE_NAMES: Record<string, Partial<Record<CombatStyle, string>>> = {
  UNARMED: { accurate: "Punch", aggressive: "Kick", defensive: "Block" },
  DAGGER: STAB_SWORD_NAMES,
  SWORD: STAB_SWORD_NAMES,
  MACE: { accurate: "Pound", aggressive: "Pummel", controlled: "Spike", defensive: "Block" },
  AXE: { accurate: "Chop", aggressive: "Hack", alt_aggressive: "Smash", defensive: "Block" },
  PICKAXE: { accurate: "Spike", aggressive: "Impale", alt_aggressive: "Smash", defensive: "Block" },
  STAFF: { accurate: "Bash", aggressive: "Pound", defensive: "Focus" },
};

/** The genre's name of an alternative aggressive style of a category not named above, by its attack type. */
const ALT_AGGRESSIVE_NAMES: Record<AttackType, string> = { stab: "Lunge", slash: "Slash", crush: "Smash", ranged: "Rapid" };

/** Whether a weapon (undefined: unarmed) shoots: content says `attackType` ranged, or the weapon is a bow. */
export function isRangedWeapon(weapon: ItemDef | undefined): boolean {
  return weapon !== undefined && (weapon.attackType?.toLowerCase() === "ranged" || /bow/i.test(weapon.weaponType ?? ""));
}

export function styleKind(weapon: ItemDef | undefined): StyleKind {
  return isRangedWeapon(weapon) ? "ranged" : "melee";
}

/** The weapon's best melee attack bonus type (ties: stab, then slash, then crush); crush with none. */
function bestAttackType(weapon: ItemDef): AttackType {
  const b = weapon.bonuses ?? {};
  const types = ["stab", "slash", "crush"] as const;
  const values = types.map((t) => b[`attack${t[0]!.toUpperCase()}${t.slice(1)}`] ?? 0);
  const best = Math.max(...values);
  return best > 0 ? types[values.indexOf(best)]! : "crush";
}

/** Each style the weapon offers with its attack type, in the order the genre lists them. */
export function stylesOffered(weapon: ItemDef | undefined): Map<CombatStyle, AttackType> {
  if (isRangedWeapon(weapon)) return new Map(RANGED_STYLES.map((s) => [s, "ranged" as const]));
  const category = weapon === undefined ? MELEE_CATEGORIES.UNARMED! : MELEE_CATEGORIES[(weapon.weaponType ?? "").toUpperCase()];
  const types = category ?? Object.fromEntries(FOUR_STYLES.map((s) => [s, bestAttackType(weapon!)]));
  return new Map(MELEE_STYLES.flatMap((s) => (types[s] === undefined ? [] : [[s, types[s]] as const])));
}

/**
 * The style's name on the Combat tab: the genre's action for the weapon's category ("Punch", "Stab",
 * "Lunge", "Slash", "Block"); else the style itself ("Accurate", "Rapid"), the alternative aggressive
 * by its attack type's action ("Smash") so that it is told from the other aggressive.
 */
export function styleLabel(style: CombatStyle, weapon: ItemDef | undefined): string {
  const category = isRangedWeapon(weapon) ? undefined : weapon === undefined ? "UNARMED" : (weapon.weaponType ?? "").toUpperCase();
  const named = category === undefined ? undefined : STYLE_NAMES[category]?.[style];
  if (named !== undefined) return named;
  if (style === "alt_aggressive") return ALT_AGGRESSIVE_NAMES[attackTypeOf(style, weapon)];
  return styleTitle(style);
}

/** The style's own name, as the genre's tooltip gives it beside the action: "Accurate", "Aggressive". */
export function styleTitle(style: CombatStyle): string {
  if (style === "alt_aggressive") return "Aggressive";
  return style[0]!.toUpperCase() + style.slice(1);
}

/**
 * The button slot of a style on the genre's Combat tab: four slots, top left to bottom right, and a
 * three-style weapon leaves the third empty (unarmed Punch, Kick, _, Block; a bow Accurate, Rapid, _,
 * Longrange): accurate 0; aggressive and rapid 1; the alternative aggressive and controlled 2;
 * defensive and longrange 3. (The client's attack style variable is this slot, 0 to 3: RuneLite's
 * `WeaponType` lists each weapon type's four slots so.)
 */
export function styleSlot(style: CombatStyle): number {
  switch (style) {
    case "accurate":
      return 0;
    case "aggressive":
    case "rapid":
      return 1;
    case "alt_aggressive":
    case "controlled":
      return 2;
    default:
      return 3;
  }
}

/**
 * The style after a weapon switch (OSRS wiki "Combat Options": the game keeps the selected button,
 * not the style, which is why "switching weapons may result in controlled or defensive becoming
 * selected" for a player on a dagger's Slash): the new weapon's style in the same slot; a slot the
 * new weapon leaves empty (a three-style weapon's third) goes to the next slot, as slot 2 becomes
 * Block unarmed and Longrange on a bow.
 */
export function styleAfterSwitch(chosen: CombatStyle | undefined, before: ItemDef | undefined, after: ItemDef | undefined): CombatStyle {
  const slot = styleSlot(effectiveStyle(chosen, before));
  const offered = [...stylesOffered(after).keys()];
  return offered.find((s) => styleSlot(s) === slot) ?? offered.find((s) => styleSlot(s) > slot) ?? offered.at(-1) ?? DEFAULT_COMBAT_STYLE;
}

/** The style in force: the chosen one if the weapon offers it, else the weapon kind's default. */
export function effectiveStyle(chosen: CombatStyle | undefined, weapon: ItemDef | undefined): CombatStyle {
  return chosen !== undefined && stylesOffered(weapon).has(chosen) ? chosen : DEFAULT_COMBAT_STYLE;
}

export function attackTypeOf(style: CombatStyle, weapon: ItemDef | undefined): AttackType {
  return stylesOffered(weapon).get(style) ?? (isRangedWeapon(weapon) ? "ranged" : "crush");
}

/** The invisible level bonuses of a style (for the weapon's kind). */
export function styleBonus(style: CombatStyle, weapon: ItemDef | undefined): StyleBonus {
  return BONUSES[styleKind(weapon)][style] ?? NONE;
}

/** Ticks between attacks: the weapon's (or unarmed's), one fewer on rapid. */
export function styleAttackSpeed(style: CombatStyle, weapon: ItemDef | undefined, unarmedTicks: number): number {
  const base = weapon?.attackSpeed ?? unarmedTicks;
  return isRangedWeapon(weapon) && style === "rapid" ? Math.max(1, base - 1) : base;
}

/** Tiles an attack reaches: 1 in melee; the weapon's range shooting, 2 more (at most 10) on longrange. */
export function styleAttackRange(style: CombatStyle, weapon: ItemDef | undefined, defaultRanged: number): number {
  if (!isRangedWeapon(weapon)) return 1;
  const base = weapon?.attackRange ?? defaultRanged;
  return style === "longrange" ? Math.min(MAX_ATTACK_RANGE, base + 2) : base;
}

/** Xp per hitpoint of damage dealt, by skill (Constitution's 1⅓ apart). */
export function styleXp(style: CombatStyle, weapon: ItemDef | undefined): Partial<Record<Skill, number>> {
  if (isRangedWeapon(weapon)) return style === "longrange" ? { ranged: 2, defense: 2 } : { ranged: 4 };
  switch (style) {
    case "aggressive":
    case "alt_aggressive":
      return { strength: 4 };
    case "defensive":
      return { defense: 4 };
    case "controlled":
      return { attack: 4 / 3, strength: 4 / 3, defense: 4 / 3 };
    default:
      return { attack: 4 };
  }
}

/** A stored style read back: a name this server does not know (a newer one, a hand edit) loads as accurate. */
export function parseCombatStyle(value: unknown): CombatStyle {
  return (COMBAT_STYLES as readonly unknown[]).includes(value) ? (value as CombatStyle) : DEFAULT_COMBAT_STYLE;
}
