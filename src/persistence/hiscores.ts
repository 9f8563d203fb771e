/**
 * The hiscores, read from the characters' rows through the indexes of entities/hiscoreSql.ts: a
 * page of a table (overall, or one skill), and one character's rank in every table. A page is an
 * index scan in the table's order (the query plan is checked on PostgreSQL:
 * test/db/hiscores.test.ts); a rank counts the rows before the character's, four index ranges.
 * They read what the saves stored, so every process of a cluster answers the same. Deleted
 * characters have no row; agents' characters are characters like any other.
 */
import { HISCORE_SKILLS, orderBySql, rankKeys, TOTAL_LEVEL_SQL, TOTAL_XP_SQL, type HiscoreSkill } from "../../entities/hiscoreSql.ts";
import { XP_TENTHS } from "../game/skills.ts";
import { selectRow, selectRows, type Statements } from "../db/rawSql.ts";

/**
 * Stored xp per whole xp point. The hiscores rank by the stored columns (any unit ranks the same)
 * and answer whole xp through {@link wholeXp}: the columns store tenths (XP_TENTHS).
 */
export const STORED_XP_PER_XP = XP_TENTHS;

/** A stored xp amount (one skill's, or a sum of them) as whole xp, the hiscores' unit. */
export function wholeXp(stored: number): number {
  return Math.floor(stored / STORED_XP_PER_XP);
}

export interface HiscoreEntry {
  rank: number;
  name: string;
  level: number;
  xp: number;
}

export interface HiscorePage {
  skill: HiscoreSkill;
  /** How many characters the table ranks (every character). */
  total: number;
  entries: HiscoreEntry[];
}

/** A table's level and xp (stored) columns, as select expressions. */
function levelAndXp(skill: HiscoreSkill): { level: string; xp: string } {
  return skill === "overall" ? { level: TOTAL_LEVEL_SQL, xp: TOTAL_XP_SQL } : { level: `"${skill}Level"`, xp: `"${skill}XpTenths"` };
}

/** How many characters the tables rank. */
export async function rankedCount(em: Statements): Promise<number> {
  const row = await selectRow<{ n: number | string }>(em, `select count(*) as "n" from "characters"`, []);
  return Number(row?.n ?? 0);
}

/** Entries `offset + 1 …` of a table, at most `limit` of them, in its order. */
export async function hiscoreEntries(em: Statements, skill: HiscoreSkill, limit: number, offset: number): Promise<HiscoreEntry[]> {
  const { level, xp } = levelAndXp(skill);
  const rows = await selectRows<{ name: string; level: number | string; xp: number | string }>(
    em,
    `select "name", ${level} as "level", ${xp} as "xp" from "characters" order by ${orderBySql(skill)} limit ? offset ?`,
    [limit, offset],
  );
  return rows.map((r, i) => ({ rank: offset + i + 1, name: r.name, level: Number(r.level), xp: wholeXp(Number(r.xp)) }));
}

export async function hiscorePage(em: Statements, skill: HiscoreSkill, limit: number, offset: number): Promise<HiscorePage> {
  return { skill, total: await rankedCount(em), entries: await hiscoreEntries(em, skill, limit, offset) };
}

export interface CharacterRank {
  skill: HiscoreSkill;
  rank: number;
  level: number;
  xp: number;
}

/**
 * The character's rank, level and xp in every table (overall first), as of its last save;
 * undefined when there is no such character. Its rank is one more than the rows ordered before
 * it: with keys k1…kn and its values v1…vn, those with k1 before v1, or k1 = v1 and k2 before v2,
 * … (each a range of the table's index).
 */
export async function characterRanks(em: Statements, characterId: string): Promise<{ name: string; ranks: CharacterRank[] } | undefined> {
  const selects = HISCORE_SKILLS.flatMap((s, i) => {
    const { level, xp } = levelAndXp(s);
    return [`${level} as "l${i}"`, `${xp} as "x${i}"`];
  });
  const me = await selectRow<Record<string, unknown>>(em, `select "id", "name", "xpGainedAt", ${selects.join(", ")} from "characters" where "id" = ?`, [characterId]);
  if (me === undefined) return undefined;
  // One statement: for each table, the count of rows before the character's.
  const counts: string[] = [];
  const params: unknown[] = [];
  for (const [i, skill] of HISCORE_SKILLS.entries()) {
    const keys = rankKeys(skill);
    const values: unknown[] = [...(skill === "overall" ? [Number(me[`l${i}`])] : []), Number(me[`x${i}`]), Number(me.xpGainedAt), me.id];
    const parts: string[] = [];
    for (let k = 0; k < keys.length; k++) {
      const equal = keys.slice(0, k).map((e) => `${e.sql} = ?`);
      const before = `${keys[k]!.sql} ${keys[k]!.desc ? ">" : "<"} ?`;
      parts.push(`(select count(*) from "characters" where ${[...equal, before].join(" and ")})`);
      params.push(...values.slice(0, k), values[k]);
    }
    counts.push(`${parts.join(" + ")} as "n${i}"`);
  }
  const ahead = (await selectRow<Record<string, unknown>>(em, `select ${counts.join(", ")}`, params))!;
  const ranks: CharacterRank[] = HISCORE_SKILLS.map((skill, i) => ({ skill, rank: Number(ahead[`n${i}`]) + 1, level: Number(me[`l${i}`]), xp: wholeXp(Number(me[`x${i}`])) }));
  return { name: String(me.name), ranks };
}
