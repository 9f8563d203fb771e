/**
 * The Trade dialog's model (client/src/dialogs/Trade.ts): what an open trade holds as the client
 * knows it (both offers, the screen, the values, the seat in the trade room), what the dialog
 * shows, and the rules it reads off them (whether values are of the offers shown, whether Accept
 * may be pressed, what is left to offer). No DOM.
 */
import type { TradeSeat } from "../gameRooms.ts";
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import type { TradeSideState } from "../../../schema/TradeState.ts";

export interface OfferItem {
  tradeSlot: number;
  inventorySlot: number;
  itemId: string;
  quantity: number;
}
export interface Offer {
  items: OfferItem[];
  /** Coins offered beside the items. */
  coins: number;
  accepted: boolean;
}
export type Values = ServerEvent<"tradeConfirmScreen">["values"];
export type CancelReason = ServerEvent<"tradeCancelled">["reason"];
export type Screen = "offer" | "confirm" | "committing";

export interface Session {
  tradeId: string;
  partnerId: string;
  partnerName: string;
  screen: Screen;
  mine: Offer;
  theirs: Offer;
  values: Values | undefined;
  /** The offers `values` were computed for (offersKey): values of other offers are not shown. */
  valuedOffers: string | undefined;
  /** The screen of an accept sent and not answered yet (Accept is disabled meanwhile). */
  acceptSent: Screen | undefined;
  /** The seat in the trade room, once taken. */
  seat: TradeSeat | undefined;
  /** Whether the seat could not be taken (the commands then go through the world room). */
  seatless: boolean;
  /** This side cancelled: the dialog is already closed, the server's answer is awaited. */
  cancelling: boolean;
}

/** What the dialog shows (the open trade itself is `session`). */
export type View =
  | { kind: "closed" }
  | { kind: "incoming"; request: ServerEvent<"tradeIncoming"> }
  | { kind: "accepting"; partnerName: string }
  | { kind: "requesting"; partnerId: string; partnerName: string }
  | { kind: "trade" }
  | { kind: "done"; partnerName: string; received: { itemId: string; quantity: number }[]; coins: number }
  | { kind: "ended"; message: string };

export const emptyOffer = (): Offer => ({ items: [], coins: 0, accepted: false });

/** Both offers' items and coins, to tell whether values were computed for the offers shown. */
export function offersKey(s: Session): string {
  const items = (o: Offer) => `${o.items.map((i) => `${i.tradeSlot}:${i.itemId}:${i.quantity}`).join(",")}+${o.coins}`;
  return `${items(s.mine)}|${items(s.theirs)}`;
}

/** The values of the offers shown, once they are in. */
export function valued(s: Session): Values | undefined {
  return s.values !== undefined && s.valuedOffers === offersKey(s) ? s.values : undefined;
}

/** Whether Accept may be pressed: no accept in flight, not being stored, and a confirmation only with its values. */
export function acceptable(s: Session): s is Session & { screen: "offer" | "confirm" } {
  if (s.acceptSent !== undefined || s.screen === "committing") return false;
  return s.screen === "offer" || valued(s) !== undefined;
}

/** A side of the trade room's synced state as an offer. */
export function offerOf(side: TradeSideState): Offer {
  return {
    items: [...side.items].map((i) => ({ tradeSlot: i.tradeSlot, inventorySlot: i.inventorySlot, itemId: i.itemId, quantity: i.quantity })),
    coins: side.coins ?? 0,
    accepted: side.accepted,
  };
}

export function offeredFrom(offer: Offer, inventorySlot: number): number {
  return offer.items.reduce((n, i) => n + (i.inventorySlot === inventorySlot ? i.quantity : 0), 0);
}
