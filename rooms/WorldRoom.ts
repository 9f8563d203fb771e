/**
 * WorldRoom (room name `world`): one world's synchronized state and its 600 ms tick. Thin: it
 * authenticates, hands messages to the WorldService (validation, queues, game core), and mirrors
 * the game's players into the schema state once per tick, followed by one patch.
 *
 * Interest management: each client's StateView holds the players within 16 tiles of its own;
 * its own player is added with the owner tag, so private fields reach the owner only.
 */
import { ClientState, CloseCode, getMessageBytes, logger as colyseusLog, Protocol, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import type { ArraySchema } from "@colyseus/schema";
import type { Authenticator } from "../src/auth/Authenticator.ts";
import { AuthUnavailable, TokenError, type Principal } from "../src/auth/tokens.ts";
import { SKILLS } from "../src/game/skills.ts";
import { DEFAULT_COMBAT_STYLE } from "../src/game/combatStyles.ts";
import { mirrorPrayer } from "./prayerMirror.ts";
import type { ItemStack, Player } from "../src/game/world/Player.ts";
import { describe, TICK_MS, type Entity, type World } from "../src/game/world/World.ts";
import { chebyshev } from "../src/game/map/CollisionMap.ts";
import { runQueueWaitNs, type ServerMetrics } from "../src/metrics.ts";
import type { Traffic } from "../src/prometheus.ts";
import { admit, InputLimiter } from "../src/sessions/inputLimiter.ts";
import { unchanging } from "../src/io/protocol.ts";
import { AgentRevokedError, HopCooldownError, WorldFullError, type Connection, type WorldService } from "../src/sessions/WorldService.ts";
import { PlayerLoadError } from "../src/persistence/players.ts";
import { BannedError, CLOSE_KICKED } from "../src/moderation/ModerationService.ts";
import { RestartingError } from "../src/moderation/RestartSchedule.ts";
import { CharacterInUseError } from "../src/persistence/leases.ts";
import { EntityState, EquippedState, ItemSlotState, PlayerState, SkillState, TAG_OWNER, WorldState } from "../schema/WorldState.ts";
import type { EntityView } from "../src/game/world/entities.ts";
import { Interest, KEEP_RADIUS, REFRESH_TICKS, type ViewChange } from "../src/game/world/Interest.ts";
import { TooManyAttempts, type AuthAttempts } from "../src/auth/attemptLimiter.ts";
import { indexVisibleChanges } from "./visibleChanges.ts";
import { WorldView } from "./WorldView.ts";
import { useWorldBuffers, type WorldSerializer } from "./worldBuffers.ts";
import type { WorldMetadata } from "../src/cluster/worlds.ts";
import { DEFAULT_TICK_WRITES, TICK_WRITES_BURST } from "../src/config/env.ts";
import { attributeFrames } from "./badFrames.ts";
import { monitorLabel, sessionOfLabel } from "./monitorLabels.ts";

export const WORLD_ROOM = "world";
export const MAX_WORLD_CLIENTS = 10_000;
/** Seconds a dropped Colyseus client may take to reconnect to the same seat. */
export const RECONNECT_SECONDS = 30;
/** Ticks in a row that may throw outside the game step before the process gives up (see onUncaughtException). */
export const MAX_TICK_FAULTS = 5;

export interface WorldRoomServices {
  service: WorldService;
  /** Only the server knows it: rooms are created by the server, never by a client's matchmaking call. */
  createKey: string;
  metrics?: ServerMetrics;
  auth: Authenticator;
  anonymousMode: boolean;
  tickMs?: number;
  /**
   * How a tick's Colyseus patches are written (`TICK_WRITES`, see tickOnce): N sockets at a time, as
   * soon as N patches are encoded (the `/ws` frames, once in, with the next batch); 1 is each as soon
   * as encoded; {@link TICK_WRITES_BURST} every socket once all are encoded, the `/ws` ones first.
   */
  tickWrites?: number;
  /**
   * Seconds a seat reserved by matchmaking waits for its client's socket (`SEAT_RESERVATION_S`):
   * a world taking a burst of logins answers the matchmaking at once and reaches the sockets later.
   */
  seatReservationS?: number;
  /** Authentication attempts per client address (see AuthAttempts). */
  attempts: AuthAttempts;
  /** What the world publishes in its room listing (src/cluster/worlds.ts): read every {@link WORLD_LISTING_MS}. */
  listing?: () => WorldMetadata;
  /**
   * The room was disposed. By the server's close, as it should be; any other way (a bug, a
   * `disconnect()` from elsewhere) the world no longer ticks, and the server ends the process.
   */
  onDisposed?: () => void;
}

/** How often a world room refreshes its listing's metadata (players, status), ms; written only when it changed. */
export const WORLD_LISTING_MS = 1_000;

/**
 * How long a player's id is remembered after it left the state (WorldRoom.addSchema): a view
 * refreshes every REFRESH_TICKS ticks (the delta worker's a tick after, or its answer a tick late),
 * and lets go then of what left; this is many times that.
 */
export const REMOVED_KEPT_TICKS = 25 * REFRESH_TICKS;

/**
 * A join's world choice (`{world: n}`; a number, or digits): checked and made a number before the
 * matchmaker filters by it, so that `"2"` finds world 2. Absent: the matchmaker chooses.
 */
export function normaliseWorldOption(options: { world?: unknown } | undefined): void {
  if (options === undefined || options === null || options.world === undefined) return;
  const raw = options.world;
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 9_999) throw new ServerError(400, `INVALID_WORLD: world must be a world number from 1 to 9999, got ${JSON.stringify(raw)}`);
  options.world = n;
}

export interface WorldAuth {
  principal: Principal;
  issuedToken: string | undefined;
  /** The client's address (see authenticate). */
  address: string | undefined;
}

interface ClientData {
  playerId: string;
  conn: ColyseusConnection;
}

type WorldClient = Client<{ auth: WorldAuth; userData: ClientData }>;

/** The monitor's session id of a `/ws` player: this prefix and its character id. */
export const WS_SESSION_PREFIX = "ws:";
interface InspectClient {
  sessionId: string;
  elapsedTime: number;
  transport?: "colyseus" | "ws";
  name?: string | null;
}
/** What the monitor's room inspector shows (its own fields, the clients with their players). */
interface InspectData {
  clients: InspectClient[];
  wsPlayers?: number;
  [field: string]: unknown;
}

/** A tick's sending of the `/ws` frames (see WorldRoom.sendWs): whether done, and its times (ms). */
interface WsSending {
  deltas: number;
  flush: number;
  sent: boolean;
  /** The part of them spent between Colyseus patches. */
  polled: number;
}

/** The calling thread's CPU time since `start` (a `process.threadCpuUsage()`), in ms. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.threadCpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** The calling thread's run-queue wait since `start` (a runQueueWaitNs()), in ms; undefined where not known. */
function waitedMsSince(start: number | undefined): number | undefined {
  const now = runQueueWaitNs();
  return start === undefined || now === undefined ? undefined : (now - start) / 1e6;
}

/** Messages sent to many clients (a chat line to everyone in view) are encoded once. */
const encoded = new WeakMap<object, { type: string; bytes: Uint8Array }>();

/** The underlying TCP socket of a Colyseus client (ws-transport), to batch a tick's writes. */
function tcpOf(client: WorldClient): { cork(): void; uncork(): void } | undefined {
  return (client as unknown as { ref?: { _socket?: { cork(): void; uncork(): void } } }).ref?._socket;
}

/** A Colyseus client as a WorldService connection. */
class ColyseusConnection implements Connection {
  readonly transport = "colyseus" as const;
  client: WorldClient;
  /** What this client sees (players and entities), when worked out on this thread (see interestId). */
  interest = new Interest();
  /** Whether its view has been filled once. */
  started = false;
  /** The ids its view was given (players and entities). */
  readonly inView = new Set<string>();
  /**
   * Its view's interest worked out in the delta worker under this id (WorldService.addInterest),
   * from the tick after its join; undefined: on this thread.
   */
  interestId: number | undefined;
  /** Ids the worker said entered its view while they were not in the state: tried again each tick. */
  missing: Set<string> | undefined;
  readonly limiter = new InputLimiter();
  readonly remoteAddress: string | undefined;
  private readonly traffic: Traffic | undefined;
  constructor(client: WorldClient, remoteAddress: string | undefined, traffic: Traffic | undefined) {
    this.client = client;
    this.remoteAddress = remoteAddress;
    this.traffic = traffic;
  }
  send(type: string, data: object): void {
    let hit = encoded.get(data);
    // Kept for every recipient and never changed: the socket process's outbox copies it once for a
    // run of recipients (a chat line to everyone in view).
    if (hit === undefined || hit.type !== type) encoded.set(data, (hit = { type, bytes: unchanging(getMessageBytes.raw(Protocol.ROOM_DATA, type, data)) }));
    this.client.enqueueRaw(hit.bytes);
    this.traffic?.sent("colyseus", type, (data as { code?: string }).code);
  }
  close(code: number): void {
    this.client.leave(code);
  }
  isOpen(): boolean {
    // Joining or reconnecting: queued and sent once joined. Dropped (LEAVING, its seat held for a
    // reconnection) or replaced by its reconnection: what it is sent stays in the old client.
    const state = this.client.state;
    return state === ClientState.JOINED || state === ClientState.JOINING || state === ClientState.RECONNECTING;
  }
  cork(): void {
    tcpOf(this.client)?.cork();
  }
  uncork(): void {
    tcpOf(this.client)?.uncork();
  }
}

/**
 * Token from the SDK (`client.auth.token`) or, failing that, the `token` join option. `address`:
 * Colyseus' `AuthContext.ip`, read from `X-Real-IP`, which the server sets on every request to the
 * address behind its trusted proxies (src/http/clientAddress.ts).
 */
async function authenticate(services: WorldRoomServices, token: string | undefined, options: { token?: unknown }, address: string | undefined): Promise<WorldAuth> {
  const raw = token || (typeof options?.token === "string" ? options.token : undefined);
  if (!raw && !services.anonymousMode) throw new ServerError(401, "a bearer token is required");
  return asJoinError(async () => {
    if (!raw) {
      await services.attempts.takeAnonymousIdentity(address);
      const { principal, token: issued } = await services.auth.issueAnonymous();
      return { principal, issuedToken: issued, address };
    }
    return { principal: await services.attempts.checkToken(address, () => services.auth.authenticate(raw)), issuedToken: undefined, address };
  });
}

/**
 * Runs a join's authentication: a bad token is a 401, too many attempts a 429, keys unavailable a
 * 503 (what the SDK rejects the join with); anything else is {@link internalJoinError}.
 */
export async function asJoinError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof TokenError) throw new ServerError(401, err.message);
    if (err instanceof TooManyAttempts) throw new ServerError(429, err.message);
    if (err instanceof AuthUnavailable) throw new ServerError(503, err.message);
    throw internalJoinError(err, "authentication");
  }
}

/**
 * A join that failed on the server (a database error, a bug): logged here, and the client gets
 * 500 "internal error", never the error's own text (Colyseus sends a join error's message as is).
 */
export function internalJoinError(err: unknown, stage: string): ServerError {
  if (err instanceof ServerError) return err;
  colyseusLog.error({ err, stage }, "a join failed on the server");
  return new ServerError(500, "internal error");
}

/** The room class bound to one server's services (static onAuth is called unbound). */
export function worldRoomClass(services: WorldRoomServices): typeof WorldRoom {
  return class BoundWorldRoom extends WorldRoom {
    static override async onAuth(token: string, options: { token?: unknown; world?: unknown }, context: AuthContext): Promise<WorldAuth> {
      normaliseWorldOption(options);
      return authenticate(services, token, options, context?.ip);
    }
    override services = services;
  };
}

export class WorldRoom extends Room<{ state: WorldState; client: WorldClient }> {
  override state = new WorldState();
  override maxClients = MAX_WORLD_CLIENTS;
  override autoDispose = false;
  /** Patches are sent once per game tick, right after it. */
  override patchRate: number | null = null;
  services!: WorldRoomServices;
  private readonly schemaOf = new Map<string, PlayerState>();
  private readonly mirrored = new Map<string, { pub: number; priv: number }>();
  /** Non-player entities currently in the state, with the version last mirrored. */
  private readonly entityVersions = new Map<string, number>();
  /** The sockets of the clients whose patches were encoded since the last batch was written (see onCreate). */
  private readonly releasePending: (() => void)[] = [];
  /**
   * Whether the state lags behind the world: ticks without a Colyseus client skip the mirror (no
   * one reads the state; a world of `/ws` players and agents need not pay for it). The versions
   * compared by the mirror bring every lagging player and entity up to date at once.
   */
  private mirrorBehind = false;
  /**
   * Whether this room is the world (created by the server with its key). A join that reaches the
   * matchmaker's create (an unknown world, a forged create) makes a room whose onCreate refuses it
   * and which Colyseus then disposes: that disposal is no loss of the world.
   */
  private isTheWorld = false;

  override onCreate(options: { createKey?: unknown; world?: unknown }): void {
    if (options?.createKey !== this.services.createKey) {
      // A join naming a world that no process runs ends here (the matchmaker found no room to join).
      if (options?.world !== undefined) throw new ServerError(404, `UNKNOWN_WORLD: there is no world ${String(options.world)}`);
      throw new ServerError(403, "rooms are created by the server");
    }
    this.isTheWorld = true;
    attributeFrames(this);
    if (this.services.seatReservationS !== undefined) this.seatReservationTimeout = this.services.seatReservationS;
    const { service } = this.services;
    // Each client's patch walks only the changed trees its view may see (see visibleChanges.ts).
    const serializer = (this as unknown as { _serializer: Partial<WorldSerializer> })._serializer;
    const encoder = serializer.encoder;
    if (encoder === undefined || serializer.fullEncodeBuffer === undefined) throw new Error("WorldRoom: the schema serializer has no encoder");
    indexVisibleChanges(encoder);
    // The patches leave in batches of `tickWrites` sockets (see tickOnce): a batch's sockets are
    // released when the encoder moves on to the view after it (Colyseus sends a patch right after
    // encoding it), so a client waits for its batch's patches to be encoded, not every client's.
    // `burst` (0) leaves every socket corked until all are encoded.
    const encodeView = encoder.encodeView.bind(encoder);
    const batch = this.services.tickWrites ?? DEFAULT_TICK_WRITES;
    let encodes = 0;
    encoder.encodeView = (view, ...rest) => {
      if (batch === TICK_WRITES_BURST) {
        // With the socket process (flushWrites), sending the `/ws` frames costs this thread one IPC
        // message, not a write a socket: they go as soon as the delta worker has them (checked
        // every 32 patches), so the child writes them while the patches are encoded.
        // Every 32 patches, what was flushed but not yet taken by the pipe to the child is moved
        // on too (the event loop, which would, does not run until the tick ends).
        if (service.flushWrites !== undefined && (++encodes & 31) === 0) {
          const ws = this.wsThisTick;
          if (ws !== undefined && !ws.sent) this.sendWs(ws, false);
          service.pumpWrites?.();
        }
        return encodeView(view, ...rest);
      }
      if (this.releasePending.length >= batch) {
        for (const release of this.releasePending) release();
        this.releasePending.length = 0;
        // Where the writes are batched beyond the sockets (the socket process), the batch leaves now.
        service.flushWrites?.();
        // A delta worker's `/ws` frames leave as soon as they are in, between two batches.
        const ws = this.wsThisTick;
        if (ws !== undefined && !ws.sent) this.sendWs(ws, false);
      }
      const release = (view as WorldView).release;
      if (release !== undefined) this.releasePending.push(release);
      return encodeView(view, ...rest);
    };
    // Large buffers for the world's encoding (worldBuffers.ts), around every wrapper above.
    useWorldBuffers(serializer as WorldSerializer);
    for (const p of service.world.players.values()) this.addSchema(p);
    service.onPlayerAdded = (p) => this.addSchema(p);
    service.onPlayerRemoved = (p) => this.removeSchema(p);
    this.onMessage("*", (client: WorldClient, type: string | number, message: unknown) => {
      const data = client.userData;
      if (data === undefined || !admit(data.conn.limiter, Date.now(), data.conn)) return;
      service.input(data.playerId, data.conn, String(type), message);
    });
    this.setSimulationInterval(() => this.tickOnce(), this.services.tickMs ?? TICK_MS);
    if (this.services.listing !== undefined) {
      void this.publishListing();
      this.clock.setInterval(() => void this.publishListing(), WORLD_LISTING_MS);
    }
  }

  private publishedListing = "";

  /** Writes the world's listing metadata (players, status, rank) when it changed. */
  private async publishListing(): Promise<void> {
    const metadata = this.services.listing!();
    const text = JSON.stringify(metadata);
    if (text === this.publishedListing) return;
    this.publishedListing = text;
    try {
      await this.setMetadata(metadata as never);
    } catch (err) {
      this.publishedListing = "";
      colyseusLog.warn({ err }, "could not publish the world's listing; will retry");
    }
  }

  /** Ticks in a row that threw outside the game step (which contains its own faults). */
  private tickFaults = 0;

  /**
   * Colyseus calls this for an exception in a room method or timer instead of letting it escape.
   * The tick's: the sockets it corked are released, the fault is counted and logged, and the next
   * tick runs; MAX_TICK_FAULTS in a row mean the room cannot go on, so the exception goes to the
   * process's last resort (main.ts: every player saved, exit non-zero for the supervisor).
   * Others (a join, a leave) are logged; Colyseus still fails the join itself.
   */
  override onUncaughtException(error: Error, methodName: string): void {
    const { service } = this.services;
    if (methodName === "setTimestep") {
      service.uncork();
      service.reportFault({ where: "tick", error });
      if (++this.tickFaults >= MAX_TICK_FAULTS) {
        setImmediate(() => {
          throw error;
        });
      }
      return;
    }
    // A refused join (a ServerError we threw) is an answer, not a fault.
    if (error.cause instanceof ServerError) return;
    service.reportFault({ where: `room:${methodName}`, error });
  }

  override onDispose(): void {
    if (this.isTheWorld) this.services.onDisposed?.();
  }

  override async onJoin(client: WorldClient, options: { characterId?: unknown; name?: unknown }): Promise<void> {
    const { service } = this.services;
    const auth = client.auth;
    if (auth === undefined) throw new ServerError(401, "not authenticated");
    const conn = new ColyseusConnection(client, auth.address, service.traffic);
    const characterId = typeof options?.characterId === "string" ? options.characterId : undefined;
    const name = typeof options?.name === "string" ? options.name : undefined;
    let player: Player;
    try {
      // Queues welcome, player:sync (and an agent's agent:goal): they leave once the join completes.
      player = await service.login(auth.principal, { characterId, name }, conn, auth.issuedToken);
    } catch (err) {
      // Known refusals have their own status and message; anything else is internal (see the end).
      if (err instanceof AgentRevokedError) throw new ServerError(401, err.message);
      if (err instanceof BannedError) throw new ServerError(403, `BANNED: ${err.message}`);
      if (err instanceof RestartingError) throw new ServerError(503, `RESTARTING: ${err.message}`);
      if (err instanceof PlayerLoadError) throw new ServerError(err.code === "FORBIDDEN" ? 403 : err.code === "NOT_FOUND" ? 404 : 400, err.message);
      if ((err as { code?: string }).code === "FORBIDDEN") throw new ServerError(403, (err as Error).message);
      if (err instanceof CharacterInUseError) throw new ServerError(409, err.message);
      if (err instanceof WorldFullError) throw new ServerError(503, `WORLD_FULL: ${err.message}`);
      if (err instanceof HopCooldownError) throw new ServerError(429, `HOP_COOLDOWN: ${err.message}`);
      throw internalJoinError(err, "load");
    }
    client.userData = { playerId: player.id, conn };
    const view = new WorldView();
    view.release = () => conn.uncork();
    client.view = view;
    if (this.mirrorBehind) this.mirrorAll(service.world);
    // Its private fields, now that its owner is a Colyseus client (see mirror).
    this.mirror(player);
    // Its first view is filled here, now; from the next tick on the delta worker works it out.
    this.updateView(conn, service.world, player);
    conn.interestId = service.addInterest(player.id, [...conn.inView]);
    if (conn.interestId !== undefined) this.byInterest.set(conn.interestId, conn);
  }

  override async onDrop(client: WorldClient, code?: number): Promise<void> {
    if (code === CloseCode.WITH_ERROR || client.userData === undefined) return;
    try {
      await this.allowReconnection(client, RECONNECT_SECONDS);
    } catch {
      // The window passed; onLeave follows.
    }
  }

  override onReconnect(client: WorldClient): void {
    const data = client.userData;
    if (data === undefined) return;
    data.conn.client = client;
    // A newer login may have taken the character over meanwhile.
    if (this.services.service.connectionOf(data.playerId) !== data.conn) client.leave(4009);
  }

  override onLeave(client: WorldClient, code?: number): void {
    const data = client.userData;
    if (data !== undefined) {
      // A consented leave logs out now; after a lost connection the reconnection window already passed.
      this.services.service.detach(data.playerId, data.conn, code === CloseCode.CONSENTED ? "logout" : "expired");
      const interestId = data.conn.interestId;
      if (interestId !== undefined) {
        this.services.service.removeInterest(interestId);
        this.byInterest.delete(interestId);
        data.conn.interestId = undefined;
      }
    }
    client.view?.dispose();
  }

  /**
   * The monitor's room inspector (`@colyseus/monitor` reaches it through remoteRoomCall, on the
   * process that holds the room): its own answer, with each client's player named, and every `/ws`
   * player of the world added to `clients` (session id `ws:<character id>`), so an admin sees all
   * of the world's players, whichever transport they play on. Each row's `sessionId` carries the
   * name, as `Name (<session id>)` (monitorLabels.ts): the panel shows that column only.
   */
  async getInspectData(): Promise<InspectData> {
    // The inspector shows the state: current, even while no Colyseus client keeps it so.
    if (this.mirrorBehind) this.mirrorAll(this.services.service.world);
    const base = await (Room.prototype as unknown as { getInspectData(this: Room): Promise<InspectData> }).getInspectData.call(this);
    const { service } = this.services;
    const now = Date.now();
    const bySession = new Map(this.clients.map((c) => [c.sessionId, c.userData?.playerId]));
    const clients: InspectClient[] = base.clients.map((c) => {
      const player = service.world.players.get(bySession.get(c.sessionId) ?? "");
      const name = player?.data.name ?? null;
      return { ...c, sessionId: monitorLabel(name, c.sessionId), transport: "colyseus", name };
    });
    for (const player of service.world.players.values()) {
      const conn = service.connectionOf(player.id);
      if (conn?.transport !== "ws") continue;
      const started = conn.session?.startedAt ?? now;
      clients.push({ sessionId: monitorLabel(player.data.name, `${WS_SESSION_PREFIX}${player.id}`), elapsedTime: now - started, transport: "ws", name: player.data.name });
    }
    return { ...base, clients, wsPlayers: clients.length - base.clients.length };
  }

  /**
   * The monitor's "disconnect" button, on a row's label or bare session id: a Colyseus client
   * leaves as the monitor does it; a `/ws` player (`ws:<character id>`) is kicked as `POST /api/admin/kick` does (KICKED, close 4011,
   * saved), without an audit row: the monitor does not say which admin pressed it.
   */
  async _forceClientDisconnect(row: string): Promise<void> {
    if (typeof row !== "string") return;
    const sessionId = sessionOfLabel(row);
    if (!sessionId.startsWith(WS_SESSION_PREFIX)) {
      for (const client of this.clients) if (client.sessionId === sessionId) client.leave();
      return;
    }
    const { service } = this.services;
    const player = service.world.players.get(sessionId.slice(WS_SESSION_PREFIX.length));
    if (player === undefined || service.connectionOf(player.id)?.transport !== "ws") return;
    service.disconnectAccount(player.data.accountId, CLOSE_KICKED, { code: "KICKED", message: "you were disconnected by an admin" }, player.id);
  }

  /**
   * One tick: the game step, this tick's `/ws` feed (see WsDeltas), the step's messages, the
   * schema mirror, then one patch per Colyseus client and the `/ws` frames. Without a delta worker
   * the `/ws` frames are built before the patches; with one they are built there meanwhile.
   *
   * The writes (`tickWrites`): every socket is written once a tick. By default (`burst`) every
   * socket stays corked until every patch is encoded; then the `/ws` frames are written, then the
   * Colyseus patches, in a row. With batches of N, once N patches are encoded their N sockets are
   * written, then the `/ws` frames if the worker has them (else before the last batch). Where a
   * system call is dear, fewer runs of writes between the encodes pay: on the benchmark's VM,
   * JavaScript run after a system call was 40-50 % slower, and the Colyseus patch phase (writes
   * included) took 54-66 ms in a burst, ~72 ms in batches of 64 and 67-86 ms writing each patch as
   * soon as encoded (N = 1), which gets the first patches out sooner (bench/README.md, world-load).
   */
  tickOnce(): void {
    const started = performance.now();
    const cpu = process.threadCpuUsage();
    const waited = runQueueWaitNs();
    const { service } = this.services;
    // Every socket is corked for the tick: a client's messages and its update leave in one write.
    service.cork();
    service.step();
    const world = service.world;
    const t1 = performance.now();
    service.publishStart();
    const t2 = performance.now();
    service.deliverMessages();
    const t2b = performance.now();
    this.state.tick = world.tick;
    if (this.removedAt.size > 0) this.forgetRemoved(world.tick);
    // A joining client is in `clients` from before its login, so the state is current again
    // before its view is filled (and onJoin catches up in case no tick came between).
    if (this.clients.length > 0) this.mirrorAll(world);
    else this.mirrorBehind = true;
    const t2c = performance.now();
    const ws = { deltas: 0, flush: 0, sent: false, polled: 0 };
    this.wsThisTick = ws;
    if (!service.deltasThreaded) this.sendWs(ws, true);
    const t3 = performance.now();
    // The views' changes: from the delta worker, which worked them out on the other core while
    // this thread delivered the messages and mirrored the state (waiting here if it is not done),
    // or refreshed here. Every refresh first, then every view's changes: the refreshes read the
    // players' positions of the whole crowd, and the view changes walk the schema's trees;
    // interleaved, each evicted the other's data from the caches.
    // The worker answers in parts (INTEREST_PARTS): the first part's views are changed while it
    // works out the rest, which is taken after them.
    const changes = this.viewChanges;
    const threaded = service.interestsThreaded && this.byInterest.size > 0;
    if (threaded) this.takeInterestChanges(world, false);
    for (const client of this.clients) {
      const data = client.userData;
      const player = data && world.players.get(data.playerId);
      if (player === undefined) continue;
      const conn = data!.conn;
      if (conn.interestId !== undefined) {
        if (threaded) {
          if (conn.missing !== undefined) this.addMissing(conn);
          continue;
        }
        // The worker failed: this view is worked out here again, from what it holds (what is no
        // longer in the world is let go now: a refresh here would never find it to say so).
        this.byInterest.delete(conn.interestId);
        conn.interestId = undefined;
        conn.missing = undefined;
        conn.interest = new Interest();
        const held: Entity[] = [];
        for (const id of conn.inView) {
          const e = world.entityById(id);
          if (e !== undefined) held.push(e);
          else {
            conn.inView.delete(id);
            const s = this.schemaFor(id);
            if (s !== undefined) client.view?.remove(s);
          }
        }
        conn.interest.seed(held);
      }
      const change = this.refreshInterest(conn, world, player);
      if (change !== undefined) changes.push(conn, player, change);
    }
    const t3b = performance.now();
    this.applyViewChanges();
    // The rest of the worker's answer: the time waited for it counts as the interest phase's.
    let restWaited = 0;
    if (threaded) {
      const a = performance.now();
      this.takeInterestChanges(world, true);
      restWaited = performance.now() - a;
      this.applyViewChanges();
    }
    const t4 = performance.now();
    this.broadcastPatch();
    // The last batch's sockets are written below, with every other corked Colyseus socket.
    this.releasePending.length = 0;
    const t5 = performance.now();
    // `/ws` frames not written between the batches go before the last ones (with a worker they
    // were built meanwhile; in a burst they are the first).
    if (!ws.sent) this.sendWs(ws, true);
    const t5b = performance.now();
    service.uncork("colyseus");
    const t6 = performance.now();
    this.wsThisTick = undefined;
    this.services.metrics?.recordTick(performance.now() - started, {
      game: service.lastTickTimes.gameMs,
      messages: t2b - t2,
      schemaMirror: t2c - t2b,
      wsFeed: t2 - t1,
      colyseusInterest: t3b - t3 + restWaited,
      colyseusViews: t4 - t3b - restWaited,
      // The polls and sending of `/ws` frames between patches (see onCreate) count as the `/ws` phases.
      colyseusPatch: t5 - t4 - ws.polled,
      colyseusFlush: t6 - t5b,
      wsDeltas: ws.deltas,
      wsFlush: ws.flush,
    }, cpuMsSince(cpu), started, waitedMsSince(waited));
    this.services.metrics?.recordPaths(world.pathStats);
    this.services.metrics?.recordViewChanges(this.viewsEntered, this.viewsLeft);
    this.viewsEntered = 0;
    this.viewsLeft = 0;
    this.tickFaults = 0;
  }

  /** The worker's interest changes of the Colyseus views into `viewChanges` (`all` false: the first part; see WsDeltas.takeInterests). */
  private takeInterestChanges(world: World, all: boolean): void {
    for (const change of this.services.service.takeInterests(all)) {
      const conn = this.byInterest.get(change.viewer);
      const player = conn === undefined ? undefined : world.players.get(conn.client.userData?.playerId ?? "");
      if (player !== undefined) this.viewChanges.push(conn!, player, change);
    }
  }

  /** The views' changes gathered in `viewChanges`, applied in order. */
  private applyViewChanges(): void {
    const changes = this.viewChanges;
    for (let i = 0; i < changes.length; i += 3) this.applyViewChange(changes[i] as ColyseusConnection, changes[i + 1] as Player, changes[i + 2] as ViewChange);
    changes.length = 0;
  }
  /** The view changes applied since the last tick's metrics (applyViewChange: a join's first view included). */
  private viewsEntered = 0;
  private viewsLeft = 0;

  /** This tick's `/ws` sending (see tickOnce): done or not, and its time. */
  private wsThisTick: WsSending | undefined;

  /**
   * The `/ws` frames to their sockets: waiting for them (`wait`), or only if they are in (a
   * worker's, polled between Colyseus patches). Times the finishing and the writing.
   */
  private sendWs(ws: WsSending, wait: boolean): void {
    const { service } = this.services;
    const a = performance.now();
    if (wait) service.publishFinish();
    else if (!service.publishPoll()) {
      const spent = performance.now() - a;
      ws.deltas += spent;
      ws.polled += spent;
      return;
    }
    const b = performance.now();
    service.uncork("ws");
    const c = performance.now();
    ws.deltas += b - a;
    ws.flush = c - b;
    ws.sent = true;
    if (!wait) ws.polled += c - a;
  }

  // ---- schema mirroring ------------------------------------------------------------------

  /** Everything that changed since it was last mirrored, into the state. */
  private mirrorAll(world: World): void {
    for (const player of world.players.values()) this.mirror(player);
    this.mirrorEntities(world);
    this.mirrorBehind = false;
  }

  private addSchema(player: Player): void {
    if (this.schemaOf.has(player.id)) return;
    const s = new PlayerState();
    this.schemaOf.set(player.id, s);
    this.state.players.set(player.id, s);
    this.mirrored.set(player.id, { pub: -1, priv: -1 });
    this.mirror(player);
    // Back in the world before the views that held it saw it leave (a logout and a login between
    // two ticks): those it is still near are given its new schema now, as nothing would tell them
    // it entered again; for the others its id no longer names anything in their view. Only for a
    // player who left lately: a view lets an id go within a few ticks of its leaving, and a first
    // login, or one long after, would scan every client for nothing (O(clients) a login: ~1 ms at
    // 1,000 clients, 1.8 s of the world's thread over a ramp of 2,000 logins).
    if (!this.removedAt.delete(player.id)) return;
    const world = this.services.service.world;
    for (const client of this.clients) {
      const conn = client.userData?.conn;
      if (conn === undefined || !conn.inView.has(player.id)) continue;
      const viewer = world.players.get(client.userData!.playerId);
      if (viewer !== undefined && chebyshev(viewer, player) <= KEEP_RADIUS) client.view?.add(s);
      else conn.inView.delete(player.id);
    }
  }

  /**
   * Players whose schema left the state lately, by id: the world's tick then (see addSchema). Let
   * go of after {@link REMOVED_KEPT_TICKS}, by then every view has let the id go.
   */
  private readonly removedAt = new Map<string, number>();

  /** Forgets the players removed more than {@link REMOVED_KEPT_TICKS} ago (oldest first: the map is in removal order). */
  private forgetRemoved(tick: number): void {
    for (const [id, at] of this.removedAt) {
      if (tick - at <= REMOVED_KEPT_TICKS) break;
      this.removedAt.delete(id);
    }
  }

  private removeSchema(player: Player): void {
    this.removedAt.delete(player.id);
    this.removedAt.set(player.id, this.services.service.world.tick);
    this.state.players.delete(player.id);
    this.schemaOf.delete(player.id);
    this.mirrored.delete(player.id);
  }

  private mirror(player: Player): void {
    const s = this.schemaOf.get(player.id);
    const seen = this.mirrored.get(player.id);
    if (s === undefined || seen === undefined) return;
    const d = player.data;
    if (seen.pub !== player.publicVersion) {
      seen.pub = player.publicVersion;
      s.id = player.id;
      s.name = d.name;
      s.x = d.x;
      s.z = d.z;
      s.health = d.health;
      s.maxHealth = player.maxHealth;
      s.combatLevel = d.combatLevel;
      s.running = player.running;
    }
    // Private fields only for an owner on Colyseus: only its view has the owner tag, and a `/ws`
    // owner reads none of the schema (at 2,000 players, half of the state's trees were these).
    if (seen.priv !== player.privateVersion && this.services.service.connectionOf(player.id)?.transport === "colyseus") {
      seen.priv = player.privateVersion;
      // In place: the schema's setters ignore a value that did not change, so the owner's patch
      // carries what changed (a log cut is one slot, not the whole inventory and bank again) and no
      // schema object is made for what was already there.
      s.coins = d.coins;
      s.combatStyle = d.combatStyle ?? DEFAULT_COMBAT_STYLE;
      mirrorPrayer(s, player);
      syncSlots(s.inventory, d.inventory);
      for (const skill of SKILLS) {
        const cur = s.skills.get(skill);
        const { level, xp } = d.skills[skill];
        if (cur === undefined) s.skills.set(skill, new SkillState({ level, xp }));
        else Object.assign(cur, { level, xp });
      }
      let unequipped: string[] | undefined;
      for (const key of s.equipment.keys()) if (!(key in d.equipment)) (unequipped ??= []).push(key);
      if (unequipped !== undefined) for (const key of unequipped) s.equipment.delete(key);
      for (const slot in d.equipment) {
        const { itemId, quantity } = d.equipment[slot]!;
        const cur = s.equipment.get(slot);
        if (cur === undefined) s.equipment.set(slot, new EquippedState({ itemId, quantity }));
        else Object.assign(cur, { itemId, quantity });
      }
      syncSlots(s.bank, d.bank);
    }
  }

  /** Every NPC, ground item, resource and object into the state (views filter per client); gone ones out. */
  private mirrorEntities(world: World): void {
    const present = new Set<string>();
    world.forEachShown(false, (e, version) => {
      present.add(e.id);
      if (this.entityVersions.get(e.id) === version) return;
      this.entityVersions.set(e.id, version);
      const view = describe(e) as EntityView;
      let s = this.state.entities.get(view.id);
      if (s === undefined) {
        s = new EntityState();
        s.id = view.id;
        s.kind = view.kind;
        this.state.entities.set(view.id, s);
      }
      s.x = view.x;
      s.z = view.z;
      s.ref = view.ref;
      if (view.kind === "npc") Object.assign(s, { name: view.name, health: view.health, maxHealth: view.maxHealth, level: view.level });
      else if (view.kind === "item") s.quantity = view.quantity;
      else if (view.kind === "resource") s.depleted = view.depleted;
    });
    for (const id of this.entityVersions.keys()) {
      if (present.has(id)) continue;
      this.entityVersions.delete(id);
      this.state.entities.delete(id);
    }
  }

  /** The schema of a player or entity in the state, by id (undefined: not in the state). */
  private schemaFor(id: string): PlayerState | EntityState | undefined {
    return this.schemaOf.get(id) ?? this.state.entities.get(id);
  }

  /** Colyseus clients whose views the delta worker works out, by their id there (see ColyseusConnection.interestId). */
  private readonly byInterest = new Map<number, ColyseusConnection>();
  /** A tick's view changes (connection, player, change), between the refreshes and their application. */
  private readonly viewChanges: (ColyseusConnection | Player | ViewChange)[] = [];

  /** Brings a client's view in line with what is within its view radius (see Interest). */
  updateView(conn: ColyseusConnection, world: World, player: Player): void {
    const change = this.refreshInterest(conn, world, player);
    if (change !== undefined) this.applyViewChange(conn, player, change);
  }

  /** What entered and left a client's view, if its interest was due for a refresh. */
  private refreshInterest(conn: ColyseusConnection, world: World, player: Player): ViewChange | undefined {
    if (conn.client.view === undefined) return undefined;
    const change = conn.interest.refresh(world, player, !conn.started);
    conn.started = true;
    return change;
  }

  /** A refresh's changes into the client's view. */
  private applyViewChange(conn: ColyseusConnection, player: Player, change: ViewChange): void {
    const view = conn.client.view;
    if (view === undefined) return;
    this.viewsEntered += change.entered.length;
    this.viewsLeft += change.left.length;
    for (const id of change.entered) {
      const s = this.schemaFor(id);
      if (s === undefined) {
        // Not in the state (yet): the next refresh here sees it again; the worker's is told once.
        if (conn.interestId === undefined) conn.interest.visible.delete(id);
        else (conn.missing ??= new Set()).add(id);
        continue;
      }
      // Found again as another object under the same id (a player who logged out and back in):
      // its new schema was added to the view then (see addSchema).
      if (conn.inView.has(id) && view.has(s)) continue;
      if (id === player.id) view.add(s, TAG_OWNER);
      view.add(s);
      conn.inView.add(id);
    }
    for (const id of change.left) {
      if (conn.missing?.delete(id) === true) continue;
      conn.inView.delete(id);
      const s = this.schemaFor(id);
      if (s !== undefined) view.remove(s);
    }
  }

  /** Adds to a client's view what the worker said entered it while it was not in the state, once it is. */
  private addMissing(conn: ColyseusConnection): void {
    const view = conn.client.view;
    if (view === undefined || conn.missing === undefined) return;
    for (const id of conn.missing) {
      const s = this.schemaFor(id);
      if (s === undefined) continue;
      view.add(s);
      conn.inView.add(id);
      conn.missing.delete(id);
    }
    if (conn.missing.size === 0) conn.missing = undefined;
  }
}

/**
 * `list` made to hold the stacks of `slots` that are not empty, in slot order, each as its slot,
 * item and quantity: the entries already there are given the values (a setter ignores an unchanged
 * one), the rest pushed or popped.
 */
function syncSlots(list: ArraySchema<ItemSlotState>, slots: readonly (ItemStack | null)[]): void {
  let i = 0;
  for (let slot = 0; slot < slots.length; slot++) {
    const stack = slots[slot];
    if (stack === null || stack === undefined) continue;
    const fields = { slot, itemId: stack.itemId, quantity: stack.quantity };
    if (i < list.length) Object.assign(list.at(i), fields);
    else list.push(new ItemSlotState(fields));
    i++;
  }
  while (list.length > i) list.pop();
}
