/**
 * One TradeRoom per trade of the world: created when the trade starts, kept in step with it,
 * closed when it ends. Moved out of src/server.ts, which links the world's trades to their rooms.
 */
import { matchMaker } from "@colyseus/core";
import type { Trades } from "../src/game/trade/Trades.ts";
import type { Logger } from "../src/logger.ts";
import { TRADE_ROOM, type TradeRoom } from "./TradeRoom.ts";

/** Links `trades` to their rooms; `createKey` is the key only the server creates rooms with. */
export function linkTradeRooms(trades: Trades, createKey: string, logger: Logger): void {
  const tradeRooms = new Map<string, Promise<TradeRoom | undefined>>();
  trades.onStarted = (session) => {
    tradeRooms.set(
      session.id,
      matchMaker
        .createRoom(TRADE_ROOM, { tradeId: session.id, createKey })
        .then((listing) => {
          const room = matchMaker.getLocalRoomById(listing.roomId) as TradeRoom | undefined;
          const live = trades.sessions.get(session.id);
          if (room && live) room.sync(live);
          return room;
        })
        .catch((err: unknown) => {
          logger.warn({ err, tradeId: session.id }, "could not create the trade room");
          return undefined;
        }),
    );
  };
  trades.onChanged = (session) => void tradeRooms.get(session.id)?.then((room) => room?.sync(session));
  trades.onEnded = (session) => {
    const room = tradeRooms.get(session.id);
    tradeRooms.delete(session.id);
    void room?.then((r) => r?.disconnect());
  };
}
