/** The synchronized state of one trade (TradeRoom): both sides' offers, acceptances, the screen. */
import { schema, t, type SchemaType } from "@colyseus/schema";

export const OfferItemState = schema(
  { tradeSlot: t.uint16().default(0), inventorySlot: t.uint8().default(0), itemId: t.string().default(""), quantity: t.uint32().default(0) },
  "OfferItem",
);
export type OfferItemState = SchemaType<typeof OfferItemState>;

export const TradeSideState = schema(
  {
    playerId: t.string().default(""),
    name: t.string().default(""),
    accepted: t.boolean().default(false),
    items: t.array(OfferItemState),
    coins: t.uint32().default(0),
  },
  "TradeSide",
);
export type TradeSideState = SchemaType<typeof TradeSideState>;

export const TradeState = schema({ tradeId: t.string().default(""), screen: t.string().default("offer"), a: TradeSideState, b: TradeSideState }, "TradeState");
export type TradeState = SchemaType<typeof TradeState>;
