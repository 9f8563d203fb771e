/**
 * `--scale N`: N agents in one world, then N idle clients on the same characters, on a fresh
 * server process (`node src/main.ts`, as `bench:world-load` starts it).
 *
 * 1. registers N agents over the server's REST (five to an anonymous owner, bench/agents/common.ts);
 * 2. starts the agent runtime (`node agent-runtime/main.ts`, optionally under `--cpu-prof`) and
 *    hands it the agents (`POST /agents`, `--ramp` a second), then waits until every one is playing;
 * 3. after `--settle` seconds (180 by default: agents that all start at the spawn at once first
 *    crowd the nearest trees, rocks and monsters, then spread out; the window is their steady
 *    play, not that first rush), measures a window: the runtime's `GET /stats` before and after
 *    (process CPU, memory, steps, the share of agents progressing), the server's
 *    `GET /api/admin/metrics` (tick p50/p99, reset at the start of the window) and `/proc`;
 * 4. stops the runtime (its agents log out), then opens N idle `/ws` clients (idle.ts, its own
 *    process) on the same characters, where the agents left them, and measures the same window.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  adminCall,
  benchServerEnv,
  CLK_TCK,
  freePort,
  machineStat,
  procStat,
  round,
  sleep,
  startBenchServer,
  tail,
  type BenchServer,
  type ServerMetricsSnapshot,
} from "../world-load/common.ts";
import { pool } from "../world-load/common.ts";
import { call, codeVersion, registerAgents, startRuntime, type RegisteredAgent, type RuntimeProcess, type RuntimeStats } from "./common.ts";
import type { FromIdle, IdleInput } from "./idle.ts";

const JWT_SECRET = "agents-bench-secret-0123456789abcdef";
const ADMIN_CODE = "agents-bench-admin";
const IDLE = path.join(import.meta.dirname, "idle.ts");
/** The idle clients' settle, at most (they stand still). */
const IDLE_SETTLE_SECONDS = 10;

export interface ScaleOptions {
  agents: number;
  tickMs: number;
  seconds: number;
  settleSeconds: number;
  rampPerSecond: number;
  /** Run the runtime under `--cpu-prof`, its profile left here as `runtime-<N>.cpuprofile`. */
  profileDir?: string | undefined;
  keep: boolean;
  log(message: string): void;
}

/** The server over one window. */
export interface ServerWindow {
  ticks: ServerMetricsSnapshot["ticks"];
  /** Ticks due in the window at the server's tick length. */
  expectedTicks: number;
  eventLoopP99Ms: number;
  players: number;
  connections: number;
  /** From /proc: cores used over the window, RSS at its end. */
  cpuCores: number | undefined;
  rssBytes: number | undefined;
  /** Mean time of each tick phase (ms), as `GET /api/admin/metrics` gives them. */
  phasesMeanMs: Record<string, number> | undefined;
}

export interface ScaleResult {
  mode: "scale";
  n: number;
  tickMs: number;
  seconds: number;
  code: string;
  ok: boolean;
  error?: string;
  setup?: {
    registerMs: number;
    handoverMs: number;
    allPlayingMs: number;
    handoverFailures: number;
    runtimeBaselineRssBytes: number;
    runtimeBaselineHeapBytes: number;
  };
  agents?: {
    playing: number;
    byState: Record<string, number>;
    /** The runtime's own steps in the window (one per game tick when it keeps up). */
    runtimeSteps: number;
    /** Runtime process CPU over the window (`/stats` cpu, user + system), ms. */
    cpuMs: number;
    /** cpuMs / (playing agents × server ticks in the window). */
    cpuMsPerAgentTick: number;
    /** Of cpuMs, the part inside the agents' steps (`stepCpuMicros`); the rest is receiving (JSON, sockets), timers and GC. */
    stepShare: number | null;
    stepCpuMsPerAgentTick: number;
    /** Runtime CPU in cores from /proc (a cross-check of cpuMs). */
    procCpuCores: number | undefined;
    rssBytes: number;
    heapUsedBytes: number;
    /** (RSS − RSS of the runtime with no agent) / playing agents; the same for the V8 heap in use. */
    rssPerAgentBytes: number;
    heapPerAgentBytes: number;
    progressing: number;
    progressingShare: number | null;
    /**
     * From the owners' `GET /agents` just before and just after the window: per goal type (the
     * goal at the end), the agents and those whose goal neither changed nor progressed over the
     * window ("stalled"), those that gained xp in it, with the stalled ones' targets and their newest activity lines (digits
     * masked), most common first. Diagnostics for the progressing share.
     */
    goals: Record<string, { agents: number; stalled: number; gainedXp: number; stalledTargets: Record<string, number>; stalledActivity: [string, number][] }>;
    /** Agents whose position did not change over the window. */
    stoodStill: number;
    /**
     * From the server (`GET /api/characters/:id/skills` with the owner's token, just before and
     * just after the window): the share of the agents that gained any xp in the window, and the
     * mean xp gained per agent. Unlike the runtime's progressing share, a goal given up does not count.
     */
    gainedXpShare: number;
    xpPerAgent: number;
    messagesPerAgentPerTick: number;
    server: ServerWindow;
    machine: { busyCores: number; otherCores: number | undefined };
  };
  idle?: {
    connected: number;
    failed: number;
    disconnects: number;
    errors: Record<string, number>;
    /** The idle clients' process, cores (from /proc). */
    clientsCpuCores: number | undefined;
    server: ServerWindow;
    machine: { busyCores: number; otherCores: number | undefined };
  };
  serverExit?: { code: number | null; signal: string | null };
}

interface ProcSample {
  at: number;
  server: { cpuTicks: number; rssBytes: number } | undefined;
  other: { cpuTicks: number; rssBytes: number } | undefined;
  machine: { busy: number; total: number };
}

/** What an owner's `GET /agents` says of one agent (agent-runtime/Agent.ts `toJSON`). */
interface AgentView {
  agentId: string;
  state: string;
  goal: { id: string; type: string; target?: string; progress: number } | null;
  command: string | null;
  position: { x: number; z: number } | null;
  activity: { kind: string; text: string }[];
}

/** Each agent's total xp over all skills, as the server has it, by character id. */
async function totalXp(apiUrl: string, agents: RegisteredAgent[]): Promise<Map<string, number>> {
  const xp = await pool(agents, 8, (a) =>
    call<{ skills: Record<string, { xp: number }> }>(apiUrl, "GET", `/api/characters/${a.characterId}/skills`, a.ownerToken),
  );
  return new Map(agents.map((a, i) => [a.characterId, Object.values(xp[i]!.skills).reduce((n, s) => n + s.xp, 0)]));
}

/** Every agent as the runtime's API shows it to its owner, by agent id. */
async function agentViews(runtimeUrl: string, agents: RegisteredAgent[]): Promise<Map<string, AgentView>> {
  const owners = [...new Set(agents.map((a) => a.ownerToken))];
  const lists = await pool(owners, 8, (token) => call<{ agents: AgentView[] }>(runtimeUrl, "GET", "/agents", token));
  return new Map(lists.flatMap((l) => l.agents).map((a) => [a.agentId, a]));
}

/** Per goal type: agents, stalled agents (same goal, same progress at both ends), and what the stalled ones were doing. */
function goalBreakdown(
  before: Map<string, AgentView>,
  after: Map<string, AgentView>,
  gained: (agentId: string) => boolean,
): { goals: NonNullable<ScaleResult["agents"]>["goals"]; stoodStill: number } {
  const goals: NonNullable<ScaleResult["agents"]>["goals"] = {};
  const activity = new Map<string, Map<string, number>>();
  let stoodStill = 0;
  for (const [id, b] of after) {
    const a = before.get(id);
    if (b.state !== "playing") continue;
    if (a?.position != null && b.position !== null && a.position.x === b.position.x && a.position.z === b.position.z) stoodStill++;
    const type = b.command !== null ? `command: ${b.command}` : (b.goal?.type ?? "none");
    const g = (goals[type] ??= { agents: 0, stalled: 0, gainedXp: 0, stalledTargets: {}, stalledActivity: [] });
    g.agents++;
    if (gained(id)) g.gainedXp++;
    if (a === undefined || a.goal?.id !== b.goal?.id || a.goal?.progress !== b.goal?.progress) continue;
    g.stalled++;
    const target = b.goal?.target ?? "-";
    g.stalledTargets[target] = (g.stalledTargets[target] ?? 0) + 1;
    const line = (b.activity.find((x) => x.kind === "action" || x.kind === "decision")?.text ?? "-").replace(/-?\d+/g, "#");
    const lines = activity.get(type) ?? new Map<string, number>();
    activity.set(type, lines.set(line, (lines.get(line) ?? 0) + 1));
  }
  for (const [type, lines] of activity) goals[type]!.stalledActivity = [...lines].sort((x, y) => y[1] - x[1]).slice(0, 5);
  return { goals, stoodStill };
}

const sample = (server: ChildProcess, other: ChildProcess | undefined): ProcSample => ({
  at: Date.now(),
  server: procStat(server.pid!),
  other: other === undefined ? undefined : procStat(other.pid!),
  machine: machineStat(),
});
const cores = (a: { cpuTicks: number } | undefined, b: { cpuTicks: number } | undefined, ms: number) =>
  a === undefined || b === undefined ? undefined : round((b.cpuTicks - a.cpuTicks) / CLK_TCK / (ms / 1000), 2);

function machineOver(
  a: ProcSample,
  b: ProcSample,
): { busyCores: number; otherCores: number | undefined; serverCores: number | undefined; otherProcCores: number | undefined } {
  const busyCores = round(((b.machine.busy - a.machine.busy) / Math.max(1, b.machine.total - a.machine.total)) * os.cpus().length, 2);
  const ms = b.at - a.at;
  const serverCores = cores(a.server, b.server, ms);
  const otherProcCores = cores(a.other, b.other, ms);
  const otherCores = serverCores === undefined || otherProcCores === undefined ? undefined : round(Math.max(0, busyCores - serverCores - otherProcCores), 2);
  return { busyCores, otherCores, serverCores, otherProcCores };
}

export async function runScale(opts: ScaleOptions): Promise<ScaleResult> {
  const n = opts.agents;
  const result: ScaleResult = { mode: "scale", n, tickMs: opts.tickMs, seconds: opts.seconds, code: await codeVersion(), ok: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agents-scale-"));
  const serverLog = path.join(dir, "server.log");
  const runtimeLog = path.join(dir, "runtime.log");
  const idleLog = path.join(dir, "idle.log");
  let running: BenchServer | undefined;
  let runtime: RuntimeProcess | undefined;
  let idle: ChildProcess | undefined;
  const log = (m: string) => opts.log(`N=${n}: ${m}`);
  try {
    const port = await freePort();
    const env = benchServerEnv(dir, port, {
      JWT_SECRET,
      ADMIN_CODE,
      TICK_MS: String(opts.tickMs),
      SAVE_INTERVAL: "60",
      DATABASE_URL: `sqlite:${path.join(dir, "bench.sqlite")}`,
    });
    running = await startBenchServer(env, serverLog, (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean));
    const server = running.proc;
    const apiUrl = `http://127.0.0.1:${port}`;
    const wsUrl = `ws://127.0.0.1:${port}/ws`;
    const admin = (method: "GET" | "POST", route: string) => adminCall(port, ADMIN_CODE, method, route);
    const metricsNow = async () =>
      ((await admin("GET", "/api/admin/metrics")) as { metrics: ServerMetricsSnapshot & { ticks: { phasesMeanMs?: Record<string, number> } } }).metrics;
    const serverAlive = () => {
      if (running!.exited) throw new Error(`the server exited:\n${tail(serverLog)}`);
    };

    let t = Date.now();
    log(`registering ${n} agents over REST`);
    const agents: RegisteredAgent[] = await registerAgents(apiUrl, n, { prefix: "Agent", concurrency: 8 });
    const registerMs = Date.now() - t;

    log(`starting the agent runtime${opts.profileDir !== undefined ? " under --cpu-prof" : ""}`);
    const nodeArgs = opts.profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${opts.profileDir}`, `--cpu-prof-name=runtime-${n}.cpuprofile`];
    runtime = await startRuntime({ apiUrl, wsUrl, worldDir: path.join(dir, "world"), logFile: runtimeLog, nodeArgs });
    const baseline = await runtime.stats();

    // Hand the agents over at the ramp rate, as many owners would.
    t = Date.now();
    let handoverFailures = 0;
    await pool(agents, 16, async (a, i) => {
      const due = t + (i * 1000) / opts.rampPerSecond;
      if (due > Date.now()) await sleep(due - Date.now());
      try {
        await runtime!.play(a);
      } catch (err) {
        handoverFailures++;
        if (handoverFailures <= 3) log(`POST /agents failed: ${(err as Error).message}`);
      }
      if ((i + 1) % 100 === 0) log(`${i + 1}/${n} handed to the runtime`);
    });
    const handoverMs = Date.now() - t;
    const handed = n - handoverFailures;
    if (handed === 0) throw new Error("the runtime took no agent");

    // Every agent playing (in the world, with its private state).
    let stats: RuntimeStats;
    for (;;) {
      serverAlive();
      if (runtime.exited) throw new Error(`the agent runtime exited (${runtime.exitStatus}):\n${runtime.tail()}`);
      stats = await runtime.stats();
      const playing = (stats.byState.playing ?? 0) + (stats.byState.paused ?? 0);
      if (playing >= handed) break;
      if (Date.now() - t > handoverMs + 120_000) throw new Error(`only ${playing} of ${handed} agents playing after 120 s: ${JSON.stringify(stats.byState)}`);
      await sleep(1_000);
    }
    const allPlayingMs = Date.now() - t;
    result.setup = {
      registerMs,
      handoverMs,
      allPlayingMs,
      handoverFailures,
      runtimeBaselineRssBytes: baseline.memory.rss,
      runtimeBaselineHeapBytes: baseline.memory.heapUsed,
    };
    log(`${handed} agents playing ${allPlayingMs} ms after the first handover; settling ${opts.settleSeconds} s`);
    await sleep(opts.settleSeconds * 1000);

    /** One measured window: metrics reset, samples at both ends, the server's metrics at the end. */
    const window = async (other: ChildProcess, alive: () => void) => {
      await admin("POST", "/api/admin/metrics/reset");
      const first = sample(server, other);
      const end = Date.now() + opts.seconds * 1000;
      while (Date.now() < end) {
        await sleep(Math.min(2_000, end - Date.now()));
        serverAlive();
        alive();
      }
      const metrics = await metricsNow();
      const last = sample(server, other);
      const m = machineOver(first, last);
      const s: ServerWindow = {
        ticks: metrics.ticks,
        expectedTicks: Math.floor(metrics.windowMs / opts.tickMs),
        eventLoopP99Ms: metrics.eventLoopDelay.p99Ms,
        players: metrics.players,
        connections: metrics.connections,
        cpuCores: m.serverCores,
        rssBytes: last.server?.rssBytes,
        phasesMeanMs: metrics.ticks.phasesMeanMs,
      };
      return { server: s, machine: { busyCores: m.busyCores, otherCores: m.otherCores }, otherCores: m.otherProcCores };
    };

    log(`measuring the agents for ${opts.seconds} s`);
    const xpBefore = await totalXp(apiUrl, agents);
    const viewsBefore = await agentViews(runtime.url, agents);
    const s0 = await runtime.stats();
    const w = await window(runtime.proc, () => {
      if (runtime!.exited) throw new Error(`the agent runtime exited (${runtime!.exitStatus}):\n${runtime!.tail()}`);
    });
    const s1 = await runtime.stats();
    const viewsAfter = await agentViews(runtime.url, agents);
    const xpAfter = await totalXp(apiUrl, agents);
    const gains = agents.map((a) => (xpAfter.get(a.characterId) ?? 0) - (xpBefore.get(a.characterId) ?? 0));
    const gainedBy = new Set(agents.filter((_, i) => gains[i]! > 0).map((a) => a.agentId));
    const breakdown = goalBreakdown(viewsBefore, viewsAfter, (id) => gainedBy.has(id));
    const playing = s1.byState.playing ?? 0;
    const ticks = w.server.ticks.count;
    const cpuMicros = s1.cpu.user + s1.cpu.system - (s0.cpu.user + s0.cpu.system);
    const stepMicros = s1.stepCpuMicros - s0.stepCpuMicros;
    const perAgentTick = (v: number) => (playing * ticks === 0 ? 0 : v / (playing * ticks));
    result.agents = {
      playing,
      byState: s1.byState,
      runtimeSteps: s1.steps - s0.steps,
      cpuMs: round(cpuMicros / 1000, 0),
      cpuMsPerAgentTick: round(perAgentTick(cpuMicros / 1000), 4),
      stepShare: cpuMicros > 0 ? round(stepMicros / cpuMicros, 3) : null,
      stepCpuMsPerAgentTick: round(perAgentTick(stepMicros / 1000), 4),
      procCpuCores: w.otherCores,
      rssBytes: s1.memory.rss,
      heapUsedBytes: s1.memory.heapUsed,
      rssPerAgentBytes: Math.round((s1.memory.rss - baseline.memory.rss) / Math.max(1, playing)),
      heapPerAgentBytes: Math.round((s1.memory.heapUsed - baseline.memory.heapUsed) / Math.max(1, playing)),
      progressing: s1.progressing,
      progressingShare: s1.progressingShare,
      goals: breakdown.goals,
      stoodStill: breakdown.stoodStill,
      gainedXpShare: round(gains.filter((g) => g > 0).length / Math.max(1, agents.length), 3),
      xpPerAgent: round(gains.reduce((a, b) => a + b, 0) / Math.max(1, agents.length), 0),
      messagesPerAgentPerTick: round(perAgentTick(s1.messagesSent - s0.messagesSent), 3),
      server: w.server,
      machine: w.machine,
    };
    log(
      `agents: ${playing} playing, ${result.agents.cpuMsPerAgentTick} ms CPU per agent per tick (${ticks} ticks), ${round((s1.progressingShare ?? 0) * 100, 1)} % progressing, ${round(result.agents.gainedXpShare * 100, 1)} % gained xp, tick p50/p99 ${w.server.ticks.p50Ms}/${w.server.ticks.p99Ms} ms`,
    );

    // The comparison: the same characters, where the agents left them, held by clients that do nothing.
    log("stopping the runtime (its agents log out)");
    await runtime.stop();
    runtime = undefined;
    for (const deadline = Date.now() + 60_000; ;) {
      const m = await metricsNow();
      if (m.players === 0) break;
      if (Date.now() > deadline) throw new Error(`${m.players} players still in the world 60 s after the runtime stopped`);
      await sleep(500);
    }
    const input: IdleInput = {
      wsUrl,
      clients: agents.map((a) => ({ token: a.ownerToken, characterId: a.characterId })),
      rampPerSecond: opts.rampPerSecond * 2,
    };
    const inputFile = path.join(dir, "idle-input.json");
    fs.writeFileSync(inputFile, JSON.stringify(input));
    const fd = fs.openSync(idleLog, "a");
    idle = fork(IDLE, [inputFile], { execPath: process.execPath, stdio: ["ignore", fd, fd, "ipc"] });
    fs.closeSync(fd);
    const inbox: FromIdle[] = [];
    idle.on("message", (m: FromIdle) => inbox.push(m));
    const next = async <K extends FromIdle["type"]>(type: K, timeoutMs: number): Promise<Extract<FromIdle, { type: K }>> => {
      for (const deadline = Date.now() + timeoutMs; ;) {
        const i = inbox.findIndex((m) => m.type === type || m.type === "fatal");
        if (i >= 0) {
          const m = inbox.splice(i, 1)[0]!;
          if (m.type === "fatal") throw new Error(`idle clients: ${m.message}`);
          return m as Extract<FromIdle, { type: K }>;
        }
        if (idle!.exitCode !== null) throw new Error(`the idle clients' process exited:\n${tail(idleLog)}`);
        if (Date.now() > deadline) throw new Error(`no "${type}" from the idle clients within ${timeoutMs} ms`);
        await sleep(100);
      }
    };
    log(`opening ${n} idle /ws clients`);
    const ready = await next("ready", (n / input.rampPerSecond) * 1000 + 60_000);
    // Idle clients stand still: nothing to settle but the joins' aftermath.
    const idleSettle = Math.min(opts.settleSeconds, IDLE_SETTLE_SECONDS);
    log(`${ready.connected} idle clients in (${ready.failed} failed) in ${ready.rampMs} ms; settling ${idleSettle} s`);
    if (ready.connected === 0) throw new Error(`no idle client got in:\n${tail(idleLog)}`);
    await sleep(idleSettle * 1000);
    log(`measuring the idle clients for ${opts.seconds} s`);
    const wi = await window(idle, () => {
      if (idle!.exitCode !== null) throw new Error(`the idle clients' process exited:\n${tail(idleLog)}`);
    });
    idle.send({ type: "stop" });
    const report = await next("report", 10_000);
    result.idle = {
      connected: ready.connected,
      failed: ready.failed,
      disconnects: report.disconnects,
      errors: report.errors,
      clientsCpuCores: wi.otherCores,
      server: wi.server,
      machine: wi.machine,
    };
    log(`idle: ${ready.connected} clients, tick p50/p99 ${wi.server.ticks.p50Ms}/${wi.server.ticks.p99Ms} ms`);

    server.kill("SIGTERM");
    const exit = await Promise.race([running.exit, sleep(20_000).then(() => undefined)]);
    if (exit === undefined) throw new Error("the server did not exit within 20 s of SIGTERM");
    result.serverExit = exit;
    result.ok = true;
  } catch (err) {
    result.error = (err as Error).message;
    log(`FAILED: ${result.error}`);
  } finally {
    await runtime?.stop();
    if (idle !== undefined && idle.exitCode === null) {
      await sleep(2_000);
      if (idle.exitCode === null) idle.kill("SIGKILL");
    }
    if (running !== undefined && !running.exited) running.proc.kill("SIGKILL");
    if (opts.keep) log(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}
