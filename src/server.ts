/**
 * Composition root: one HTTP server on `PORT` carrying Express, the Colyseus server and the
 * `/ws` endpoint, with WebSocket upgrades routed by path.
 */
import { randomUUID } from "node:crypto";
import http, { type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { matchMaker, type Server as ColyseusServer } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import type { WebSocket } from "ws";
import { normaliseWorldOption, WORLD_ROOM } from "../rooms/WorldRoom.ts";
import { appConfig } from "./app.config.ts";
import { TRADE_ROOM, type TradeRoom } from "../rooms/TradeRoom.ts";
import { colyseusLogger } from "../rooms/badFrames.ts";
import { AdminCodeGuard } from "./auth/adminCode.ts";
import { Authenticator } from "./auth/Authenticator.ts";
import { TokenService } from "./auth/tokens.ts";
import type { Config } from "./config/env.ts";
import { resolveSecrets } from "./config/secrets.ts";
import { syncItemDefinitions } from "./db/itemDefinitions.ts";
import { openDatabase, type Database } from "./db/orm.ts";
import { createApp } from "./http/app.ts";
import { createOriginCheck, installColyseusCors } from "./http/cors.ts";
import { loadContent } from "./manifests/loader.ts";
import type { ContentRegistry } from "./manifests/registry.ts";
import { AgentService } from "./agents/AgentService.ts";
import { inputHandlers, type EventContext } from "./game/events.ts";
import { GAMEPLAY } from "./game/systems.ts";
import { agentRoutes } from "./http/routes/agents.ts";
import { hiscoresRoutes } from "./http/routes/hiscores.ts";
import { apiRoutes } from "./http/routes/api.ts";
import { socialRoutes } from "./http/routes/social.ts";
import { adminRoutes } from "./http/routes/admin.ts";
import { adminPlayersRoutes, ProcessCpuSampler } from "./http/routes/adminPlayers.ts";
import { ModerationService } from "./moderation/ModerationService.ts";
import { RestartingError, systemLineToAll } from "./moderation/RestartSchedule.ts";
import { RESTARTING_NOW_LINE } from "./game/restart.ts";
import { errorCodeOf, HttpError } from "./http/errors.ts";
import { voiceRoutes } from "./http/routes/voice.ts";
import type { Application } from "express";
import { AGENT_EVENTS, type AgentEvent } from "./agents/agentEvents.ts";
import { World } from "./game/world/World.ts";
import type { Logger } from "./logger.ts";
import { ServerMetrics } from "./metrics.ts";
import { GameMetrics } from "./prometheus.ts";
import { startMetricsServer, type MetricsServer } from "./http/metricsServer.ts";
import { requestLogger } from "./http/requestLog.ts";
import { AuthAttempts } from "./auth/attemptLimiter.ts";
import { clientAddress, pinRealIp, type TrustFn } from "./http/clientAddress.ts";
import type { Duplex } from "node:stream";
import { Saver } from "./sessions/Saver.ts";
import { CharacterLeases } from "./persistence/leases.ts";
import { loadGroundItems } from "./persistence/ground.ts";
import { restoreGroundItem } from "./game/groundItems.ts";
import { TradeCommitter } from "./sessions/TradeCommitter.ts";
import { SocialService } from "./social/SocialService.ts";
import { SocialBudgets } from "./social/socialBudgets.ts";
import { WorldService } from "./sessions/WorldService.ts";
import { worldSessionHandler } from "./ws/worldHandler.ts";
import { WsDeltas } from "./ws/WsDeltas.ts";
import { CLOSE_BAD_REQUEST, CLOSE_TRY_AGAIN_LATER, WsGateway } from "./ws/WsGateway.ts";
import { LoginBudgets } from "./ws/loginBudgets.ts";
import { redisBackends } from "./cluster/backends.ts";
import { requireRedis } from "./cluster/redisReach.ts";
import { RedisWatch } from "./cluster/redisWatch.ts";
import { ForwardedAddress } from "./cluster/forwarded.ts";
import { Takeovers } from "./cluster/Takeovers.ts";
import { AgentRouting } from "./cluster/agentRouting.ts";
import { closeLimitConnection, limitConnection } from "./cluster/sharedLimits.ts";
import { chooseWorld, listWorlds, worldRank, worldStatus, type WorldMetadata } from "./cluster/worlds.ts";
import { proxyTarget, proxyUpgrade } from "./cluster/wsProxy.ts";
import { SocketProcess } from "./io/SocketProcess.ts";
import { MAX_FRAME_BYTES } from "./ws/envelope.ts";
import { worldsRoutes } from "./http/routes/worlds.ts";
import { StartupError } from "./startupError.ts";
import { hasClientBuild } from "./http/clientBuild.ts";

/** Shutdown gives rooms and saves this long before the process watchdog takes over. */
/**
 * Connections the kernel holds for the server before it accepts them (Linux caps it at
 * `net.core.somaxconn`, 4096 by default). Node accepts one connection per turn of its event loop,
 * and a loaded world's turns are long: at 2,000 players Node's default of 511 filled during a burst
 * of logins, and the connections beyond it were dropped and retried a second or more later (joins
 * of many seconds, some failed; bench/README.md, world-load). Held, they wait their turn instead.
 */
export const LISTEN_BACKLOG = 4096;

export const SHUTDOWN_GRACE_MS = 8_000;
/** Colyseus' transport heartbeat (its defaults): ping interval, and unanswered pings before it terminates a client. */
export const COLYSEUS_PING_INTERVAL_MS = 3_000;
export const COLYSEUS_PING_MAX_RETRIES = 2;
/** Colyseus' transport's largest client frame (its default), in bytes. */
export const COLYSEUS_MAX_PAYLOAD = 4 * 1024;

/**
 * Colyseus' transport takes every upgrade on the server it is given; this one leaves `/ws` to
 * the gateway.
 */
class PathFilteredTransport extends WebSocketTransport {
  /** With a socket process (SOCKET_PROCESS), the accepted connections are handed to it. */
  constructor(options: ConstructorParameters<typeof WebSocketTransport>[0], io: SocketProcess | undefined) {
    super(options);
    if (io === undefined) return;
    // Colyseus completes every accepted upgrade through `wss.handleUpgrade`, then emits
    // `connection` with the WebSocket: here that WebSocket is the socket process's.
    // Without a usable socket process (see SocketProcess), Colyseus' own.
    const local = this.wss.handleUpgrade.bind(this.wss);
    (this.wss as { handleUpgrade: unknown }).handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer, done: (ws: WebSocket) => void) =>
      io.handleUpgrade(req, socket, head, "colyseus", (remote) => done(remote as unknown as WebSocket), () => local(req, socket, head, done));
  }

  override listenForUpgrade(server: http.Server, filter?: (req: IncomingMessage) => boolean): void {
    super.listenForUpgrade(server, (req) => !WsGateway.isWsPath(req) && (filter === undefined || filter(req)));
  }
}

export interface GameServer {
  readonly config: Config;
  readonly port: number;
  readonly httpServer: http.Server;
  readonly colyseus: ColyseusServer;
  readonly gateway: WsGateway;
  /** The socket process holding the clients' WebSockets (SOCKET_PROCESS), if there is one. */
  readonly sockets: SocketProcess | undefined;
  readonly db: Database;
  readonly content: ContentRegistry;
  readonly world: WorldService;
  readonly tokens: TokenService;
  readonly auth: Authenticator;
  readonly agents: AgentService;
  readonly app: Application;
  readonly adminCode: string;
  /** The port of `GET /metrics` (METRICS_PORT), when it is served. */
  readonly metricsPort: number | undefined;
  /**
   * Called when a scheduled maintenance restart is due (src/main.ts sets it: its graceful stop,
   * then exit 0 for the supervisor). Unset, the server just closes.
   */
  onRestart: ((reason: string) => void) | undefined;
  /**
   * Called when the world room was disposed other than by close() (a bug, a `disconnect()` from
   * elsewhere): the process runs no world, so src/main.ts closes it and exits non-zero for the
   * supervisor. Unset, the server just closes.
   */
  onWorldLost: (() => void) | undefined;
  /** Stops accepting, lets rooms save, closes the database. Idempotent. `notice`: a system line to every player first. */
  close(options?: { notice?: string }): Promise<void>;
}

export async function startServer(config: Config, logger: Logger): Promise<GameServer> {
  const secrets = resolveSecrets(config, logger);
  const { registry: content } = await loadContent({
    dir: config.manifestDir,
    cdnUrl: config.publicCdnUrl,
    fallbackCdnUrl: config.fallbackCdnUrl,
    alwaysFetch: config.isProduction || config.ci,
    skip: config.skipManifests,
    strictReferences: config.manifestsStrict,
    logger: logger.child({ component: "manifests" }),
  });
  // A cluster process without its Redis stops here, in one line (exit 69), before the database is touched.
  if (config.cluster !== undefined) await requireRedis(config.cluster.redisUrl);
  const db = await openDatabase(config, logger);
  let deltas: WsDeltas | undefined;
  let socketProcess: SocketProcess | undefined;
  let metricsServer: MetricsServer | undefined;
  /** The Express app, once made: it owns the rate limits' Redis connection (src/cluster/sharedLimits.ts). */
  let limitsOwner: object | undefined;
  try {
    await syncItemDefinitions(db, content);
    const tokens = new TokenService({ jwtSecret: secrets.jwtSecret, idp: config.idp });
    const auth = new Authenticator(tokens, db);
    const isAllowedOrigin = createOriginCheck(config.cors);
    installColyseusCors(isAllowedOrigin);

    // Prometheus (METRICS_PORT): its own port, up before the game so that a port in use fails the start early.
    const prom = new GameMetrics();
    if (config.metrics !== undefined) {
      metricsServer = await startMetricsServer({ ...config.metrics, text: () => prom.text(), contentType: prom.contentType, logger: logger.child({ component: "metrics" }) });
    }
    const metrics = new ServerMetrics(prom);
    db.onQuery = (kind, seconds, failed) => prom.query(kind, seconds, failed);
    const adminCode = new AdminCodeGuard(secrets.adminCode);
    /** A player's client address, from its connection (set once the world service exists). */
    let addressOf: (playerId: string) => string | undefined = () => undefined;
    const httpServer = http.createServer();
    const saver = new Saver(db, logger.child({ component: "saver" }), config.world.id);
    saver.onBatch = (result) => prom.saveBatch(result);
    // The social service joins once it exists (it needs the world's sessions); until then `social:` events are refused.
    const events: EventContext = {
      // The admin command's guessing budgets are per account and per client address (the connection's).
      checkAdminCode: (code, player) => adminCode.check(code, player.data.accountId, addressOf(player.id)),
    };
    const world = new World({
      content,
      saveIntervalTicks: Math.max(1, Math.round((config.saveIntervalS * 1000) / config.tickMs)),
      onSave: (snapshots, despawnedGround) => {
        saver.enqueue(snapshots);
        saver.enqueueDespawns(despawnedGround);
        void saver.flush();
      },
      tickMs: config.tickMs,
      handlers: inputHandlers(events),
      systems: GAMEPLAY,
    });
    // Players' drops stored before a restart lie where they were, with their stored times.
    for (const item of await loadGroundItems(db, world.now(), config.world.id)) restoreGroundItem(world, item);
    const leases = new CharacterLeases(db, { leaseMs: config.characterLeaseMs });
    const service = new WorldService({
      world,
      db,
      content,
      saver,
      leases,
      logger: logger.child({ component: "world" }),
      tickMs: config.tickMs,
      worldId: config.world.id,
      capacity: config.world.capacity,
      hopCooldownMs: config.world.hopCooldownMs,
    });
    service.traffic = prom.traffic;
    addressOf = (playerId) => service.connectionOf(playerId)?.remoteAddress;
    const wsDeltas = (deltas = new WsDeltas({ logger: logger.child({ component: "ws-deltas" }), worker: config.wsDeltasWorker }));
    service.deltas = wsDeltas;
    const committer = new TradeCommitter({ db, world, saver, logger: logger.child({ component: "trades" }), onStored: (outcome, seconds) => prom.trade(outcome, seconds) });
    world.trades.commit = (req) => committer.commit(req);
    service.onShutdownDrain = async () => {
      // Swaps under way are stored (or rolled back), then one tick applies them and delivers
      // the outcome (and the shutdown's trade cancellations) to the clients still connected.
      await committer.idle();
      service.tick();
    };
    const social = new SocialService({ db, connectionOf: (id) => service.connectionOf(id), logger: logger.child({ component: "social" }), world: config.world.id });
    events.social = social;
    // Bans refuse logins (sockets here, REST in the auth guards); mutes are read before a player enters.
    const moderation = new ModerationService({ db, service, logger: logger.child({ component: "moderation" }) });
    service.hooks = moderation.hooks(social.hooks);
    // A login is refused in a scheduled restart's last minute (RESTARTING), then for a ban.
    service.admission = async (accountId) => {
      moderation.restarts.admit();
      await moderation.admission(accountId);
    };
    auth.admission = moderation.admission;
    events.moderation = moderation;
    const agents = new AgentService({ db, world: service, content, tokens });
    auth.agentIsLive = (agentId, characterId, generation) => agents.isLive(agentId, characterId, generation);
    service.agentGreeting = (principal) => agents.greet(principal);
    service.serviceEvents.set("agent:goalProgress", {
      schema: AGENT_EVENTS["agent:goalProgress"],
      handle: (principal, data: AgentEvent<"agent:goalProgress">) => agents.reportProgress(principal, data),
    });
    service.serviceEvents.set("agent:setGoal", {
      schema: AGENT_EVENTS["agent:setGoal"],
      handle: (principal, data: AgentEvent<"agent:setGoal">) => agents.setOwnGoal(principal, data),
    });
    service.serviceEvents.set("agent:getGoal", {
      schema: AGENT_EVENTS["agent:getGoal"],
      handle: (principal) => agents.sendGoal(principal),
    });

    // In a cluster, a connection passed on from another process carries its client's address signed (src/cluster/forwarded.ts).
    const forwarded =
      config.cluster === undefined ? undefined : new ForwardedAddress({ secret: secrets.jwtSecret, ownIds: () => [matchMaker.processId, leases.ownerId], logger: logger.child({ component: "cluster" }) });
    const agentRouting =
      forwarded === undefined
        ? undefined
        : new AgentRouting({
            db,
            presence: () => matchMaker.presence,
            leases,
            httpUrl: worldUrls(config, config.port).httpUrl,
            isLocal: (characterId) => world.players.has(characterId),
            forwarded,
            logger: logger.child({ component: "agent-routing" }),
          });
    // This process's CPU, for the monitor's CPU card and GET /api/admin/players.
    const processCpu = new ProcessCpuSampler();
    const redisWatch = config.cluster === undefined ? undefined : new RedisWatch(config.cluster.redisUrl, logger.child({ component: "redis" }));
    const app = createApp({
      config,
      logger,
      auth,
      adminCode: secrets.adminCode,
      probe: db.probe,
      redis: redisWatch === undefined ? undefined : () => redisWatch.state(),
      isAllowedOrigin,
      content,
      metrics: () => metrics.snapshot({ players: world.players.size, connections: service.onlineCount, faults: { ...service.faultCounts } }),
      resetMetrics: () => metrics.reset(),
      monitor: { cpu: () => processCpu.read(), wsPlayers: () => service.playersByTransport().ws, worldRoom: WORLD_ROOM, tradeRoom: TRADE_ROOM, broadcast: (actor, message) => moderation.broadcast(actor, message) },
      loginGate: (_req, _res, next) => {
        try {
          moderation.restarts.admit();
        } catch (err) {
          if (err instanceof RestartingError) throw new HttpError(503, "RESTARTING", err.message, { until: err.until });
          throw err;
        }
        next();
      },
      mount: (a, guards) => {
        a.use(apiRoutes({ db, world: service, content, auth: guards.auth, tickMs: config.tickMs }));
        a.use(hiscoresRoutes({ db, world: service, auth: guards.auth }));
        // In a cluster, agent control reaches the process that holds the agent's character (src/cluster/agentRouting.ts).
        if (agentRouting !== undefined) a.use(agentRouting.middleware(guards.auth));
        a.use(agentRoutes(agents, guards.auth));
        a.use(socialRoutes(social, guards.auth));
        a.use(adminRoutes(moderation, guards.admin));
        a.use(adminPlayersRoutes({ service, world: () => social.world, cpu: processCpu }, guards.admin));
        a.use(voiceRoutes({ config, db, world: service, content, auth: guards.auth }));
        a.use(worldsRoutes(() => listWorlds(WORLD_ROOM)));
      },
    });
    limitsOwner = app;
    httpServer.on("request", app);
    // Authentication attempts per client address on the socket transports (REST has its own limiter).
    const trust = app.get("trust proxy fn") as TrustFn;
    const requestAddress = (req: IncomingMessage) => forwarded?.verify(req) ?? clientAddress(trust, req);
    const attempts = new AuthAttempts(!config.rateLimitDisabled, { redisUrl: config.cluster?.redisUrl, owner: app, logger });
    // Opens per multiplexed socket and logins per character, on the same connection (src/ws/loginBudgets.ts).
    const logins = new LoginBudgets(!config.rateLimitDisabled, { redisUrl: config.cluster?.redisUrl, owner: app, logger });
    // Friend requests and private messages per account, counted across the cluster (a game rule: on with DISABLE_RATE_LIMIT too).
    social.budgets = new SocialBudgets(limitConnection({ redisUrl: config.cluster?.redisUrl, owner: app, logger }));

    // The clients' sockets on the other core (src/io/SocketProcess.ts), with the limits and the
    // heartbeats each transport has here.
    const io = config.socketProcess
      ? (socketProcess = new SocketProcess({
          logger: logger.child({ component: "sockets" }),
          kinds: {
            colyseus: { maxPayload: COLYSEUS_MAX_PAYLOAD, pingIntervalMs: COLYSEUS_PING_INTERVAL_MS, maxMissedPings: COLYSEUS_PING_MAX_RETRIES },
            ws: { maxPayload: MAX_FRAME_BYTES, pingIntervalMs: config.wsHeartbeatMs, maxMissedPings: 1 },
          },
        }))
      : undefined;
    if (io !== undefined) {
      service.flushWrites = () => io.flush();
      service.pumpWrites = () => io.pump();
      io.warm();
    }
    const gateway = new WsGateway({
      io,
      auth,
      anonymousMode: config.anonymousMode,
      logger: logger.child({ component: "ws" }),
      handler: worldSessionHandler(service, wsDeltas, logger.child({ component: "ws" })),
      attempts,
      logins,
      clientAddress: requestAddress,
      heartbeatMs: config.wsHeartbeatMs,
      muxMaxSessions: config.wsMuxMaxSessions,
      traffic: prom.traffic,
    });
    prom.observe({
      world: String(social.world),
      players: () => service.playersByTransport(),
      connections: () => ({ colyseus: matchMaker.stats.local.ccu, ws: gateway.connections }),
      saveQueue: () => saver.queued,
      socketProcess: () => (io === undefined ? undefined : { up: io.up, starts: io.starts }),
      pingDatabase: async () => {
        const started = performance.now();
        const probe = await db.probe.check(1_000);
        return probe.status === "up" ? (performance.now() - started) / 1000 : undefined;
      },
    });
    httpServer.on("upgrade", (req, socket, head) => {
      if (WsGateway.isWsPath(req)) void routeWs(req, socket, head);
    });
    /**
     * A `/ws` connection goes to its world (`?world=n`; none: the matchmaker's choice): this
     * process's own, or, in a cluster, passed on to the process that runs it (src/cluster/wsProxy.ts).
     */
    const routeWs = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
      const asked = new URL(req.url ?? "/", "ws://server").searchParams.get("world");
      const options: { world?: unknown } = asked === null ? {} : { world: asked };
      try {
        normaliseWorldOption(options);
      } catch (err) {
        return gateway.refuseUpgrade(req, socket, head, "INVALID_WORLD", (err as Error).message.replace(/^INVALID_WORLD: /, ""), CLOSE_BAD_REQUEST);
      }
      const world = options.world as number | undefined;
      if (world === config.world.id || (world === undefined && config.cluster === undefined)) return gateway.handleUpgrade(req, socket, head);
      let target;
      try {
        const worlds = await listWorlds(WORLD_ROOM);
        target = world === undefined ? chooseWorld(worlds) : worlds.find((w) => w.world === world);
      } catch (err) {
        logger.warn({ err }, "/ws: the world list could not be read");
        return gateway.refuseUpgrade(req, socket, head, "WORLD_UNAVAILABLE", "the world list could not be read; try again", CLOSE_TRY_AGAIN_LATER);
      }
      if (target === undefined) return gateway.refuseUpgrade(req, socket, head, "UNKNOWN_WORLD", `there is no world ${world}`, CLOSE_UNKNOWN_WORLD);
      if (target.processId === matchMaker.processId || target.publicAddress === null || forwarded === undefined) return gateway.handleUpgrade(req, socket, head);
      proxyUpgrade(req, socket, head, proxyTarget(target.publicAddress), forwarded.sign(requestAddress(req) ?? "", target.processId), (err) => {
        logger.warn({ err, world: target.world }, "/ws: the process of the world could not be reached");
        gateway.refuseUpgrade(req, socket, head, "WORLD_UNAVAILABLE", `world ${target.world} cannot be reached; try again or choose another world`, CLOSE_TRY_AGAIN_LATER);
      });
    };

    // Colyseus' own heartbeat, made explicit: a ping every 3 s, a client that missed 2 in a row is
    // terminated (6-9 s), and its room then holds the player for the reconnection window.
    const transport = new PathFilteredTransport({ server: httpServer, pingInterval: COLYSEUS_PING_INTERVAL_MS, pingMaxRetries: COLYSEUS_PING_MAX_RETRIES, maxPayload: COLYSEUS_MAX_PAYLOAD }, io);
    const backends = config.cluster === undefined ? undefined : redisBackends(config.cluster.redisUrl, redisWatch!);
    // Clients join rooms; only the server creates them (with this key, which never leaves the process).
    const createKey = randomUUID();
    // Set once the server is built (below): what a world room disposed while it runs leads to.
    let worldDisposed = (): void => {};
    // The world's listing (src/cluster/worlds.ts): how full it is, whether it restarts, where to reach it.
    let urls: { wsUrl: string; httpUrl: string } | undefined;
    const listing = (): WorldMetadata => {
      const players = world.players.size;
      let restarting = false;
      try {
        moderation.restarts.admit();
      } catch {
        restarting = true;
      }
      const status = worldStatus(players, config.world.capacity, restarting);
      urls ??= worldUrls(config, (httpServer.address() as AddressInfo).port);
      return { world: config.world.id, players, wsPlayers: service.playersByTransport().ws, capacity: config.world.capacity, status, rank: worldRank(players, config.world.capacity, status), ...urls };
    };
    // The Colyseus server and its rooms (src/app.config.ts); in a cluster, on Redis and reached at this process's public address.
    const colyseus = appConfig({
      transport,
      // Bad frames from clients are logged once per connection per minute (rooms/badFrames.ts).
      logger: colyseusLogger(logger.child({ component: "colyseus" })),
      ...(backends !== undefined ? { cluster: { ...backends, publicAddress: config.cluster!.publicAddress } } : {}),
      world: { service, metrics, auth, anonymousMode: config.anonymousMode, tickMs: config.tickMs, seatReservationS: config.seatReservationS, tickWrites: config.tickWrites, createKey, attempts, listing, onDisposed: () => worldDisposed() },
      trade: { service, auth, createKey, attempts },
    });
    // One TradeRoom per trade: created when it starts, kept in step, closed when it ends.
    const tradeRooms = new Map<string, Promise<TradeRoom | undefined>>();
    world.trades.onStarted = (session) => {
      tradeRooms.set(
        session.id,
        matchMaker
          .createRoom(TRADE_ROOM, { tradeId: session.id, createKey })
          .then((listing) => {
            const room = matchMaker.getLocalRoomById(listing.roomId) as TradeRoom | undefined;
            const live = world.trades.sessions.get(session.id);
            if (room && live) room.sync(live);
            return room;
          })
          .catch((err: unknown) => {
            logger.warn({ err, tradeId: session.id }, "could not create the trade room");
            return undefined;
          }),
      );
    };
    world.trades.onChanged = (session) => void tradeRooms.get(session.id)?.then((room) => room?.sync(session));
    world.trades.onEnded = (session) => {
      const room = tradeRooms.get(session.id);
      tradeRooms.delete(session.id);
      void room?.then((r) => r?.disconnect());
    };
    await listenOrFail(colyseus, httpServer, config, LISTEN_BACKLOG);
    // Friends' status and private messages go through Colyseus' presence (Redis across processes).
    await social.start(matchMaker.presence);
    // One login across the cluster: a login elsewhere asks this process to hand its character over.
    const takeovers = new Takeovers({ presence: matchMaker.presence, ownerId: leases.ownerId, logger: logger.child({ component: "takeovers" }), handOver: (id) => service.handOver(id) });
    if (config.cluster !== undefined) {
      await takeovers.start();
      await agentRouting?.start();
      service.takeover = (characterId, ownerId) => takeovers.request(characterId, ownerId);
    }
    await moderation.start();
    // First of all listeners: Colyseus put its router in front of everything when it started
    // listening. The client's address is pinned first, then the request is logged (requestLog.ts).
    const logRequest = requestLogger(logger.child({ component: "http" }));
    httpServer.prependListener("request", (req, res) => logRequest(req, res));
    // Every answer of 400 or above counts in rsworld_errors_total (transport http), REST's and Colyseus matchmaking's.
    httpServer.prependListener("request", (_req, res) => {
      res.once("finish", () => {
        if (res.statusCode >= 400) prom.httpError(res.statusCode, errorCodeOf(res));
      });
    });
    httpServer.prependListener("request", (req) => pinRealIp(requestAddress(req), req, forwarded?.verify(req) !== undefined));
    httpServer.prependListener("upgrade", (req) => pinRealIp(requestAddress(req), req));
    // The world runs from startup, with or without Colyseus clients (/ws clients need it too).
    await matchMaker.createRoom(WORLD_ROOM, { createKey, world: config.world.id });
    const port = (httpServer.address() as AddressInfo).port;
    logger.info({ port, dialect: db.dialect, anonymousMode: config.anonymousMode, world: config.world.id, cluster: config.cluster?.publicAddress ?? false }, "server listening");
    // Where to go next, in words (the line above names a port only).
    if (hasClientBuild(config.clientBuildDir)) {
      const url = worldUrls(config, port).httpUrl.replace(/\/$/, "");
      logger.info({ url }, `the game is at ${url}/ and the agent dashboard at ${url}/agents`);
    }
    if (config.trustProxy === true) {
      logger.warn("TRUST_PROXY=true trusts every X-Forwarded-For entry, so a client can choose the address the rate and attempt limits see; set TRUST_PROXY to the number of proxies in front of the server instead");
    }

    let closing: Promise<void> | undefined;
    const close = (options?: { notice?: string }): Promise<void> => {
      closing ??= (async () => {
        logger.info("shutting down");
        // Each step's time, in "shutdown complete": a shutdown that nears its watchdog says where it waited.
        const took: Record<string, number> = {};
        let at = performance.now();
        const step = async (name: string, run: () => unknown): Promise<void> => {
          await run();
          const now = performance.now();
          took[name] = Math.round(now - at);
          at = now;
        };
        const started = at;
        if (options?.notice !== undefined) systemLineToAll(service, options.notice);
        // Clients hear of their cancelled trades before their sockets close.
        await step("quiesce", () => service.quiesce());
        gateway.close();
        await step("save", () => service.shutdown());
        await step("takeovers", () => takeovers.close());
        await step("agentRouting", () => agentRouting?.close().catch((err: unknown) => logger.warn({ err }, "could not leave the process list")));
        await step("social", () => social.close());
        await step("moderation", () => moderation.close());
        await step("wsDeltas", () => wsDeltas.close());
        await step("colyseus", () => colyseus.gracefullyShutdown(false));
        await step("sockets", () => io?.close());
        httpServer.closeAllConnections();
        await step("attempts", () => attempts.close());
        await step("database", () => db.close());
        await step("metrics", () => metricsServer?.close());
        metrics.stop();
        logger.info({ ms: Math.round(performance.now() - started), steps: took }, "shutdown complete");
      })();
      return closing;
    };

    const gameServer: GameServer = { config, port, httpServer, colyseus, gateway, sockets: io, db, content, world: service, tokens, auth, agents, app, adminCode: secrets.adminCode, metricsPort: metricsServer?.port, onRestart: undefined, onWorldLost: undefined, close };
    moderation.restarts.onRestart = (reason) => {
      if (gameServer.onRestart !== undefined) gameServer.onRestart(reason);
      else void close({ notice: RESTARTING_NOW_LINE });
    };
    worldDisposed = () => {
      if (closing !== undefined) return;
      logger.error("the world room was disposed while the server runs: its world no longer ticks, so the server closes (everyone saved)");
      if (gameServer.onWorldLost !== undefined) gameServer.onWorldLost();
      else void close({ notice: RESTARTING_NOW_LINE });
    };
    return gameServer;
  } catch (err) {
    await metricsServer?.close();
    await deltas?.close();
    await socketProcess?.close();
    if (limitsOwner !== undefined) await closeLimitConnection(limitsOwner);
    await db.close();
    throw err;
  }
}

/**
 * Colyseus' listen, failing as it does not: it listens for the server's `error` only once
 * listening, so a port in use (EADDRINUSE) left startup waiting forever.
 */
async function listenOrFail(colyseus: ColyseusServer, httpServer: http.Server, config: Config, backlog: number): Promise<void> {
  let failed: ((err: Error) => void) | undefined;
  const refused = new Promise<never>((_, reject) => {
    failed = (err: NodeJS.ErrnoException) => {
      if (err.code !== "EADDRINUSE") return reject(err);
      reject(new StartupError(`port ${config.port} on ${config.host ?? "every interface"} is already in use (EADDRINUSE): is another server running there? Stop it, or set PORT to a free port`, { cause: err }));
    };
  });
  // While listening starts, the refusal is ours alone: the transport's own listener logged the same
  // error with its trace before the line above.
  const others = httpServer.listeners("error") as ((err: Error) => void)[];
  httpServer.removeAllListeners("error");
  httpServer.once("error", failed!);
  try {
    await Promise.race([colyseus.listen(config.port, config.host, backlog), refused]);
  } finally {
    httpServer.removeListener("error", failed!);
    for (const listener of others) httpServer.on("error", listener);
  }
}

/** Close code of a `/ws` connection asking for a world no process runs. */
export const CLOSE_UNKNOWN_WORLD = 4004;

/**
 * Where clients reach this process's world: in a cluster, its public address (PUBLIC_ADDRESS) with
 * the schemes of PUBLIC_WS_URL and PUBLIC_API_URL; on its own, those addresses themselves.
 */
export function worldUrls(config: Config, port: number): { wsUrl: string; httpUrl: string } {
  const world = `?world=${config.world.id}`;
  // PORT=0 (any free port, in tests): the default addresses name the port the server got.
  const listening = (url: string) => (config.port === 0 ? url.replace("//localhost:0", `//localhost:${port}`) : url);
  if (config.cluster === undefined) return { wsUrl: `${listening(config.publicWsUrl)}${world}`, httpUrl: listening(config.publicApiUrl) };
  const secure = (url: string) => url.startsWith("wss:") || url.startsWith("https:");
  const address = config.cluster.publicAddress;
  return { wsUrl: `${secure(config.publicWsUrl) ? "wss" : "ws"}://${address}/ws${world}`, httpUrl: `${secure(config.publicApiUrl) ? "https" : "http"}://${address}` };
}
