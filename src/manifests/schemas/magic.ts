/**
 * Magic content: `runes.json` (which items are runes, their element, and the elemental staves that
 * stand for unlimited runes of their element) and `combat-spells.json` (spellbooks of spell tiers:
 * `{standard: {strike: [...], bolt: [...]}}`). Both are optional: a content set without them loads,
 * and has no spells. The rune items themselves are ordinary items (`items/runes.json`).
 */
import { z } from "zod";
import { id, level, nonNegativeInt, positiveInt } from "./common.ts";

export const ELEMENTS = ["air", "water", "earth", "fire"] as const;

export const runeDef = z.looseObject({
  id,
  name: z.string().min(1),
  /** An elemental rune's element; null for catalytic runes (mind, chaos). */
  element: z.string().nullable().optional(),
  stackable: z.boolean().optional(),
});
export type RuneDef = z.infer<typeof runeDef>;

export const elementalStaff = z.looseObject({
  staffId: id,
  /** Runes the wielded staff stands in for, without limit. */
  providesInfinite: z.array(id).min(1),
});
export type ElementalStaff = z.infer<typeof elementalStaff>;

export const runesFile = z.looseObject({
  runes: z.array(runeDef),
  elementalStaves: z.array(elementalStaff).default([]),
});

export const combatSpell = z.looseObject({
  id,
  name: z.string().min(1),
  /** Magic level needed to cast it. */
  level,
  /** The most it can hit, in hitpoints. */
  baseMaxHit: nonNegativeInt,
  /** Xp for a cast, before the 2 per hitpoint of damage. */
  baseXp: z.number().min(0).finite(),
  element: z.string().nullable().optional(),
  /** Ticks until the next attack (600 ms each); 5 when not given. */
  attackSpeed: positiveInt.optional(),
  runes: z.array(z.looseObject({ runeId: id, quantity: positiveInt })).min(1),
});
export type CombatSpellDef = z.infer<typeof combatSpell>;

/** Spellbooks (`standard`) of tiers (`strike`, `bolt`) of spells; `_comment` and other strings are prose. */
export const combatSpellsFile = z.record(z.string(), z.union([z.string(), z.record(z.string(), z.array(combatSpell))]));
