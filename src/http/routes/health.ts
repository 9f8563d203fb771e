/**
 * `/health`, `/status` and `/env.js`.
 *
 * `/status` is the hosting platform's probe (polled every 30 s, restarts the service after 3 s of
 * silence), so it never waits on the database for longer than {@link DB_PROBE_TIMEOUT_MS}: a hung
 * database shows as `"database": "timeout"`, not as a hung probe.
 *
 * `/health` is readiness. In a cluster it also says whether Redis answers (`redis`), without
 * changing its answer: the process still serves its own world's players without Redis, and every
 * process shares the one Redis, so a readiness that failed on it would take every world out of a
 * load balancer at once, turning an outage of the cross-world features into one of the game.
 */
import { Router } from "express";
import { z } from "zod";
import { publicEnv, type Config } from "../../config/env.ts";
import type { DatabaseProbe, DbStatus } from "../../db/probe.ts";
import type { RedisState } from "../../cluster/redisWatch.ts";
import { VERSION } from "../../version.ts";
import { isoTime } from "../schemas.ts";

export const DB_PROBE_TIMEOUT_MS = 1_000;

const dbStatus = z.enum(["up", "down", "timeout"] as const satisfies readonly DbStatus[]);

/** `/health` (200 `ok`, 503 `degraded`), `/status` (always 200) and `/env.js` (a script). */
export const HEALTH_RESPONSES = {
  health: z.strictObject({
    status: z.enum(["ok", "degraded"]),
    timestamp: isoTime,
    version: z.string(),
    commit: z.string().optional(),
    database: z.strictObject({ status: dbStatus, dialect: z.string(), latencyMs: z.int().min(0).nullable() }),
    redis: z
      .strictObject({ status: z.enum(["up", "down"]), downSince: isoTime.optional() })
      .optional()
      .describe("In a cluster (REDIS_URL) only: whether Redis answers; `down` does not make `/health` 503 (the process serves its own world on)"),
  }),
  status: z.strictObject({ status: z.literal("ok"), timestamp: isoTime, uptimeS: z.int().min(0), database: dbStatus }),
  envScript: z.string().startsWith("window.env = ").describe("JavaScript: `window.env = Object.freeze({…})` with the PUBLIC_* values"),
};

export function healthRoutes(config: Config, probe: DatabaseProbe, redis?: () => RedisState): Router {
  const router = Router();

  router.get("/health", async (_req, res) => {
    const db = await probe.check(DB_PROBE_TIMEOUT_MS);
    res.status(db.status === "up" ? 200 : 503).json({
      status: db.status === "up" ? "ok" : "degraded",
      timestamp: new Date().toISOString(),
      version: VERSION,
      ...(config.commitHash ? { commit: config.commitHash } : {}),
      database: { status: db.status, dialect: probe.dialect, latencyMs: db.latencyMs },
      ...(redis !== undefined ? { redis: redis() } : {}),
    });
  });

  // Liveness: 200 while the process answers; the database state is informational.
  router.get("/status", async (_req, res) => {
    const db = await probe.check(DB_PROBE_TIMEOUT_MS);
    res.status(200).json({
      status: "ok",
      timestamp: new Date().toISOString(),
      uptimeS: Math.round(process.uptime()),
      database: db.status,
    });
  });

  const envScript = `window.env = Object.freeze(${JSON.stringify(publicEnv(config)).replace(/</g, "\\u003c")});\n`;
  router.get("/env.js", (_req, res) => {
    res.type("application/javascript").set("Cache-Control", "no-cache").send(envScript);
  });

  return router;
}
