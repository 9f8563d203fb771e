import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/**
 * `hiscoreCounts`: how many characters each bucket of each hiscore table holds (a table's bucket
 * is its first ranking key, a level; overall the total level: entities/hiscoreSql.ts). Kept by
 * the database itself, by triggers on `characters` (migration `…_hiscore_counts`), whatever
 * writes the rows; read by src/persistence/hiscores.ts to rank without counting every row ahead.
 * A bucket that empties keeps its row with `n` 0.
 */
export const HiscoreCount = defineEntity({
  name: "HiscoreCount",
  tableName: "hiscoreCounts",
  properties: {
    /** `overall` or a skill. */
    board: p.string().primary().length(16),
    bucket: p.integer().primary(),
    n: p.integer().default(0),
  },
});
export type IHiscoreCount = InferEntity<typeof HiscoreCount>;
