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
    goals: Record<string, { count: number; tickShare: number }>;
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
    // It ran to the cap, in ticks the agent spent in the world: the restart's wall time (seconds on a
    // loaded machine, hundreds of 20 ms ticks) is not counted, so the agent has its 400 ticks of play.
    assert.equal(r.ticksRun, 400, "it ran to the cap");
    // A new woodsman takes the first quest first (A Settler's Charter: five meadow rats), so its first
    // NPC kill comes within the 400 ticks; a milestone's minutes are its ticks at the 600 ms tick.
    // Its first choice is the seed's (the seed `smoke` and its name): the same every run.
    const kill = r.reached.npcKill;
    assert.ok(
      kill !== null && kill !== undefined && kill.ticks > 0 && kill.ticks < r.ticksRun,
      `a first NPC kill: ${JSON.stringify(r.reached)}; goals ${JSON.stringify(r.goals)}`,
    );
    assert.equal(kill.minutesAt600ms, Math.round(kill.ticks / 10) / 10);
    assert.equal(r.reached.total75, null, "total level 75 is hours away, not reached in 400 ticks");
    assert.equal(r.runtimeRestarts.length, 1, JSON.stringify(r.runtimeRestarts));
    assert.ok(r.runtimeRestarts[0]!.tick >= 150 && r.runtimeRestarts[0]!.tick < 400);
    assert.equal(r.sessions, 2, "the restarted runtime resumed the agent from its store: a second session in the world");
    assert.ok(r.runtimeSteps > 150, `the runtimes stepped the agent (${r.runtimeSteps} steps)`);
    // A line every 100 ticks played (the restart's ticks out of the world are not among them).
    assert.deepEqual(
      r.trace.map((t) => t.tick),
      [0, 100, 200, 300, 400],
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
