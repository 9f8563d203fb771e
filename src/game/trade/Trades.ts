/**
 * All trades of a world: requests, sessions, and the rules around them.
 *
 * - `tradeRequest` needs the target within 2 tiles; requests expire after 30 s; a player is in
 *   one trade at a time; trading yourself is refused, and so is a request to a player whose
 *   account ignores yours (IGNORED: it never reaches them).
 * - While a trade is open both players' other interfaces are blocked (`inTrade`), their actions
 *   stop, and walking out of range, dying, 5 minutes of inactivity, a disconnect or a newer login
 *   cancels it. `tradeCancelled` reaches each player exactly once, with its reason.
 * - When both accept the confirmation screen the swap is computed on copies and handed to the
 *   committer (persistence); both players are frozen (no inventory change, no autosave) until
 *   it reports back. Only after the database commit do the live inventories change.
 */
import { randomUUID } from "node:crypto";
import { chebyshev } from "../map/CollisionMap.ts";
import type { ContentRegistry } from "../../manifests/registry.ts";
import type { ItemStack, Player } from "../world/Player.ts";
import type { ServerEvent, ServerEventName } from "../serverEvents.ts";
import { computeSwap, TradeError, TradeSession, type AcceptScreen, type SwapResult } from "./TradeSession.ts";

export const TRADE_RANGE = 2;
/** 30 s of 600 ms ticks. */
export const REQUEST_TICKS = 50;
/** 5 minutes of 600 ms ticks. */
export const INACTIVITY_TICKS = 500;

export type CancelReason = "declined" | "cancelled" | "disconnected" | "moved_away" | "timeout" | "died" | "server_error";

export interface TradeRequest {
  id: string;
  fromId: string;
  toId: string;
  expiresAtTick: number;
}

export interface CommitRequest {
  session: TradeSession;
  swap: SwapResult;
  /** The inventories as they were, for the committer to re-verify against storage. */
  before: Map<string, (ItemStack | null)[]>;
  /** The coins both carried, likewise (checked when the trade moves coins). */
  coinsBefore: Map<string, number>;
}

/**
 * What trades need of the world they run in. The World satisfies it; trades sit below the world
 * in the import order (the World owns a Trades), so they name this instead of the World.
 */
export interface TradeWorld {
  readonly content: ContentRegistry;
  readonly players: ReadonlyMap<string, Player>;
  readonly tick: number;
  send<K extends ServerEventName>(to: string, type: K, data: ServerEvent<K>): void;
}

export class Trades {
  readonly requests = new Map<string, TradeRequest>();
  readonly sessions = new Map<string, TradeSession>();
  private readonly byPlayer = new Map<string, TradeSession>();
  private readonly settledWaiters = new Map<string, (() => void)[]>();
  /** Set by the server: writes the swap, then calls finish() or abort(). */
  commit: ((req: CommitRequest) => void) | undefined;
  /** Hooks for transports (the TradeRoom). */
  onStarted: (session: TradeSession) => void = () => {};
  onChanged: (session: TradeSession) => void = () => {};
  onEnded: (session: TradeSession) => void = () => {};
  /**
   * Called for each player still in the world when its trade ends (stored, rolled back or
   * cancelled), after its trade flags are cleared: the gameplay layer runs a death that waited
   * for the trade's swap to be stored (death.ts).
   */
  onReleased: (world: TradeWorld, player: Player) => void = () => {};

  sessionOf(playerId: string): TradeSession | undefined {
    return this.byPlayer.get(playerId);
  }

  /** Resolves when the player has no trade being committed (saves and logouts wait for it). */
  settled(playerId: string): Promise<void> {
    if (this.byPlayer.get(playerId)?.screen !== "committing") return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.settledWaiters.get(playerId) ?? [];
      list.push(resolve);
      this.settledWaiters.set(playerId, list);
    });
  }

  // ---- requests ------------------------------------------------------------------------

  request(world: TradeWorld, from: Player, targetId: string): void {
    if (targetId === from.id) throw new TradeError("SELF_TRADE", "you can't trade with yourself");
    const to = world.players.get(targetId);
    if (to === undefined) throw new TradeError("PLAYER_OFFLINE", "that player is not here");
    if (to.ignored.has(from.data.accountId)) throw new TradeError("IGNORED", "that player is ignoring you");
    if (this.byPlayer.has(from.id)) throw new TradeError("ALREADY_IN_TRADE", "you are already trading");
    if (this.byPlayer.has(to.id)) throw new TradeError("PLAYER_BUSY", "that player is busy trading");
    if (chebyshev(from, to) > TRADE_RANGE) throw new TradeError("TOO_FAR", `you need to be within ${TRADE_RANGE} tiles`);
    for (const r of this.requests.values()) {
      if (r.fromId === from.id && r.toId === to.id) throw new TradeError("INVALID_TRADE", "you already asked that player");
    }
    const id = randomUUID();
    this.requests.set(id, { id, fromId: from.id, toId: to.id, expiresAtTick: world.tick + REQUEST_TICKS });
    world.send(to.id, "tradeIncoming", { tradeId: id, fromPlayerId: from.id, fromPlayerName: from.data.name });
  }

  respond(world: TradeWorld, player: Player, tradeId: string, accept: boolean): void {
    const req = this.requests.get(tradeId);
    if (req === undefined || req.toId !== player.id) throw new TradeError("INVALID_TRADE", "no such trade request");
    this.requests.delete(tradeId);
    if (!accept) {
      this.notifyCancelled(world, tradeId, [req.fromId, req.toId], "declined");
      return;
    }
    const from = world.players.get(req.fromId);
    if (from === undefined) {
      this.notifyCancelled(world, tradeId, [req.fromId, req.toId], "disconnected");
      throw new TradeError("PLAYER_OFFLINE", "that player left");
    }
    if (this.byPlayer.has(player.id)) throw new TradeError("ALREADY_IN_TRADE", "you are already trading");
    if (this.byPlayer.has(from.id)) {
      this.notifyCancelled(world, tradeId, [req.fromId, req.toId], "cancelled");
      throw new TradeError("PLAYER_BUSY", "that player is busy trading");
    }
    if (chebyshev(from, player) > TRADE_RANGE) {
      this.notifyCancelled(world, tradeId, [req.fromId, req.toId], "moved_away");
      throw new TradeError("TOO_FAR", `you need to be within ${TRADE_RANGE} tiles`);
    }
    const session = new TradeSession(tradeId, from, player, world.tick);
    this.sessions.set(tradeId, session);
    for (const p of [from, player]) {
      this.byPlayer.set(p.id, session);
      p.inTrade = true;
      p.action = undefined;
      p.syncDue = true;
    }
    world.send(from.id, "tradeStarted", { tradeId, partnerId: player.id, partnerName: player.data.name });
    world.send(player.id, "tradeStarted", { tradeId, partnerId: from.id, partnerName: from.data.name });
    this.onStarted(session);
  }

  // ---- the session ---------------------------------------------------------------------

  private sessionFor(player: Player, tradeId: string): TradeSession {
    const session = this.byPlayer.get(player.id);
    if (session === undefined) throw new TradeError("NOT_IN_TRADE", "you are not trading");
    if (session.id !== tradeId) throw new TradeError("INVALID_TRADE", "that is not your current trade");
    return session;
  }

  private updated(world: TradeWorld, session: TradeSession): void {
    for (const id of [session.a.playerId, session.b.playerId]) world.send(id, "tradeUpdated", session.view(id));
    this.onChanged(session);
  }

  addItem(world: TradeWorld, player: Player, tradeId: string, inventorySlot: number, quantity: number): void {
    const session = this.sessionFor(player, tradeId);
    session.add(world.content, player, inventorySlot, quantity, world.tick);
    this.updated(world, session);
  }

  /** Sets the coins the player offers (TradeSession.setCoins). */
  setCoins(world: TradeWorld, player: Player, tradeId: string, amount: number): void {
    const session = this.sessionFor(player, tradeId);
    session.setCoins(player, amount, world.tick);
    this.updated(world, session);
  }

  removeItem(world: TradeWorld, player: Player, tradeId: string, tradeSlot: number, quantity: number | undefined): void {
    const session = this.sessionFor(player, tradeId);
    session.remove(player, tradeSlot, quantity, world.tick);
    this.updated(world, session);
  }

  /** `screen`: the screen the player saw when accepting (refused when the trade has left it). */
  accept(world: TradeWorld, player: Player, tradeId: string, screen?: AcceptScreen): void {
    const session = this.sessionFor(player, tradeId);
    const moved = session.accept(player, world.tick, screen);
    if (moved === undefined) {
      this.updated(world, session);
      return;
    }
    if (moved === "confirm") {
      for (const id of [session.a.playerId, session.b.playerId]) {
        world.send(id, "tradeConfirmScreen", { ...session.view(id), values: session.values(world.content, id) });
      }
      this.onChanged(session);
      return;
    }
    // Both accepted the confirmation screen: compute the swap, freeze both, hand it over.
    const a = world.players.get(session.a.playerId)!;
    const b = world.players.get(session.b.playerId)!;
    let swap: SwapResult;
    try {
      swap = computeSwap(world.content, session, a, b);
    } catch (err) {
      session.screen = "offer";
      if (err instanceof TradeError) {
        for (const id of [a.id, b.id]) world.send(id, "tradeError", { tradeId, code: err.code, message: err.message });
        this.updated(world, session);
        return;
      }
      throw err;
    }
    a.tradeCommitting = true;
    b.tradeCommitting = true;
    this.onChanged(session);
    const before = new Map([
      [a.id, a.data.inventory.map((s) => (s === null ? null : { ...s }))],
      [b.id, b.data.inventory.map((s) => (s === null ? null : { ...s }))],
    ]);
    const coinsBefore = new Map([
      [a.id, a.data.coins],
      [b.id, b.data.coins],
    ]);
    if (this.commit === undefined) {
      this.finish(world, tradeId, swap);
      return;
    }
    this.commit({ session, swap, before, coinsBefore });
  }

  /** The swap is stored: apply it to the live players and end the trade (in a tick). */
  finish(world: TradeWorld, tradeId: string, swap: SwapResult): void {
    const session = this.sessions.get(tradeId);
    if (session === undefined) return;
    const received = new Map([
      [session.a.playerId, { items: swap.bGives, coins: swap.bGivesCoins }],
      [session.b.playerId, { items: swap.aGives, coins: swap.aGivesCoins }],
    ]);
    for (const id of [session.a.playerId, session.b.playerId]) {
      const p = world.players.get(id);
      if (p !== undefined) {
        p.data.inventory = swap.inventories.get(id)!;
        p.data.coins = swap.coins.get(id)!;
        p.syncDue = true;
        // Already stored by the trade's own transaction; later saves carry it on.
        p.saveDue = true;
      }
      const got = received.get(id)!;
      world.send(id, "tradeCompleted", {
        tradeId,
        receivedItems: got.items.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
        receivedCoins: got.coins,
      });
    }
    this.end(world, session);
  }

  /** The commit failed and was rolled back: both inventories stay as they were. */
  abort(world: TradeWorld, tradeId: string, code: string, message: string): void {
    const session = this.sessions.get(tradeId);
    if (session === undefined) return;
    for (const id of [session.a.playerId, session.b.playerId]) world.send(id, "tradeError", { tradeId, code, message });
    this.notifyCancelled(world, tradeId, [session.a.playerId, session.b.playerId], "server_error");
    this.end(world, session);
  }

  private end(world: TradeWorld, session: TradeSession): void {
    this.sessions.delete(session.id);
    for (const id of [session.a.playerId, session.b.playerId]) {
      if (this.byPlayer.get(id) === session) this.byPlayer.delete(id);
      const p = world.players.get(id);
      if (p !== undefined) {
        p.inTrade = false;
        p.tradeCommitting = false;
        p.syncDue = true;
        this.onReleased(world, p);
      }
      for (const resolve of this.settledWaiters.get(id) ?? []) resolve();
      this.settledWaiters.delete(id);
    }
    this.onEnded(session);
  }

  private notifyCancelled(world: TradeWorld, tradeId: string, playerIds: string[], reason: CancelReason): void {
    for (const id of playerIds) world.send(id, "tradeCancelled", { tradeId, reason });
  }

  /** Cancels the player's open trade (not one being committed, which finishes or aborts). */
  cancelFor(world: TradeWorld, playerId: string, reason: CancelReason): boolean {
    const session = this.byPlayer.get(playerId);
    if (session === undefined || session.screen === "committing") return false;
    this.notifyCancelled(world, session.id, [session.a.playerId, session.b.playerId], reason);
    this.end(world, session);
    return true;
  }

  cancel(world: TradeWorld, player: Player, tradeId: string): void {
    const session = this.sessionFor(player, tradeId);
    if (session.screen === "committing") throw new TradeError("INVALID_TRADE", "the trade is being completed");
    this.cancelFor(world, player.id, "cancelled");
  }

  /** Each tick: expired requests, players out of range, inactive trades. */
  process(world: TradeWorld): void {
    for (const [id, r] of this.requests) {
      if (world.tick >= r.expiresAtTick || !world.players.has(r.fromId) || !world.players.has(r.toId)) {
        this.requests.delete(id);
        this.notifyCancelled(world, id, [r.fromId, r.toId], world.tick >= r.expiresAtTick ? "timeout" : "disconnected");
      }
    }
    for (const session of [...this.sessions.values()]) {
      if (session.screen === "committing") continue;
      const a = world.players.get(session.a.playerId);
      const b = world.players.get(session.b.playerId);
      if (a === undefined || b === undefined) this.cancelFor(world, session.a.playerId, "disconnected");
      else if (chebyshev(a, b) > TRADE_RANGE) this.cancelFor(world, a.id, "moved_away");
      else if (world.tick - session.lastActivityTick > INACTIVITY_TICKS) this.cancelFor(world, a.id, "timeout");
    }
  }

  /** Shutdown: every open trade is cancelled. */
  cancelAll(world: TradeWorld): void {
    for (const session of [...this.sessions.values()]) this.cancelFor(world, session.a.playerId, "server_error");
  }
}

/** Turns a TradeError into the `tradeError` event of PROTOCOL.md (handlers return nothing else). */
export function tradeErrorEvent(world: TradeWorld, player: Player, err: unknown, tradeId: string | undefined): void {
  if (!(err instanceof TradeError)) throw err;
  world.send(player.id, "tradeError", { ...(tradeId !== undefined ? { tradeId } : {}), code: err.code, message: err.message });
}
