import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/**
 * `admin_audit`: one row per moderation action (kick, mute, unmute, ban, unban, teleport,
 * broadcast), from REST or the in-game commands: who, whom, what, why, when, and until when.
 */
export const AdminAudit = defineEntity({
  name: "AdminAudit",
  tableName: "admin_audit",
  properties: {
    id: p.integer().primary().autoincrement(),
    action: p.string().length(16),
    /** The admin's account (`admin-code`: HTTP basic auth with ADMIN_CODE). */
    actorAccountId: p.string().length(64),
    /** `rest` or `game`. */
    via: p.string().length(8),
    targetAccountId: p.string().length(64).nullable().index("admin_audit_target_index"),
    targetCharacterId: p.string().length(64).nullable(),
    targetName: p.string().length(64).nullable(),
    reason: p.string().length(255).nullable(),
    /** Mutes and bans: their length (null for a permanent ban) and end. */
    durationMinutes: p.integer().nullable(),
    endsAt: p.datetime().nullable(),
    /** What else the action carried: a teleport's destination, a broadcast's text. */
    detail: p.json<Record<string, unknown>>().nullable(),
    createdAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date())
      .index("admin_audit_created_index"),
  },
});
export type IAdminAudit = InferEntity<typeof AdminAudit>;
