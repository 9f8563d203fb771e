/* eslint-disable no-console */
/**
 * Trade-throughput benchmark orchestrator: for each database and pair count, a fresh server
 * process (`node src/main.ts`) on a fresh database with 2 × P characters seeded in pairs standing
 * next to each other, and a separate bots process (bots.ts) in which every pair trades in a loop
 * for the measured window. Afterwards, with the server stopped, the database is checked: every
 * item seeded is still there exactly once, each pair still holds its own items between the two of
 * them, and the `trade_audit` rows are exactly the trades the bots saw complete. The server's own
 * store time of each trade (both players' last accept → swap stored, group commit included) comes
 * from its Prometheus histogram (METRICS_PORT), scraped at both ends of the window.
 *
 *   node bench/trade/run.ts [--pairs 10,50,100] [--seconds 30] [--db sqlite,postgresql]
 *                           [--tick-ms 600] [--warmup 5] [--save-interval 60] [--out <json>] [--keep]
 *
 * PostgreSQL: a fresh database per run on the server at TEST_PG_URL (default
 * postgresql://postgres@127.0.0.1:5432/test, used as the admin connection), dropped afterwards.
 * See bench/README.md.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCli } from "../../src/cli.ts";
import { freshPostgres, releaseScratch } from "../postgres.ts";
import { pino } from "pino";
import { Character, InventorySlot, TradeAudit } from "../../entities/index.ts";
import { TokenService } from "../../src/auth/tokens.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { chebyshev } from "../../src/game/map/CollisionMap.ts";
import { buildCollision } from "../../src/game/world/World.ts";
import { createCharacter } from "../../src/persistence/players.ts";
import {
  benchServerEnv,
  CLK_TCK,
  ROOT,
  adminCall,
  bundledContent,
  freePort,
  machineStat,
  procStat,
  round,
  sleep,
  walkableTiles,
  endSweep,
  startBenchServer,
  tail,
  writeResults,
  type ServerMetricsSnapshot,
} from "../world-load/common.ts";
import { ITEMS, type BotsInput, type BotsReport, type FromBots, type ItemId, type PairInput } from "./common.ts";
import { parsePrometheus } from "../../test/support/prometheus.ts";

const JWT_SECRET = "trade-bench-secret-0123456789abcdef0123";
const ADMIN_CODE = "trade-bench-admin";
const BOTS = path.join(import.meta.dirname, "bots.ts");

const CLI = {
  command: "npm run bench:trade -- [options]",
  summary: `Trade-throughput benchmark orchestrator: for each database and pair count, a fresh server process (\`node src/main.ts\`) on a fresh database with 2 × P characters seeded in pairs standing next to each other, and a separate bots process (bots.ts) in which every pair trades in a loop for the measured window. See bench/trade/README.md.`,
};
const { values: args } = parseCli(CLI, {
  options: {
    pairs: { type: "string", default: "10,50,100" },
    seconds: { type: "string", default: "30" },
    db: { type: "string", default: "sqlite,postgresql" },
    "tick-ms": { type: "string", default: "600" },
    warmup: { type: "string", default: "5" },
    "save-interval": { type: "string", default: "60" },
    out: { type: "string", default: path.join(import.meta.dirname, "results-latest.json") },
    keep: { type: "boolean", default: false },
  },
});
const pairCounts = args.pairs.split(",").map((s) => Number(s.trim()));
const dbs = args.db.split(",").map((s) => s.trim());
const seconds = Number(args.seconds);
const tickMs = Number(args["tick-ms"]);
const warmupMs = Number(args.warmup) * 1000;
if (
  pairCounts.some((n) => !Number.isInteger(n) || n < 1) ||
  dbs.some((d) => d !== "sqlite" && d !== "postgresql") ||
  !(seconds > 0) ||
  !Number.isInteger(tickMs) ||
  tickMs < 10 ||
  !(warmupMs >= 0)
) {
  console.error(
    "usage: run.ts [--pairs 10,50,100] [--seconds 30] [--db sqlite,postgresql] [--tick-ms 600] [--warmup 5] [--save-interval 60] [--out file.json] [--keep]",
  );
  process.exit(2);
}
type Db = "sqlite" | "postgresql";

const log = (msg: string) => process.stderr.write(`[trade ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const admin = (port: number, method: "GET" | "POST", route: string) => adminCall(port, ADMIN_CODE, method, route);

/** The upper bounds (seconds) and cumulative counts of `rsworld_trade_store_duration_seconds` for one outcome. */
type Buckets = Map<number, number>;

/** Reads the server's Prometheus endpoint (the tests' strict reader): the store-time histogram of each outcome. */
async function scrapeStoreTimes(metricsPort: number): Promise<Record<"completed" | "failed", Buckets>> {
  const families = parsePrometheus(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
  const out = { completed: new Map(), failed: new Map() } as Record<"completed" | "failed", Buckets>;
  for (const s of families.get("rsworld_trade_store_duration_seconds")?.samples ?? []) {
    const outcome = s.labels.outcome;
    if (s.name.endsWith("_bucket") && (outcome === "completed" || outcome === "failed"))
      out[outcome].set(Number(s.labels.le === "+Inf" ? Infinity : s.labels.le), s.value);
  }
  return out;
}

/**
 * Trades' server-side store time over the window (from both players' last accept to the swap
 * stored: the wait for a writer and the group commit's transaction), from two scrapes of its
 * histogram: quantiles interpolated within buckets as PromQL's histogram_quantile does, and the
 * share stored within 1 s (a bucket bound, so exact).
 */
export interface StoreTimes {
  completed: number;
  failed: number;
  p50S: number;
  p99S: number;
  withinOneSecond: number;
}

function storeTimes(first: Record<"completed" | "failed", Buckets>, last: Record<"completed" | "failed", Buckets>): StoreTimes {
  const bounds = [...last.completed.keys()].sort((a, b) => a - b);
  const cumulative = bounds.map((le) => (last.completed.get(le) ?? 0) - (first.completed.get(le) ?? 0));
  const total = cumulative.at(-1) ?? 0;
  const quantile = (q: number): number => {
    if (total === 0) return 0;
    const rank = q * total;
    const i = cumulative.findIndex((c) => c >= rank);
    const upper = bounds[i]!;
    if (!Number.isFinite(upper)) return bounds[i - 1] ?? 0;
    const lower = i === 0 ? 0 : bounds[i - 1]!;
    const below = i === 0 ? 0 : cumulative[i - 1]!;
    const inBucket = cumulative[i]! - below;
    return round(lower + (upper - lower) * (inBucket === 0 ? 1 : (rank - below) / inBucket), 3);
  };
  const failed = (last.failed.get(Number.POSITIVE_INFINITY) ?? 0) - (first.failed.get(Number.POSITIVE_INFINITY) ?? 0);
  // The share within 1 s is exact only at a bucket bound: a histogram without one is a bench error, not 0.
  if (total > 0 && !bounds.includes(1)) throw new Error("the trade store histogram has no 1 s bucket bound");
  const oneSecond = cumulative[bounds.indexOf(1)] ?? 0;
  return { completed: total, failed, p50S: quantile(0.5), p99S: quantile(0.99), withinOneSecond: total === 0 ? 1 : round(oneSecond / total, 4) };
}

interface Seeded {
  pairs: PairInput[];
  /** Item totals over every character, as seeded. */
  totals: Record<ItemId, number>;
}

/**
 * Seeds 2 × n characters on their own accounts, with only the bench items (5 logs, 100 feathers),
 * each pair on two walkable tiles 1 tile apart inside the town's safe zone (no aggressive mobs),
 * pairs spread at random; one service token per account.
 */
async function seed(env: Record<string, string>, n: number): Promise<Seeded> {
  const config = loadConfig(env, ROOT);
  const db = await openDatabase(config, pino({ level: "silent" }));
  try {
    const content = await bundledContent();
    const map = buildCollision(content);
    const safe = content.areas.filter((a) => a.safeZone).map((a) => a.bounds);
    const inSafe = (t: { x: number; z: number }) => safe.some((b) => t.x >= b.minX && t.x <= b.maxX && t.z >= b.minZ && t.z <= b.maxZ);
    const tiles = walkableTiles(map).filter(inSafe);
    if (tiles.length === 0) throw new Error("no walkable tile in a safe zone");
    const used = new Set<string>();
    const key = (t: { x: number; z: number }) => `${t.x},${t.z}`;
    const spot = (): { a: { x: number; z: number }; b: { x: number; z: number } } => {
      for (let attempt = 0; attempt < 10_000; attempt++) {
        const a = tiles[Math.floor(Math.random() * tiles.length)]!;
        const near = tiles.filter((t) => chebyshev(t, a) === 1 && !used.has(key(t)));
        if (used.has(key(a)) || near.length === 0) continue;
        const b = near[Math.floor(Math.random() * near.length)]!;
        used.add(key(a));
        used.add(key(b));
        return { a, b };
      }
      throw new Error("no free pair of tiles");
    };
    const kit = (Object.keys(ITEMS) as ItemId[]).map((itemId) => ({ itemId, quantity: ITEMS[itemId] }));
    const tokens = new TokenService({ jwtSecret: JWT_SECRET, idp: { appId: undefined, appSecret: undefined } });
    const pairs: PairInput[] = [];
    const positions: { id: string; x: number; z: number }[] = [];
    for (let i = 0; i < n; i++) {
      const where = spot();
      const one = async (side: "a" | "b") => {
        const accountId = `trade-bench-${i}-${side}`;
        const data = await createCharacter(db, content, accountId, `Trader${i}${side}`, kit);
        positions.push({ id: data.characterId, ...where[side] });
        return { token: await tokens.signServiceToken({ accountId }, 24 * 3600), playerId: data.characterId };
      };
      pairs.push({ kind: i % 2 === 0 ? "colyseus" : "ws", a: await one("a"), b: await one("b") });
    }
    await db.em().transactional(async (em) => {
      for (const p of positions) await em.nativeUpdate(Character, { id: p.id }, { positionX: p.x, positionZ: p.z });
    });
    const totals = { logs: 0, feathers: 0 };
    for (const row of await db.em().find(InventorySlot, {})) if (row.itemId in totals) totals[row.itemId as ItemId] += row.quantity;
    return { pairs, totals };
  } finally {
    await db.close();
  }
}

export interface Integrity {
  ok: boolean;
  problems: string[];
  seeded: Record<ItemId, number>;
  stored: Record<string, number>;
  auditRows: number;
  botsCompleted: number;
  /** Trade ids the bots saw complete that have no audit row, and audit rows the bots never saw. */
  missingInAudit: number;
  unknownInAudit: number;
}

/** Reads the database of a stopped server and checks it against the seed and the bots' report. */
async function verify(env: Record<string, string>, seeded: Seeded, report: BotsReport): Promise<Integrity> {
  const db = await openDatabase(loadConfig(env, ROOT), pino({ level: "silent" }));
  try {
    const em = db.em();
    const rows = await em.find(InventorySlot, {});
    const audit = await em.find(TradeAudit, {});
    const problems: string[] = [];
    const stored: Record<string, number> = {};
    const byChar = new Map<string, Record<string, number>>();
    for (const r of rows) {
      stored[r.itemId] = (stored[r.itemId] ?? 0) + r.quantity;
      const c = byChar.get(r.characterId) ?? {};
      c[r.itemId] = (c[r.itemId] ?? 0) + r.quantity;
      byChar.set(r.characterId, c);
    }
    for (const item of Object.keys(stored)) if (!(item in ITEMS)) problems.push(`item ${item} (${stored[item]}) was never seeded`);
    for (const item of Object.keys(ITEMS) as ItemId[]) {
      if ((stored[item] ?? 0) !== seeded.totals[item]) problems.push(`${item}: ${stored[item] ?? 0} stored, ${seeded.totals[item]} seeded`);
    }
    // Each pair only trades with itself: the two of them still hold exactly their seed.
    let pairViolations = 0;
    for (const [i, p] of seeded.pairs.entries()) {
      const a = byChar.get(p.a.playerId) ?? {};
      const b = byChar.get(p.b.playerId) ?? {};
      for (const item of Object.keys(ITEMS) as ItemId[]) {
        const sum = (a[item] ?? 0) + (b[item] ?? 0);
        if (sum !== 2 * ITEMS[item] && pairViolations++ < 10)
          problems.push(`pair ${i}: ${item} ${a[item] ?? 0} + ${b[item] ?? 0} = ${sum}, seeded ${2 * ITEMS[item]}`);
      }
    }
    const auditIds = new Set(audit.map((r) => r.tradeId));
    const seen = new Set(report.completedTradeIds);
    const missing = [...seen].filter((id) => !auditIds.has(id));
    const unknown = [...auditIds].filter((id) => !seen.has(id));
    if (audit.length !== seen.size) problems.push(`${audit.length} trade_audit rows, ${seen.size} trades completed at the bots`);
    if (missing.length > 0) problems.push(`${missing.length} completed trades without an audit row, e.g. ${missing.slice(0, 3).join(", ")}`);
    if (unknown.length > 0) problems.push(`${unknown.length} audit rows for trades no bot saw complete, e.g. ${unknown.slice(0, 3).join(", ")}`);
    const pairOf = new Map(
      seeded.pairs.flatMap(
        (p) =>
          [
            [p.a.playerId, p],
            [p.b.playerId, p],
          ] as const,
      ),
    );
    let badAudit = 0;
    for (const r of audit) {
      const one = (list: { itemId: string; quantity: number }[]) => list.length === 1 && list[0]!.quantity === 1 && list[0]!.itemId in ITEMS;
      const p = pairOf.get(r.playerAId);
      if ((p === undefined || (p.b.playerId !== r.playerBId && p.a.playerId !== r.playerBId) || !one(r.itemsAToB) || !one(r.itemsBToA)) && badAudit++ < 3) {
        problems.push(`audit row ${r.tradeId} is not a 1-for-1 swap within a pair: ${JSON.stringify(r)}`);
      }
    }
    if (report.halfCompleted > 0) problems.push(`${report.halfCompleted} trades reached only one of their two players`);
    return {
      ok: problems.length === 0,
      problems,
      seeded: seeded.totals,
      stored,
      auditRows: audit.length,
      botsCompleted: seen.size,
      missingInAudit: missing.length,
      unknownInAudit: unknown.length,
    };
  } finally {
    await db.close();
  }
}

export interface RunResult {
  db: Db;
  pairs: number;
  seconds: number;
  tickMs: number;
  ok: boolean;
  error?: string;
  setup?: { seedMs: number; serverStartMs: number; rampMs: number; connected: number; connectFailures: number };
  trades?: BotsReport & { procCpuCores: number | undefined };
  /** The server's own account of the window's trades: confirmation → swap stored. */
  store?: StoreTimes;
  server?: {
    metrics: ServerMetricsSnapshot;
    /** From /proc over the window (1.0 = one core busy). */
    procCpuCores: number | undefined;
    rssBytes: number | undefined;
    exit: { code: number | null; signal: string | null; shutdownMs: number } | undefined;
  };
  /** Whole machine over the window, in cores: busy, and busy minus server and bots (PostgreSQL's processes, …). */
  machine?: { cpus: number; busyCores: number; otherCores: number | undefined };
  integrity?: Integrity;
}

async function runOne(dbKind: Db, n: number): Promise<RunResult> {
  const result: RunResult = { db: dbKind, pairs: n, seconds, tickMs, ok: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trade-bench-"));
  let server: ChildProcess | undefined;
  let bots: ChildProcess | undefined;
  let pgDb: { url: string; drop(): Promise<void> } | undefined;
  const serverLog = path.join(dir, "server.log");
  const botsLog = path.join(dir, "bots.log");
  const tag = `${dbKind} P=${n}`;
  try {
    if (dbKind === "postgresql") pgDb = await freshPostgres("bench_trade");
    const port = await freePort();
    const metricsPort = await freePort();
    const env = benchServerEnv(dir, port, {
      JWT_SECRET,
      ADMIN_CODE,
      METRICS_PORT: String(metricsPort),
      DATABASE_URL: pgDb?.url ?? `sqlite:${path.join(dir, "bench.sqlite")}`,
      SAVE_INTERVAL: args["save-interval"],
      TICK_MS: String(tickMs),
    });

    let t = Date.now();
    log(`${tag}: seeding ${2 * n} characters`);
    const seeded = await seed(env, n);
    const seedMs = Date.now() - t;

    t = Date.now();
    // As world-load: BENCH_NODE_ARGS adds Node flags to the server's (a profile, a GC trace).
    const running = await startBenchServer(env, serverLog, (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean));
    server = running.proc;
    const serverStartMs = Date.now() - t;
    log(`${tag}: server up on port ${port} (pid ${server.pid}); starting bots`);

    const input: BotsInput = { port, pairs: seeded.pairs, rampPerSecond: 100, stuckMs: Math.max(15_000, 25 * tickMs) };
    const inputFile = path.join(dir, "bots-input.json");
    fs.writeFileSync(inputFile, JSON.stringify(input));
    const botsFd = fs.openSync(botsLog, "a");
    bots = fork(BOTS, [inputFile], { execPath: process.execPath, stdio: ["ignore", botsFd, botsFd, "ipc"] });
    fs.closeSync(botsFd);
    const inbox: FromBots[] = [];
    let botsExited = false;
    bots.on("message", (m: FromBots) => {
      if (m.type === "progress") log(`${tag}: ${m.connected}/${m.total} connected, ${m.failed} failed`);
      else inbox.push(m);
    });
    bots.once("exit", () => (botsExited = true));
    const next = async (type: FromBots["type"], timeoutMs: number): Promise<FromBots> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const fatal = inbox.find((m) => m.type === "fatal");
        if (fatal?.type === "fatal") throw new Error(`bots failed: ${fatal.message}`);
        const i = inbox.findIndex((m) => m.type === type);
        if (i >= 0) return inbox.splice(i, 1)[0]!;
        if (botsExited) throw new Error(`bots process exited while waiting for "${type}":\n${tail(botsLog)}`);
        if (running.exited) throw new Error(`server exited while waiting for "${type}":\n${tail(serverLog)}`);
        if (Date.now() > deadline) throw new Error(`no "${type}" from the bots within ${timeoutMs} ms`);
        await sleep(50);
      }
    };
    const ready = await next("ready", ((2 * n) / input.rampPerSecond) * 1000 + 120_000);
    if (ready.type !== "ready") throw new Error("unexpected message");
    result.setup = { seedMs, serverStartMs, rampMs: ready.rampMs, connected: ready.connected, connectFailures: ready.failed };
    log(`${tag}: ${ready.connected} connected (${ready.failed} failed) in ${ready.rampMs} ms; trading, ${warmupMs / 1000} s warm-up`);
    if (ready.failed > 0) throw new Error(`${ready.failed} bots could not connect:\n${tail(botsLog)}`);

    bots.send({ type: "trade" });
    await sleep(warmupMs);
    await admin(port, "POST", "/api/admin/metrics/reset");
    const storeFirst = await scrapeStoreTimes(metricsPort);
    bots.send({ type: "start" });
    const first = { at: Date.now(), server: procStat(server.pid!), bots: procStat(bots.pid!), machine: machineStat() };
    log(`${tag}: measuring for ${seconds} s`);
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      await sleep(Math.min(1_000, end - Date.now()));
      if (running.exited) throw new Error(`server exited during the run:\n${tail(serverLog)}`);
    }
    const metrics = ((await admin(port, "GET", "/api/admin/metrics")) as { metrics: ServerMetricsSnapshot }).metrics;
    result.store = storeTimes(storeFirst, await scrapeStoreTimes(metricsPort));
    const last = { at: Date.now(), server: procStat(server.pid!), bots: procStat(bots.pid!), machine: machineStat() };
    bots.send({ type: "stop" });
    const reported = await next("report", input.stuckMs + 30_000);
    if (reported.type !== "report") throw new Error("unexpected message");
    const windowS = (last.at - first.at) / 1000;
    const cores = (a: { cpuTicks: number } | undefined, b: { cpuTicks: number } | undefined) =>
      a === undefined || b === undefined ? undefined : round((b.cpuTicks - a.cpuTicks) / CLK_TCK / windowS, 2);
    result.trades = { ...reported.report, procCpuCores: cores(first.bots, last.bots) };
    const busyCores = round(((last.machine.busy - first.machine.busy) / (last.machine.total - first.machine.total)) * os.cpus().length, 2);
    const serverCores = cores(first.server, last.server);
    const botsCores = cores(first.bots, last.bots);
    result.machine = {
      cpus: os.cpus().length,
      busyCores,
      otherCores: serverCores === undefined || botsCores === undefined ? undefined : round(Math.max(0, busyCores - serverCores - botsCores), 2),
    };
    const r = reported.report;
    log(
      `${tag}: ${r.completed} trades in the window (${r.perSecond}/s), p50 ${r.latencyP50Ms} ms, p99 ${r.latencyP99Ms} ms; ${r.completedTradeIds.length} in all`,
    );
    const st = result.store;
    log(
      `${tag}: server side, confirmation → stored: p50 ${st.p50S} s, p99 ${st.p99S} s, ${round(st.withinOneSecond * 100, 2)} % within 1 s (${st.completed} stored, ${st.failed} rolled back)`,
    );

    // Stop: the server first (it saves every player), then check what it left in the database.
    t = Date.now();
    server.kill("SIGTERM");
    const exit = await Promise.race([running.exit, sleep(30_000).then(() => undefined)]);
    result.server = {
      metrics,
      procCpuCores: cores(first.server, last.server),
      rssBytes: last.server?.rssBytes,
      exit: exit === undefined ? undefined : { ...exit, shutdownMs: Date.now() - t },
    };
    if (exit === undefined) throw new Error("the server did not exit within 30 s of SIGTERM");
    if (exit.code !== 0) throw new Error(`the server exited with ${exit.code ?? exit.signal}:\n${tail(serverLog)}`);

    const integrity = await verify(env, seeded, r);
    result.integrity = integrity;
    if (!integrity.ok) {
      log(`${tag}: *** INTEGRITY FAILURE ***\n  ${integrity.problems.join("\n  ")}`);
      throw new Error(`integrity check failed: ${integrity.problems.join("; ")}`);
    }
    log(
      `${tag}: integrity ok: ${JSON.stringify(integrity.stored)} stored = seeded; ${integrity.auditRows} audit rows = ${integrity.botsCompleted} completed trades`,
    );
    const errorLines = fs
      .readFileSync(serverLog, "utf8")
      .split("\n")
      .filter((l) => l.includes('"level":50') || l.includes('"level":60'));
    if (errorLines.length > 0) log(`${tag}: the server logged ${errorLines.length} errors:\n${errorLines.slice(0, 5).join("\n")}`);
    result.ok = true;
  } catch (err) {
    result.error = (err as Error).message;
    log(`${tag}: FAILED: ${result.error}`);
  } finally {
    if (bots !== undefined && bots.exitCode === null) {
      await sleep(2_000);
      if (bots.exitCode === null) bots.kill("SIGKILL");
    }
    if (server !== undefined && server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    await releaseScratch({ dir, db: pgDb, keep: args.keep, tag, log });
  }
  return result;
}

function summary(r: RunResult): string {
  if (!r.ok || r.trades === undefined || r.server === undefined) return `| ${r.db} | ${r.pairs} | failed: ${r.error?.split("\n")[0] ?? "?"} |`;
  const t = r.trades;
  const errors = Object.values(t.tradeErrors).reduce((a, b) => a + b, 0);
  const cancelled = Object.values(t.tradeCancelled).reduce((a, b) => a + b, 0);
  return [
    "",
    r.db,
    r.pairs,
    t.completed,
    t.perSecond,
    `${t.latencyP50Ms} / ${t.latencyP99Ms}`,
    `${t.phasesP50Ms.request} / ${t.phasesP50Ms.offer} / ${t.phasesP50Ms.commit} (p99 ${t.phasesP99Ms.commit})`,
    r.store === undefined ? "?" : `${r.store.p50S} / ${r.store.p99S} (${round(r.store.withinOneSecond * 100, 1)} %)`,
    `${errors} / ${cancelled} / ${t.stuck}`,
    `${r.server.procCpuCores ?? r.server.metrics.cpu.cores} / ${r.trades.procCpuCores ?? "?"} / ${r.machine?.otherCores ?? "?"}`,
    `${round(r.server.metrics.ticks.p50Ms, 1)} / ${round(r.server.metrics.ticks.p99Ms, 1)}`,
    r.integrity?.ok ? `ok (${r.integrity.auditRows})` : "FAILED",
    "",
  ]
    .join(" | ")
    .trim();
}

const results: RunResult[] = [];
const started = new Date().toISOString();
for (const d of dbs as Db[]) {
  for (const n of pairCounts) {
    const r = await runOne(d, n);
    results.push(r);
    process.stdout.write(`${JSON.stringify({ ...r, trades: r.trades && { ...r.trades, completedTradeIds: r.trades.completedTradeIds.length } })}\n`);
    // The trade ids are only needed for the integrity check: the file keeps their count.
    writeResults(
      args.out,
      "trade",
      started,
      { seconds, warmupSeconds: warmupMs / 1000, tickMs, saveIntervalS: Number(args["save-interval"]), items: ITEMS },
      results.map((x) => ({ ...x, trades: x.trades && { ...x.trades, completedTradeIds: x.trades.completedTradeIds.length } })),
    );
    await sleep(1_000);
  }
}

endSweep(
  [
    "db",
    "pairs",
    "trades",
    "trades/s",
    "latency p50 / p99 ms",
    "request / offer / commit p50 ms (commit p99)",
    "stored in p50 / p99 s (within 1 s)",
    "tradeError / cancelled / stuck",
    "CPU cores: server / bots / other",
    "tick p50 / p99 ms",
    "integrity (audit rows)",
  ],
  results.map(summary),
  results.every((r) => r.ok),
);
