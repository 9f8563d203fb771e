import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `ignore_lists`: players an account has blocked. */
export const IgnoreEntry = defineEntity({
  name: "IgnoreEntry",
  tableName: "ignore_lists",
  properties: {
    id: p.integer().primary().autoincrement(),
    accountId: p.string().length(64),
    ignoredAccountId: p.string().length(64),
    createdAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
  },
  uniques: [{ name: "ignore_lists_pair_unique", properties: ["accountId", "ignoredAccountId"] }],
  checks: [{ name: "ignore_lists_not_self", expression: '"accountId" <> "ignoredAccountId"' }],
});
export type IIgnoreEntry = InferEntity<typeof IgnoreEntry>;
