import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `users`: accounts, with identity-provider and social-platform identifiers. */
export const User = defineEntity({
  name: "User",
  tableName: "users",
  properties: {
    id: p.string().primary().length(64),
    /** Subject of the identity provider's token; null for anonymous accounts. */
    idpUserId: p.string().length(191).nullable().unique("users_idp_user_id_unique"),
    /** Social-platform identifier (e.g. a social-frame user id), when linked. */
    socialId: p.string().length(191).nullable().unique("users_social_id_unique"),
    name: p.string().length(64).nullable(),
    role: p.string().length(16).default("player").check("role = 'player' or role = 'admin'"),
    anonymous: p.boolean().default(false),
    createdAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
    lastLoginAt: p.datetime().nullable(),
  },
});
export type IUser = InferEntity<typeof User>;
