/**
 * The bridge between connections (Colyseus clients, `/ws` sockets) and one World.
 *
 * - One live copy per character: a second login for a character that is already in the world
 *   takes it over (the old connection is closed with {@link CLOSE_REPLACED}); there are never two.
 *   Logins of one account are serialised, so two at once cannot both load it.
 * - A dropped connection leaves its player in the world for {@link LINGER_MS}; a new connection
 *   within that time continues the same player. After it, the player is saved and removed.
 * - Every input from any transport goes through {@link input}: validation against the shared
 *   event table, then the player's queue for the next tick. (Transports rate-limit before that.)
 * - Saves: autosave every SAVE_INTERVAL through the world's persistence phase, plus an immediate
 *   save when a player leaves, and a full save at shutdown. A player is only loaded after its last
 *   save has completed.
 * - One process per character: a character is loaded only under its lease (persistence/leases.ts),
 *   renewed while it is here and released after its final save; a login of a character another
 *   live process holds is refused (CHARACTER_IN_USE). A character whose lease or save version
 *   another process has taken is lost to this one: its player is disconnected without a save.
 *   In a cluster (REDIS_URL) a login of a character that another process holds asks that process
 *   to let it go ({@link takeover}): the old connection hears SESSION_REPLACED, its player leaves
 *   saved, and the lease is released after the save, so this login loads what was last stored.
 * - One world a process: a login past the world's capacity is refused (WORLD_FULL), and entering
 *   this world within the hop cooldown of entering another is refused (HOP_COOLDOWN).
 */
import { CLOSE_NOT_AUTHENTICATED } from "../ws/WsGateway.ts";
import { validateEvent } from "../game/events.ts";
import { eventScope } from "../game/eventScopes.ts";
import { AGENT_TOKEN_FORBIDDEN, isAgentToken } from "../auth/agentScope.ts";
import type { Player } from "../game/world/Player.ts";
import { renameNotice } from "../game/names.ts";
import type { InterestChange } from "../ws/WsDeltas.ts";
import { playerSync, snapshot, TICK_MS, type Fault, type World } from "../game/world/World.ts";
import type { ServerEvent } from "../game/serverEvents.ts";
import type { Principal } from "../auth/tokens.ts";
import type { z } from "zod";
import type { Database } from "../db/orm.ts";
import type { Logger } from "../logger.ts";
import type { ContentRegistry } from "../manifests/registry.ts";
import { clearRenamedFrom, deleteCharacter, lastSession, loadOrCreatePlayer, recordLogin, recordLogout } from "../persistence/players.ts";
import { CodedError } from "../codedError.ts";
import { CharacterInUseError, type CharacterLeases } from "../persistence/leases.ts";
import type { Traffic } from "../prometheus.ts";
import type { Saver } from "./Saver.ts";
import { controlAs, releaseControl } from "./playerControl.ts";

export const LINGER_MS = 30_000;
/** How long a login waits for another process to let a character go (its final save), ms. */
export const TAKEOVER_WAIT_MS = 10_000;
/** How often the waiting login tries the lease again, ms. */
export const TAKEOVER_POLL_MS = 100;

/** The world holds as many players as it may (WORLD_CAPACITY). */
export class WorldFullError extends CodedError<"WORLD_FULL"> {
  constructor(world: number, capacity: number) {
    super("WORLD_FULL", `world ${world} is full (${capacity} players); choose another world`);
  }
}

/** The character entered another world less than the hop cooldown ago. */
export class HopCooldownError extends CodedError<"HOP_COOLDOWN"> {
  /** When the character may enter this world (ISO time). */
  readonly until: string;
  constructor(until: Date) {
    super("HOP_COOLDOWN", `you changed worlds moments ago; you can enter this world at ${until.toISOString()}`);
    this.until = until.toISOString();
  }
}
export const CLOSE_REPLACED = 4009;
/** WebSocket close code for a player disconnected after repeated server faults (RFC 6455: internal error). */
export const CLOSE_FAULTS = 1011;
/** WebSocket close code for a player whose character another server process has taken over. */
export const CLOSE_CHARACTER_LOST = 4010;
/** A kind of fault (where and event) is logged once per this interval, with the count of the ones in between. */
export const FAULT_LOG_INTERVAL_MS = 60_000;

export type LogoutReason = "logout" | "disconnect" | "replaced" | "shutdown" | "kicked";

/**
 * Client events handled by a service rather than the game (agent progress reports): validated
 * the same way, answered with an `error` on failure.
 */
export interface ServiceEvent {
  schema: z.ZodType;
  handle(principal: Principal, data: never): Promise<{ code: string; message: string } | void>;
}

/** An agent's token sends events that act on its character only: the account's are its owner's. */
function agentRefusal(conn: Connection, type: string): { code: string; message: string } | undefined {
  if (conn.principal === undefined || !isAgentToken(conn.principal) || eventScope(type) !== "account") return undefined;
  return { code: AGENT_TOKEN_FORBIDDEN, message: "an agent's token cannot change its owner's friends or ignore list" };
}

/** A client connection of any transport. */
export interface Connection {
  readonly transport: "colyseus" | "ws";
  /** Who the connection acts for (set by the service when it attaches). */
  principal?: Principal;
  readonly remoteAddress?: string | undefined;
  send(type: string, data: object): void;
  /**
   * False while what is sent cannot arrive (a Colyseus client dropped and holding its seat for a
   * reconnection: what it is sent meanwhile is lost). Absent: open while attached.
   */
  isOpen?(): boolean;
  close(code: number, reason: string): void;
  /** Batch writes during a tick (TCP cork), and release them. */
  cork?(): void;
  uncork?(): void;
  /** Set by the service: the `playerSessions` row of this connection. */
  sessionRowId?: Promise<string | undefined>;
  /** Set by the service: whose session this is and when it began (for the leave log line). */
  session?: { characterId: string; name: string; startedAt: number };
}

/**
 * What an agent's new connection starts with: its goal state, read before the login while the
 * agent's pushes are held (see AgentService.greet), so that nothing of the agent's reaches the
 * connection before `welcome` and the state sent is the latest.
 */
export interface AgentGreeting {
  /** The agent's goal state: what was read, or what a change pushed during the hold set. */
  readonly state: ServerEvent<"agent:goal">;
  /** Ends the hold: pushes held meanwhile (owner messages) go out now, in order. */
  release(): void;
}

/** The agent of a token was deleted, or the token replaced, after the token was checked. */
export class AgentRevokedError extends Error {
  readonly code = "NOT_AUTHENTICATED";
}

/**
 * What another service does as characters enter and leave this world (the social service,
 * src/social: a character's ignore list, its friends told it came or went).
 */
export interface WorldHooks {
  /**
   * Before a character of the account is loaded (a throw fails the login, before its lease is
   * taken): resolves with what to do once the player is in the world, before its first tick.
   */
  beforeEnter(accountId: string): Promise<(player: Player) => void>;
  /** After a player has left the world (logout, the end of its linger, a takeover by another process). */
  left(player: Player): void;
}

export interface AttachOptions {
  characterId?: string | undefined;
  name?: string | undefined;
}

export class WorldService {
  readonly world: World;
  private readonly db: Database;
  private readonly content: ContentRegistry;
  private readonly saver: Saver;
  private readonly logger: Logger;
  readonly leases: CharacterLeases;
  private readonly renewTimer: NodeJS.Timeout;
  private renewing: Promise<void> | undefined;
  private readonly connections = new Map<string, Connection>();
  private readonly lingering = new Map<string, NodeJS.Timeout>();
  private readonly accountLocks = new Map<string, Promise<unknown>>();
  /** The `playerSessions` writes (logins and logouts) still in flight (see endSession). */
  private readonly sessionWrites = new Set<Promise<unknown>>();
  /** Secondary seats (TradeRoom clients) by the session they belong to: closed when it ends. */
  private readonly seats = new Map<Connection, Set<(code: number) => void>>();
  /** Called when a player enters or leaves the world (schema mirroring). */
  onPlayerAdded: (player: Player) => void = () => {};
  onPlayerRemoved: (player: Player) => void = () => {};
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
  private closed = false;
  private quiescing: Promise<void> | undefined;
  /** Faults the tick contained, by where they happened (metrics). */
  readonly faultCounts: Record<string, number> = {};
  /** Per kind of fault: when it was last logged and how many were not logged since. */
  private readonly faultLog = new Map<string, { at: number; suppressed: number }>();

  /** The tick's length (ms), told to clients in `welcome`. */
  readonly tickMs: number;

  /** This process's world number, its capacity and the hop cooldown (config.world). */
  readonly worldId: number;
  readonly capacity: number;
  private readonly hopCooldownMs: number;
  /**
   * Set in a cluster: asks the process holding a character's lease (`ownerId`) to let the
   * character go (see handOver). Unset, a character live in another process is refused (CHARACTER_IN_USE).
   */
  takeover: ((characterId: string, ownerId: string) => Promise<void>) | undefined;

  constructor(deps: {
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
  }) {
    this.world = deps.world;
    this.worldId = deps.worldId ?? 1;
    this.capacity = deps.capacity ?? Number.MAX_SAFE_INTEGER;
    this.hopCooldownMs = deps.hopCooldownMs ?? 0;
    this.tickMs = deps.tickMs ?? TICK_MS;
    this.db = deps.db;
    this.content = deps.content;
    this.saver = deps.saver;
    this.logger = deps.logger;
    this.world.onFault = (fault) => this.reportFault(fault);
    this.leases = deps.leases;
    this.saver.onLost = (characterId) => void this.characterLost(characterId);
    this.saver.onGroundStored = (ids) => this.world.groundStored(ids);
    this.renewTimer = setInterval(() => void this.renewLeases(), this.leases.renewMs);
    this.renewTimer.unref();
  }

  /** Extends this process's leases; a character whose lease another process took is lost. */
  renewLeases(): Promise<void> {
    this.renewing ??= (async () => {
      try {
        for (const id of await this.leases.renewAll()) {
          this.logger.error({ characterId: id }, "lost a character lease to another process; the character is lost to this one");
          await this.characterLost(id);
        }
      } catch (err) {
        this.logger.warn({ err }, "renewing the character leases failed; will retry");
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  /**
   * Another process has taken the character over (its lease, or a save's version check): its
   * player is disconnected (CHARACTER_IN_USE) and leaves the world without a save, since any save
   * of ours would undo the other process's writes.
   */
  async characterLost(characterId: string): Promise<void> {
    this.saver.forget(characterId);
    this.world.trades.cancelFor(this.world, characterId, "disconnected");
    await this.world.trades.settled(characterId);
    this.cancelLinger(characterId);
    const conn = this.connections.get(characterId);
    if (conn !== undefined) {
      this.connections.delete(characterId);
      this.endSession(conn, "kicked");
      try {
        conn.send("error", { code: "CHARACTER_IN_USE", message: "this character was taken over by another server; log in again" });
        conn.close(CLOSE_CHARACTER_LOST, "character taken over by another server");
      } catch (err) {
        this.logger.debug({ err }, "closing a lost character's connection failed (already gone)");
      }
    }
    const player = this.world.removePlayer(characterId);
    if (player !== undefined) {
      this.onPlayerRemoved(player);
      this.hooks?.left(player);
    }
    // Dropped, not saved: and the lease row goes only if it is still ours.
    this.saver.forget(characterId);
    await this.leases.release(characterId).catch((err: unknown) => this.logger.warn({ err, characterId }, "could not release a lost character's lease"));
  }

  /**
   * A fault the tick contained (or, for `tick`, the room caught around it): counted, logged (with
   * where and the event name, never the payload; once a minute per kind, with the count in
   * between), and a player who reached the fault limit is disconnected, saved first.
   */
  reportFault(fault: Fault): void {
    this.faultCounts[fault.where] = (this.faultCounts[fault.where] ?? 0) + 1;
    const key = `${fault.where}:${fault.event ?? ""}`;
    const now = Date.now();
    const last = this.faultLog.get(key);
    if (last === undefined || now - last.at >= FAULT_LOG_INTERVAL_MS) {
      this.faultLog.set(key, { at: now, suppressed: 0 });
      this.logger.error({ err: fault.error, where: fault.where, event: fault.event, playerId: fault.playerId, entityId: fault.entityId, suppressed: last?.suppressed ?? 0 }, "the tick contained a fault");
    } else {
      last.suppressed++;
    }
    if (fault.disconnect && fault.playerId !== undefined) this.disconnectFaulty(fault.playerId);
  }

  /** A player whose commands keep failing on the server leaves the world, saved first. */
  private disconnectFaulty(playerId: string): void {
    const conn = this.connections.get(playerId);
    if (conn === undefined) {
      this.cancelLinger(playerId);
      void this.removeAndSave(playerId);
      return;
    }
    this.detach(playerId, conn, "logout");
    try {
      conn.send("error", { code: "INTERNAL", message: "disconnected after repeated server errors; your progress is saved" });
      conn.close(CLOSE_FAULTS, "repeated server errors");
      // This happens inside the tick, whose corked sockets are uncorked through `connections`,
      // which no longer holds this one.
      conn.uncork?.();
    } catch (err) {
      this.logger.debug({ err }, "closing a faulty player's connection failed (already gone)");
    }
  }

  /** The last resort of a process that must stop (an uncaught exception): every player saved now. */
  async saveEveryone(): Promise<void> {
    this.saver.enqueue([...this.world.players.values()].map(snapshot));
    await this.saver.flush();
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
   * Deletes an offline character of the account under the account's lock; whatever of it is still
   * queued or being saved (its last session's logout) is written first, so that no save lands
   * after its rows are gone. "online" when it is in the world (nothing is deleted), "missing" when
   * there was no such character.
   */
  deleteCharacter(accountId: string, characterId: string): Promise<"deleted" | "online" | "missing"> {
    return this.withAccount(accountId, async () => {
      if (this.world.players.has(characterId)) return "online";
      await this.saver.settled(characterId);
      // Live in another process: the lease says so, and holding it keeps that process from loading it meanwhile.
      try {
        await this.leases.acquire(characterId);
      } catch (err) {
        if (err instanceof CharacterInUseError) return "online";
        throw err;
      }
      try {
        return (await deleteCharacter(this.db, characterId)) ? "deleted" : "missing";
      } finally {
        await this.leases.release(characterId);
      }
    });
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
   * A connection's login, the same on both transports: {@link attach}, then at once `welcome`,
   * `player:sync` and, for an agent's token, `agent:goal` with the agent's current goal state (read
   * before the attach; the agent's pushes wait until it has been sent). Rejects with
   * {@link AgentRevokedError} when the token's agent is gone, and as attach does.
   */
  async login(principal: Principal, options: AttachOptions, conn: Connection, issuedToken: string | undefined): Promise<Player> {
    let greeting: AgentGreeting | undefined;
    if (principal.agentId !== undefined && this.agentGreeting !== undefined) {
      greeting = await this.agentGreeting(principal);
      if (greeting === undefined) throw new AgentRevokedError("this agent was deleted or its token replaced");
    }
    try {
      const player = await this.attach(principal, options, conn);
      conn.send("welcome", this.welcome(player, principal, issuedToken));
      conn.send("player:sync", playerSync(player));
      player.syncDue = false;
      if (greeting !== undefined) conn.send("agent:goal", greeting.state);
      return player;
    } finally {
      greeting?.release();
    }
  }

  /** Puts a connection in control of the account's character, loading it if needed. */
  attach(principal: Principal, options: AttachOptions, conn: Connection): Promise<Player> {
    return this.withAccount(principal.accountId, async () => {
      if (this.closed) throw new Error("the world is shutting down");
      await this.admission?.(principal.accountId);
      if (principal.characterId !== undefined && options.characterId !== undefined && options.characterId !== principal.characterId) {
        throw Object.assign(new Error("this token is scoped to another character"), { code: "FORBIDDEN" });
      }
      const characterId = options.characterId ?? principal.characterId;
      let player = characterId !== undefined ? this.world.players.get(characterId) : this.world.firstPlayerOfAccount(principal.accountId);
      if (player !== undefined && player.data.accountId !== principal.accountId) {
        throw Object.assign(new Error("that character belongs to another account"), { code: "FORBIDDEN" });
      }
      if (player === undefined) {
        if (this.world.players.size >= this.capacity) throw new WorldFullError(this.worldId, this.capacity);
        // Whatever is being saved of this character (or, not knowing which, of the account) is
        // written before it is read: a load must never see rows older than the world last had.
        await (characterId !== undefined ? this.saver.settled(characterId) : this.saver.settledAccount(principal.accountId));
        // What the player must have from its first tick (its ignore list), read before anything is claimed.
        const entered = await this.hooks?.beforeEnter(principal.accountId);
        // The lease is taken before the rows are read (claim): a character another live process
        // holds is refused with CHARACTER_IN_USE and nothing is loaded.
        let claimed: string | undefined;
        const data = await loadOrCreatePlayer(this.db, this.content, {
          accountId: principal.accountId,
          characterId,
          name: options.name,
          claim: async (id) => {
            if (this.world.players.has(id)) return;
            await this.checkHop(id);
            await this.acquireOrTakeOver(id);
            claimed = id;
          },
        }).catch(async (err: unknown) => {
          // Taken, then the load failed: the lease must not outlive the attempt.
          if (claimed !== undefined && !this.world.players.has(claimed)) await this.leases.release(claimed).catch(() => {});
          throw err;
        });
        player = this.world.players.get(data.characterId);
        if (player === undefined) {
          this.saver.track(data.characterId, data.version, data);
          player = this.world.addPlayer(data);
          entered?.(player);
          if (data.renamedFrom !== undefined) this.tellRenamed(player, data.renamedFrom);
        }
        this.onPlayerAdded(player);
      }
      const previous = this.connections.get(player.id);
      if (previous !== undefined && previous !== conn) {
        this.world.trades.cancelFor(this.world, player.id, "disconnected");
        this.world.takeControl(player);
        this.endSession(previous, "replaced");
        try {
          previous.send("error", { code: "SESSION_REPLACED", message: "this character logged in from another connection" });
          previous.close(CLOSE_REPLACED, "replaced by a newer login");
        } catch (err) {
          this.logger.debug({ err }, "closing a replaced connection failed (already gone)");
        }
      }
      this.cancelLinger(player.id);
      player.disconnectedAt = undefined;
      conn.principal = principal;
      // Its rights are this connection's, never the previous one's (an owner's `/admin` grant is not an agent's).
      controlAs(player, principal);
      this.connections.set(player.id, conn);
      conn.session = { characterId: player.id, name: player.data.name, startedAt: Date.now() };
      this.logger.info(
        { event: "join", characterId: player.id, name: player.data.name, accountId: principal.accountId, agentId: principal.agentId, transport: conn.transport, remoteAddress: conn.remoteAddress, takeover: previous !== undefined && previous !== conn },
        "player joined",
      );
      conn.sessionRowId = recordLogin(this.db, { characterId: player.id, accountId: principal.accountId, transport: conn.transport, remoteAddress: conn.remoteAddress, world: this.worldId }).catch(
        (err: unknown) => {
          this.logger.warn({ err }, "could not record the login");
          return undefined;
        },
      );
      player.syncDue = true;
      return player;
    });
  }

  /** Tells the player, once, that the name key migration renamed its character (db/nameKeys.ts). */
  private tellRenamed(player: Player, from: string): void {
    this.world.tell(player.id, renameNotice(from, player.data.name));
    clearRenamedFrom(this.db, player.id).catch((err: unknown) => this.logger.warn({ err, characterId: player.id }, "could not clear the rename notice: it will be given again"));
  }

  /**
   * Entering this world within the hop cooldown of entering another is refused: the character's
   * latest session says where and when it last entered a world (whichever process wrote it).
   */
  private async checkHop(characterId: string): Promise<void> {
    if (this.hopCooldownMs <= 0) return;
    const last = await lastSession(this.db, characterId);
    if (last === undefined || last.world === this.worldId) return;
    const until = last.loginAt.getTime() + this.hopCooldownMs;
    if (until > Date.now()) throw new HopCooldownError(new Date(until));
  }

  /**
   * Takes the character's lease. Held by another live process: in a cluster, asks that process to
   * let the character go and waits (up to {@link TAKEOVER_WAIT_MS}) for its final save to release
   * the lease; otherwise, or when it does not, CHARACTER_IN_USE.
   */
  private async acquireOrTakeOver(characterId: string): Promise<void> {
    try {
      await this.leases.acquire(characterId);
      return;
    } catch (err) {
      if (!(err instanceof CharacterInUseError) || this.takeover === undefined) throw err;
    }
    const holder = await this.leases.holder(characterId);
    if (holder !== undefined) await this.takeover(characterId, holder);
    const deadline = Date.now() + TAKEOVER_WAIT_MS;
    for (;;) {
      await new Promise((r) => setTimeout(r, TAKEOVER_POLL_MS));
      try {
        await this.leases.acquire(characterId);
        this.logger.info({ event: "takeover", characterId, from: holder }, "took a character over from another process");
        return;
      } catch (err) {
        if (!(err instanceof CharacterInUseError) || Date.now() >= deadline) throw err;
      }
    }
  }

  /**
   * Another process's login takes this character over (a world hop, or a login elsewhere): as a
   * takeover here, the connection hears SESSION_REPLACED and is closed (4009), its trade is
   * cancelled, and the player leaves saved; the lease is released after the save, which the other
   * process waits for. A character without a player here (its final save under way) needs
   * nothing: its lease goes when the save is stored.
   */
  handOver(characterId: string): void {
    const player = this.world.players.get(characterId);
    if (player === undefined) return;
    this.disconnectAccount(player.data.accountId, CLOSE_REPLACED, { code: "SESSION_REPLACED", message: "this character logged in on another world or server" }, characterId, "replaced");
  }

  /**
   * A deleted agent's live session, or one opened with a replaced token, ends at once (its tokens stop working at the next
   * authentication, but a socket that is already open would otherwise go on): `error`
   * NOT_AUTHENTICATED, close 4001, and the character logs out. A Colyseus client cannot come back
   * through its reconnection window, because the connection no longer controls the character.
   */
  revokeAgent(agentId: string, characterId: string, why = "this agent was deleted"): void {
    const conn = this.connections.get(characterId);
    if (conn === undefined || conn.principal?.agentId !== agentId) return;
    this.closeSeats(conn, CLOSE_NOT_AUTHENTICATED);
    this.detach(characterId, conn, "logout");
    try {
      conn.send("error", { code: "NOT_AUTHENTICATED", message: why });
      conn.close(CLOSE_NOT_AUTHENTICATED, "agent revoked");
    } catch (err) {
      this.logger.debug({ err }, "closing a revoked agent's connection failed (already gone)");
    }
  }

  /**
   * Ends the sessions of an account's characters in this process (all, or `characterId`'s): a kick
   * or a ban. Each connection gets `error` and is closed with `closeCode`; its trade is cancelled
   * and the player leaves the world saved, as at a logout (a character lingering after a dropped
   * connection leaves saved too). Returns the ids of the characters that left.
   */
  disconnectAccount(accountId: string, closeCode: number, error: { code: string; message: string; until?: string | null }, characterId?: string, reason: LogoutReason = "kicked"): string[] {
    const left: string[] = [];
    for (const player of [...this.world.players.values()]) {
      if (player.data.accountId !== accountId || (characterId !== undefined && player.id !== characterId)) continue;
      left.push(player.id);
      this.cancelLinger(player.id);
      const conn = this.connections.get(player.id);
      if (conn !== undefined) {
        this.closeSeats(conn, closeCode);
        this.connections.delete(player.id);
        this.world.trades.cancelFor(this.world, player.id, "disconnected");
        this.endSession(conn, reason);
        try {
          conn.send("error", error);
          conn.close(closeCode, error.code.toLowerCase());
        } catch (err) {
          this.logger.debug({ err }, "closing a kicked player's connection failed (already gone)");
        }
      }
      void this.removeAndSave(player.id);
    }
    return left;
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

  private closeSeats(conn: Connection, code: number): void {
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

  /**
   * A connection went away. `logout`: the player leaves now (saved). `disconnect`: it lingers
   * for {@link LINGER_MS} in case the client comes back. `expired`: the transport already waited
   * for a reconnection (Colyseus), so the player leaves now.
   */
  detach(playerId: string, conn: Connection, reason: "logout" | "disconnect" | "expired"): void {
    if (this.connections.get(playerId) !== conn) return;
    this.connections.delete(playerId);
    this.world.trades.cancelFor(this.world, playerId, "disconnected");
    this.endSession(conn, reason === "logout" ? "logout" : "disconnect");
    const player = this.world.players.get(playerId);
    if (player === undefined) return;
    releaseControl(player);
    if (reason !== "disconnect") {
      void this.removeAndSave(playerId);
      return;
    }
    player.disconnectedAt = this.world.now();
    this.lingering.set(
      playerId,
      setTimeout(() => {
        this.lingering.delete(playerId);
        if (!this.connections.has(playerId)) void this.removeAndSave(playerId);
      }, LINGER_MS),
    );
  }

  private cancelLinger(playerId: string): void {
    const timer = this.lingering.get(playerId);
    if (timer !== undefined) clearTimeout(timer);
    this.lingering.delete(playerId);
  }

  private endSession(conn: Connection, reason: LogoutReason): void {
    // The connection no longer controls its player: neither do the seats taken through it.
    this.closeSeats(conn, CLOSE_REPLACED);
    if (conn.session !== undefined) {
      const { characterId, name, startedAt } = conn.session;
      conn.session = undefined;
      this.logger.info({ event: "leave", characterId, name, transport: conn.transport, reason, durationMs: Date.now() - startedAt }, "player session ended");
    }
    const write = conn.sessionRowId?.then((id) => (id === undefined ? undefined : recordLogout(this.db, id, reason))).catch((err: unknown) => {
      this.logger.warn({ err }, "could not record the logout");
    });
    if (write !== undefined) {
      // Waited for at shutdown: a write still in flight when the database closes holds its
      // connection, and closing the pool waits for it forever.
      this.sessionWrites.add(write);
      void write.finally(() => this.sessionWrites.delete(write));
    }
  }

  private async removeAndSave(playerId: string): Promise<void> {
    // A trade being stored must finish first: its swap, not an older snapshot, is the last word.
    await this.world.trades.settled(playerId);
    if (this.connections.has(playerId)) return;
    const player = this.world.removePlayer(playerId);
    if (player === undefined) return;
    this.onPlayerRemoved(player);
    this.hooks?.left(player);
    this.saver.enqueue([snapshot(player)]);
    await this.saver.flush();
    // The lease goes once the final save is stored (retried until it is), under the account's lock
    // so that a login of the same character in between keeps its lease.
    await this.saver.settled(playerId);
    await this.withAccount(player.data.accountId, async () => {
      if (this.world.players.has(playerId) || this.saver.busy(playerId)) return;
      this.saver.forget(playerId);
      await this.leases.release(playerId);
    }).catch((err: unknown) => this.logger.warn({ err, characterId: playerId }, "could not release a character lease; it expires on its own"));
  }

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

  /** Shutdown: close every connection, save every player, wait for the saves. */
  /**
   * The first phase of a shutdown, while the sockets are still open: no more logins, every open
   * trade cancelled (`server_error`), swaps under way stored or rolled back, and one last tick that
   * delivers all of it to the clients.
   */
  quiesce(): Promise<void> {
    this.quiescing ??= (async () => {
      this.closed = true;
      this.world.trades.cancelAll(this.world);
      await this.onShutdownDrain();
    })();
    return this.quiescing;
  }

  async shutdown(): Promise<void> {
    await this.quiesce();
    for (const timer of this.lingering.values()) clearTimeout(timer);
    this.lingering.clear();
    for (const [, conn] of this.connections) this.endSession(conn, "shutdown");
    this.connections.clear();
    this.saver.enqueue([...this.world.players.values()].map(snapshot));
    await this.saver.flush();
    await Promise.allSettled([...this.accountLocks.values()]);
    await Promise.allSettled([...this.sessionWrites]);
    clearInterval(this.renewTimer);
    await this.renewing;
    // A character whose final save failed keeps its lease until it expires: another process must
    // not load the older rows at once.
    if (this.saver.queued === 0) {
      await this.leases.releaseAll().catch((err: unknown) => this.logger.warn({ err }, "could not release the character leases; they expire on their own"));
    }
  }
}
