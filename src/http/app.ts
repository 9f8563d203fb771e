/**
 * The Express application: CORS, body parsing, rate limits, routes, the admin-only monitor, and
 * the common error handling. Colyseus mounts it on the same HTTP server as its matchmaker.
 */
import express, { type Application, type RequestHandler } from "express";
import { refuseCrossSiteBasic, requireAdmin, requireAuth } from "./authGuards.ts";
import type { Authenticator } from "../auth/Authenticator.ts";
import type { Config } from "../config/env.ts";
import type { DatabaseProbe } from "../db/probe.ts";
import type { Logger } from "../logger.ts";
import type { OriginCheck } from "./cors.ts";
import { corsMiddleware } from "./cors.ts";
import { errorHandler, HttpError, notFoundHandler, rejectMalformedPath } from "./errors.ts";
import { clientBuildRoutes } from "./clientBuild.ts";
import { staleInputs } from "./clientBuildInputs.ts";
import { adminMonitor, type MonitorExtras } from "./monitor.ts";
import { apiReferenceRoutes } from "./apiReference.ts";
import { openApiDocument } from "./openapi.ts";
import { createRateLimiters } from "./rateLimit.ts";
import { checkResponses } from "./responseCheck.ts";
import { adminMetricsRoutes } from "./routes/adminMetrics.ts";
import { authRoutes } from "./routes/auth.ts";
import { dataRoutes, manifestRoutes } from "./routes/content.ts";
import { healthRoutes } from "./routes/health.ts";
import type { RedisState } from "../cluster/redisWatch.ts";
import type { ContentRegistry } from "../manifests/registry.ts";

/** JSON bodies larger than this are refused with 413. */
export const JSON_BODY_LIMIT = "100kb";
export const MONITOR_PATH = "/colyseus";

export interface AppDeps {
  config: Config;
  logger: Logger;
  auth: Authenticator;
  adminCode: string;
  probe: DatabaseProbe;
  /** In a cluster, the state of its Redis connections, for `/health`. */
  redis?: () => RedisState;
  isAllowedOrigin: OriginCheck;
  content: ContentRegistry;
  /** Server metrics for admins (`GET /api/admin/metrics`, mounted when given). */
  metrics?: () => object;
  resetMetrics?: () => void;
  /** What the monitor shows of this process: its CPU, and its `/ws` players (see monitor.ts). */
  monitor?: MonitorExtras;
  /** Runs before the REST logins (a token, a player or character created) and may refuse them (a restart's last minute). */
  loginGate?: RequestHandler;
  /** Extra routers mounted by later layers (content, API, agents) before the 404 handler. */
  mount?: (app: Application, guards: { auth: RequestHandler; admin: RequestHandler[]; rest: RequestHandler; authAttempt: RequestHandler }) => void;
}

export function createApp(deps: AppDeps): Application {
  const { config, logger } = deps;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);

  // Outside production, every answer of a documented route is checked against its OpenAPI schema.
  if (!config.isProduction) app.use(checkResponses(logger, config.nodeEnv === "test"));
  app.use(corsMiddleware(deps.isAllowedOrigin));
  app.use(rejectMalformedPath);
  app.use(express.json({ limit: JSON_BODY_LIMIT }));

  const limits = createRateLimiters(config.rateLimitDisabled, { redisUrl: config.cluster?.redisUrl, owner: app, logger });
  const auth = requireAuth(deps.auth);
  // Failed admin logins count as authentication attempts (a logged-in admin's polling does not);
  // a cross-site request is refused before it can count.
  const admin: RequestHandler[] = [refuseCrossSiteBasic, limits.adminAttempts, requireAdmin(deps.auth, deps.adminCode)];

  app.use(healthRoutes(config, deps.probe, deps.redis));
  app.use(manifestRoutes(config.manifestDir));
  app.use("/api", limits.rest);
  app.use("/api/auth", limits.auth);
  if (deps.loginGate !== undefined) app.post(["/api/auth/anonymous", "/api/v1/player", "/api/character"], deps.loginGate);
  app.use(authRoutes(config, deps.auth));
  app.get("/api/openapi.json", (_req, res) => res.json(openApiDocument()));
  app.use(apiReferenceRoutes());
  app.use(dataRoutes(deps.content, auth));
  if (deps.metrics !== undefined) app.use(adminMetricsRoutes({ metrics: deps.metrics, reset: deps.resetMetrics }, admin));
  app.use(MONITOR_PATH, ...admin, ...adminMonitor(deps.monitor));
  deps.mount?.(app, { auth, admin, rest: limits.rest, authAttempt: limits.auth });

  // Served in every mode once built (`npm install` builds it), so the README's first command shows
  // the game at `/`; `npm run client` is the development server with hot reload.
  const client = clientBuildRoutes(config.clientBuildDir);
  if (client !== undefined) {
    app.use(client);
    logger.info({ dir: config.clientBuildDir }, "serving the client build");
    const stale = staleInputs(config.clientBuildDir);
    if (stale !== undefined)
      logger.warn({ dir: config.clientBuildDir, why: stale }, "the client build is older than its sources: run npm run build:client (npm start does it first)");
  }

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}

export { HttpError };
