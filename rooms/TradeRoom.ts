/**
 * TradeRoom (room name `trade`, room id = the trade id): one per trade session, for Colyseus
 * clients. It holds the session's state in sync for the two participants (nobody else may join)
 * and accepts the same trade messages as the world room and `/ws`, which all go through the one
 * event table into the world. `/ws` clients are not in this room: they get the same events on
 * their socket. The room closes when the trade ends.
 */
import { Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import type { Authenticator } from "../src/auth/Authenticator.ts";
import type { Principal } from "../src/auth/tokens.ts";
import type { TradeSession } from "../src/game/trade/TradeSession.ts";
import type { Connection, WorldService } from "../src/sessions/WorldService.ts";
import { OfferItemState, TradeState, type TradeSideState } from "../schema/TradeState.ts";
import { admit, InputLimiter } from "../src/sessions/inputLimiter.ts";
import type { AuthAttempts } from "../src/auth/attemptLimiter.ts";
import { asJoinError } from "./WorldRoom.ts";
import { attributeFrames } from "./badFrames.ts";
import { CLOSE_REPLACED } from "../src/sessions/WorldService.ts";
import type { ClientEventOf } from "../src/game/clientEvents.ts";
import type { ServerEvent } from "../src/game/serverEvents.ts";
import type { ClientEventHandlers, SentServerEvents } from "./sdkTypes.ts";

export const TRADE_ROOM = "trade";
export const TRADE_EVENTS = new Set(["tradeAddItem", "tradeSetCoins", "tradeRemoveItem", "tradeAccept", "tradeCancel"]);

export interface TradeRoomServices {
  service: WorldService;
  /** Only the server knows it: see WorldRoomServices.createKey. */
  createKey: string;
  auth: Authenticator;
  /** Authentication attempts per client address (see AuthAttempts). */
  attempts: AuthAttempts;
}

interface Seat {
  playerId: string;
  limiter: InputLimiter;
  /** The player's session this seat was taken through (see WorldService.bindSeat). */
  conn: Connection;
  close: (code: number) => void;
}

type TradeClient = Client<{ auth: { principal: Principal }; userData: Seat } & SentServerEvents>;

export function tradeRoomClass(services: TradeRoomServices): typeof TradeRoom {
  return class BoundTradeRoom extends TradeRoom {
    static override async onAuth(token: string, options: { token?: unknown }, context: AuthContext): Promise<{ principal: Principal }> {
      const raw = token || (typeof options?.token === "string" ? options.token : undefined);
      if (!raw) throw new ServerError(401, "a bearer token is required");
      return asJoinError(async () => ({ principal: await services.attempts.checkToken(context?.ip, () => services.auth.authenticate(raw)) }));
    }
    override services = services;
  };
}

export class TradeRoom extends Room<{ state: TradeState; client: TradeClient }> {
  override state = new TradeState();
  override maxClients = 2;
  override autoDispose = false;
  /** For the typed SDK only (sdkTypes.ts): a seat sends the trade events. */
  declare messages: ClientEventHandlers<ClientEventOf<"trade">>;
  services!: TradeRoomServices;

  override onCreate(options: { tradeId: string; createKey?: unknown }): void {
    if (options?.createKey !== this.services.createKey) throw new ServerError(403, "rooms are created by the server");
    this.roomId = options.tradeId;
    attributeFrames(this);
    this.state.tradeId = options.tradeId;
    this.onMessage("*", (client: TradeClient, type: string | number, message: unknown) => {
      const userData = client.userData;
      if (userData === undefined) return;
      const { playerId, conn } = userData;
      // What the seat is sent (its refusals) is counted with the world room's messages.
      const send = (t: "error", d: ServerEvent<"error">) => {
        client.send(t, d);
        this.services.service.traffic?.sent("colyseus", t, d.code);
      };
      // The same per-connection message limit as the world's transports (PROTOCOL.md).
      if (!admit(userData.limiter, Date.now(), { send, close: (code, reason) => client.leave(code, reason) })) return;
      if (!TRADE_EVENTS.has(String(type))) {
        send("error", { code: "UNKNOWN_EVENT", message: `the trade room takes ${[...TRADE_EVENTS].join(", ")}`, event: String(type) });
        return;
      }
      // A seat speaks for its own trade only.
      if ((message as { tradeId?: unknown } | null)?.tradeId !== this.roomId) {
        send("error", { code: "INVALID_TRADE", message: "this room takes messages of its own trade only", event: String(type) });
        return;
      }
      const reply = (code: string, msg: string) => send("error", { code, message: msg, event: String(type) });
      // A seat whose session ended (replaced by a newer login, agent revoked) is refused and closed.
      if (!this.services.service.inputDirect(playerId, conn, String(type), message, reply)) userData.close(CLOSE_REPLACED);
    });
  }

  override onLeave(client: TradeClient): void {
    const seat = client.userData;
    if (seat !== undefined) this.services.service.unbindSeat(seat.conn, seat.close);
  }

  override onJoin(client: TradeClient): void {
    const session = this.services.service.world.trades.sessions.get(this.roomId);
    const principal = client.auth?.principal;
    if (session === undefined) throw new ServerError(404, "no such trade");
    const playerId = [session.a.playerId, session.b.playerId].find((id) => {
      const p = this.services.service.world.players.get(id);
      return p !== undefined && p.data.accountId === principal?.accountId && (principal.characterId === undefined || principal.characterId === id);
    });
    if (playerId === undefined) throw new ServerError(403, "you are not part of this trade");
    // Two seats, one per participant: a second connection of the same player would lock the partner out.
    if (this.clients.some((c) => c !== client && c.userData?.playerId === playerId)) throw new ServerError(409, "you are already in this trade room");
    // The seat belongs to the character's current session, and closes when that session ends.
    const close = (code: number) => client.leave(code);
    const conn = this.services.service.bindSeat(playerId, principal!, close);
    if (conn === undefined)
      throw new ServerError(403, "a trade seat belongs to the connection that controls the character: log in to the world with this token first");
    client.userData = { playerId, limiter: new InputLimiter(), conn, close };
  }

  /**
   * The monitor's DISPOSE of this room (src/http/monitorCalls.ts calls it instead of `disconnect`,
   * on the process that holds the room): the trade is cancelled in the world (`tradeCancelled`
   * `cancelled` to both players, nothing moved), and its end closes this room as any end does.
   * Not a trade being committed: that one is stored or rolled back on its own.
   */
  cancelFromMonitor(): { cancelled: boolean; refused?: string } {
    const { world } = this.services.service;
    const session = world.trades.sessions.get(this.roomId);
    if (session === undefined) {
      // Its trade already ended: the room is on its way out, or was left behind.
      void this.disconnect();
      return { cancelled: false };
    }
    if (session.screen === "committing") return { cancelled: false, refused: "the trade is being completed: it is stored or rolled back on its own" };
    world.trades.cancelFor(world, session.a.playerId, "cancelled");
    return { cancelled: true };
  }

  /** Mirrors the session into the synchronized state. */
  sync(session: TradeSession): void {
    this.state.screen = session.screen;
    const copy = (target: TradeSideState, side: TradeSession["a"]) => {
      target.playerId = side.playerId;
      target.name = side.name;
      target.accepted = side.accepted;
      target.coins = side.coins;
      target.items.clear();
      for (const o of side.items)
        target.items.push(new OfferItemState({ tradeSlot: o.tradeSlot, inventorySlot: o.inventorySlot, itemId: o.itemId, quantity: o.quantity }));
    };
    copy(this.state.a, session.a);
    copy(this.state.b, session.b);
  }
}
