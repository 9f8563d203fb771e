/**
 * Composition root: one HTTP server on `PORT` carrying Express, the Colyseus server and the
 * `/ws` endpoint, with WebSocket upgrades routed by path.
 */
import { randomUUID } from "node:crypto";
import http, { type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { matchMaker, type Server as ColyseusServer } from "@colyseus/core";
import { WORLD_ROOM } from "../rooms/WorldRoom.ts";
import { appConfig } from "./app.config.ts";
import { linkTradeRooms } from "../rooms/tradeRooms.ts";
import { colyseusLogger } from "../rooms/badFrames.ts";
import { AdminCodeGuard } from "./auth/adminCode.ts";
import { Authenticator } from "./auth/Authenticator.ts";
import { TokenService } from "./auth/tokens.ts";
import type { Config } from "./config/env.ts";
import { resolveSecrets } from "./config/secrets.ts";
import { syncItemDefinitions } from "./db/itemDefinitions.ts";
import { openDatabase, type Database } from "./db/orm.ts";
import { createOriginCheck, installColyseusCors } from "./http/cors.ts";
import { loadContent } from "./manifests/loader.ts";
import type { ContentRegistry } from "./manifests/registry.ts";
import { AgentService } from "./agents/AgentService.ts";
import { inputHandlers, type EventContext } from "./game/events.ts";
import { GAMEPLAY } from "./game/systems.ts";
import { ProcessCpuSampler } from "./http/routes/adminPlayers.ts";
import { ModerationService } from "./moderation/ModerationService.ts";
import { RESTARTING_NOW_LINE } from "./game/restart.ts";
import { errorCodeOf } from "./http/errors.ts";
import { AGENT_EVENTS, type AgentEvent } from "./game/agentEvents.ts";
import { World } from "./game/world/World.ts";
import type { Logger } from "./logger.ts";
import { ServerMetrics } from "./metrics.ts";
import { GameMetrics } from "./prometheus.ts";
import { startMetricsServer, type MetricsServer } from "./http/metricsServer.ts";
import { requestLogger } from "./http/requestLog.ts";
import { AuthAttempts } from "./auth/attemptLimiter.ts";
import { clientAddress, pinRealIp, type TrustFn } from "./http/clientAddress.ts";
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
import { WsGateway } from "./ws/WsGateway.ts";
import { LoginBudgets } from "./ws/loginBudgets.ts";
import { redisBackends } from "./cluster/backends.ts";
import { requireRedis } from "./cluster/redisReach.ts";
import { RedisWatch } from "./cluster/redisWatch.ts";
import { ForwardedAddress } from "./cluster/forwarded.ts";
import { Takeovers } from "./cluster/Takeovers.ts";
import { AgentRouting } from "./cluster/agentRouting.ts";
import { closeLimitConnection, limitConnection } from "./cluster/sharedLimits.ts";
import { wsRoute } from "./wsRoute.ts";
import { restApp } from "./restApp.ts";
import { worldListing } from "./worldListing.ts";
import { closeServer } from "./closeServer.ts";
import { SocketProcess } from "./io/SocketProcess.ts";
import { MAX_FRAME_BYTES } from "./ws/envelope.ts";
import type { Application } from "express";
import {
  COLYSEUS_MAX_PAYLOAD,
  COLYSEUS_PING_INTERVAL_MS,
  COLYSEUS_PING_MAX_RETRIES,
  LISTEN_BACKLOG,
  listenOrFail,
  logListening,
  PathFilteredTransport,
  worldUrls,
} from "./listening.ts";

/** Shutdown gives rooms and saves this long before the process watchdog takes over. */
export const SHUTDOWN_GRACE_MS = 8_000;

export { COLYSEUS_MAX_PAYLOAD, COLYSEUS_PING_INTERVAL_MS, COLYSEUS_PING_MAX_RETRIES, LISTEN_BACKLOG, worldUrls } from "./listening.ts";
export { CLOSE_UNKNOWN_WORLD } from "./wsRoute.ts";

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
      metricsServer = await startMetricsServer({
        ...config.metrics,
        text: () => prom.text(),
        contentType: prom.contentType,
        logger: logger.child({ component: "metrics" }),
      });
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
    const committer = new TradeCommitter({
      db,
      world,
      saver,
      logger: logger.child({ component: "trades" }),
      onStored: (outcome, seconds) => prom.trade(outcome, seconds),
    });
    world.trades.commit = (req) => committer.commit(req);
    service.onShutdownDrain = async () => {
      // Swaps under way are stored (or rolled back), then one tick applies them and delivers
      // the outcome (and the shutdown's trade cancellations) to the clients still connected.
      await committer.idle();
      service.tick();
    };
    const social = new SocialService({
      db,
      connectionOf: (id) => service.connectionOf(id),
      logger: logger.child({ component: "social" }),
      world: config.world.id,
    });
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
      config.cluster === undefined
        ? undefined
        : new ForwardedAddress({
            secret: secrets.jwtSecret,
            ownIds: () => [matchMaker.processId, leases.ownerId],
            logger: logger.child({ component: "cluster" }),
          });
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
    const app = restApp({
      config,
      logger,
      auth,
      adminCode: secrets.adminCode,
      db,
      content,
      isAllowedOrigin,
      world,
      service,
      metrics,
      moderation,
      agents,
      social,
      agentRouting,
      processCpu,
      redisWatch,
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
    const routeWs = wsRoute({ config, gateway, forwarded, requestAddress, logger });
    // Colyseus' own heartbeat, made explicit: a ping every 3 s, a client that missed 2 in a row is
    // terminated (6-9 s), and its room then holds the player for the reconnection window.
    const transport = new PathFilteredTransport(
      { server: httpServer, pingInterval: COLYSEUS_PING_INTERVAL_MS, pingMaxRetries: COLYSEUS_PING_MAX_RETRIES, maxPayload: COLYSEUS_MAX_PAYLOAD },
      io,
    );
    const backends = config.cluster === undefined ? undefined : redisBackends(config.cluster.redisUrl, redisWatch!);
    // Clients join rooms; only the server creates them (with this key, which never leaves the process).
    const createKey = randomUUID();
    // Set once the server is built (below): what a world room disposed while it runs leads to.
    let worldDisposed = (): void => {};
    // The world's listing (src/cluster/worlds.ts): how full it is, whether it restarts, where to reach it.
    const listing = worldListing(config, world, service, moderation, httpServer);
    // The Colyseus server and its rooms (src/app.config.ts); in a cluster, on Redis and reached at this process's public address.
    const colyseus = appConfig({
      transport,
      // Bad frames from clients are logged once per connection per minute (rooms/badFrames.ts).
      logger: colyseusLogger(logger.child({ component: "colyseus" })),
      ...(backends !== undefined ? { cluster: { ...backends, publicAddress: config.cluster!.publicAddress } } : {}),
      world: {
        service,
        metrics,
        auth,
        anonymousMode: config.anonymousMode,
        tickMs: config.tickMs,
        seatReservationS: config.seatReservationS,
        tickWrites: config.tickWrites,
        createKey,
        attempts,
        logins,
        listing,
        onDisposed: () => worldDisposed(),
      },
      trade: { service, auth, createKey, attempts },
    });
    // One TradeRoom per trade: created when it starts, kept in step, closed when it ends.
    linkTradeRooms(world.trades, createKey, logger);
    await listenOrFail(colyseus, httpServer, config, LISTEN_BACKLOG);
    // Friends' status and private messages go through Colyseus' presence (Redis across processes).
    await social.start(matchMaker.presence);
    // One login across the cluster: a login elsewhere asks this process to hand its character over.
    const takeovers = new Takeovers({
      presence: matchMaker.presence,
      ownerId: leases.ownerId,
      logger: logger.child({ component: "takeovers" }),
      handOver: (id) => service.handOver(id),
    });
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
    logListening(config, logger, port, db.dialect);

    let closing: Promise<void> | undefined;
    const close = (options?: { notice?: string }): Promise<void> => {
      closing ??= closeServer(
        { logger, service, gateway, takeovers, agentRouting, social, moderation, wsDeltas, colyseus, io, httpServer, attempts, db, metricsServer, metrics },
        options,
      );
      return closing;
    };

    const gameServer: GameServer = {
      config,
      port,
      httpServer,
      colyseus,
      gateway,
      sockets: io,
      db,
      content,
      world: service,
      tokens,
      auth,
      agents,
      app,
      adminCode: secrets.adminCode,
      metricsPort: metricsServer?.port,
      onRestart: undefined,
      onWorldLost: undefined,
      close,
    };
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
