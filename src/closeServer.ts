/**
 * A world process's shutdown, step by step (src/server.ts's close()): players told and saved,
 * then the services, the transports, the database and the metrics closed, each step timed.
 */
import type http from "node:http";
import type { Server as ColyseusServer } from "@colyseus/core";
import type { AuthAttempts } from "./auth/attemptLimiter.ts";
import type { AgentRouting } from "./cluster/agentRouting.ts";
import type { Takeovers } from "./cluster/Takeovers.ts";
import type { Database } from "./db/orm.ts";
import type { MetricsServer } from "./http/metricsServer.ts";
import type { SocketProcess } from "./io/SocketProcess.ts";
import type { Logger } from "./logger.ts";
import type { ServerMetrics } from "./metrics.ts";
import type { ModerationService } from "./moderation/ModerationService.ts";
import { systemLineToAll } from "./moderation/RestartSchedule.ts";
import type { WorldService } from "./sessions/WorldService.ts";
import type { SocialService } from "./social/SocialService.ts";
import type { WsDeltas } from "./ws/WsDeltas.ts";
import type { WsGateway } from "./ws/WsGateway.ts";

export interface ServerParts {
  logger: Logger;
  service: WorldService;
  gateway: WsGateway;
  takeovers: Takeovers;
  agentRouting: AgentRouting | undefined;
  social: SocialService;
  moderation: ModerationService;
  wsDeltas: WsDeltas;
  colyseus: ColyseusServer;
  io: SocketProcess | undefined;
  httpServer: http.Server;
  attempts: AuthAttempts;
  db: Database;
  metricsServer: MetricsServer | undefined;
  metrics: ServerMetrics;
}

/** Closes every part in order; `notice`: a system line to every player first. */
export async function closeServer(parts: ServerParts, options?: { notice?: string }): Promise<void> {
  const { logger, service, gateway, takeovers, agentRouting, social, moderation, wsDeltas, colyseus, io, httpServer, attempts, db, metricsServer, metrics } =
    parts;
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
}
