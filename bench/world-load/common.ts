/**
 * Shared by the world-load orchestrator (run.ts) and its bots (bots.ts): the bundled content and
 * its walkable tiles, percentiles, and CPU/RSS readings from /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import type { CollisionMap } from "../../src/game/map/CollisionMap.ts";
import { buildCollision } from "../../src/game/world/World.ts";
import { loadContent } from "../../src/manifests/loader.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import { percentileOfSorted } from "../../src/metrics.ts";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const BUNDLED_MANIFESTS = path.join(ROOT, "world", "assets", "manifests");

/** Messages between the orchestrator and the bots process (over the fork IPC channel). */
export type ToBots = { type: "start" } | { type: "stop" };
export type FromBots =
  | { type: "progress"; connected: number; failed: number; total: number }
  | { type: "ready"; connected: number; failed: number; rampMs: number }
  | { type: "report"; report: BotsReport }
  | { type: "flood-report"; report: FloodReport }
  | { type: "fatal"; message: string };

/** What bots.ts writes for run.ts (and the bench input file it reads). */
export interface BotsInput {
  port: number;
  /** One service token per bot; even indexes use the Colyseus SDK, odd ones `/ws`. */
  tokens: string[];
  /** Connections opened per second while ramping up. */
  rampPerSecond: number;
  /**
   * At the start of the window, every bot's next move is brought forward to within 1.5 s, so that
   * a short run (the smoke test) times moves of every kind; long runs leave the rhythm alone.
   */
  quickStart: boolean;
  /** Seed of the bots' random moves and chat timing (the same seed gives the same walks). */
  seed: number;
  /** The `/ws` bots' form of `world:update` (`/ws?updates=`). */
  wsUpdates: "full" | "compact";
  /** Only this kind's bots (the tokens of the other kind's indexes are left unused); both when absent. */
  kind?: "colyseus" | "ws" | undefined;
  /** Of those, only every `of`-th starting at `index` (several processes per kind). */
  share?: { of: number; index: number } | undefined;
  /**
   * The probe clients (see {@link isProbe}): `only`, this process runs just them (the probes
   * process); otherwise it leaves them out.
   */
  probes?: { pairs: number; stride: number; only: boolean } | undefined;
}

/**
 * Whether bot `index` is a probe: `pairs` pairs of bots (a Colyseus one and a `/ws` one, indexes
 * 2k and 2k + 1), every `stride`-th pair from the first, so that they are placed over the whole map
 * as the others are. They run in a process of their own (see bench/README.md, "Probe clients").
 */
export function isProbe(index: number, probes: { pairs: number; stride: number }): boolean {
  const pair = Math.floor(index / 2);
  return pair % probes.stride === 0 && pair / probes.stride < probes.pairs;
}

/** The path-finding attackers' process (flood.ts): `/ws` clients sending the dearest moves at the full message rate. */
export interface FloodInput {
  port: number;
  tokens: string[];
  rampPerSecond: number;
  /** Moves per second per client (the per-connection limit is 60). */
  messagesPerSecond: number;
  seed: number;
}

export interface FloodReport {
  clients: number;
  connected: number;
  connectFailures: number;
  /** Connections that closed during the measured window (the rate limit closes a socket after 10 s over it). */
  disconnects: number;
  movesSent: number;
  errors: Record<string, number>;
}

export interface KindReport {
  bots: number;
  connected: number;
  connectFailures: number;
  /** Why joins failed (the error's code, message and cause), with counts. */
  connectFailureReasons: Record<string, number>;
  /** Each successful join's time (ms), from the first request to joined; merged, then dropped from the report. */
  joinMs?: number[];
  joinP50Ms: number;
  joinP99Ms: number;
  /** Connections that closed during the measured window. */
  disconnects: number;
  movesSent: number;
  /** Moves whose position change was timed (sent while the bot stood still). */
  latencySamples: number;
  /** Timed moves that saw no position change within the timeout. */
  latencyTimeouts: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /**
   * The same moves timed to the arrival of the frame that showed them, before the bots process
   * decoded the frames that came before it (see bots.ts `arrivals`), p50 and p99.
   */
  arrivalLatencyP50Ms: number;
  arrivalLatencyP99Ms: number;
  /** How long after the first bot of its process each bot saw a tick's update (see bots.ts `spread`), p50 and p99. */
  spreadP50Ms: number;
  spreadP99Ms: number;
  chatsSent: number;
  chatsReceived: number;
  /** WebSocket payload bytes received (state patches / JSON text). */
  payloadBytesPerClientPerS: number;
  /** TCP bytes received (payload + WebSocket framing), from the sockets' counters. */
  wireBytesPerClientPerS: number;
  messagesPerClientPerS: number;
  errors: Record<string, number>;
  /** The raw latency samples, for merging the reports of several processes (dropped from results). */
  latencies?: number[] | undefined;
  arrivalLatencies?: number[] | undefined;
}

export interface BotsReport {
  windowMs: number;
  colyseus: KindReport;
  ws: KindReport;
  /** The bots process itself: CPU (cores, 1.0 = one core busy) and event-loop delay. */
  process: { cpuCores: number; eventLoopP99Ms: number; eventLoopMaxMs: number; rssBytes: number };
}

/** The V8/Node flags `npm start` gives the server (package.json), so the benchmarks run it the same way. */
export function startFlags(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  // `exec node …` (the script replaces its shell with Node: see README, Deploying).
  const words = pkg.scripts.start.split(/\s+/);
  const at = words[0] === "exec" ? 1 : 0;
  if (words[at] !== "node") throw new Error(`package.json's start script does not start with node: ${pkg.scripts.start}`);
  return words.slice(at + 1).filter((w) => w.startsWith("--"));
}

/** The last 2,000 characters of a log file ("" when there is none yet). */
export function tail(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").slice(-2000) : "";
}

/**
 * A benchmark server's environment: a world in `dir` with the bundled manifests, on `port`, with
 * the per-address REST limits off (every bot is 127.0.0.1; the game's own input limits stay on).
 */
export function benchServerEnv(dir: string, port: number, settings: Record<string, string>): Record<string, string> {
  fs.cpSync(BUNDLED_MANIFESTS, path.join(dir, "world", "assets", "manifests"), { recursive: true, filter: (src) => !path.basename(src).startsWith(".") });
  return {
    NODE_ENV: "test",
    LOG_LEVEL: "warn",
    PORT: String(port),
    HOST: "127.0.0.1",
    WORLD: path.join(dir, "world"),
    DISABLE_RATE_LIMIT: "true",
    ...settings,
  };
}

/** A benchmark's server process (`node src/main.ts` with `npm start`'s flags). */
export interface BenchServer {
  readonly proc: ChildProcess;
  /** Resolves when the process has exited. */
  readonly exit: Promise<{ code: number | null; signal: string | null }>;
  readonly exited: boolean;
}

/** Starts the server and waits until `/status` answers (60 s at most); a server that fails to start is killed. */
export async function startBenchServer(env: Record<string, string>, logFile: string, extraNodeArgs: string[] = []): Promise<BenchServer> {
  const started = Date.now();
  const logFd = fs.openSync(logFile, "a");
  const proc = spawn(process.execPath, [...startFlags(), ...extraNodeArgs, path.join(ROOT, "src", "main.ts")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ["ignore", logFd, logFd],
  });
  fs.closeSync(logFd);
  let exited = false;
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => proc.once("exit", (code, signal) => resolve({ code, signal })));
  void exit.then(() => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error(`server exited during startup:\n${tail(logFile)}`);
      if (Date.now() - started > 60_000) throw new Error("server did not answer /status within 60 s");
      try {
        if ((await fetch(`http://127.0.0.1:${env.PORT}/status`, { signal: AbortSignal.timeout(1_000) })).ok) break;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
  } catch (err) {
    if (!exited) proc.kill("SIGKILL");
    throw err;
  }
  return {
    proc,
    exit,
    get exited() {
      return exited;
    },
  };
}

/** Nearest-rank percentile (the server's own definition, src/metrics.ts). */
export function percentile(values: readonly number[], p: number): number {
  return percentileOfSorted(
    [...values].sort((a, b) => a - b),
    p,
  );
}

export function round(v: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

export async function bundledContent(): Promise<ContentRegistry> {
  const { registry } = await loadContent({
    dir: BUNDLED_MANIFESTS,
    cdnUrl: "http://unused.invalid",
    fallbackCdnUrl: undefined,
    alwaysFetch: false,
    skip: false,
    strictReferences: false,
    logger: pino({ level: "silent" }),
  });
  return registry;
}

export async function bundledCollision(): Promise<CollisionMap> {
  return buildCollision(await bundledContent());
}

/** Every walkable tile of the map. */
export function walkableTiles(map: CollisionMap): { x: number; z: number }[] {
  const out: { x: number; z: number }[] = [];
  const b = map.bounds;
  for (let z = b.minZ; z <= b.maxZ; z++) for (let x = b.minX; x <= b.maxX; x++) if (map.isWalkable(x, z)) out.push({ x, z });
  return out;
}

/** A `/proc/<pid>[/task/<tid>]/stat` line: the command (thread) name, CPU ticks (user + system) and RSS pages. */
function parseStat(stat: string): { name: string; cpuTicks: number; rssPages: number } {
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), cpuTicks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) };
}

/** The child processes of a process, from /proc (none where not listed). */
function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU ticks (user + system) and RSS of a process, from /proc (Linux only). */
export function procStat(pid: number): { cpuTicks: number; rssBytes: number } | undefined {
  try {
    const { cpuTicks, rssPages } = parseStat(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
    return { cpuTicks, rssBytes: rssPages * 4096 };
  } catch {
    return undefined;
  }
}

/**
 * CPU ticks (user + system) of each thread of a process and of its children, summed by thread
 * name and prefixed with `world:` (the process) or `sockets:` (a child: the socket process):
 * `world:MainThread`, `world:ws-deltas` (the delta worker), `sockets:MainThread`, `world:V8Worker`
 * (V8's helpers), … Linux only: empty elsewhere.
 */
export function threadCpuTicks(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  const add = (proc: number, prefix: string): void => {
    let tids: string[];
    try {
      tids = fs.readdirSync(`/proc/${proc}/task`);
    } catch {
      return;
    }
    for (const tid of tids) {
      try {
        const { name, cpuTicks } = parseStat(fs.readFileSync(`/proc/${proc}/task/${tid}/stat`, "utf8"));
        out[`${prefix}:${name}`] = (out[`${prefix}:${name}`] ?? 0) + cpuTicks;
      } catch {
        // The thread ended meanwhile.
      }
    }
  };
  add(pid, "world");
  for (const child of childPids(pid)) add(child, "sockets");
  return out;
}

/**
 * {@link procStat} of a process and its children summed: the server's with its socket process
 * (SOCKET_PROCESS), whose CPU is the server's as much as its main thread's is.
 */
export function procTreeStat(pid: number): { cpuTicks: number; rssBytes: number } | undefined {
  const own = procStat(pid);
  if (own === undefined) return undefined;
  for (const child of childPids(pid)) {
    const c = procStat(child);
    if (c === undefined) continue;
    own.cpuTicks += c.cpuTicks;
    own.rssBytes += c.rssBytes;
  }
  return own;
}

/**
 * Whole-machine CPU counters: busy and total jiffies over all cores, and steal: time the
 * hypervisor ran something else while this VM's vCPUs wanted to run (a slow tick with little
 * CPU of its own may have waited for it).
 */
export function machineStat(): { busy: number; total: number; steal: number } {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total, steal: v[7] ?? 0 };
}

/** Jiffies per second (USER_HZ); 100 on every Linux this runs on. */
export const CLK_TCK = 100;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A clients process's last message (its report) to the orchestrator, then its exit: once the
 * message is written to the channel (closing 1,900 clients can keep the event loop busy past any
 * fixed delay, and an exit then lost a long window's report), or after 10 s.
 */
export function reportAndExit(report: FromBots): void {
  process.send?.(report, () => {
    process.disconnect?.();
    setTimeout(() => process.exit(0), 1_000).unref();
  });
  setTimeout(() => process.exit(0), 10_000).unref();
}

/** A TCP port nobody listens on right now, for a server process the bench starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** `GET /api/admin/metrics` of src/metrics.ts. */
export interface ServerMetricsSnapshot {
  windowMs: number;
  ticks: { count: number; p50Ms: number; p99Ms: number; maxMs: number };
  eventLoopDelay: { p50Ms: number; p99Ms: number; maxMs: number };
  cpu: { userMs: number; systemMs: number; cores: number };
  memory: { rssBytes: number; heapUsedBytes: number };
  paths?: { searchesPerTick: number; expansionsPerTick: number; maxExpansions: number; maxDeferred: number };
  players: number;
  connections: number;
}

/** An admin API call on the bench's server (HTTP Basic with the admin code it was started with). */
export async function adminCall(port: number, adminCode: string, method: "GET" | "POST", route: string): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`bench:${adminCode}`).toString("base64")}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Writes a sweep's results file: the steps so far, with the machine and the settings. Called after
 * every step, so a sweep that dies later keeps what it measured.
 */
export function writeResults(out: string, benchmark: string, started: string, settings: object, results: object[]): void {
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, totalMemBytes: os.totalmem(), node: process.version };
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ benchmark, started, machine, settings, results }, null, 2)}\n`);
}

/** Prints the sweep's summary (a markdown table) and exits: 0 when every step went well. */
export function endSweep(columns: string[], rows: string[], ok: boolean): never {
  process.stderr.write(`\n| ${columns.join(" | ")} |\n|${columns.map(() => "---").join("|")}|\n`);
  for (const row of rows) process.stderr.write(`${row}\n`);
  process.exit(ok ? 0 : 1);
}

/** Runs `work` over `items` with at most `concurrency` at a time, in order of start. */
export async function pool<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
