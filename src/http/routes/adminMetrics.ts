/**
 * `GET /api/admin/metrics`: the server metrics of this process's window (ServerMetrics.snapshot,
 * with the server's players, connections and fault counts), for admins; `POST
 * /api/admin/metrics/reset` starts a new window. Prometheus scrapes `GET /metrics` on METRICS_PORT
 * instead (src/http/metricsServer.ts).
 */
import { Router, type RequestHandler } from "express";
import { z } from "zod";
import { ok } from "../schemas.ts";

const count = z.int().min(0);
const ms = z.number().min(0);
const perPhase = z.record(z.string(), ms);

/**
 * The snapshot's groups are loose: an operator's view, which may gain figures; the ones named
 * here are always there.
 */
export const METRICS_RESPONSES = {
  metrics: ok({
    metrics: z.looseObject({
      windowMs: count,
      ticks: z.looseObject({
        count,
        p50Ms: ms,
        p99Ms: ms,
        maxMs: ms,
        phasesMeanMs: perPhase.describe("mean milliseconds per tick spent in each phase"),
        slowest: z.looseObject({ ms, atTick: count, phasesMs: perPhase }).nullable().describe("the slowest tick of the window and its phases"),
      }),
      paths: z.looseObject({ searchesPerTick: ms, expansionsPerTick: ms, maxExpansions: count, maxDeferred: count }),
      eventLoopDelay: z.looseObject({ p50Ms: ms, p99Ms: ms, maxMs: ms }),
      cpu: z.looseObject({ userMs: count, systemMs: count, cores: ms.describe("CPU time over wall time: 1.0 is one core fully busy") }),
      memory: z.looseObject({ rssBytes: count, heapUsedBytes: count }),
      gc: z.record(z.string(), z.looseObject({ count, ms, maxMs: ms })).describe("V8's pauses by kind (minor, major)"),
      players: count,
      connections: count,
      faults: z.record(z.string(), count).describe("faults the tick contained since the start, by where they happened"),
    }),
  }),
  reset: ok({}),
};

export function adminMetricsRoutes(deps: { metrics: () => object; reset?: (() => void) | undefined }, admin: RequestHandler[]): Router {
  const router = Router();
  router.get("/api/admin/metrics", ...admin, (_req, res) => {
    res.json({ success: true, metrics: deps.metrics() });
  });
  router.post("/api/admin/metrics/reset", ...admin, (_req, res) => {
    deps.reset?.();
    res.json({ success: true });
  });
  return router;
}
