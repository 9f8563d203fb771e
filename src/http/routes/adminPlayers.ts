/**
 * What an operator sees of this process (issue 20 item 4), for admins:
 * `GET /api/admin/players`: every player in this process's world, whichever transport controls it
 * (`colyseus`, `ws`, or `none`: lingering after a dropped connection, for the reconnection
 * window), with its world, position and the start of its session; and this process's CPU and
 * memory. The Colyseus monitor lists only Colyseus clients and its CPU card is the machine's
 * (see docs/operations.md, "Monitor"); this route is the process's own view.
 */
import os from "node:os";
import { Router, type RequestHandler } from "express";
import { z } from "zod";
import type { WorldService } from "../../sessions/WorldService.ts";
import { isoTime, ok } from "../schemas.ts";

/** A reading spans at least this long; a poll sooner gets the previous reading again. */
export const CPU_MIN_WINDOW_MS = 1_000;

const count = z.int().min(0);
const coresWorth = z.number().min(0);
const mb = z.number().min(0);

/** This process's CPU over a sampling window (see ProcessCpuSampler). */
export const processCpu = z.strictObject({
  cores: z.int().min(1).describe("cores this process may use (os.availableParallelism()): `total` lies between 0 and it"),
  windowMs: count.describe("the span of the reading, in ms"),
  user: coresWorth.describe("cores' worth of CPU time in user mode over the window (1 = one core busy the whole window)"),
  system: coresWorth.describe("cores' worth of CPU time in the kernel over the window"),
  total: coresWorth.describe("user + system"),
  percentOfCores: z.number().min(0).max(100).describe("`total` as a percentage of all the cores (0..100), the scale of the monitor's machine-wide card"),
});
export type ProcessCpu = z.infer<typeof processCpu>;

/**
 * This process's CPU over a sampling window (process.cpuUsage between two readings). Reads on
 * demand, no timer: a reading covers the time since the previous one (at least
 * {@link CPU_MIN_WINDOW_MS}; the first, since the sampler was made).
 */
export class ProcessCpuSampler {
  private last = { at: performance.now(), usage: process.cpuUsage() };
  private reading: ProcessCpu | undefined;

  read(): ProcessCpu {
    const now = performance.now();
    const elapsed = now - this.last.at;
    if (this.reading !== undefined && elapsed < CPU_MIN_WINDOW_MS) return this.reading;
    const diff = process.cpuUsage(this.last.usage);
    const cores = os.availableParallelism();
    const ms = Math.max(elapsed, 1);
    // cpuUsage is in µs; clamp to the cores in case of clock skew between the two clocks.
    const share = (us: number) => Math.min(cores, Math.max(0, us / 1000 / ms));
    const round = (v: number) => Math.round(v * 1000) / 1000;
    const user = share(diff.user);
    const system = share(diff.system);
    const total = Math.min(cores, user + system);
    this.last = { at: now, usage: process.cpuUsage() };
    this.reading = {
      cores,
      windowMs: Math.round(elapsed),
      user: round(user),
      system: round(system),
      total: round(total),
      percentOfCores: round((total / cores) * 100),
    };
    return this.reading;
  }
}

/** This process's memory, in MB. */
export const processMemoryMb = z.strictObject({ rssMb: mb, heapUsedMb: mb, heapTotalMb: mb, externalMb: mb });

export function processMemory(): z.infer<typeof processMemoryMb> {
  const m = process.memoryUsage();
  const toMb = (v: number) => Math.round((v / 1024 / 1024) * 10) / 10;
  return { rssMb: toMb(m.rss), heapUsedMb: toMb(m.heapUsed), heapTotalMb: toMb(m.heapTotal), externalMb: toMb(m.external) };
}

/** A player of this process's world, whichever transport controls it. */
export const livePlayer = z.strictObject({
  characterId: z.string(),
  name: z.string(),
  accountId: z.string(),
  transport: z.enum(["colyseus", "ws", "none"]).describe("none: lingering after a dropped connection, for the reconnection window"),
  world: z.int().min(1),
  position: z.strictObject({ x: z.number(), y: z.number(), z: z.number() }),
  connectedSince: isoTime.nullable().describe("when the current connection's session began; null while lingering without a connection"),
});
export type LivePlayer = z.infer<typeof livePlayer>;

export function livePlayers(service: WorldService, world: number): LivePlayer[] {
  const out: LivePlayer[] = [];
  for (const p of service.world.players.values()) {
    const conn = service.connectionOf(p.id);
    const started = conn?.session?.startedAt;
    out.push({
      characterId: p.id,
      name: p.data.name,
      accountId: p.data.accountId,
      transport: conn?.transport ?? "none",
      world,
      position: { x: p.data.x, y: p.data.y, z: p.data.z },
      connectedSince: started === undefined ? null : new Date(started).toISOString(),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** `GET /api/admin/players`: this process's players, CPU and memory (MB). */
export const ADMIN_PLAYERS_RESPONSE = ok({
  pid: z.int(),
  world: z.int().min(1),
  counts: z.strictObject({ total: count, colyseus: count, ws: count, none: count }),
  players: z.array(livePlayer),
  process: z.strictObject({
    uptimeS: count,
    cpu: processCpu,
    memory: processMemoryMb,
  }),
});

export function adminPlayersRoutes(deps: { service: WorldService; world: () => number; cpu: ProcessCpuSampler }, admin: RequestHandler[]): Router {
  const router = Router();
  router.get("/api/admin/players", ...admin, (_req, res) => {
    const players = livePlayers(deps.service, deps.world());
    const byTransport = deps.service.playersByTransport();
    res.json({
      success: true,
      pid: process.pid,
      world: deps.world(),
      counts: { total: players.length, ...byTransport },
      players,
      process: { uptimeS: Math.round(process.uptime()), cpu: deps.cpu.read(), memory: processMemory() },
    });
  });
  return router;
}
