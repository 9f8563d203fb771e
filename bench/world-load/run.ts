/* eslint-disable no-console */
/**
 * World-load benchmark orchestrator: for each client count, a fresh server process (`node
 * src/main.ts`) with N characters seeded at random walkable tiles, and a separate bots process
 * (bots.ts) driving N clients (half Colyseus SDK, half `/ws`) for the measured window.
 *
 *   node bench/world-load/run.ts [--clients 100,500,1000,2000] [--seconds 60] [--out <json>]
 *                                [--ramp 100] [--settle 5] [--keep] [--profile <dir>]
 *                                [--save-interval 60] [--seed 1] [--bot-processes 1|2|4|…] [--bots-nice 0]
 *                                [--attackers 0] [--attack-rate 58]
 *
 * `--attackers N` adds N more clients in their own process (flood.ts) that send `player:move` at
 * `--attack-rate` messages a second each (the per-connection limit is 60), always to the dearest
 * targets for path-finding; the N in `--clients` are the ordinary players measured beside them.
 *
 * `--profile <dir>` runs the server and the bots processes with `--cpu-prof` and leaves `server-<N>.cpuprofile`
 * and `bots-input-<i>-<N>.cpuprofile` there
 * (the whole process lifetime: startup, ramp and window).
 *
 * Reports per N: tick duration p50/p99, event-loop delay p99, server CPU and RSS (from the
 * server's `/api/admin/metrics` and from /proc), the bots process's CPU, bytes per client per
 * second, and move-to-position-update latency p50/p99 per client kind. See bench/README.md.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCli } from "../../src/cli.ts";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { seedBotCharacters } from "../seed.ts";
import {
  benchServerEnv,
  CLK_TCK,
  ROOT,
  adminCall,
  bundledContent,
  freePort,
  sleep,
  type ServerMetricsSnapshot,
  machineStat,
  procStat,
  procTreeStat,
  threadCpuTicks,
  round,
  walkableTiles,
  type BotsInput,
  type BotsReport,
  type FloodInput,
  type FloodReport,
  type FromBots,
  type KindReport,
  percentile,
  endSweep,
  startBenchServer,
  tail,
  writeResults,
} from "./common.ts";
import { buildCollision, seededRandom } from "../../src/game/world/World.ts";

const JWT_SECRET = "world-load-bench-secret-0123456789abcdef";
const ADMIN_CODE = "world-load-bench-admin";
const BOTS = path.join(import.meta.dirname, "bots.ts");
/**
 * Node flags of the client processes: V8's collector on their own thread, with young space to
 * match (as the server's, see package.json `start`). Each process stands for many clients that
 * would each have a machine of their own; its collector's helper threads took the two cores from
 * the server (bench/README.md, "The bots' own collector"). `BENCH_BOTS_NODE_ARGS` replaces them
 * (`""`: Node's defaults).
 */
const BOTS_NODE_ARGS = (process.env.BENCH_BOTS_NODE_ARGS ?? "--max-semi-space-size=64 --single-threaded-gc").split(" ").filter(Boolean);
const FLOOD = path.join(import.meta.dirname, "flood.ts");

const CLI = {
  command: "npm run bench:world-load -- [options]",
  summary: `World-load benchmark orchestrator: for each client count, a fresh server process (\`node src/main.ts\`) with N characters seeded at random walkable tiles, and a separate bots process (bots.ts) driving N clients (half Colyseus SDK, half \`/ws\`) for the measured window. See bench/world-load/README.md.`,
};
const { values: args } = parseCli(CLI, {
  options: {
    clients: { type: "string", default: "100,500,1000,2000" },
    seconds: { type: "string", default: "60" },
    out: { type: "string", default: path.join(import.meta.dirname, "results-latest.json") },
    ramp: { type: "string", default: "100" },
    settle: { type: "string", default: "5" },
    keep: { type: "boolean", default: false },
    profile: { type: "string" },
    "save-interval": { type: "string", default: "60" },
    seed: { type: "string", default: "1" },
    "bot-processes": { type: "string", default: "1" },
    "server-env": { type: "string", multiple: true, default: [] },
    attackers: { type: "string", default: "0" },
    "attack-rate": { type: "string", default: "58" },
    "ws-updates": { type: "string", default: "compact" },
    "bots-nice": { type: "string", default: "0" },
    probes: { type: "string", default: "auto" },
  },
});
const attackers = Number(args.attackers);
const attackRate = Number(args["attack-rate"]);
const clientCounts = args.clients.split(",").map((s) => Number(s.trim()));
const seconds = Number(args.seconds);
const rampPerSecond = Number(args.ramp);
const settleMs = Number(args.settle) * 1000;
const seedValue = Number(args.seed);
const botProcesses = Number(args["bot-processes"]);
const wsUpdates = args["ws-updates"] as "full" | "compact";
/** `--bots-nice N`: the bots processes' scheduling priority (0 … 19; see bench/README.md). */
const botsNice = Number(args["bots-nice"]);
/**
 * `--probes P`: P of the clients (half of each kind) in a process of their own, whose move latency is
 * what one client sees (see bench/README.md, "Probe clients"). `auto`: one in 20 (100 of 2,000), none
 * under 40 clients.
 */
const probesArg = args.probes === "auto" ? undefined : Number(args.probes);
const probesFor = (n: number): number => probesArg ?? 2 * Math.floor(n / 40);
/** `--server-env KEY=VALUE` (repeatable): more settings for the server, e.g. `IDLE_GC=false` for an A/B run. */
const serverEnv = Object.fromEntries(
  args["server-env"].map((kv) => {
    const eq = kv.indexOf("=");
    if (eq <= 0) throw new Error(`--server-env ${kv}: expected KEY=VALUE`);
    return [kv.slice(0, eq), kv.slice(eq + 1)];
  }),
);
if (
  clientCounts.some((n) => !Number.isInteger(n) || n < 2) ||
  !(seconds > 0) ||
  !(rampPerSecond > 0) ||
  !(settleMs >= 0) ||
  !Number.isInteger(seedValue) ||
  !(Number.isInteger(attackers) && attackers >= 0) ||
  !(attackRate > 0 && attackRate <= 1000) ||
  !(wsUpdates === "full" || wsUpdates === "compact") ||
  !(Number.isInteger(botsNice) && botsNice >= 0 && botsNice <= 19) ||
  !(probesArg === undefined || (Number.isInteger(probesArg) && probesArg >= 0 && probesArg % 2 === 0 && clientCounts.every((n) => probesArg <= n / 2))) ||
  !(botProcesses === 1 || (Number.isInteger(botProcesses) && botProcesses >= 2 && botProcesses <= 16 && botProcesses % 2 === 0))
) {
  console.error(
    "usage: run.ts [--clients 100,500,1000,2000] [--seconds 60] [--out file.json] [--ramp 100] [--settle 5] [--keep] [--profile dir] [--save-interval 60] [--seed 1] [--bot-processes 1|2|4|…] [--attackers 0] [--attack-rate 58] [--ws-updates compact|full] [--bots-nice 0] [--probes auto|P (even, at most half the clients)] [--server-env KEY=VALUE ...]",
  );
  process.exit(2);
}

const log = (msg: string) => process.stderr.write(`[world-load ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const admin = (port: number, method: "GET" | "POST", route: string) => adminCall(port, ADMIN_CODE, method, route);

/** Seeds one character per bot at random walkable tiles; returns one service token per account. */
async function seed(env: Record<string, string>, n: number): Promise<string[]> {
  const config = loadConfig(env, ROOT);
  const logger = pino({ level: "silent" });
  const db = await openDatabase(config, logger);
  try {
    const content = await bundledContent();
    const tiles = walkableTiles(buildCollision(content));
    const random = seededRandom(seedValue);
    // One random tile per bot, in bot order (the same walks for the same seed).
    const places = Array.from({ length: n }, () => tiles[Math.floor(random() * tiles.length)]!);
    return await seedBotCharacters(db, content, places, { prefix: "bench", jwtSecret: JWT_SECRET, concurrency: 1 });
  } finally {
    await db.close();
  }
}

interface Sample {
  at: number;
  server?: { cpuTicks: number; rssBytes: number } | undefined;
  /** The server's and its socket process's threads (see threadCpuTicks). */
  threads: Record<string, number>;
  bots?: { cpuTicks: number; rssBytes: number } | undefined;
  machine: { busy: number; total: number; steal: number };
}

function sample(server: ChildProcess, bots: ChildProcess[]): Sample {
  const each = bots.map((b) => procStat(b.pid!));
  const sum = each.some((b) => b === undefined)
    ? undefined
    : { cpuTicks: each.reduce((a, b) => a + b!.cpuTicks, 0), rssBytes: each.reduce((a, b) => a + b!.rssBytes, 0) };
  return { at: Date.now(), server: procTreeStat(server.pid!), threads: threadCpuTicks(server.pid!), bots: sum, machine: machineStat() };
}

function cores(a: { cpuTicks: number } | undefined, b: { cpuTicks: number } | undefined, ms: number): number | undefined {
  return a === undefined || b === undefined ? undefined : round((b.cpuTicks - a.cpuTicks) / CLK_TCK / (ms / 1000), 2);
}

/** One kind's figures over the processes that ran it: counts summed, percentiles over all samples, rates weighted by clients. */
function mergeKind(parts: KindReport[]): KindReport {
  const ran = parts.filter((k) => k.bots > 0);
  if (ran.length === 0) return parts[0]!;
  const sum = (f: (k: KindReport) => number) => ran.reduce((a, k) => a + f(k), 0);
  const clients = Math.max(
    1,
    sum((k) => k.connected),
  );
  const perClient = (f: (k: KindReport) => number) => round(sum((k) => f(k) * k.connected) / clients, 1);
  const latencies = ran.flatMap((k) => k.latencies ?? []);
  const arrivalLatencies = ran.flatMap((k) => k.arrivalLatencies ?? []);
  const joins = ran.flatMap((k) => k.joinMs ?? []);
  const tally = (f: (k: KindReport) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const k of ran) for (const [key, count] of Object.entries(f(k) ?? {})) out[key] = (out[key] ?? 0) + count;
    return out;
  };
  return {
    bots: sum((k) => k.bots),
    connected: sum((k) => k.connected),
    connectFailures: sum((k) => k.connectFailures),
    connectFailureReasons: tally((k) => k.connectFailureReasons),
    joinP50Ms: percentile(joins, 50),
    joinP99Ms: percentile(joins, 99),
    disconnects: sum((k) => k.disconnects),
    movesSent: sum((k) => k.movesSent),
    latencySamples: latencies.length,
    latencyTimeouts: sum((k) => k.latencyTimeouts),
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    latencyMaxMs: Math.max(0, ...ran.map((k) => k.latencyMaxMs)),
    arrivalLatencyP50Ms: percentile(arrivalLatencies, 50),
    arrivalLatencyP99Ms: percentile(arrivalLatencies, 99),
    // The worst of the processes (each has its own bursts).
    spreadP50Ms: Math.max(0, ...ran.map((k) => k.spreadP50Ms)),
    spreadP99Ms: Math.max(0, ...ran.map((k) => k.spreadP99Ms)),
    chatsSent: sum((k) => k.chatsSent),
    chatsReceived: sum((k) => k.chatsReceived),
    payloadBytesPerClientPerS: perClient((k) => k.payloadBytesPerClientPerS),
    wireBytesPerClientPerS: perClient((k) => k.wireBytesPerClientPerS),
    messagesPerClientPerS: perClient((k) => k.messagesPerClientPerS),
    errors: tally((k) => k.errors),
  };
}

/** One report from the bots processes: CPU and RSS summed, delays the worst. */
function mergeReports(reports: BotsReport[]): BotsReport {
  return {
    windowMs: Math.max(...reports.map((r) => r.windowMs)),
    colyseus: mergeKind(reports.map((r) => r.colyseus)),
    ws: mergeKind(reports.map((r) => r.ws)),
    process: {
      cpuCores: round(
        reports.reduce((a, r) => a + r.process.cpuCores, 0),
        2,
      ),
      eventLoopP99Ms: Math.max(...reports.map((r) => r.process.eventLoopP99Ms)),
      eventLoopMaxMs: Math.max(...reports.map((r) => r.process.eventLoopMaxMs)),
      rssBytes: reports.reduce((a, r) => a + r.process.rssBytes, 0),
    },
  };
}

export interface RunResult {
  clients: number;
  seconds: number;
  ok: boolean;
  error?: string;
  setup?: { seedMs: number; serverStartMs: number; rampMs: number; connected: number; connectFailures: number };
  server?: {
    metrics: ServerMetricsSnapshot;
    expectedTicks: number;
    /** From /proc over the window: CPU cores used, RSS at the end and the peak of the samples. */
    procCpuCores: number | undefined;
    /** The same CPU by thread (`world:MainThread`, `world:ws-deltas`, `sockets:MainThread`, …), those over 0.005 cores. */
    threadCores: Record<string, number>;
    rssBytes: number | undefined;
    rssPeakBytes: number;
    exit: { code: number | null; signal: string | null; shutdownMs: number } | undefined;
  };
  bots?: BotsReport & { procCpuCores: number | undefined };
  /** The probe clients' own report (see bench/README.md, "Probe clients"); absent without probes. */
  probes?: BotsReport;
  attackers?: FloodReport;
  machine?: { cpus: number; busyCores: number; stealCores: number; otherCores: number | undefined; loadavg: number[] };
}

/** Sets every thread of a process to `nice`; linux sets a priority per thread. Whether it could. */
function renice(pid: number, nice: number): boolean {
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) os.setPriority(Number(tid), nice);
    return true;
  } catch {
    return false;
  }
}

async function runOne(n: number): Promise<RunResult> {
  const result: RunResult = { clients: n, seconds, ok: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "world-load-"));
  let server: ChildProcess | undefined;
  const bots: ChildProcess[] = [];
  const serverLog = path.join(dir, "server.log");
  const botsLog = path.join(dir, "bots.log");
  try {
    const port = await freePort();
    const env = benchServerEnv(dir, port, {
      JWT_SECRET,
      ADMIN_CODE,
      DATABASE_URL: `sqlite:${path.join(dir, "bench.sqlite")}`,
      SAVE_INTERVAL: args["save-interval"],
      ...serverEnv,
    });

    let t = Date.now();
    log(`N=${n}: seeding ${n + attackers} characters`);
    const allTokens = await seed(env, n + attackers);
    const tokens = allTokens.slice(0, n);
    const seedMs = Date.now() - t;

    t = Date.now();
    const profile = args.profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args.profile)}`, `--cpu-prof-name=server-${n}.cpuprofile`];
    const running = await startBenchServer(env, serverLog, [...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean), ...profile]);
    server = running.proc;
    const serverStartMs = Date.now() - t;
    log(`N=${n}: server up on port ${port} (pid ${server.pid}); starting bots`);

    // One bots process, or several (`--bot-processes N`, N even): each runs one kind's bots, the
    // kinds alternating, so that a kind's client-side work (decoding) does not delay the other
    // kind's measurements; see bench/README.md.
    const inboxes: FromBots[][] = [];
    /** Per inbox: its process has exited and its channel is closed (every message it sent is in). */
    const closed: boolean[] = [];
    /** Per inbox, once closed: how its process exited. */
    const exits: string[] = [];
    /** Forks a client process (bots.ts or flood.ts) with its input file; its messages go to a new inbox. */
    const forkClients = (script: string, name: string, input: BotsInput | FloodInput, progress: string, nice = botsNice): void => {
      const inputFile = path.join(dir, `${name}.json`);
      fs.writeFileSync(inputFile, JSON.stringify(input));
      const botsFd = fs.openSync(botsLog, "a");
      // Under `--profile`, the bots processes too (`<name>-<N>.cpuprofile`).
      const prof = args.profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args.profile)}`, `--cpu-prof-name=${name}-${n}.cpuprofile`];
      const execArgv = [...BOTS_NODE_ARGS, ...prof];
      const proc = fork(script, [inputFile], { execPath: process.execPath, execArgv, stdio: ["ignore", botsFd, botsFd, "ipc"] });
      fs.closeSync(botsFd);
      bots.push(proc);
      const inbox: FromBots[] = [];
      const index = inboxes.push(inbox) - 1;
      closed[index] = false;
      let reniced = false;
      proc.on("message", (m: FromBots) => {
        // Once it talks, all its threads exist (V8's and libuv's too): each gets the priority.
        if (!reniced && nice > 0 && proc.pid !== undefined) reniced = renice(proc.pid, nice);
        if (m.type === "progress") log(`N=${n}: ${progress}: ${m.connected}/${m.total} connected, ${m.failed} failed`);
        else inbox.push(m);
      });
      // Not at its exit: a process that reported and exited (the probes, before the others are done)
      // fails no one else's wait, and its own report may still be on its way until `close`.
      proc.once("close", (code, signal) => {
        closed[index] = true;
        exits[index] = `${name} exited with ${signal ?? `code ${code}`}`;
      });
    };
    const probeCount = probesFor(n);
    const probes = probeCount === 0 ? undefined : { pairs: probeCount / 2, stride: Math.max(1, Math.floor(n / probeCount)) };
    for (let i = 0; i < botProcesses; i++) {
      const kind = botProcesses === 1 ? undefined : i % 2 === 0 ? "colyseus" : "ws";
      const share = { of: Math.max(1, botProcesses / 2), index: Math.floor(i / 2) };
      const notProbes = probes === undefined ? undefined : { ...probes, only: false };
      forkClients(
        BOTS,
        `bots-input-${i}`,
        { port, tokens, rampPerSecond: rampPerSecond / botProcesses, quickStart: seconds < 10, seed: seedValue + i, kind, share, wsUpdates, probes: notProbes },
        kind ?? "all",
      );
    }
    // The probes: their own process, connecting at their share of the ramp, so that all are in at about the same time.
    if (probes !== undefined) {
      const only = { ...probes, only: true };
      // At the default priority whatever `--bots-nice` says: they are the clients that measure.
      forkClients(
        BOTS,
        "probes-input",
        { port, tokens, rampPerSecond: (rampPerSecond * probeCount) / n, quickStart: seconds < 10, seed: seedValue + 500, wsUpdates, probes: only },
        "probes",
        0,
      );
    }
    const probesInbox = probes === undefined ? -1 : botProcesses;
    if (attackers > 0) {
      forkClients(
        FLOOD,
        "flood-input",
        { port, tokens: allTokens.slice(n), rampPerSecond, messagesPerSecond: attackRate, seed: seedValue + 1000 },
        "attackers",
      );
    }
    const nextOf = async (inbox: FromBots[], type: FromBots["type"], timeoutMs: number): Promise<FromBots> => {
      const index = inboxes.indexOf(inbox);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const fatal = inbox.find((m) => m.type === "fatal");
        if (fatal?.type === "fatal") throw new Error(`bots failed: ${fatal.message}`);
        const i = inbox.findIndex((m) => m.type === type);
        if (i >= 0) return inbox.splice(i, 1)[0]!;
        if (closed[index]) throw new Error(`a bots process exited while waiting for "${type}" (${exits[index]}):\n${tail(botsLog)}`);
        if (running.exited) throw new Error(`server exited while waiting for "${type}":\n${tail(serverLog)}`);
        if (Date.now() > deadline) throw new Error(`no "${type}" from the bots within ${timeoutMs} ms`);
        await sleep(50);
      }
    };
    /** The message of this type from every bots process (in process order). */
    const next = async (type: FromBots["type"], timeoutMs: number): Promise<FromBots[]> => Promise.all(inboxes.map((inbox) => nextOf(inbox, type, timeoutMs)));
    const readies = await next("ready", (n / rampPerSecond) * 1000 + 120_000);
    const ready = { connected: 0, failed: 0, rampMs: 0 };
    for (const r of readies) {
      if (r.type !== "ready") throw new Error("unexpected message");
      ready.connected += r.connected;
      ready.failed += r.failed;
      ready.rampMs = Math.max(ready.rampMs, r.rampMs);
    }
    result.setup = { seedMs, serverStartMs, rampMs: ready.rampMs, connected: ready.connected, connectFailures: ready.failed };
    log(`N=${n}: ${ready.connected} connected (${ready.failed} failed) in ${ready.rampMs} ms; settling ${settleMs / 1000} s`);
    if (ready.connected === 0) throw new Error(`no bot could connect:\n${tail(botsLog)}`);
    await sleep(settleMs);

    // The measured window.
    await admin(port, "POST", "/api/admin/metrics/reset");
    for (const b of bots) b.send({ type: "start" });
    const first = sample(server, bots);
    const samples: Sample[] = [first];
    log(`N=${n}: measuring for ${seconds} s`);
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      await sleep(Math.min(5_000, end - Date.now()));
      samples.push(sample(server, bots));
      if (running.exited) throw new Error(`server exited during the run:\n${tail(serverLog)}`);
    }
    const metrics = ((await admin(port, "GET", "/api/admin/metrics")) as { metrics: ServerMetricsSnapshot }).metrics;
    const last = sample(server, bots);
    for (const b of bots) b.send({ type: "stop" });
    const replies = await Promise.all(inboxes.map((inbox, i) => nextOf(inbox, i < botProcesses || i === probesInbox ? "report" : "flood-report", 60_000)));
    const reports = replies.flatMap((m, i) => (m.type === "report" && i !== probesInbox ? [m.report] : []));
    const probed = replies[probesInbox];
    if (probed?.type === "report") result.probes = mergeReports([probed.report]);
    const flood = replies.flatMap((m) => (m.type === "flood-report" ? [m.report] : []))[0];
    if (flood !== undefined) result.attackers = flood;
    const reported = { report: mergeReports(reports) };
    const windowMs = last.at - first.at;
    const busyCores = round(((last.machine.busy - first.machine.busy) / (last.machine.total - first.machine.total)) * os.cpus().length, 2);
    const serverCores = cores(first.server, last.server, windowMs);
    const botsCores = cores(first.bots, last.bots, windowMs);

    // Stop: the server first (it saves every player), then make sure the bots are gone.
    t = Date.now();
    server.kill("SIGTERM");
    const exit = await Promise.race([running.exit, sleep(20_000).then(() => undefined)]);
    const shutdownMs = Date.now() - t;
    result.server = {
      metrics,
      expectedTicks: Math.floor(metrics.windowMs / 600),
      procCpuCores: serverCores,
      threadCores: Object.fromEntries(
        Object.entries(last.threads)
          .map(([k, v]) => [k, round((v - (first.threads[k] ?? 0)) / CLK_TCK / (windowMs / 1000), 3)] as const)
          .filter(([, c]) => c >= 0.005)
          .sort((a, b) => b[1] - a[1]),
      ),
      rssBytes: last.server?.rssBytes,
      rssPeakBytes: Math.max(...samples.map((s) => s.server?.rssBytes ?? 0), last.server?.rssBytes ?? 0),
      exit: exit === undefined ? undefined : { ...exit, shutdownMs },
    };
    result.bots = { ...reported.report, procCpuCores: botsCores };
    result.machine = {
      cpus: os.cpus().length,
      busyCores,
      // Of the window's CPU time, what the hypervisor gave to others (see machineStat).
      stealCores: round((last.machine.steal - first.machine.steal) / CLK_TCK / (windowMs / 1000), 3),
      otherCores: serverCores === undefined || botsCores === undefined ? undefined : round(Math.max(0, busyCores - serverCores - botsCores), 2),
      loadavg: os.loadavg().map((v) => round(v, 2)),
    };
    if (exit === undefined) throw new Error("the server did not exit within 20 s of SIGTERM");
    result.ok = true;
  } catch (err) {
    result.error = (err as Error).message;
    log(`N=${n}: FAILED: ${result.error}`);
  } finally {
    if (bots.some((b) => b.exitCode === null)) {
      await sleep(2_000);
      for (const b of bots) if (b.exitCode === null) b.kill("SIGKILL");
    }
    if (server !== undefined && server.exitCode === null && server.signalCode === null) {
      server.kill("SIGKILL");
    }
    if (args.keep) log(`N=${n}: kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

function summary(r: RunResult): string {
  if (!r.ok || r.server === undefined || r.bots === undefined) return `| ${r.clients} | failed: ${r.error ?? "?"} |`;
  const m = r.server.metrics;
  const b = r.bots;
  const mib = (v: number | undefined) => (v === undefined ? "?" : `${Math.round(v / 2 ** 20)}`);
  return [
    "",
    r.clients,
    `${round(m.ticks.p50Ms, 1)} / ${round(m.ticks.p99Ms, 1)}`,
    `${m.ticks.count}/${r.server.expectedTicks}`,
    m.eventLoopDelay.p99Ms,
    `${m.cpu.cores}`,
    mib(m.memory.rssBytes),
    `${b.procCpuCores ?? b.process.cpuCores}`,
    `${round(b.colyseus.wireBytesPerClientPerS / 1024, 2)} / ${round(b.ws.wireBytesPerClientPerS / 1024, 2)}`,
    `${b.colyseus.latencyP50Ms} / ${b.colyseus.latencyP99Ms} (${b.colyseus.arrivalLatencyP50Ms} / ${b.colyseus.arrivalLatencyP99Ms})`,
    `${b.ws.latencyP50Ms} / ${b.ws.latencyP99Ms} (${b.ws.arrivalLatencyP50Ms} / ${b.ws.arrivalLatencyP99Ms})`,
    r.probes === undefined
      ? "none"
      : `${r.probes.colyseus.connected + r.probes.ws.connected}: ${r.probes.colyseus.latencyP50Ms} / ${r.probes.colyseus.latencyP99Ms}, ${r.probes.ws.latencyP50Ms} / ${r.probes.ws.latencyP99Ms}`,
    r.attackers === undefined ? "0" : `${r.attackers.connected} (${Math.round(r.attackers.movesSent / r.seconds)} moves/s)`,
    m.paths === undefined ? "?" : `${m.paths.expansionsPerTick} / ${m.paths.maxExpansions} / ${m.paths.maxDeferred}`,
    "",
  ]
    .join(" | ")
    .trim();
}

const results: RunResult[] = [];
const started = new Date().toISOString();
for (const n of clientCounts) {
  const r = await runOne(n);
  results.push(r);
  process.stdout.write(`${JSON.stringify(r)}\n`);
  writeResults(
    args.out,
    "world-load",
    started,
    {
      seconds,
      rampPerSecond,
      botProcesses,
      wsUpdates,
      settleSeconds: settleMs / 1000,
      tickMs: 600,
      saveIntervalS: Number(args["save-interval"]),
      database: "sqlite",
      serverEnv,
      attackers,
      attackRate,
      botsNice,
    },
    results,
  );
  await sleep(2_000);
}

endSweep(
  [
    "clients",
    "tick p50 / p99 ms",
    "ticks",
    "loop p99 ms",
    "server cores",
    "server RSS MiB",
    "bot cores",
    "KiB/client/s coly / ws",
    "coly move p50 / p99 ms (at arrival)",
    "ws move p50 / p99 ms (at arrival)",
    "probes: move p50 / p99 ms coly, ws",
    "attackers",
    "path nodes/tick mean / max, walks waiting max",
  ],
  results.map(summary),
  results.every((r) => r.ok),
);
