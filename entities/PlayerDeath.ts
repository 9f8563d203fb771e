import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/**
 * `playerDeaths`: death locks. A row is written, in the same transaction as the death's item
 * handling, before anything moves; a replay (crash, reconnection) finds the lock and does
 * nothing, so a death can never duplicate items.
 */
export const PlayerDeath = defineEntity({
  name: "PlayerDeath",
  tableName: "playerDeaths",
  properties: {
    id: p.string().primary().length(64),
    characterId: p.string().length(64).index("player_deaths_character_index"),
    positionX: p.double(),
    positionZ: p.double(),
    /** `pending` while the death is being handled, `resolved` once its items are settled. */
    status: p.string().length(16).default("pending").check("status = 'pending' or status = 'resolved'"),
    /** What happened to the items (kept, dropped), for support and audits. */
    items: p.json<unknown[]>(),
    killedBy: p.string().length(64).nullable(),
    diedAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
    resolvedAt: p.datetime().nullable(),
  },
});
export type IPlayerDeath = InferEntity<typeof PlayerDeath>;
