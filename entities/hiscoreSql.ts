/**
 * The SQL of the hiscores (src/persistence/hiscores.ts) and of what the database keeps for them
 * (entities/Character.ts, entities/HiscoreCount.ts, migrations `…_hiscores` and
 * `…_hiscore_counts`): one text for both, since a database uses an expression index only for the
 * expression it was built on. Both dialects read these: identifiers in double quotes,
 * `cast(… as bigint)` (PostgreSQL would overflow an int sum of 17 xp columns; SQLite's integers
 * are 64-bit anyway).
 *
 * Order: overall by total level, then total xp (both descending), then `xpGainedAt` (who got
 * there first), then id; a skill by its level, then its xp (the level follows the xp, so this is
 * the order of the xp), then `xpGainedAt`, then id. The xp columns are ranked as stored, whatever
 * their unit (whole xp or tenths): a scale is the same for every row.
 *
 * The first key of a table (its level: the total level overall) is its *bucket*: the database
 * keeps how many characters each bucket of each table holds (`hiscoreCounts`, kept by triggers on
 * `characters`), so that a rank is the sum of the counts of the buckets ahead plus a count within
 * its own bucket, and a page at any depth starts at its bucket (no walk through every row ahead).
 */
import { SKILLS, type Skill } from "../src/game/skills.ts";

/** The sum of every skill's level column. */
export const TOTAL_LEVEL_SQL = `(${SKILLS.map((s) => `"${s}Level"`).join(" + ")})`;
/** The sum of every skill's xp column, as stored, in 64 bits. */
export const TOTAL_XP_SQL = `(${SKILLS.map((s, i) => (i === 0 ? `cast("${s}XpTenths" as bigint)` : `"${s}XpTenths"`)).join(" + ")})`;

/** The ranking of a hiscore table: the overall one, or a skill's. */
export type HiscoreSkill = "overall" | Skill;
export const HISCORE_SKILLS: readonly HiscoreSkill[] = ["overall", ...SKILLS];

/** The table that keeps how many characters each bucket of each hiscore table holds. */
export const HISCORE_COUNTS_TABLE = "hiscoreCounts";

/** A table's bucket: its first key, a level (overall: the total level). */
export function bucketSql(skill: HiscoreSkill): string {
  return skill === "overall" ? TOTAL_LEVEL_SQL : `"${skill}Level"`;
}

/** The ordering keys of a table, most significant first (the bucket first), each with its direction. */
export function rankKeys(skill: HiscoreSkill): { sql: string; desc: boolean }[] {
  const xp = skill === "overall" ? TOTAL_XP_SQL : `"${skill}XpTenths"`;
  return [
    { sql: bucketSql(skill), desc: true },
    { sql: xp, desc: true },
    { sql: `"xpGainedAt"`, desc: false },
    { sql: `"id"`, desc: false },
  ];
}

/** `order by …` of a table, as its index is built. */
export function orderBySql(skill: HiscoreSkill): string {
  return rankKeys(skill)
    .map((k) => `${k.sql}${k.desc ? " desc" : ""}`)
    .join(", ");
}

export const hiscoreIndexName = (skill: HiscoreSkill) => `characters_hiscores_${skill}_index`;

/** The statement that creates a table's index. */
export function hiscoreIndexSql(skill: HiscoreSkill): string {
  return `create index "${hiscoreIndexName(skill)}" on "characters" (${orderBySql(skill)})`;
}
