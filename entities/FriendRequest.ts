import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `friend_requests`: pending friend requests. */
export const FriendRequest = defineEntity({
  name: "FriendRequest",
  tableName: "friend_requests",
  properties: {
    id: p.integer().primary().autoincrement(),
    fromAccountId: p.string().length(64),
    toAccountId: p.string().length(64).index("friend_requests_to_index"),
    createdAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
  },
  uniques: [{ name: "friend_requests_pair_unique", properties: ["fromAccountId", "toAccountId"] }],
  checks: [{ name: "friend_requests_not_self", expression: '"fromAccountId" <> "toAccountId"' }],
});
export type IFriendRequest = InferEntity<typeof FriendRequest>;
