/**
 * The magic part of the content registry, built from `runes.json` and `combat-spells.json` (both
 * optional). Cross-references are checked as for the rest of the registry: a rune that is not an
 * item, a spell needing a rune that is not an item, or a staff that is not an item is reported
 * (`unknown item "…"`) and left out.
 */
import type { CombatSpellDef, RuneDef } from "./schemas/magic.ts";

export interface Spell {
  id: string;
  name: string;
  /** The spellbook (`standard`) and tier (`strike`, `bolt`) it is listed under. */
  book: string;
  tier: string;
  level: number;
  /** Hitpoints. */
  maxHit: number;
  baseXp: number;
  element: string | null;
  /** Ticks. */
  attackSpeed: number;
  runes: { runeId: string; quantity: number }[];
}

export interface MagicContent {
  /** Every combat spell by id, in level order (then the file's order). */
  spells: ReadonlyMap<string, Spell>;
  /** Rune items by id. */
  runes: ReadonlyMap<string, { id: string; name: string; element: string | null }>;
  /** Elemental staves: staff item id → the runes it stands in for without limit. */
  staves: ReadonlyMap<string, readonly string[]>;
}

/** The genre's attack speed of a standard combat spell (OSRS: 5 ticks, 3.0 s). */
export const DEFAULT_SPELL_SPEED_TICKS = 5;

type Check = (ok: boolean, file: string, path: string, message: string) => boolean;

export function buildMagic(
  runesFile: { runes: RuneDef[]; elementalStaves?: { staffId: string; providesInfinite: string[] }[] } | undefined,
  spellsFile: Record<string, string | Record<string, CombatSpellDef[]>> | undefined,
  known: (itemId: string) => boolean,
  check: Check,
): MagicContent {
  const unknownItem = (id: string) => `unknown item "${id}"`;
  const runes = new Map<string, { id: string; name: string; element: string | null }>();
  runesFile?.runes.forEach((r, i) => {
    if (check(known(r.id), "runes.json", `$.runes[${i}].id`, unknownItem(r.id))) runes.set(r.id, { id: r.id, name: r.name, element: r.element ?? null });
  });
  const staves = new Map<string, readonly string[]>();
  (runesFile?.elementalStaves ?? []).forEach((s, i) => {
    if (!check(known(s.staffId), "runes.json", `$.elementalStaves[${i}].staffId`, unknownItem(s.staffId))) return;
    const provides = s.providesInfinite.filter((r, j) => check(known(r), "runes.json", `$.elementalStaves[${i}].providesInfinite[${j}]`, unknownItem(r)));
    if (provides.length > 0) staves.set(s.staffId, provides);
  });

  const list: Spell[] = [];
  const seen = new Set<string>();
  for (const [book, tiers] of Object.entries(spellsFile ?? {})) {
    if (typeof tiers === "string") continue;
    for (const [tier, spells] of Object.entries(tiers)) {
      spells.forEach((s, i) => {
        const at = `$.${book}.${tier}[${i}]`;
        if (!check(!seen.has(s.id), "combat-spells.json", `${at}.id`, `duplicate spell id "${s.id}"`)) return;
        const bad = s.runes.findIndex((r) => !known(r.runeId));
        if (!check(bad < 0, "combat-spells.json", `${at}.runes[${bad}].runeId`, unknownItem(s.runes[bad]?.runeId ?? ""))) return;
        seen.add(s.id);
        list.push({
          id: s.id,
          name: s.name,
          book,
          tier,
          level: s.level,
          maxHit: s.baseMaxHit,
          baseXp: s.baseXp,
          element: s.element ?? null,
          attackSpeed: s.attackSpeed ?? DEFAULT_SPELL_SPEED_TICKS,
          runes: s.runes.map((r) => ({ runeId: r.runeId, quantity: r.quantity })),
        });
      });
    }
  }
  list.sort((a, b) => a.level - b.level);
  return { spells: new Map(list.map((s) => [s.id, s])), runes, staves };
}
