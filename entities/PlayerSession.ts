import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `playerSessions`: login and logout tracking, one row per session. */
export const PlayerSession = defineEntity({
  name: "PlayerSession",
  tableName: "playerSessions",
  properties: {
    id: p.string().primary().length(64),
    characterId: p.string().length(64).index("player_sessions_character_index"),
    accountId: p.string().length(64),
    /** `colyseus` or `ws`. */
    transport: p.string().length(16),
    /** The world the session played on (its process's WORLD_ID): the hop cooldown reads the last one. */
    world: p.integer().default(1),
    remoteAddress: p.string().length(64).nullable(),
    loginAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
    logoutAt: p.datetime().nullable(),
    /** Why the session ended: `logout`, `disconnect`, `replaced`, `shutdown`, `kicked`. */
    logoutReason: p.string().length(32).nullable(),
  },
});
export type IPlayerSession = InferEntity<typeof PlayerSession>;
