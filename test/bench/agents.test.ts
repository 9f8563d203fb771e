import assert from "node:assert/strict";
import { runBench } from "../support/bench.ts";

interface Reached {
  ticks: number;
  minutesAt600ms: number;
}

interface LadderResults {
  results: {
    seed: string;
    ok: boolean;
    error?: string;
    reached: Record<string, Reached | null>;
    ticksRun: number;
    runtimeSteps: number;
    runtimeRestarts: { tick: number; exit: string }[];
    sessions: number;
    trace: { tick: number; totalLevel: number }[];
    final: { totalLevel: number } | undefined;
  }[];
}

interface Window {
  ticks: { count: number; p50Ms: number; p99Ms: number };
  players: number;
}

interface ScaleResults {
  results: {
    n: number;
    ok: boolean;
    error?: string;
    agents: { playing: number; cpuMsPerAgentTick: number; runtimeSteps: number; rssBytes: number; progressingShare: number | null; server: Window };
    idle: { connected: number; disconnects: number; server: Window };
    serverExit: { code: number | null };
  }[];
}

describe("bench/agents (smoke)", function () {
  this.timeout(120_000);

  it("--ladder: a woodsman agent reaches its first milestones, plays on after its runtime is restarted, and the run stops at the tick cap with the milestones it did not reach left open", async () => {
    const doc = await runBench<LadderResults>("agents", [
      "--ladder",
      "--seeds",
      "smoke",
      "--tick-ms",
      "20",
      "--max-ticks",
      "400",
      "--trace-every",
      "100",
      "--kill-runtime-at",
      "150",
    ]);
    const r = doc.results[0]!;
    assert.ok(r.ok, r.error);
    assert.equal(r.seed, "smoke");
    // It ran to the cap: the first tick at or past it that found the agent in the world (on a loaded
    // machine the restarted runtime may bring it back only after tick 400).
    assert.ok(r.ticksRun >= 400 && r.ticksRun < 1000, `it ran to the cap: ${r.ticksRun}`);
    // A new woodsman takes the first quest first (A Settler's Charter: five meadow rats), so its first
    // NPC kill comes within the 400 ticks; a milestone's minutes are its ticks at the 600 ms tick.
    const kill = r.reached.npcKill;
    assert.ok(kill !== null && kill !== undefined && kill.ticks > 0 && kill.ticks < r.ticksRun, `a first NPC kill: ${JSON.stringify(r.reached)}`);
    assert.equal(kill.minutesAt600ms, Math.round(kill.ticks / 10) / 10);
    assert.equal(r.reached.total75, null, "total level 75 is hours away, not reached in 400 ticks");
    assert.equal(r.runtimeRestarts.length, 1, JSON.stringify(r.runtimeRestarts));
    assert.ok(r.runtimeRestarts[0]!.tick >= 150 && r.runtimeRestarts[0]!.tick < 400);
    assert.equal(r.sessions, 2, "the restarted runtime resumed the agent from its store: a second session in the world");
    assert.ok(r.runtimeSteps > 150, `the runtimes stepped the agent (${r.runtimeSteps} steps)`);
    // A line every 100 ticks, or at the first step after (the agent was out of the world during the restart).
    const ticks = r.trace.map((t) => t.tick);
    assert.ok(ticks.length >= 4 && ticks[0] === 0 && ticks.at(-1) === r.ticksRun, JSON.stringify(ticks));
    assert.ok(
      ticks.every((t, i) => i === 0 || (t > ticks[i - 1]! && Math.floor(t / 100) > Math.floor(ticks[i - 1]! / 100))),
      JSON.stringify(ticks),
    );
    assert.equal(r.trace[0]!.totalLevel, 26, "a fresh character: 16 skills at 1, constitution 10");
  });

  it("--ladder --parallel: each seed in its own process, the results merged in the order of --seeds", async () => {
    const doc = await runBench<LadderResults>("agents", [
      "--ladder",
      "--seeds",
      "b,a",
      "--parallel",
      "--tick-ms",
      "20",
      "--max-ticks",
      "150",
      "--trace-every",
      "50",
    ]);
    assert.deepEqual(
      doc.results.map((r) => [r.seed, r.ok, r.error, r.ticksRun]),
      [
        ["b", true, undefined, 150],
        ["a", true, undefined, 150],
      ],
    );
  });

  it("--scale: N agents playing, then N idle clients on the same characters, each with the server's tick", async () => {
    const doc = await runBench<ScaleResults>("agents", ["--scale", "6", "--seconds", "4", "--settle", "1", "--tick-ms", "200"]);
    const r = doc.results[0]!;
    assert.ok(r.ok, r.error);
    assert.equal(r.agents.playing, 6);
    assert.equal(r.agents.server.players, 6);
    assert.ok(r.agents.server.ticks.count >= 10, `the server ticked (${r.agents.server.ticks.count})`);
    assert.ok(r.agents.runtimeSteps > 0);
    assert.ok(r.agents.cpuMsPerAgentTick > 0 && r.agents.rssBytes > 0);
    assert.ok(r.agents.progressingShare !== null && r.agents.progressingShare >= 0 && r.agents.progressingShare <= 1);
    assert.equal(r.idle.connected, 6);
    assert.equal(r.idle.disconnects, 0);
    assert.equal(r.idle.server.players, 6, "the idle clients hold the same six characters");
    assert.ok(r.idle.server.ticks.count >= 10);
    assert.equal(r.serverExit.code, 0, "the server shut down cleanly");
  });

  it("refuses both modes at once, or neither", async () => {
    await assert.rejects(runBench("agents", ["--ladder", "--scale", "5"]), /usage: run\.ts/);
    await assert.rejects(runBench("agents", []), /usage: run\.ts/);
  });
});
