/**
 * The hiscores, read from the characters' rows through the indexes of entities/hiscoreSql.ts and
 * the bucket counts the database keeps (`hiscoreCounts`): a page of a table (overall, or one
 * skill), and one character's rank in every table. A page is an index scan in the table's order
 * from the bucket where it starts (the query plan is checked on PostgreSQL:
 * test/db/hiscores.test.ts); a rank is the sum of the counts of the buckets ahead plus the rows
 * ahead within its own bucket, three index ranges. Neither walks the rows ahead, so the cost
 * follows the size of a bucket, not the depth (bench/hiscores/README.md). They read what the
 * saves stored, so every process of a cluster answers the same. Deleted
 * characters have no row; agents' characters are characters like any other.
 */
import {
  bucketSql,
  HISCORE_COUNTS_TABLE,
  HISCORE_SKILLS,
  orderBySql,
  rankKeys,
  TOTAL_LEVEL_SQL,
  TOTAL_XP_SQL,
  type HiscoreSkill,
} from "../../entities/hiscoreSql.ts";
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

/** How many characters the tables rank: the overall table's bucket counts. */
export async function rankedCount(em: Statements): Promise<number> {
  const row = await selectRow<{ n: number | string | null }>(em, `select sum("n") as "n" from "${HISCORE_COUNTS_TABLE}" where "board" = 'overall'`, []);
  return Number(row?.n ?? 0);
}

/** A table's non-empty buckets, highest first, each with its count. */
async function bucketCounts(em: Statements, skill: HiscoreSkill): Promise<{ bucket: number; n: number }[]> {
  const rows = await selectRows<{ bucket: number | string; n: number | string }>(
    em,
    `select "bucket", "n" from "${HISCORE_COUNTS_TABLE}" where "board" = ? and "n" > 0 order by "bucket" desc`,
    [skill],
  );
  return rows.map((r) => ({ bucket: Number(r.bucket), n: Number(r.n) }));
}

/**
 * A page's statement: the rows from a bucket down, in the table's order, `limit ? offset ?`
 * counted from the bucket's first row (the index range starts there; the plan is checked on
 * PostgreSQL: test/db/hiscores.test.ts).
 */
export function pageSql(skill: HiscoreSkill): string {
  const { level, xp } = levelAndXp(skill);
  return `select "name", ${level} as "level", ${xp} as "xp" from "characters" where ${bucketSql(skill)} <= ? order by ${orderBySql(skill)} limit ? offset ?`;
}

/**
 * Entries `offset + 1 …` of a table, at most `limit` of them, in its order: the bucket counts
 * give the bucket where rank `offset + 1` is and how many rows are ahead of it, and the page is
 * read from that bucket's first row on, so a deep page walks at most one bucket of the index.
 * (Two statements: a level change committed between them may shift the page by a row, for one
 * cache period.)
 */
export async function hiscoreEntries(em: Statements, skill: HiscoreSkill, limit: number, offset: number): Promise<HiscoreEntry[]> {
  let ahead = 0;
  let from: number | undefined;
  for (const { bucket, n } of await bucketCounts(em, skill)) {
    if (ahead + n > offset) {
      from = bucket;
      break;
    }
    ahead += n;
  }
  if (from === undefined) return [];
  const rows = await selectRows<{ name: string; level: number | string; xp: number | string }>(em, pageSql(skill), [from, limit, offset - ahead]);
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
 * it: with its bucket b, xp x, time t and id i, those in a bucket ahead (a sum of the buckets'
 * counts), and those in b with more xp than x, or x and an earlier time than t, or x, t and a
 * smaller id (a range of the table's index within the bucket). One statement, so the counts and
 * the rows are read in one snapshot.
 */
export async function characterRanks(em: Statements, characterId: string): Promise<{ name: string; ranks: CharacterRank[] } | undefined> {
  const selects = HISCORE_SKILLS.flatMap((s, i) => {
    const { level, xp } = levelAndXp(s);
    return [`${level} as "l${i}"`, `${xp} as "x${i}"`];
  });
  const me = await selectRow<Record<string, unknown>>(em, `select "id", "name", "xpGainedAt", ${selects.join(", ")} from "characters" where "id" = ?`, [
    characterId,
  ]);
  if (me === undefined) return undefined;
  const { sql, params } = ranksStatement(me);
  const ahead = (await selectRow<Record<string, unknown>>(em, sql, params))!;
  const ranks: CharacterRank[] = HISCORE_SKILLS.map((skill, i) => ({
    skill,
    rank: Number(ahead[`n${i}`]) + 1,
    level: Number(me[`l${i}`]),
    xp: wholeXp(Number(me[`x${i}`])),
  }));
  return { name: String(me.name), ranks };
}

/**
 * One statement: for each table, the count of rows before the character's (`me`: its id,
 * `xpGainedAt`, and each table's level `l<i>` and stored xp `x<i>`), as `n<i>`.
 */
export function ranksStatement(me: Record<string, unknown>): { sql: string; params: unknown[] } {
  const counts: string[] = [];
  const params: unknown[] = [];
  for (const [i, skill] of HISCORE_SKILLS.entries()) {
    const keys = rankKeys(skill);
    const values: unknown[] = [Number(me[`l${i}`]), Number(me[`x${i}`]), Number(me.xpGainedAt), me.id];
    const parts: string[] = [];
    // The buckets ahead, from their counts; then the rows before it within its bucket: one range of
    // the index (its bucket, its xp or more), the ties on xp sorted out by the rest of the keys.
    // (One count a table, not one a key: the planner weighs every index of the table for each.)
    const [bucket, xp, gainedAt, id] = keys.map((k) => k.sql) as [string, string, string, string];
    const [vb, vx, vg, vi] = values;
    parts.push(`(select coalesce(sum("n"), 0) from "${HISCORE_COUNTS_TABLE}" where "board" = ? and "bucket" > ?)`);
    parts.push(`(select count(*) from "characters" where ${bucket} = ? and ${xp} >= ? and (${xp} > ? or ${gainedAt} < ? or (${gainedAt} = ? and ${id} < ?)))`);
    params.push(skill, vb, vb, vx, vx, vg, vg, vi);
    counts.push(`${parts.join(" + ")} as "n${i}"`);
  }
  return { sql: `select ${counts.join(", ")}`, params };
}
