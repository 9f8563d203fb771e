/**
 * Server metrics for operators and benchmarks: tick durations (game step + schema mirror + patch),
 * event-loop delay, CPU and memory. Served to admins at `GET /api/admin/metrics`; each tick is
 * also handed to the Prometheus histograms (src/prometheus.ts), so that both see the same numbers.
 */
import fs from "node:fs";
import { constants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";

/** Tick durations kept for percentiles (the last 100 minutes at 600 ms). */
export const TICK_SAMPLES = 10_000;

/**
 * The p-th percentile of ascending values by nearest rank: the smallest value with at least p % of
 * the values at or below it (p99 of 100 values is the 99th, not the largest). 0 when empty.
 */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n - 1, Math.max(0, rank - 1))]!;
}

/** `/proc/thread-self/schedstat` of the thread that first asked (null: not Linux, or unreadable). */
let schedstat: number | null | undefined;
const schedstatBuffer = Buffer.alloc(96);

/**
 * Nanoseconds the calling thread has spent runnable but waiting for a CPU (the kernel's run-queue
 * wait, the second field of `/proc/thread-self/schedstat`), or undefined where that is not known.
 * The file is opened once, by the first caller's thread (the ticking thread: WorldRoom.tickOnce),
 * and read again from the start at each call (a few microseconds).
 */
export function runQueueWaitNs(): number | undefined {
  if (schedstat === undefined) {
    try {
      schedstat = fs.openSync("/proc/thread-self/schedstat", "r");
    } catch {
      schedstat = null;
    }
  }
  if (schedstat === null) return undefined;
  try {
    const n = fs.readSync(schedstat, schedstatBuffer, 0, schedstatBuffer.length, 0);
    const wait = Number(schedstatBuffer.toString("latin1", 0, n).split(" ")[1]);
    return Number.isFinite(wait) ? wait : undefined;
  } catch {
    return undefined;
  }
}

/** Where each tick's figures go too (the Prometheus registry: src/prometheus.ts). */
export interface TickObserver {
  tick(ms: number, phases?: Record<string, number>): void;
  viewChanges(entered: number, left: number): void;
}

interface GcBucket {
  count: number;
  ms: number;
  maxMs: number;
}
function emptyGc(): { minor: GcBucket; major: GcBucket } {
  const bucket = () => ({ count: 0, ms: 0, maxMs: 0 });
  return { minor: bucket(), major: bucket() };
}

/** Milliseconds of a pause (`start`, `ms`) within [from, to]. */
function overlap(from: number, to: number, start: number, ms: number): number {
  return Math.max(0, Math.min(to, start + ms) - Math.max(from, start));
}

export class ServerMetrics {
  private readonly ticks = new Float64Array(TICK_SAMPLES);
  private tickCount = 0;
  /** Milliseconds per tick phase, summed over the window. */
  private phaseTotals: Record<string, number> = {};
  /** Path searches over the window (World.pathStats of each tick): totals and the worst tick. */
  private paths = { searches: 0, expansions: 0, maxExpansions: 0, maxDeferred: 0 };
  private views = { entered: 0, left: 0 };
  /** The slowest tick of the window and its phases: where a spike went. */
  private slowest:
    | {
        ms: number;
        atTick: number;
        phases: Record<string, number>;
        cpuMs: number | undefined;
        waitMs: number | undefined;
        startedAt: number | undefined;
        gcMs: number;
      }
    | undefined;
  /** The ticking thread's CPU time over the window's ticks (see recordTick). */
  private tickCpuMs = 0;
  /** Its run-queue wait over the window's ticks, and how many ticks told it. */
  private tickWaitMs = 0;
  private tickWaits = 0;
  private readonly loop: ReturnType<typeof monitorEventLoopDelay>;
  private cpuStart = process.cpuUsage();
  private since = performance.now();
  /** Garbage-collection pauses in the window, by kind. */
  private gc = emptyGc();
  private readonly gcObserver: PerformanceObserver;
  /** Also told of every tick (the Prometheus histograms). */
  private readonly tickObserver: TickObserver | undefined;

  constructor(tickObserver?: TickObserver) {
    this.tickObserver = tickObserver;
    this.loop = monitorEventLoopDelay({ resolution: 10 });
    this.loop.enable();
    this.gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.recordGc(entry);
    });
    this.gcObserver.observe({ entryTypes: ["gc"] });
  }

  private recordGc(entry: PerformanceEntry): void {
    const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
    if (detail === undefined) return;
    const bucket = detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR ? this.gc.major : this.gc.minor;
    bucket.count++;
    bucket.ms += entry.duration;
    bucket.maxMs = Math.max(bucket.maxMs, entry.duration);
    // A tick runs without yielding, so V8's pauses in it are told after it was recorded: each is
    // added to the slowest tick as it comes.
    const slow = this.slowest;
    if (slow?.startedAt !== undefined) slow.gcMs += overlap(slow.startedAt, slow.startedAt + slow.ms, entry.startTime, entry.duration);
  }

  /**
   * One tick's duration, and optionally how long each of its phases took and the CPU time its
   * thread had in it (`cpuMs`): a tick much longer than its CPU time waited for the CPU (another
   * thread or process had it) or for the kernel. `startedAt` (its performance.now() at the
   * start) lets the slowest tick's GC pauses be told (V8 reports them after the tick). `waitMs`:
   * how long of the tick its thread was runnable but waited for a core (see runQueueWaitNs).
   */
  recordTick(ms: number, phases?: Record<string, number>, cpuMs?: number, startedAt?: number, waitMs?: number): void {
    this.ticks[this.tickCount % TICK_SAMPLES] = ms;
    this.tickCount++;
    if (phases !== undefined) for (const [k, v] of Object.entries(phases)) this.phaseTotals[k] = (this.phaseTotals[k] ?? 0) + v;
    if (cpuMs !== undefined) this.tickCpuMs += cpuMs;
    if (waitMs !== undefined) {
      this.tickWaitMs += waitMs;
      this.tickWaits++;
    }
    if (this.slowest === undefined || ms > this.slowest.ms)
      this.slowest = { ms, atTick: this.tickCount, phases: phases ?? {}, cpuMs, waitMs, startedAt, gcMs: 0 };
    this.tickObserver?.tick(ms, phases);
  }

  /** One tick's path searches: how many, their node expansions, the walks left waiting for the next tick. */
  recordPaths(stats: { searches: number; expansions: number; deferred: number }): void {
    this.paths.searches += stats.searches;
    this.paths.expansions += stats.expansions;
    this.paths.maxExpansions = Math.max(this.paths.maxExpansions, stats.expansions);
    this.paths.maxDeferred = Math.max(this.paths.maxDeferred, stats.deferred);
  }

  /** One tick's Colyseus view changes: the entries that entered the clients' views and that left them, all views together. */
  recordViewChanges(entered: number, left: number): void {
    this.views.entered += entered;
    this.views.left += left;
    this.tickObserver?.viewChanges(entered, left);
  }

  reset(): void {
    this.tickCount = 0;
    this.paths = { searches: 0, expansions: 0, maxExpansions: 0, maxDeferred: 0 };
    this.views = { entered: 0, left: 0 };
    this.phaseTotals = {};
    this.slowest = undefined;
    this.tickCpuMs = 0;
    this.tickWaitMs = 0;
    this.tickWaits = 0;
    this.loop.reset();
    this.gc = emptyGc();
    this.cpuStart = process.cpuUsage();
    this.since = performance.now();
  }

  snapshot(extra: Record<string, unknown> = {}): object {
    const n = Math.min(this.tickCount, TICK_SAMPLES);
    const sorted = this.ticks.slice(0, n).sort();
    const elapsedMs = performance.now() - this.since;
    const cpu = process.cpuUsage(this.cpuStart);
    const mem = process.memoryUsage();
    const ns = (v: number) => Math.round((v / 1e6) * 100) / 100;
    return {
      windowMs: Math.round(elapsedMs),
      ticks: {
        count: this.tickCount,
        p50Ms: percentileOfSorted(sorted, 50),
        p99Ms: percentileOfSorted(sorted, 99),
        maxMs: n > 0 ? sorted[n - 1] : 0,
        // Mean milliseconds per tick spent in each phase (game, publishing, flushing sockets).
        phasesMeanMs: Object.fromEntries(
          Object.entries(this.phaseTotals).map(([k, v]) => [k, this.tickCount > 0 ? Math.round((v / this.tickCount) * 100) / 100 : 0]),
        ),
        // Mean CPU time of the ticking thread per tick (ms): the tick's own work, without waits.
        cpuMeanMs: this.tickCount > 0 ? Math.round((this.tickCpuMs / this.tickCount) * 100) / 100 : 0,
        // Mean time per tick its thread was runnable but waited for a core (null where not known):
        // a tick longer than its CPU time by about this much was short of cores, not of work.
        waitMeanMs: this.tickWaits > 0 ? Math.round((this.tickWaitMs / this.tickWaits) * 100) / 100 : null,
        // The slowest tick: its duration, its number in the window, and its phases (ms).
        slowest:
          this.slowest === undefined
            ? null
            : {
                ms: this.slowest.ms,
                atTick: this.slowest.atTick,
                cpuMs: this.slowest.cpuMs === undefined ? null : Math.round(this.slowest.cpuMs * 100) / 100,
                waitMs: this.slowest.waitMs === undefined ? null : Math.round(this.slowest.waitMs * 100) / 100,
                // V8's pauses within it (its CPU time includes them; incremental marking steps are not told).
                gcMs: this.slowest.startedAt === undefined ? null : Math.round(this.slowest.gcMs * 100) / 100,
                phasesMs: Object.fromEntries(Object.entries(this.slowest.phases).map(([k, v]) => [k, Math.round(v * 100) / 100])),
              },
      },
      // Path-finding per tick: mean searches and node expansions, the most expansions of one tick
      // (bounded by World.PATH_BUDGET_PER_TICK plus one search), the most walks left waiting.
      paths: {
        searchesPerTick: this.tickCount > 0 ? Math.round((this.paths.searches / this.tickCount) * 10) / 10 : 0,
        expansionsPerTick: this.tickCount > 0 ? Math.round(this.paths.expansions / this.tickCount) : 0,
        maxExpansions: this.paths.maxExpansions,
        maxDeferred: this.paths.maxDeferred,
      },
      // The Colyseus clients' views in the window and per tick, all together: entries (players,
      // NPCs, items…) that entered and that left them. Each is a StateView change, and an entering one a whole entry in a patch.
      views: {
        entered: this.views.entered,
        left: this.views.left,
        enteredPerTick: this.tickCount > 0 ? Math.round((this.views.entered / this.tickCount) * 10) / 10 : 0,
        leftPerTick: this.tickCount > 0 ? Math.round((this.views.left / this.tickCount) * 10) / 10 : 0,
      },
      eventLoopDelay: { p50Ms: ns(this.loop.percentile(50)), p99Ms: ns(this.loop.percentile(99)), maxMs: ns(this.loop.max) },
      // CPU time over wall time: 1.0 is one core fully busy.
      cpu: {
        userMs: Math.round(cpu.user / 1000),
        systemMs: Math.round(cpu.system / 1000),
        cores: Math.round(((cpu.user + cpu.system) / 1000 / elapsedMs) * 100) / 100,
      },
      memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed },
      // V8's pauses by kind (count, total and longest ms): minor (scavenges) and major (its final
      // pause only: the incremental marking steps before it, taken from running code, are not reported).
      gc: Object.fromEntries(
        Object.entries(this.gc).map(([k, v]) => [k, { count: v.count, ms: Math.round(v.ms * 100) / 100, maxMs: Math.round(v.maxMs * 100) / 100 }]),
      ),
      ...extra,
    };
  }

  stop(): void {
    this.loop.disable();
    this.gcObserver.disconnect();
  }
}
