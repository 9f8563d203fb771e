/* eslint-disable no-console */
/**
 * Cluster benchmark: three real server processes (worlds 1, 2, 3) on this machine, one Redis (a
 * database index of their own, emptied first) and one database (a fresh PostgreSQL database,
 * dropped afterwards, or a shared SQLite file), as `npm run cluster:start` runs them. Three
 * measurements, one after the other:
 *
 * 1. joins: N clients, half Colyseus SDK `joinOrCreate("world", {world})`, half `/ws?world=`, each
 *    asked of a random process for a random world (so about two thirds are routed or proxied to
 *    another process), anonymous identities, `--join-concurrency` at a time: joins per second
 *    over the whole cluster, per transport, failures, latency to the `welcome`;
 * 2. private messages: P pairs of friends whose ends are on different processes (one `/ws`, one
 *    Colyseus), M messages both ways at a bounded rate: latency from `social:sendMessage` to the
 *    recipient's `social:message` and to the sender's `social:messageSent`;
 * 3. tick p99 against players on one process: bots of the world-load benchmark
 *    (bench/world-load/bots.ts, walking and chatting) added to world 1 in steps, each step measured
 *    over a window through world 1's `GET /api/admin/metrics`; the first step whose tick p99
 *    passes the threshold (100 ms).
 *
 * The clients and bots run on this same machine, in the bench process and its children.
 * `--help` for the options; bench/README.md ("cluster") for what it measured.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCli } from "../../src/cli.ts";
import { Redis } from "ioredis";
import { freshPostgres } from "../postgres.ts";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { buildCollision, seededRandom } from "../../src/game/world/World.ts";
import { seedBotCharacters } from "../seed.ts";
import { pool } from "../world-load/common.ts";
import {
  adminCall,
  benchServerEnv,
  bundledContent,
  CLK_TCK,
  freePort,
  machineStat,
  percentile,
  procStat,
  ROOT,
  round,
  sleep,
  startBenchServer,
  tail,
  walkableTiles,
  type BenchServer,
  type BotsInput,
  type BotsReport,
  type FromBots,
  type ServerMetricsSnapshot,
} from "../world-load/common.ts";
import { joinColyseus, JoinFailure, joinWs, waitEvent, type GameConn, type Joined, type Kind } from "./clients.ts";

const JWT_SECRET = "cluster-bench-secret-0123456789abcdefghij";
const ADMIN_CODE = "cluster-bench-admin";
const BOTS = path.join(import.meta.dirname, "..", "world-load", "bots.ts");
const WORLDS = [1, 2, 3] as const;
/** Least time between two private messages of one sender: the server allows 5 in 5 s (as chat). */
const PM_GAP_MS = 1_250;

const USAGE = `usage: npm run bench:cluster -- [options]

Three server processes (worlds 1, 2, 3) on one Redis and one database; joins, private messages
across processes, and world 1's tick p99 as players are added in steps. Options:

  --phases joins,pm,tick   which measurements to run (default: all three, in that order)
  --joins N                clients joining in the joins phase (600)
  --join-concurrency C     join attempts in flight at once (64)
  --join-timeout S         a join not welcomed within S seconds fails (30)
  --pairs P                pairs of friends, the two ends on different processes (60)
  --messages M             private messages sent in all, both ways (1000)
  --pm-rate R              messages per second at most over all pairs (40; each sender at most one every ${PM_GAP_MS} ms)
  --steps A,B,…            players on world 1 at each step of the tick ramp (250,500,625,750,875,1000,1250,1500)
  --tick-seconds S         measured window of each step (65: ~108 ticks at 600 ms, so p99 is the second
                           slowest; 99 ticks or fewer make p99 the slowest one)
  --settle S               wait between a step's last join and its window (5)
  --ramp R                 bot connections per second while adding a step's players (50)
  --threshold MS           tick p99 that ends the ramp (100)
  --all-steps              run every step (default: stop after two steps in a row past the threshold)
  --tick-ms MS             the servers' tick (600, the real one)
  --save-interval S        the servers' SAVE_INTERVAL (60)
  --db postgresql|sqlite   database (postgresql: a fresh database on --pg-url's server, dropped afterwards)
  --pg-url URL             PostgreSQL admin connection (TEST_PG_URL, else postgresql://postgres@127.0.0.1:5432/postgres)
  --redis-url URL          Redis (REDIS_URL, else redis://127.0.0.1:6379); its database index is emptied first and last
  --redis-db N             database index when the URL names none (14)
  --seed N                 worlds, processes and bots' walks (1)
  --out FILE               results (bench/cluster/results-latest.json, not tracked)
  --keep                   keep the temporary worlds and the servers' logs
  --smoke                  tiny sizes, short windows and a 100 ms tick (a few seconds; the smoke test)
  --help                   this text`;

const { values: args } = parseCli(USAGE, {
  options: {
    phases: { type: "string" },
    joins: { type: "string" },
    "join-concurrency": { type: "string" },
    "join-timeout": { type: "string" },
    pairs: { type: "string" },
    messages: { type: "string" },
    "pm-rate": { type: "string" },
    steps: { type: "string" },
    "tick-seconds": { type: "string" },
    settle: { type: "string" },
    ramp: { type: "string" },
    threshold: { type: "string" },
    "all-steps": { type: "boolean", default: false },
    "tick-ms": { type: "string" },
    "save-interval": { type: "string" },
    db: { type: "string" },
    "pg-url": { type: "string" },
    "redis-url": { type: "string" },
    "redis-db": { type: "string" },
    seed: { type: "string" },
    out: { type: "string", default: path.join(import.meta.dirname, "results-latest.json") },
    keep: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
  },
});
const smoke = args.smoke;
/** A flag's value, else the smoke or the full default. */
const opt = (name: keyof typeof args, full: string, small: string): string => (args[name] as string | undefined) ?? (smoke ? small : full);
const settings = {
  phases: opt("phases", "joins,pm,tick", "joins,pm,tick")
    .split(",")
    .map((s) => s.trim()),
  joins: Number(opt("joins", "600", "12")),
  joinConcurrency: Number(opt("join-concurrency", "64", "4")),
  joinTimeoutS: Number(opt("join-timeout", "30", "20")),
  pairs: Number(opt("pairs", "60", "3")),
  messages: Number(opt("messages", "1000", "12")),
  pmRate: Number(opt("pm-rate", "40", "10")),
  steps: opt("steps", "250,500,625,750,875,1000,1250,1500", "4,8")
    .split(",")
    .map((s) => Number(s.trim())),
  tickSeconds: Number(opt("tick-seconds", "65", "3")),
  settleS: Number(opt("settle", "5", "1")),
  rampPerSecond: Number(opt("ramp", "50", "20")),
  thresholdMs: Number(opt("threshold", "100", "100")),
  allSteps: args["all-steps"],
  tickMs: Number(opt("tick-ms", "600", "100")),
  saveIntervalS: Number(opt("save-interval", "60", "60")),
  db: opt("db", "postgresql", "postgresql"),
  seed: Number(opt("seed", "1", "1")),
  smoke,
};
const problems = [
  settings.phases.every((p) => ["joins", "pm", "tick"].includes(p)) && settings.phases.length > 0 ? undefined : "--phases: joins, pm, tick",
  Number.isInteger(settings.joins) && settings.joins >= 1 ? undefined : "--joins: a whole number ≥ 1",
  Number.isInteger(settings.joinConcurrency) && settings.joinConcurrency >= 1 ? undefined : "--join-concurrency: a whole number ≥ 1",
  settings.joinTimeoutS > 0 ? undefined : "--join-timeout: seconds > 0",
  Number.isInteger(settings.pairs) && settings.pairs >= 1 && settings.pairs <= 1000 ? undefined : "--pairs: 1..1000",
  Number.isInteger(settings.messages) && settings.messages >= 1 ? undefined : "--messages: a whole number ≥ 1",
  settings.pmRate > 0 ? undefined : "--pm-rate: > 0",
  settings.steps.every((s, i) => Number.isInteger(s) && s >= 2 && (i === 0 || s > settings.steps[i - 1]!))
    ? undefined
    : "--steps: increasing whole numbers ≥ 2",
  settings.tickSeconds > 0 ? undefined : "--tick-seconds: > 0",
  settings.settleS >= 0 ? undefined : "--settle: ≥ 0",
  settings.rampPerSecond > 0 ? undefined : "--ramp: > 0",
  settings.thresholdMs > 0 ? undefined : "--threshold: > 0",
  Number.isInteger(settings.tickMs) && settings.tickMs >= 10 ? undefined : "--tick-ms: a whole number ≥ 10",
  settings.saveIntervalS > 0 ? undefined : "--save-interval: > 0",
  settings.db === "postgresql" || settings.db === "sqlite" ? undefined : "--db: postgresql or sqlite",
  Number.isInteger(settings.seed) ? undefined : "--seed: a whole number",
].filter((p) => p !== undefined);
if (problems.length > 0) {
  console.error(`${problems.join("\n")}\n\n${USAGE}`);
  process.exit(2);
}

const log = (msg: string) => process.stderr.write(`[cluster ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const random = seededRandom(settings.seed);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const ms = (v: number) => round(v, 1);

/** Percentiles of a list of latencies (ms). */
function latencyStats(values: number[]): { samples: number; p50Ms: number; p99Ms: number; maxMs: number } {
  return {
    samples: values.length,
    p50Ms: ms(percentile(values, 50)),
    p99Ms: ms(percentile(values, 99)),
    maxMs: ms(values.length === 0 ? 0 : Math.max(...values)),
  };
}

// ---- the cluster ------------------------------------------------------------------------------

interface Node {
  world: number;
  port: number;
  dir: string;
  log: string;
  server?: BenchServer;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cluster-bench-"));
const nodes: Node[] = [];
const botProcs: ChildProcess[] = [];
let pgDrop: (() => Promise<void>) | undefined;
let redisUrl: string | undefined;

/** Redis at --redis-url / REDIS_URL / 127.0.0.1:6379, on a database index of the bench's own, emptied. */
async function freshRedis(): Promise<string> {
  const url = new URL(args["redis-url"] ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  if (url.pathname === "" || url.pathname === "/") url.pathname = `/${opt("redis-db", "14", "14")}`;
  const client = new Redis(url.toString(), { maxRetriesPerRequest: 1, connectTimeout: 3_000, lazyConnect: true });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.flushdb();
  } catch (err) {
    throw new Error(`no Redis at ${url.toString()}: ${(err as Error).message}`, { cause: err });
  } finally {
    client.disconnect();
  }
  return url.toString();
}

async function emptyRedis(url: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.flushdb();
  } finally {
    client.disconnect();
  }
}

/** Each process's environment: its world, port and public address; the cluster's Redis, database, secrets and tick. */
function nodeEnv(node: Node, databaseUrl: string): Record<string, string> {
  return benchServerEnv(node.dir, node.port, {
    WORLD_ID: String(node.world),
    PUBLIC_ADDRESS: `127.0.0.1:${node.port}`,
    REDIS_URL: redisUrl!,
    DATABASE_URL: databaseUrl,
    JWT_SECRET,
    ADMIN_CODE,
    TICK_MS: String(settings.tickMs),
    SAVE_INTERVAL: String(settings.saveIntervalS),
    // The tick ramp puts every bot on world 1, past the default 2,000's 80 % mark at its largest steps.
    WORLD_CAPACITY: String(Math.max(2_000, 2 * Math.max(...settings.steps))),
  });
}

const http = (world: number) => `http://127.0.0.1:${nodes.find((n) => n.world === world)!.port}`;
const portOf = (world: number) => nodes.find((n) => n.world === world)!.port;

interface WorldListing {
  id: number;
  players: number;
  capacity: number;
  status: string;
}

async function worldList(from = 1): Promise<WorldListing[]> {
  const res = await fetch(`${http(from)}/api/v1/worlds`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET /api/v1/worlds: ${res.status}`);
  return ((await res.json()) as { worlds: WorldListing[] }).worlds;
}

/** Waits until the world list satisfies `ok` (listings refresh every second). */
async function worldsWhen(ok: (w: WorldListing[]) => boolean, what: string, timeoutMs = 60_000): Promise<WorldListing[]> {
  const deadline = Date.now() + timeoutMs;
  let last: WorldListing[] = [];
  for (;;) {
    try {
      last = await worldList();
      if (ok(last)) return last;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s (last list ${JSON.stringify(last)})`);
    await sleep(250);
  }
}
const playersByWorld = (w: WorldListing[]) => Object.fromEntries(w.map((x) => [x.id, x.players]));
const empty = (w: WorldListing[]) => w.length === WORLDS.length && w.every((x) => x.players === 0);

async function startCluster(databaseUrl: string): Promise<void> {
  for (const world of WORLDS) {
    const dir = path.join(tmp, `world-${world}`);
    fs.mkdirSync(dir);
    nodes.push({ world, port: await freePort(), dir, log: path.join(tmp, `server-${world}.log`) });
  }
  const start = async (node: Node) => {
    node.server = await startBenchServer(nodeEnv(node, databaseUrl), node.log);
    log(`world ${node.world}: pid ${node.server.proc.pid}, port ${node.port}`);
  };
  // The first one migrates the database (already done by the seeding); the others start together.
  await start(nodes[0]!);
  await Promise.all(nodes.slice(1).map(start));
  await worldsWhen((w) => w.length === WORLDS.length && w.every((x) => x.status === "online"), "every world in the list");
}

/** SIGTERM to every process (each saves its players and exits), SIGKILL after 20 s. */
async function stopCluster(): Promise<{ world: number; code: number | null; signal: string | null; shutdownMs: number; killed: boolean }[]> {
  return Promise.all(
    nodes
      .filter((n) => n.server !== undefined)
      .map(async (n) => {
        const s = n.server!;
        const t = Date.now();
        if (!s.exited) s.proc.kill("SIGTERM");
        let exit = await Promise.race([s.exit, sleep(20_000).then(() => undefined)]);
        const killed = exit === undefined;
        if (killed) {
          s.proc.kill("SIGKILL");
          exit = await s.exit;
        }
        return { world: n.world, code: exit!.code, signal: exit!.signal, shutdownMs: Date.now() - t, killed };
      }),
  );
}

let cleaned = false;
/** Kills whatever is left (bots, servers), drops the database, empties the Redis index, removes the temporary worlds. */
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  for (const b of botProcs) if (b.exitCode === null && b.signalCode === null) b.kill("SIGKILL");
  for (const n of nodes) if (n.server !== undefined && !n.server.exited) n.server.proc.kill("SIGKILL");
  await Promise.all(nodes.map((n) => (n.server === undefined ? Promise.resolve() : Promise.race([n.server.exit, sleep(5_000)]))));
  await pgDrop?.().catch((err: unknown) => log(`could not drop the database: ${(err as Error).message}`));
  if (redisUrl !== undefined) await emptyRedis(redisUrl).catch((err: unknown) => log(`could not empty ${redisUrl}: ${(err as Error).message}`));
  if (args.keep) log(`kept ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---- CPU sampling ------------------------------------------------------------------------------

interface CpuSample {
  at: number;
  servers: (number | undefined)[];
  bots: number;
  bench: number;
  /** Every `postgres` and every `redis-server` process on the machine (whoever else uses them too). */
  postgres: number;
  redis: number;
  machine: { busy: number; total: number };
}

/** CPU ticks of every process whose command name is one of `names`, summed per name (Linux /proc). */
function ticksByCommand(names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (!(comm in out)) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out[comm]! += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return out;
}

function cpuSample(): CpuSample {
  const bench = process.cpuUsage();
  return {
    at: Date.now(),
    servers: nodes.map((n) => (n.server === undefined ? undefined : procStat(n.server.proc.pid!)?.cpuTicks)),
    bots: botProcs.reduce((sum, b) => sum + (b.exitCode === null ? (procStat(b.pid!)?.cpuTicks ?? 0) : 0), 0),
    bench: (bench.user + bench.system) / 1e6,
    ...(() => {
      const t = ticksByCommand(["postgres", "redis-server"]);
      return { postgres: t.postgres!, redis: t["redis-server"]! };
    })(),
    machine: machineStat(),
  };
}

/**
 * Cores used between two samples (1.0 = one core busy): each server, the bots processes, the bench
 * process, PostgreSQL and Redis (all their processes, whoever uses them), the rest of the machine.
 */
function cpuBetween(
  a: CpuSample,
  b: CpuSample,
): { servers: Record<string, number | null>; bots: number; bench: number; postgres: number; redis: number; other: number; machineBusy: number } {
  const s = (b.at - a.at) / 1000;
  const cores = (ticks: number) => round(ticks / CLK_TCK / s, 2);
  const servers = Object.fromEntries(
    nodes.map((n, i) => [`world${n.world}`, a.servers[i] === undefined || b.servers[i] === undefined ? null : cores(b.servers[i] - a.servers[i])]),
  );
  const machineBusy = round(((b.machine.busy - a.machine.busy) / (b.machine.total - a.machine.total)) * os.cpus().length, 2);
  const bots = cores(Math.max(0, b.bots - a.bots));
  const bench = round((b.bench - a.bench) / s, 2);
  const postgres = cores(Math.max(0, b.postgres - a.postgres));
  const redis = cores(Math.max(0, b.redis - a.redis));
  const known = Object.values(servers).reduce<number>((sum, v) => sum + (v ?? 0), 0) + bots + bench + postgres + redis;
  return { servers, bots, bench, postgres, redis, other: round(Math.max(0, machineBusy - known), 2), machineBusy };
}

// ---- phase 1: joins ---------------------------------------------------------------------------

interface JoinAttempt {
  kind: Kind;
  /** The process asked. */
  via: number;
  /** The world chosen. */
  world: number;
  ok: boolean;
  reason?: string;
  joinedMs?: number;
  welcomeMs?: number;
  conn?: GameConn;
}

async function joinsPhase(): Promise<object> {
  const n = settings.joins;
  const timeoutMs = settings.joinTimeoutS * 1000;
  const plan = Array.from({ length: n }, (_, i): JoinAttempt => ({ kind: i % 2 === 0 ? "colyseus" : "ws", via: pick(WORLDS), world: pick(WORLDS), ok: false }));
  log(`joins: ${n} clients, ${settings.joinConcurrency} at a time`);
  const before = cpuSample();
  const started = performance.now();
  let done = 0;
  const progress = setInterval(() => log(`joins: ${done}/${n}`), 5_000);
  await pool(plan, settings.joinConcurrency, async (a) => {
    try {
      const joined: Joined =
        a.kind === "colyseus"
          ? await joinColyseus(portOf(a.via), { world: a.world }, timeoutMs)
          : await joinWs(portOf(a.via), { world: String(a.world) }, timeoutMs);
      a.ok = true;
      a.conn = joined.conn;
      a.welcomeMs = joined.welcomeMs;
      a.joinedMs = joined.joinedMs;
    } catch (err) {
      a.reason = err instanceof JoinFailure ? err.reason : String((err as Error)?.message ?? err).slice(0, 80);
    }
    done++;
  });
  clearInterval(progress);
  const durationMs = performance.now() - started;
  const after = cpuSample();
  const inWorlds = await worldsWhen(
    (w) => w.reduce((s, x) => s + x.players, 0) >= plan.filter((a) => a.ok).length,
    "the joined players in the list",
    30_000,
  ).catch(() => worldList());

  const summarise = (attempts: JoinAttempt[]) => {
    const ok = attempts.filter((a) => a.ok);
    const failures: Record<string, number> = {};
    for (const a of attempts) if (!a.ok) failures[a.reason!] = (failures[a.reason!] ?? 0) + 1;
    return {
      attempts: attempts.length,
      joined: ok.length,
      failed: attempts.length - ok.length,
      joinsPerSecond: round(ok.length / (durationMs / 1000), 1),
      latency: latencyStats(ok.map((a) => a.welcomeMs!)),
      failures,
    };
  };
  const colyseus = plan.filter((a) => a.kind === "colyseus");
  const result = {
    clients: n,
    concurrency: settings.joinConcurrency,
    durationMs: Math.round(durationMs),
    ...summarise(plan),
    byTransport: {
      colyseus: { ...summarise(colyseus), seatLatency: latencyStats(colyseus.filter((a) => a.ok).map((a) => a.joinedMs!)) },
      ws: summarise(plan.filter((a) => a.kind === "ws")),
    },
    routed: summarise(plan.filter((a) => a.via !== a.world)),
    direct: summarise(plan.filter((a) => a.via === a.world)),
    playersByWorld: playersByWorld(inWorlds),
    cpuCores: cpuBetween(before, after),
  };
  log(
    `joins: ${result.joined}/${n} in ${(durationMs / 1000).toFixed(1)} s = ${result.joinsPerSecond}/s, p50/p99 ${result.latency.p50Ms}/${result.latency.p99Ms} ms, failures ${JSON.stringify(result.failures)}`,
  );
  for (const a of plan) a.conn?.close();
  await worldsWhen(empty, "every joined player logged out");
  return result;
}

// ---- phase 2: private messages between processes ----------------------------------------------

interface Sent {
  from: number;
  at: number;
  deliveredMs?: number;
  ackMs?: number;
}

async function pmPhase(): Promise<object> {
  const p = settings.pairs;
  const tag = randomBytes(2).toString("hex");
  // Pair k: world a = k mod 3 + 1, world b one or two further on, so every pair spans two processes
  // and every ordered pair of processes occurs; one end on /ws, the other on Colyseus, alternating.
  const ends = Array.from({ length: p }, (_, k) => {
    const wa = (k % 3) + 1;
    const wb = (((k % 3) + 1 + (Math.floor(k / 3) % 2)) % 3) + 1;
    const kindA: Kind = k % 2 === 0 ? "ws" : "colyseus";
    return [
      { world: wa, kind: kindA, name: `P${tag}n${k}a` },
      { world: wb, kind: kindA === "ws" ? "colyseus" : "ws", name: `P${tag}n${k}b` },
    ];
  });
  log(`private messages: ${p} pairs across processes; logging in`);
  const t0 = performance.now();
  const conns = await pool(ends.flat(), 16, async (e) => {
    const j =
      e.kind === "ws"
        ? await joinWs(portOf(e.world), { world: String(e.world), name: e.name }, 30_000)
        : await joinColyseus(portOf(e.world), { world: e.world, name: e.name }, 30_000);
    return j.conn;
  });
  const loginMs = performance.now() - t0;
  const pairs = ends.map((pair, k) => ({
    a: conns[2 * k]!,
    b: conns[2 * k + 1]!,
    names: [pair[0]!.name, pair[1]!.name] as const,
    worlds: [pair[0]!.world, pair[1]!.world],
  }));

  // Friendships: a asks, b accepts; both see the other in their friends.
  const t1 = performance.now();
  const friendsFailed: string[] = [];
  const friendOf = (name: string) => (type: string, d: Record<string, unknown>) =>
    type === "social:list" && ((d.friends as { name: string }[] | undefined) ?? []).some((f) => f.name === name);
  const friended = await pool(pairs, 8, async (pair) => {
    try {
      const requested = waitEvent(
        pair.b,
        (type, d) => type === "social:list" && ((d.incoming as { name: string }[] | undefined) ?? []).some((f) => f.name === pair.names[0]),
        20_000,
        "the friend request",
      );
      pair.a.send("social:addFriend", { name: pair.names[1] });
      await requested;
      const both = Promise.all([
        waitEvent(pair.a, friendOf(pair.names[1]), 20_000, "a's friend list"),
        waitEvent(pair.b, friendOf(pair.names[0]), 20_000, "b's friend list"),
      ]);
      pair.b.send("social:acceptFriend", { name: pair.names[0] });
      await both;
      return true;
    } catch (err) {
      friendsFailed.push(`${pair.names.join("/")}: ${(err as Error).message}`);
      return false;
    }
  });
  const friendsMs = performance.now() - t1;
  const ready = pairs.filter((_, k) => friended[k]);
  log(
    `private messages: ${ready.length}/${p} pairs friends (login ${Math.round(loginMs)} ms, friendships ${Math.round(friendsMs)} ms); sending ${settings.messages} at ≤ ${settings.pmRate}/s`,
  );
  if (ready.length === 0) throw new Error(`no pair became friends: ${friendsFailed.slice(0, 3).join("; ")}`);

  // Senders: both ends of every pair. Each message's text names it.
  const senders = ready.flatMap((pair) => [
    { conn: pair.a, to: pair.names[1], peer: pair.b, kind: `${pair.a.kind}->${pair.b.kind}`, lastAt: -Infinity },
    { conn: pair.b, to: pair.names[0], peer: pair.a, kind: `${pair.b.kind}->${pair.a.kind}`, lastAt: -Infinity },
  ]);
  const sent = new Map<string, Sent & { kind: string }>();
  const errors: Record<string, number> = {};
  /** Per sender: the sequence numbers delivered, to count any out of order. */
  const lastDelivered = new Map<number, number>();
  let outOfOrder = 0;
  let duplicates = 0;
  for (const [i, s] of senders.entries()) {
    s.peer.listeners.add((type, d) => {
      if (type !== "social:message") return;
      const m = sent.get(String(d.message));
      if (m === undefined || m.from !== i) return;
      if (m.deliveredMs !== undefined) {
        duplicates++;
        return;
      }
      m.deliveredMs = performance.now() - m.at;
      const seq = Number(String(d.message).split(" ")[1]);
      if (seq < (lastDelivered.get(i) ?? -1)) outOfOrder++;
      lastDelivered.set(i, seq);
    });
    s.conn.listeners.add((type, d) => {
      if (type === "social:messageSent") {
        const m = sent.get(String(d.message));
        if (m !== undefined && m.ackMs === undefined) m.ackMs = performance.now() - m.at;
      } else if (type === "error" && d.event === "social:sendMessage") {
        errors[String(d.code)] = (errors[String(d.code)] ?? 0) + 1;
      }
    });
  }
  const gapMs = 1000 / settings.pmRate;
  const t2 = performance.now();
  let next = 0;
  for (let seq = 0; seq < settings.messages; seq++) {
    const due = t2 + seq * gapMs;
    let wait = due - performance.now();
    // Round-robin over the senders; one whose last message is too recent waits for its turn.
    const s = senders[next % senders.length]!;
    const senderIndex = next % senders.length;
    next++;
    wait = Math.max(wait, s.lastAt + PM_GAP_MS - performance.now());
    if (wait > 0) await sleep(wait);
    const text = `pm ${seq}`;
    s.lastAt = performance.now();
    sent.set(text, { from: senderIndex, at: s.lastAt, kind: s.kind });
    s.conn.send("social:sendMessage", { to: s.to, message: text });
  }
  const sendMs = performance.now() - t2;
  const all = [...sent.values()];
  const settled = () => all.every((m) => m.deliveredMs !== undefined && m.ackMs !== undefined);
  for (const deadline = Date.now() + 10_000; !settled() && Date.now() < deadline;) await sleep(100);

  const byKind: Record<string, object> = {};
  for (const kind of new Set(all.map((m) => m.kind))) {
    const mine = all.filter((m) => m.kind === kind);
    byKind[kind] = { sent: mine.length, delivery: latencyStats(mine.flatMap((m) => (m.deliveredMs === undefined ? [] : [m.deliveredMs]))) };
  }
  const result = {
    pairs: p,
    friendPairs: ready.length,
    friendFailures: friendsFailed.slice(0, 10),
    loginMs: Math.round(loginMs),
    friendshipsMs: Math.round(friendsMs),
    senders: senders.length,
    sent: all.length,
    sendSeconds: round(sendMs / 1000, 1),
    ratePerSecond: round(all.length / (sendMs / 1000), 1),
    delivered: all.filter((m) => m.deliveredMs !== undefined).length,
    acknowledged: all.filter((m) => m.ackMs !== undefined).length,
    lost: all.filter((m) => m.deliveredMs === undefined).length,
    duplicates,
    outOfOrder,
    errors,
    delivery: latencyStats(all.flatMap((m) => (m.deliveredMs === undefined ? [] : [m.deliveredMs]))),
    acknowledgement: latencyStats(all.flatMap((m) => (m.ackMs === undefined ? [] : [m.ackMs]))),
    byKind,
  };
  log(
    `private messages: ${result.delivered}/${result.sent} delivered, p50/p99/max ${result.delivery.p50Ms}/${result.delivery.p99Ms}/${result.delivery.maxMs} ms; acknowledged p50/p99 ${result.acknowledgement.p50Ms}/${result.acknowledgement.p99Ms} ms`,
  );
  for (const c of conns) c.close();
  await worldsWhen(empty, "every messaging player logged out");
  return result;
}

// ---- phase 3: tick p99 against players on world 1 ---------------------------------------------

/** One account and character per bot, at random walkable tiles (as the world-load bench seeds them); a service token each. */
async function seedBots(databaseUrl: string, n: number): Promise<string[]> {
  const env = nodeEnv({ world: 1, port: 0, dir: path.join(tmp, "seed"), log: "" }, databaseUrl);
  const db = await openDatabase(loadConfig(env, ROOT), pino({ level: "silent" }));
  try {
    const content = await bundledContent();
    const tiles = walkableTiles(buildCollision(content));
    const places = Array.from({ length: n }, () => tiles[Math.floor(random() * tiles.length)]!);
    return await seedBotCharacters(db, content, places, { prefix: "cluster-bench", jwtSecret: JWT_SECRET, concurrency: settings.db === "sqlite" ? 1 : 8 });
  } finally {
    await db.close();
  }
}

interface StepResult {
  players: number;
  ok: boolean;
  error?: string;
  botsConnected: number;
  botsFailed: number;
  rampMs: number;
  playersByWorld: Record<string, number>;
  /** World 1's `GET /api/admin/metrics` over the window. */
  world1: {
    windowMs: number;
    ticks: ServerMetricsSnapshot["ticks"] & { phasesMeanMs?: Record<string, number> };
    eventLoopDelay: ServerMetricsSnapshot["eventLoopDelay"];
    gc?: unknown;
    paths?: ServerMetricsSnapshot["paths"];
    cpuCores: number;
    rssBytes: number;
    players: number;
    connections: number;
  };
  /** The other two (idle) worlds' tick p99 over the same window. */
  otherWorldsTickP99Ms: Record<string, number>;
  cpuCores: ReturnType<typeof cpuBetween>;
  loadavg: number[];
  overThreshold: boolean;
}

async function tickPhase(tokens: string[]): Promise<object> {
  const steps: StepResult[] = [];
  const admin = (world: number, method: "GET" | "POST", route: string) => adminCall(portOf(world), ADMIN_CODE, method, route);
  // One player on world 1 first, so that it is the fullest world (the matchmaker's choice for the
  // bots, which name no world), and stays so as the bots join it.
  const anchor = (await joinWs(portOf(1), { world: "1", name: "ClusterAnchor" }, 30_000)).conn;
  await worldsWhen((w) => w.find((x) => x.id === 1)?.players === 1, "the anchor on world 1");
  const botsLog = path.join(tmp, "bots.log");
  const inboxes: FromBots[][] = [];
  let firstOver: { players: number; tickP99Ms: number } | null = null;
  let previous = 0;
  const nextOf = async (inbox: FromBots[], proc: ChildProcess, type: FromBots["type"], timeoutMs: number): Promise<FromBots> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const fatal = inbox.find((m) => m.type === "fatal");
      if (fatal?.type === "fatal") throw new Error(`bots failed: ${fatal.message}`);
      const i = inbox.findIndex((m) => m.type === type);
      if (i >= 0) return inbox.splice(i, 1)[0]!;
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`a bots process exited while waiting for "${type}":\n${tail(botsLog)}`);
      for (const n of nodes) if (n.server?.exited) throw new Error(`world ${n.world}'s server exited:\n${tail(n.log)}`);
      if (Date.now() > deadline) throw new Error(`no "${type}" from the bots within ${timeoutMs} ms`);
      await sleep(50);
    }
  };
  let botsReport: object | undefined;
  try {
    for (const [stepIndex, target] of settings.steps.entries()) {
      const step: Partial<StepResult> & { players: number; ok: boolean } = { players: target, ok: false };
      steps.push(step as StepResult);
      try {
        // This step's new bots, in a bots process of their own (the earlier steps' keep playing).
        const input: BotsInput = {
          port: portOf(1),
          tokens: tokens.slice(previous, target),
          rampPerSecond: settings.rampPerSecond,
          quickStart: settings.tickSeconds < 10,
          seed: settings.seed + stepIndex,
          wsUpdates: "full",
        };
        const inputFile = path.join(tmp, `bots-${stepIndex}.json`);
        fs.writeFileSync(inputFile, JSON.stringify(input));
        const fd = fs.openSync(botsLog, "a");
        const proc = fork(BOTS, [inputFile], { execPath: process.execPath, stdio: ["ignore", fd, fd, "ipc"] });
        fs.closeSync(fd);
        botProcs.push(proc);
        const inbox: FromBots[] = [];
        inboxes.push(inbox);
        proc.on("message", (m: FromBots) => {
          if (m.type === "progress") log(`tick: step ${target}: ${previous + m.connected}/${target} connected, ${m.failed} failed`);
          else inbox.push(m);
        });
        log(`tick: adding ${target - previous} bots to world 1 (${target} in all)`);
        const ready = await nextOf(inbox, proc, "ready", ((target - previous) / settings.rampPerSecond) * 1000 + 120_000);
        if (ready.type !== "ready") throw new Error("unexpected message");
        previous = target;
        step.rampMs = ready.rampMs;
        step.botsFailed = (steps[stepIndex - 1]?.botsFailed ?? 0) + ready.failed;
        step.botsConnected = (steps[stepIndex - 1]?.botsConnected ?? 0) + ready.connected;
        await sleep(settings.settleS * 1000);

        await Promise.all(WORLDS.map((w) => admin(w, "POST", "/api/admin/metrics/reset")));
        for (const p of botProcs) if (p.connected) p.send({ type: "start" });
        const before = cpuSample();
        log(`tick: ${step.botsConnected} bots on world 1 (${step.botsFailed} failed to join); measuring ${settings.tickSeconds} s`);
        await sleep(settings.tickSeconds * 1000);
        const metrics = await Promise.all(
          WORLDS.map(
            async (w) =>
              (
                (await admin(w, "GET", "/api/admin/metrics")) as {
                  metrics: ServerMetricsSnapshot & { ticks: { phasesMeanMs?: Record<string, number> }; gc?: unknown };
                }
              ).metrics,
          ),
        );
        const after = cpuSample();
        const m = metrics[0]!;
        step.world1 = {
          windowMs: m.windowMs,
          ticks: m.ticks,
          eventLoopDelay: m.eventLoopDelay,
          gc: m.gc,
          paths: m.paths,
          cpuCores: m.cpu.cores,
          rssBytes: m.memory.rssBytes,
          players: m.players,
          connections: m.connections,
        };
        step.otherWorldsTickP99Ms = { world2: metrics[1]!.ticks.p99Ms, world3: metrics[2]!.ticks.p99Ms };
        step.cpuCores = cpuBetween(before, after);
        step.loadavg = os.loadavg().map((v) => round(v, 2));
        step.playersByWorld = playersByWorld(await worldList());
        step.overThreshold = m.ticks.p99Ms > settings.thresholdMs;
        step.ok = true;
        log(
          `tick: ${m.players} players on world 1: tick p50/p99/max ${ms(m.ticks.p50Ms)}/${ms(m.ticks.p99Ms)}/${ms(m.ticks.maxMs)} ms over ${m.ticks.count} ticks; cores: world 1 ${step.cpuCores.servers.world1}, bots ${step.cpuCores.bots}, other ${step.cpuCores.other}`,
        );
        if (step.overThreshold && firstOver === null) firstOver = { players: m.players, tickP99Ms: m.ticks.p99Ms };
        // One slow window can be a stall of the machine (others use it too): go on until two in a row.
        if (step.overThreshold && steps[stepIndex - 1]?.overThreshold === true && !settings.allSteps) break;
      } catch (err) {
        step.error = (err as Error).message;
        log(`tick: step ${target} FAILED: ${step.error}`);
        break;
      }
    }
  } finally {
    // The bots' own report (move latency over the last window), then they close their connections.
    const reports: BotsReport[] = [];
    for (const [i, p] of botProcs.entries()) {
      if (!p.connected) continue;
      p.send({ type: "stop" });
      const r = await nextOf(inboxes[i]!, p, "report", 30_000).catch(() => undefined);
      if (r?.type === "report") reports.push(r.report);
    }
    if (reports.length > 0) {
      const kind = (k: Kind) => {
        const lat = reports.flatMap((r) => r[k].latencies ?? []);
        return {
          connected: reports.reduce((s, r) => s + r[k].connected, 0),
          moveLatency: latencyStats(lat),
          disconnects: reports.reduce((s, r) => s + r[k].disconnects, 0),
        };
      };
      botsReport = {
        processes: reports.length,
        colyseus: kind("colyseus"),
        ws: kind("ws"),
        cpuCores: round(
          reports.reduce((s, r) => s + r.process.cpuCores, 0),
          2,
        ),
      };
    }
    anchor.close();
    await sleep(1_500);
    for (const p of botProcs) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  }
  return {
    world: 1,
    thresholdMs: settings.thresholdMs,
    windowSeconds: settings.tickSeconds,
    steps,
    firstOverThreshold: firstOver,
    // The first step from which every later step run was past the threshold too (null when the last one was not).
    overThresholdFrom: ((): { players: number; tickP99Ms: number } | null => {
      const run = steps.filter((x) => x.ok);
      let i = run.length;
      while (i > 0 && run[i - 1]!.overThreshold) i--;
      const s = run[i];
      return s === undefined ? null : { players: s.world1.players, tickP99Ms: s.world1.ticks.p99Ms };
    })(),
    botsLastWindow: botsReport,
    note: "the bots (bench/world-load/bots.ts: half Colyseus, half /ws, a walk every 2-5 s and a chat every 20-40 s) run in child processes of the bench on the same machine as the three servers, so they take CPU from world 1's process; players include the one anchor /ws player",
  };
}

// ---- the run ----------------------------------------------------------------------------------

const started = new Date().toISOString();
const command = ["npm run bench:cluster", ...(process.argv.length > 2 ? ["--", ...process.argv.slice(2)] : [])].join(" ");
const doc: Record<string, unknown> = {
  benchmark: "cluster",
  started,
  command,
  machine: {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    totalMemBytes: os.totalmem(),
    node: process.version,
    loadavgAtStart: os.loadavg().map((v) => round(v, 2)),
  },
  settings,
};
const writeDoc = () => {
  fs.mkdirSync(path.dirname(path.resolve(args.out)), { recursive: true });
  fs.writeFileSync(args.out, `${JSON.stringify(doc, null, 2)}\n`);
};

let ok = false;
try {
  redisUrl = await freshRedis();
  let databaseUrl: string;
  if (settings.db === "postgresql") {
    const created = await freshPostgres("bench_cluster", args["pg-url"] ?? process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
    pgDrop = created.drop;
    databaseUrl = created.url;
  } else {
    databaseUrl = `sqlite:${path.join(tmp, "cluster.sqlite")}`;
  }
  doc.cluster = { processes: WORLDS.length, redis: redisUrl, database: settings.db, tickMs: settings.tickMs };
  const wantTick = settings.phases.includes("tick");
  let tokens: string[] = [];
  if (wantTick) {
    const t = Date.now();
    log(`seeding ${Math.max(...settings.steps)} bot characters (${settings.db})`);
    tokens = await seedBots(databaseUrl, Math.max(...settings.steps));
    log(`seeded in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const t = Date.now();
  await startCluster(databaseUrl);
  doc.cluster = { ...(doc.cluster as object), startMs: Date.now() - t, worlds: nodes.map((n) => ({ world: n.world, port: n.port, pid: n.server?.proc.pid })) };
  writeDoc();

  if (settings.phases.includes("joins")) {
    doc.joins = await joinsPhase();
    writeDoc();
  }
  if (settings.phases.includes("pm")) {
    doc.privateMessages = await pmPhase();
    writeDoc();
  }
  if (wantTick) {
    doc.tick = await tickPhase(tokens);
    writeDoc();
  }
  log("stopping the cluster");
  doc.shutdown = await stopCluster();
  const steps = (doc.tick as { steps?: StepResult[] } | undefined)?.steps ?? [];
  ok = (doc.shutdown as { code: number | null }[]).every((s) => s.code === 0) && steps.every((s) => s.ok);
  if (!ok) doc.error = steps.find((s) => !s.ok)?.error ?? "a server did not exit 0 on SIGTERM";
} catch (err) {
  doc.error = (err as Error).stack ?? String(err);
  log(`FAILED: ${(err as Error).message}`);
  for (const n of nodes) if (n.server !== undefined) log(`world ${n.world}'s log:\n${tail(n.log)}`);
} finally {
  await cleanup();
}
doc.ok = ok;
doc.finished = new Date().toISOString();
doc.machine = { ...(doc.machine as object), loadavgAtEnd: os.loadavg().map((v) => round(v, 2)) };
writeDoc();
printSummary();
process.exit(ok ? 0 : 1);

function printSummary(): void {
  const out: string[] = [`\ncluster benchmark, ${started} (${os.cpus().length} cores, ${settings.db}, ${settings.tickMs} ms tick)\n`];
  const j = doc.joins as
    | {
        cpuCores: object;
        joined: number;
        clients: number;
        durationMs: number;
        joinsPerSecond: number;
        latency: { p50Ms: number; p99Ms: number };
        failures: object;
        byTransport: Record<Kind, { joined: number; attempts: number; joinsPerSecond: number; latency: { p50Ms: number; p99Ms: number } }>;
        routed: { joined: number; latency: { p50Ms: number; p99Ms: number } };
        direct: { joined: number; latency: { p50Ms: number; p99Ms: number } };
      }
    | undefined;
  if (j !== undefined) {
    out.push("| joins | joined | joins/s | welcome latency p50 / p99 ms |", "|---|---:|---:|---|");
    out.push(`| all (${j.clients}, ${settings.joinConcurrency} at a time) | ${j.joined} | ${j.joinsPerSecond} | ${j.latency.p50Ms} / ${j.latency.p99Ms} |`);
    for (const k of ["colyseus", "ws"] as const)
      out.push(
        `| ${k} | ${j.byTransport[k].joined}/${j.byTransport[k].attempts} | ${j.byTransport[k].joinsPerSecond} | ${j.byTransport[k].latency.p50Ms} / ${j.byTransport[k].latency.p99Ms} |`,
      );
    out.push(`| routed/proxied to another process | ${j.routed.joined} | | ${j.routed.latency.p50Ms} / ${j.routed.latency.p99Ms} |`);
    out.push(`| asked of the world's own process | ${j.direct.joined} | | ${j.direct.latency.p50Ms} / ${j.direct.latency.p99Ms} |`);
    out.push(`failures: ${JSON.stringify(j.failures)}; cores over the phase: ${JSON.stringify(j.cpuCores)}\n`);
  }
  const p = doc.privateMessages as
    | {
        sent: number;
        delivered: number;
        acknowledged: number;
        ratePerSecond: number;
        friendPairs: number;
        delivery: { p50Ms: number; p99Ms: number; maxMs: number };
        acknowledgement: { p50Ms: number; p99Ms: number; maxMs: number };
        errors: object;
      }
    | undefined;
  if (p !== undefined) {
    out.push("| private messages | sent | delivered | rate/s | p50 / p99 / max ms |", "|---|---:|---:|---:|---|");
    out.push(
      `| send → recipient's social:message (${p.friendPairs} pairs) | ${p.sent} | ${p.delivered} | ${p.ratePerSecond} | ${p.delivery.p50Ms} / ${p.delivery.p99Ms} / ${p.delivery.maxMs} |`,
    );
    out.push(
      `| send → sender's social:messageSent | ${p.sent} | ${p.acknowledged} | | ${p.acknowledgement.p50Ms} / ${p.acknowledgement.p99Ms} / ${p.acknowledgement.maxMs} |`,
    );
    out.push(`errors: ${JSON.stringify(p.errors)}\n`);
  }
  const t = doc.tick as
    | {
        steps: StepResult[];
        firstOverThreshold: { players: number; tickP99Ms: number } | null;
        overThresholdFrom: { players: number; tickP99Ms: number } | null;
      }
    | undefined;
  if (t !== undefined) {
    out.push("| players on world 1 | tick p50 / p99 / max ms | ticks | cores: world 1 / bots / other / machine busy | load avg |", "|---:|---|---:|---|---|");
    for (const s of t.steps) {
      if (!s.ok) out.push(`| ${s.players} | failed: ${s.error ?? "?"} | | | |`);
      else
        out.push(
          `| ${s.world1.players} | ${ms(s.world1.ticks.p50Ms)} / ${ms(s.world1.ticks.p99Ms)} / ${ms(s.world1.ticks.maxMs)} | ${s.world1.ticks.count} | ${s.cpuCores.servers.world1} / ${s.cpuCores.bots} / ${s.cpuCores.other} / ${s.cpuCores.machineBusy} of ${os.cpus().length} | ${s.loadavg[0]} |`,
        );
    }
    out.push(
      t.firstOverThreshold === null
        ? `tick p99 stayed at or under ${settings.thresholdMs} ms at every step run`
        : `first step past ${settings.thresholdMs} ms: ${t.firstOverThreshold.players} players (tick p99 ${ms(t.firstOverThreshold.tickP99Ms)} ms); past it from ${t.overThresholdFrom === null ? "- (the last step was under it)" : `${t.overThresholdFrom.players} players on`}`,
    );
  }
  if (doc.error !== undefined) out.push(`\nerror: ${String(doc.error).split("\n")[0]}`);
  console.log(out.join("\n"));
}
