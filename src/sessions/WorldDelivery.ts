/**
 * What passes through the world's sessions each tick: every client input (validated against the
 * shared event table, then queued for the next tick, or handled by a service), and the tick's
 * output (the game step, its messages to their connections, the `/ws` deltas and the Colyseus
 * views worked out in the delta worker, the corked writes released).
 */
import { validateEvent } from "../game/events.ts";
import { eventScope } from "../game/eventScopes.ts";
import { AGENT_TOKEN_FORBIDDEN, isAgentToken } from "../auth/agentScope.ts";
import type { InterestChange } from "../game/world/Interest.ts";
import type { World } from "../game/world/World.ts";
import type { Connection } from "./sessionTypes.ts";
import { WorldSessions } from "./WorldSessions.ts";

/** An agent's token sends events that act on its character only: the account's are its owner's. */
function agentRefusal(conn: Connection, type: string): { code: string; message: string } | undefined {
  if (conn.principal === undefined || !isAgentToken(conn.principal) || eventScope(type) !== "account") return undefined;
  return { code: AGENT_TOKEN_FORBIDDEN, message: "an agent's token cannot change its owner's friends or ignore list" };
}

export class WorldDelivery extends WorldSessions {
  /** The `/ws` deltas, started after each game step and delivered later in the tick (see WorldRoom.tickOnce). */
  deltas:
    | {
        start(world: World): void;
        finish(): void;
        poll?(): boolean;
        readonly threaded?: boolean;
        /** Colyseus clients' views worked out in the delta worker (see WsDeltas.addInterest). */
        addInterest?(playerId: string, seed: string[]): number | undefined;
        removeInterest?(id: number): void;
        takeInterests?(all?: boolean): InterestChange[];
        readonly interestsThreaded?: boolean;
      }
    | undefined;

  /** One client message, from any transport. */
  input(playerId: string, conn: Connection, type: string, data: unknown): void {
    if (this.connections.get(playerId) !== conn) return;
    this.traffic?.received(conn.transport, type);
    const serviceEvent = this.serviceEvents.get(type);
    if (serviceEvent !== undefined) {
      const parsed = serviceEvent.schema.safeParse(data);
      if (!parsed.success) {
        conn.send("error", { code: "INVALID_PAYLOAD", message: parsed.error.issues[0]!.message, event: type });
        return;
      }
      serviceEvent.handle(conn.principal!, parsed.data as never).then(
        (err) => err && conn.send("error", { ...err, event: type }),
        (err: unknown) => {
          this.logger.error({ err, event: type }, "service event failed");
          conn.send("error", { code: "INTERNAL_ERROR", message: "the server could not handle this event", event: type });
        },
      );
      return;
    }
    const refused = agentRefusal(conn, type);
    if (refused !== undefined) {
      conn.send("error", { ...refused, event: type });
      return;
    }
    const result = validateEvent(type, data);
    if (!result.ok) {
      conn.send("error", { code: result.code, message: result.message, event: type });
      return;
    }
    this.world.enqueue(playerId, type, result.data);
  }

  /** How long the last tick's game step took, and delivering its messages. */
  readonly lastTickTimes = { gameMs: 0, messagesMs: 0 };

  cork(): void {
    for (const conn of this.connections.values()) conn.cork?.();
  }

  /** Releases the batched writes: of every connection, or of one transport's. */
  uncork(transport?: Connection["transport"]): void {
    for (const conn of this.connections.values()) if (transport === undefined || conn.transport === transport) conn.uncork?.();
    this.flushWrites?.();
  }

  /**
   * After the tick's sockets are uncorked: sends what they released on, where the writes are
   * batched beyond the sockets (the socket process, src/io/SocketProcess.ts).
   */
  flushWrites: (() => void) | undefined;

  /**
   * Moves on what was flushed but not yet taken by the kernel, without waiting (the socket
   * process's data pipe, src/io/dataPipe.ts): called between a tick's patches.
   */
  pumpWrites: (() => void) | undefined;

  /**
   * A message from a secondary channel (a TradeRoom seat bound to `via`, see bindSeat): validated
   * like any input, then queued for the player. Refusals go to `reply`; false when `via` is no
   * longer the player's session (the seat must close: nothing it sends is taken).
   */
  inputDirect(playerId: string, via: Connection, type: string, data: unknown, reply: (code: string, message: string) => void): boolean {
    if (this.connections.get(playerId) !== via) {
      reply("SESSION_REPLACED", "this seat's session has ended");
      return false;
    }
    // A trade room seat is a Colyseus client.
    this.traffic?.received("colyseus", type);
    const refused = agentRefusal(via, type);
    const result = refused === undefined ? validateEvent(type, data) : ({ ok: false, ...refused } as const);
    if (!result.ok) reply(result.code, result.message);
    else if (!this.world.enqueue(playerId, type, result.data)) reply("NOT_IN_TRADE", "you are not in the world");
    return true;
  }

  /** One game tick, then delivery: outbox messages to their players, the `/ws` deltas. */
  tick(): void {
    this.step();
    this.publishStart();
    this.deliverMessages();
    this.publishFinish();
  }

  /** The game step. Its messages wait in the outbox for {@link deliverMessages}. */
  step(): void {
    const started = performance.now();
    this.world.step();
    this.lastTickTimes.gameMs = performance.now() - started;
  }

  /**
   * The step's messages to their players' connections (corked: they leave with the tick's update,
   * ahead of it). After publishStart, so that a delta worker builds meanwhile.
   */
  deliverMessages(): void {
    const started = performance.now();
    for (const msg of this.world.drainOutbox()) this.connections.get(msg.to)?.send(msg.type, msg.data);
    this.lastTickTimes.messagesMs = performance.now() - started;
  }

  /** After a step: what the `/ws` connections see is handed to their delta builder. */
  publishStart(): void {
    this.deltas?.start(this.world);
  }

  /**
   * A Colyseus client's view, worked out from the next tick on in the delta worker, starting with
   * the ids already in it (see WsDeltas.addInterest); undefined when there is no worker.
   */
  addInterest(playerId: string, seed: string[]): number | undefined {
    return this.deltas?.addInterest?.(playerId, seed);
  }

  removeInterest(id: number): void {
    this.deltas?.removeInterest?.(id);
  }

  /** Whether views added with addInterest are still worked out in the worker (false after it failed). */
  get interestsThreaded(): boolean {
    return this.deltas?.interestsThreaded === true;
  }

  /** This tick's changes to the views added with addInterest, waiting for the worker (see WsDeltas.takeInterests; `all` false: a first part of them). */
  takeInterests(all = true): InterestChange[] {
    return this.deltas?.takeInterests?.(all) ?? [];
  }

  /** Whether the `/ws` deltas are built in a worker thread, between publishStart and publishFinish. */
  get deltasThreaded(): boolean {
    return this.deltas?.threaded === true;
  }

  /** The `/ws` deltas of this tick, to their connections. */
  publishFinish(): void {
    this.deltas?.finish();
  }

  /**
   * Without waiting: the `/ws` deltas of this tick to their connections if a worker has them
   * ready. True when none are left to wait for (publishFinish will not block).
   */
  publishPoll(): boolean {
    return this.deltas?.poll?.() ?? true;
  }
}
