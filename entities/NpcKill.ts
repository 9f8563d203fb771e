import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `npcKills`: kill statistics per player and NPC type. */
export const NpcKill = defineEntity({
  name: "NpcKill",
  tableName: "npcKills",
  properties: {
    id: p.integer().primary().autoincrement(),
    characterId: p.string().length(64),
    npcId: p.string().length(64),
    killCount: p.integer().default(0).check('"killCount" >= 0'),
    lastKillAt: p.datetime().nullable(),
  },
  uniques: [{ name: "npc_kills_character_npc_unique", properties: ["characterId", "npcId"] }],
});
export type INpcKill = InferEntity<typeof NpcKill>;
