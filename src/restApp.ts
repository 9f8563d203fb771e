/**
 * The REST app of a world's process (src/http/app.ts), with every router of the game mounted on
 * it and the login gate of a scheduled restart's last minute. Composed by src/server.ts.
 */
import type { Application } from "express";
import { TRADE_ROOM } from "../rooms/TradeRoom.ts";
import { WORLD_ROOM } from "../rooms/WorldRoom.ts";
import type { AgentService } from "./agents/AgentService.ts";
import type { Authenticator } from "./auth/Authenticator.ts";
import type { AgentRouting } from "./cluster/agentRouting.ts";
import type { RedisWatch } from "./cluster/redisWatch.ts";
import { listWorlds } from "./cluster/worlds.ts";
import type { Config } from "./config/env.ts";
import type { Database } from "./db/orm.ts";
import type { World } from "./game/world/World.ts";
import { createApp } from "./http/app.ts";
import type { OriginCheck } from "./http/cors.ts";
import { HttpError } from "./http/errors.ts";
import { adminRoutes } from "./http/routes/admin.ts";
import { adminPlayersRoutes, type ProcessCpuSampler } from "./http/routes/adminPlayers.ts";
import { agentRoutes } from "./http/routes/agents.ts";
import { apiRoutes } from "./http/routes/api.ts";
import { hiscoresRoutes } from "./http/routes/hiscores.ts";
import { questRoutes } from "./http/routes/quests.ts";
import { socialRoutes } from "./http/routes/social.ts";
import { voiceRoutes } from "./http/routes/voice.ts";
import { worldsRoutes } from "./http/routes/worlds.ts";
import type { Logger } from "./logger.ts";
import type { ContentRegistry } from "./manifests/registry.ts";
import type { ServerMetrics } from "./metrics.ts";
import type { ModerationService } from "./moderation/ModerationService.ts";
import { RestartingError } from "./moderation/RestartSchedule.ts";
import type { WorldService } from "./sessions/WorldService.ts";
import type { SocialService } from "./social/SocialService.ts";

export interface RestAppParts {
  config: Config;
  logger: Logger;
  auth: Authenticator;
  adminCode: string;
  db: Database;
  content: ContentRegistry;
  isAllowedOrigin: OriginCheck;
  world: World;
  service: WorldService;
  metrics: ServerMetrics;
  moderation: ModerationService;
  agents: AgentService;
  social: SocialService;
  /** In a cluster: agent control reaches the process that holds the agent's character. */
  agentRouting: AgentRouting | undefined;
  processCpu: ProcessCpuSampler;
  redisWatch: RedisWatch | undefined;
}

export function restApp(parts: RestAppParts): Application {
  const { config, db, content, world, service, metrics, moderation, agents, social, agentRouting, processCpu, redisWatch } = parts;
  return createApp({
    config,
    logger: parts.logger,
    auth: parts.auth,
    adminCode: parts.adminCode,
    probe: db.probe,
    redis: redisWatch === undefined ? undefined : () => redisWatch.state(),
    isAllowedOrigin: parts.isAllowedOrigin,
    content,
    metrics: () => metrics.snapshot({ players: world.players.size, connections: service.onlineCount, faults: { ...service.faultCounts } }),
    resetMetrics: () => metrics.reset(),
    monitor: {
      cpu: () => processCpu.read(),
      wsPlayers: () => service.playersByTransport().ws,
      worldRoom: WORLD_ROOM,
      tradeRoom: TRADE_ROOM,
      broadcast: (actor, message) => moderation.broadcast(actor, message),
      kick: (actor, name, reason) => moderation.kick(actor, name, reason),
    },
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
      a.use(questRoutes({ db, world: service, content, auth: guards.auth }));
      // In a cluster, agent control reaches the process that holds the agent's character (src/cluster/agentRouting.ts).
      if (agentRouting !== undefined) a.use(agentRouting.middleware(guards.auth));
      a.use(agentRoutes(agents, guards.auth));
      a.use(socialRoutes(social, guards.auth));
      a.use(adminRoutes(moderation, guards.admin));
      a.use(adminPlayersRoutes({ service, world: () => social.world, cpu: processCpu }, guards.admin));
      a.use(voiceRoutes({ config, db, world: service, content, auth: guards.auth }));
      a.use(worldsRoutes(() => listWorlds(WORLD_ROOM), config.world.hopCooldownMs / 1000));
    },
  });
}
