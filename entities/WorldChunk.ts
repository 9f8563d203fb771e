import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `worldChunks`: persistent world modifications, one row per modified chunk. */
export const WorldChunk = defineEntity({
  name: "WorldChunk",
  tableName: "worldChunks",
  properties: {
    id: p.integer().primary().autoincrement(),
    chunkX: p.integer(),
    chunkZ: p.integer(),
    data: p.json<Record<string, unknown>>(),
    updatedAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: "world_chunks_position_unique", properties: ["chunkX", "chunkZ"] }],
});
export type IWorldChunk = InferEntity<typeof WorldChunk>;
