import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/**
 * `trade_audit`: one row per completed trade, written in the same transaction as the swap, so
 * the log and the inventories can never disagree.
 */
export const TradeAudit = defineEntity({
  name: "TradeAudit",
  tableName: "trade_audit",
  properties: {
    /** The trade id (also the TradeRoom id): unique, so one trade can never be swapped twice. */
    tradeId: p.string().primary().length(64),
    playerAId: p.string().length(64).index("trade_audit_player_a_index"),
    playerBId: p.string().length(64).index("trade_audit_player_b_index"),
    /** `[{itemId, quantity}]` given by A to B, and by B to A. */
    itemsAToB: p.json<{ itemId: string; quantity: number }[]>(),
    itemsBToA: p.json<{ itemId: string; quantity: number }[]>(),
    /** Coins given by A to B, and by B to A (not in the item lists). */
    coinsAToB: p.bigint("number").default(0),
    coinsBToA: p.bigint("number").default(0),
    valueAToB: p.bigint("number").default(0),
    valueBToA: p.bigint("number").default(0),
    completedAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
  },
});
export type ITradeAudit = InferEntity<typeof TradeAudit>;
