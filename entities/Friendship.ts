import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `friendships`: bidirectional; a friendship is stored as two rows, one per direction. */
export const Friendship = defineEntity({
  name: "Friendship",
  tableName: "friendships",
  properties: {
    id: p.integer().primary().autoincrement(),
    accountId: p.string().length(64),
    friendAccountId: p.string().length(64),
    createdAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
  },
  uniques: [{ name: "friendships_pair_unique", properties: ["accountId", "friendAccountId"] }],
  checks: [{ name: "friendships_not_self", expression: '"accountId" <> "friendAccountId"' }],
});
export type IFriendship = InferEntity<typeof Friendship>;
