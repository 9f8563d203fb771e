/**
 * Characters' names as players read them: two names that read the same belong to one character at
 * most, or a player could pass for another (`Zezima`, `zezima`, `Zezlma`, `Zez1ma`, `Zez_ima`) and a
 * friend request, a private message or an admin's `/ban` by name could reach the wrong one.
 *
 * A name's key is its skeleton (after Unicode's TR39 confusables, cut down to the names this game
 * allows): the database keeps keys unique (`characters.nameKey`), and every lookup by name goes
 * through its key. Names are ASCII letters, digits, space, `_` and `-` (NAME_PATTERN,
 * persistence/players.ts), so Unicode look-alikes (Cyrillic `а`, Greek `Ο`, full-width letters) are
 * refused by the charset before any key is worked out; a lookup that contains them finds no one.
 *
 * The key, in order:
 * 1. lower case (`ZEZIMA` = `Zezima`);
 * 2. space, `_` and `-` dropped (`Zez ima` = `Zez_ima` = `Zezima`: in chat and in lists they read
 *    as one name, and a separator is an impersonator's cheapest change);
 * 3. one glyph for the letters and digits that look alike in common fonts:
 *    `i`, `l`, `1` (and so upper-case `I`) -> `l`; `o`, `0` -> `o`;
 * 4. the pairs that read as one letter (TR39's ASCII sequences): `rn` -> `m`, `vv` -> `w`,
 *    `cl` -> `d`, left to right.
 * Left apart on purpose: other digits (`5`/`S`, `2`/`Z`, `8`/`B` differ in the client's font and
 * are common in names) and letters that merely resemble each other (`Bob` and `Rob` stay two names).
 *
 * Changing this map changes keys already stored: it needs a migration that works them out again
 * (db/nameKeys.ts does it, renaming whichever characters then collide).
 */
import { NAME_MAX_LENGTH } from "./clientEvents.ts";

/** The single characters that read as another (after lower-casing). */
const GLYPHS: Readonly<Record<string, string>> = { i: "l", "1": "l", "0": "o" };
/** Letter pairs that read as one letter; the replacements start no pair, so one pass suffices. */
const PAIRS = /rn|vv|cl/g;
const PAIR_GLYPH: Readonly<Record<string, string>> = { rn: "m", vv: "w", cl: "d" };
const SEPARATORS = /[ _-]+/g;

/** The key of a name: equal for two names exactly when they read the same (see above). */
export function nameKey(name: string): string {
  const folded = name.toLowerCase().replace(SEPARATORS, "");
  let glyphs = "";
  for (const ch of folded) glyphs += GLYPHS[ch] ?? ch;
  return glyphs.replace(PAIRS, (pair) => PAIR_GLYPH[pair]!);
}

/** The chat line a renamed character's player reads at its next login (db/nameKeys.ts renames). */
export function renameNotice(from: string, to: string): string {
  return `Your character was renamed from ${from} to ${to}: its old name read the same as an older character's.`;
}

export interface NamedCharacter {
  id: string;
  name: string;
}

export interface KeyedCharacter {
  id: string;
  name: string;
  nameKey: string;
  /** The character's name before this renamed it; null when it keeps its name. */
  renamedFrom: string | null;
}

/**
 * Keys for characters stored before names had keys, `characters` oldest first: the first of each
 * key keeps its name, each later one takes the first free `<name>2`, `<name>3`, … (cut to
 * {@link NAME_MAX_LENGTH}) whose key no character has. Deterministic: the same rows give the same
 * names on every database.
 */
export function assignNameKeys(characters: readonly NamedCharacter[]): KeyedCharacter[] {
  const taken = new Set<string>();
  const keepers = new Set<string>();
  for (const c of characters) {
    const key = nameKey(c.name);
    if (!taken.has(key)) keepers.add(c.id);
    taken.add(key);
  }
  return characters.map((c) => {
    if (keepers.has(c.id)) return { id: c.id, name: c.name, nameKey: nameKey(c.name), renamedFrom: null };
    for (let n = 2; ; n++) {
      const suffix = String(n);
      const name = c.name.slice(0, NAME_MAX_LENGTH - suffix.length) + suffix;
      const key = nameKey(name);
      if (taken.has(key)) continue;
      taken.add(key);
      return { id: c.id, name, nameKey: key, renamedFrom: c.name };
    }
  });
}
