/* eslint-disable no-console */
/**
 * Agents benchmark (issue 16 item 5): the agent runtime (agent-runtime/, its own process) playing
 * agents on a fresh game server.
 *
 *   node bench/agents/run.ts --ladder [--seeds 1,2] [--parallel] [--tick-ms 50] [--max-ticks 60000]
 *                                     [--template woodsman] [--focus melee|magic|making|quests] [--trace-every 1000] [--kill-runtime-at T]
 *   node bench/agents/run.ts --scale 100,500,1000 [--seconds 60] [--settle 180] [--ramp 50]
 *                                     [--tick-ms 600] [--profile <dir>]
 *   both: [--out <json>] [--keep]
 *
 * `--ladder`: one fresh agent per seed on the scripted brain, in its own world at a fast tick, and
 * the game tick at which it first reaches each milestone (ladder.ts). `--scale`: N agents in one
 * world, then N idle clients on the same characters, and what each costs (scale.ts). See
 * bench/README.md.
 */
import { FOCUSES, type Focus } from "../../agent-runtime/brain/focus.ts";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCli } from "../../src/cli.ts";
import { endSweep, round, sleep, writeResults } from "../world-load/common.ts";
import { MILESTONES, runLadder, type LadderResult } from "./ladder.ts";
import { runScale, type ScaleResult } from "./scale.ts";

const USAGE =
  "usage: run.ts --ladder [--seeds 1,2] [--parallel] [--tick-ms 50] [--max-ticks 60000] [--template woodsman] [--trace-every 1000] | --scale 100,500,1000 [--seconds 60] [--settle 180] [--ramp 50] [--tick-ms 600] [--profile dir]; [--out file.json] [--keep]";

const { values: args } = parseCli(USAGE, {
  options: {
    ladder: { type: "boolean", default: false },
    scale: { type: "string" },
    seeds: { type: "string", default: "1" },
    parallel: { type: "boolean", default: false },
    "tick-ms": { type: "string" },
    "max-ticks": { type: "string", default: "60000" },
    template: { type: "string", default: "woodsman" },
    focus: { type: "string" },
    "trace-every": { type: "string", default: "1000" },
    "kill-runtime-at": { type: "string" },
    seconds: { type: "string", default: "60" },
    settle: { type: "string", default: "180" },
    ramp: { type: "string", default: "50" },
    profile: { type: "string" },
    out: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});

const log = (m: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);
const fail = (why: string): never => {
  console.error(`${why}\n${USAGE}`);
  process.exit(2);
};
if (args.ladder === (args.scale !== undefined)) fail("choose one mode: --ladder or --scale N,…");

const started = new Date().toISOString();
const keep = args.keep;

if (args.ladder) {
  const seeds = args.seeds.split(",").map((s) => s.trim());
  const tickMs = Number(args["tick-ms"] ?? 50);
  const maxTicks = Number(args["max-ticks"]);
  const traceEvery = Number(args["trace-every"]);
  const killRuntimeAt = args["kill-runtime-at"] === undefined ? undefined : Number(args["kill-runtime-at"]);
  if (
    seeds.some((s) => s === "") ||
    !(Number.isInteger(tickMs) && tickMs >= 10) ||
    !(Number.isInteger(maxTicks) && maxTicks > 0) ||
    !(Number.isInteger(traceEvery) && traceEvery > 0) ||
    (killRuntimeAt !== undefined && !(killRuntimeAt > 0))
  )
    fail("bad ladder settings");
  const focus = args.focus;
  if (focus !== undefined && !(FOCUSES as readonly string[]).includes(focus)) fail(`--focus: one of ${FOCUSES.join(", ")}`);
  const out = args.out ?? path.join(import.meta.dirname, "results-latest-ladder.json");
  const results: LadderResult[] = [];
  const record = (r: LadderResult) => {
    results.push(r);
    results.sort((a, b) => seeds.indexOf(a.seed) - seeds.indexOf(b.seed));
    process.stdout.write(`${JSON.stringify({ ...r, trace: undefined })}\n`);
    writeResults(out, "agents-ladder", started, { seeds, parallel: args.parallel, tickMs, maxTicks, template: args.template, focus: focus ?? null }, results);
  };
  if (args.parallel && seeds.length > 1) {
    // --parallel: each seed in a process of its own (one process can hold one in-process server:
    // Colyseus' matchmaker is process-wide, and closing one server stops the other's room). Each
    // agent is alone in its own world and the milestones are counted in game ticks, so sharing
    // the machine only stretches the wall-clock time.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agents-ladder-parallel-"));
    try {
      await Promise.all(
        seeds.map(async (seed, i) => {
          const file = path.join(dir, `seed-${i}.json`);
          const passOn = [
            "--tick-ms",
            String(tickMs),
            "--max-ticks",
            String(maxTicks),
            "--template",
            args.template,
            "--trace-every",
            String(traceEvery),
            ...(focus !== undefined ? ["--focus", focus] : []),
            ...(keep ? ["--keep"] : []),
          ];
          const child = spawn(process.execPath, [import.meta.filename, "--ladder", "--seeds", seed, ...passOn, "--out", file], {
            stdio: ["ignore", "ignore", "inherit"],
          });
          await new Promise((resolve) => child.once("exit", resolve));
          const doc = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { results: LadderResult[] }) : undefined;
          const r = doc?.results[0];
          if (r === undefined) throw new Error(`the ladder of seed ${seed} wrote no results (exit ${child.exitCode ?? child.signalCode})`);
          record(r);
        }),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } else {
    for (const seed of seeds) {
      log(`ladder: seed ${seed}, tick ${tickMs} ms, at most ${maxTicks} ticks, template ${args.template}`);
      record(await runLadder({ seed, tickMs, maxTicks, template: args.template, focus: focus as Focus | undefined, traceEvery, keep, killRuntimeAt, log }));
    }
  }
  const cell = (r: LadderResult, k: (typeof MILESTONES)[number][0]) => {
    const x = r.reached[k];
    if (x === null) return `not reached in ${r.ticksRun}`;
    return `${x.ticks} (${x.minutesAt600ms} min${x.combatGoalTicks === undefined ? "" : `; ${x.combatGoalTicks} in combat goals`})`;
  };
  const questCell = (r: LadderResult, id: string) => {
    const q = r.quests.quests[id];
    if (q === null || q === undefined) return `not completed in ${r.ticksRun}`;
    return `${q.ticks} (${q.minutesAt600ms} min; took ${q.tookTicks ?? "?"} ticks, ${q.tookMinutesAt600ms ?? "?"} min)`;
  };
  endSweep(
    ["milestone", ...results.map((r) => `seed ${r.seed}: ticks (min at 600 ms)`)],
    [
      ...MILESTONES.map(([k, label]) => `| ${label} | ${results.map((r) => (r.ok ? cell(r, k) : `failed: ${r.error}`)).join(" | ")} |`),
      ...Object.keys(results.find((r) => r.ok)?.quests.quests ?? {}).map(
        (id) => `| quest ${id}: completed (took) | ${results.map((r) => questCell(r, id)).join(" | ")} |`,
      ),
      `| every quest (quest points) | ${results.map((r) => (r.quests.allQuests === null ? `not reached in ${r.ticksRun}` : `${r.quests.allQuests.ticks} (${r.quests.allQuests.minutesAt600ms} min; ${r.quests.allQuests.questPoints} points)`)).join(" | ")} |`,
      `| deaths / kills | ${results.map((r) => `${r.deaths} / ${r.kills}`).join(" | ")} |`,
      `| runtime steps / server ticks | ${results.map((r) => `${r.runtimeSteps} / ${r.ticksRun}`).join(" | ")} |`,
      `| runtime restarts (tick) | ${results.map((r) => r.runtimeRestarts.map((x) => `${x.tick} (${x.exit})`).join(", ") || "none").join(" | ")} |`,
    ],
    results.every((r) => r.ok),
  );
} else {
  const counts = args.scale!.split(",").map((s) => Number(s.trim()));
  const tickMs = Number(args["tick-ms"] ?? 600);
  const seconds = Number(args.seconds);
  const settle = Number(args.settle);
  const ramp = Number(args.ramp);
  if (counts.some((n) => !Number.isInteger(n) || n < 1) || !(Number.isInteger(tickMs) && tickMs >= 10) || !(seconds > 0) || !(settle >= 0) || !(ramp > 0))
    fail("bad scale settings");
  const out = args.out ?? path.join(import.meta.dirname, "results-latest-scale.json");
  const results: ScaleResult[] = [];
  for (const n of counts) {
    const r = await runScale({
      agents: n,
      tickMs,
      seconds,
      settleSeconds: settle,
      rampPerSecond: ramp,
      profileDir: args.profile === undefined ? undefined : path.resolve(args.profile),
      keep,
      log,
    });
    results.push(r);
    process.stdout.write(`${JSON.stringify(r)}\n`);
    writeResults(out, "agents-scale", started, { tickMs, seconds, settleSeconds: settle, rampPerSecond: ramp }, results);
    await sleep(2_000);
  }
  const row = (r: ScaleResult) => {
    if (!r.ok || r.agents === undefined || r.idle === undefined) return `| ${r.n} | failed: ${r.error ?? "?"} |`;
    const a = r.agents;
    const i = r.idle;
    const tick = (w: typeof a.server) => `${round(w.ticks.p50Ms, 1)} / ${round(w.ticks.p99Ms, 1)} (${w.ticks.count})`;
    return `| ${r.n} | ${a.playing} | ${a.cpuMsPerAgentTick} (${a.stepShare === null ? "?" : Math.round(a.stepShare * 100)} % stepping) | ${round(a.rssPerAgentBytes / 1024, 0)} / ${round(a.heapPerAgentBytes / 1024, 0)} | ${a.progressingShare === null ? "?" : `${round(a.progressingShare * 100, 1)} %`} / ${round(a.gainedXpShare * 100, 1)} % | ${tick(a.server)} | ${i.connected} | ${tick(i.server)} |`;
  };
  endSweep(
    [
      "agents",
      "playing",
      "runtime CPU ms per agent per tick",
      "runtime KiB per agent: RSS / heap",
      "progressing / gained xp",
      "server tick p50 / p99 ms (ticks)",
      "idle clients",
      "idle: tick p50 / p99 ms (ticks)",
    ],
    results.map(row),
    results.every((r) => r.ok),
  );
}
