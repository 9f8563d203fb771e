/**
 * The session service's state (the base of WorldService): who controls which player (one
 * connection a character), the players lingering after a dropped connection, the accounts' locks,
 * the secondary seats bound to a session, and the hooks other services set. Its methods read it and
 * end a session's bookkeeping (endSession); the lifecycle itself is in WorldSessions.ts.
 */
import type { Player } from "../game/world/Player.ts";
import { TICK_MS, type World } from "../game/world/World.ts";
import type { ServerEvent } from "../game/serverEvents.ts";
import type { Principal } from "../auth/tokens.ts";
import type { Database } from "../db/orm.ts";
import type { Logger } from "../logger.ts";
import type { ContentRegistry } from "../manifests/registry.ts";
import { recordLogout } from "../persistence/players.ts";
import type { CharacterLeases } from "../persistence/leases.ts";
import type { Traffic } from "../prometheus.ts";
import type { Saver } from "./Saver.ts";
import { CLOSE_REPLACED, type AgentGreeting, type Connection, type LogoutReason, type ServiceEvent, type WorldHooks } from "./sessionTypes.ts";

/** What the service is built from (its world, storage, leases) and its limits (config.world). */
export interface WorldServiceDeps {
  world: World;
  db: Database;
  content: ContentRegistry;
  saver: Saver;
  leases: CharacterLeases;
  logger: Logger;
  tickMs?: number;
  worldId?: number;
  capacity?: number;
  hopCooldownMs?: number;
}

export class SessionTable {
  readonly world: World;
  protected readonly db: Database;
  protected readonly content: ContentRegistry;
  protected readonly saver: Saver;
  protected readonly logger: Logger;
  readonly leases: CharacterLeases;
  protected readonly connections = new Map<string, Connection>();
  protected readonly lingering = new Map<string, NodeJS.Timeout>();
  protected readonly accountLocks = new Map<string, Promise<unknown>>();
  /** The `playerSessions` writes (logins and logouts) still in flight (see endSession). */
  protected readonly sessionWrites = new Set<Promise<unknown>>();
  /** Secondary seats (TradeRoom clients) by the session they belong to: closed when it ends. */
  protected readonly seats = new Map<Connection, Set<(code: number) => void>>();
  /** Called when a player enters or leaves the world (schema mirroring). */
  onPlayerAdded: (player: Player) => void = () => {};
  onPlayerRemoved: (player: Player) => void = () => {};
  /** Waits for work that must finish before the final save (trade commits). */
  onShutdownDrain: () => Promise<void> = async () => {};
  /** Non-game client events, by name (registered by other services). */
  readonly serviceEvents = new Map<string, ServiceEvent>();
  /** Set by the social service (see WorldHooks). */
  hooks: WorldHooks | undefined;
  /** Counts the messages taken and sent (the Prometheus metrics); the transports send through it too. */
  traffic: Traffic | undefined;
  /**
   * Set by the agent service: starts the greeting of an agent's new connection (its goal state,
   * its pushes held); undefined when the agent no longer exists or the token was replaced.
   */
  agentGreeting: ((principal: Principal) => Promise<AgentGreeting | undefined>) | undefined;
  /**
   * Set by the moderation service: checked at every login (both transports), under the account's
   * lock; a throw (a banned account's BannedError) refuses it before anything is loaded.
   */
  admission: ((accountId: string) => Promise<void>) | undefined;
  protected closed = false;

  /** The tick's length (ms), told to clients in `welcome`. */
  readonly tickMs: number;

  /** This process's world number, its capacity and the hop cooldown (config.world). */
  readonly worldId: number;
  readonly capacity: number;
  protected readonly hopCooldownMs: number;
  /**
   * Set in a cluster: asks the process holding a character's lease (`ownerId`) to let the
   * character go (see handOver). Unset, a character live in another process is refused (CHARACTER_IN_USE).
   */
  takeover: ((characterId: string, ownerId: string) => Promise<void>) | undefined;

  constructor(deps: WorldServiceDeps) {
    this.world = deps.world;
    this.worldId = deps.worldId ?? 1;
    this.capacity = deps.capacity ?? Number.MAX_SAFE_INTEGER;
    this.hopCooldownMs = deps.hopCooldownMs ?? 0;
    this.tickMs = deps.tickMs ?? TICK_MS;
    this.db = deps.db;
    this.content = deps.content;
    this.saver = deps.saver;
    this.logger = deps.logger;
    this.leases = deps.leases;
    this.saver.onGroundStored = (ids) => this.world.groundStored(ids);
  }

  get onlineCount(): number {
    return this.connections.size;
  }

  /** Players in the world by the transport controlling them; `none`: lingering after a dropped connection. */
  playersByTransport(): Record<Connection["transport"] | "none", number> {
    const counts = { colyseus: 0, ws: 0, none: 0 };
    for (const conn of this.connections.values()) counts[conn.transport]++;
    counts.none = Math.max(0, this.world.players.size - this.connections.size);
    return counts;
  }

  connectionOf(playerId: string): Connection | undefined {
    return this.connections.get(playerId);
  }

  /**
   * Runs `fn` after every earlier call for the same account has finished: the account's lock.
   * Logins (`attach`), character creation and deletion take it, so that an account's character
   * count is checked and changed by one caller at a time and no login loads a character that is
   * being deleted.
   */
  async withAccount<T>(accountId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.accountLocks.get(accountId) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => {});
    this.accountLocks.set(accountId, tail);
    try {
      return await run;
    } finally {
      if (this.accountLocks.get(accountId) === tail) this.accountLocks.delete(accountId);
    }
  }

  /**
   * Binds a secondary seat (a TradeRoom client) to the player's current session, which must act
   * for the same account and agent as the seat's token: a token of the account that does not
   * control the character (an agent beside its owner's session, an older login) gets no seat.
   * `close` is called once when that session ends (replaced, revoked, logged out, dropped).
   */
  bindSeat(playerId: string, principal: Principal, close: (code: number) => void): Connection | undefined {
    const conn = this.connections.get(playerId);
    if (conn?.principal === undefined || conn.principal.accountId !== principal.accountId || conn.principal.agentId !== principal.agentId) return undefined;
    let seats = this.seats.get(conn);
    if (seats === undefined) this.seats.set(conn, (seats = new Set()));
    seats.add(close);
    return conn;
  }

  unbindSeat(conn: Connection, close: (code: number) => void): void {
    const seats = this.seats.get(conn);
    seats?.delete(close);
    if (seats?.size === 0) this.seats.delete(conn);
  }

  protected closeSeats(conn: Connection, code: number): void {
    const seats = this.seats.get(conn);
    this.seats.delete(conn);
    for (const close of seats ?? []) {
      try {
        close(code);
      } catch (err) {
        this.logger.debug({ err }, "closing a seat failed (already gone)");
      }
    }
  }

  /** The welcome message of PROTOCOL.md. */
  welcome(player: Player, principal: Principal, issuedToken: string | undefined): ServerEvent<"welcome"> {
    return {
      playerId: player.id,
      characterId: player.id,
      accountId: principal.accountId,
      name: player.data.name,
      anonymous: principal.anonymous,
      ...(issuedToken !== undefined ? { token: issuedToken } : {}),
      world: this.worldId,
      tick: this.world.tick,
      tickMs: this.tickMs,
    };
  }

  protected cancelLinger(playerId: string): void {
    const timer = this.lingering.get(playerId);
    if (timer !== undefined) clearTimeout(timer);
    this.lingering.delete(playerId);
  }

  protected endSession(conn: Connection, reason: LogoutReason): void {
    // The connection no longer controls its player: neither do the seats taken through it.
    this.closeSeats(conn, CLOSE_REPLACED);
    if (conn.session !== undefined) {
      const { characterId, name, startedAt } = conn.session;
      conn.session = undefined;
      this.logger.info({ event: "leave", characterId, name, transport: conn.transport, reason, durationMs: Date.now() - startedAt }, "player session ended");
    }
    const write = conn.sessionRowId
      ?.then((id) => (id === undefined ? undefined : recordLogout(this.db, id, reason)))
      .catch((err: unknown) => {
        this.logger.warn({ err }, "could not record the logout");
      });
    if (write !== undefined) {
      // Waited for at shutdown: a write still in flight when the database closes holds its
      // connection, and closing the pool waits for it forever.
      this.sessionWrites.add(write);
      void write.finally(() => this.sessionWrites.delete(write));
    }
  }
}
