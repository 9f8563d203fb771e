import assert from "node:assert/strict";
import { MAX_EXPANSIONS } from "../../src/game/map/pathfinding.ts";
import { PATH_BUDGET_PER_TICK } from "../../src/game/world/World.ts";
import { runBench } from "../support/bench.ts";

interface KindReport {
  connected: number;
  latencySamples: number;
  latencyP50Ms: number;
  wireBytesPerClientPerS: number;
}

interface Results {
  results: {
    clients: number;
    ok: boolean;
    error?: string;
    server: {
      metrics: { ticks: { count: number; p99Ms: number }; players: number; paths: { searchesPerTick: number; maxExpansions: number } };
      exit: { code: number | null };
    };
    bots: { colyseus: KindReport; ws: KindReport };
    probes?: { colyseus: KindReport; ws: KindReport };
    attackers?: { connected: number; movesSent: number; disconnects: number };
  }[];
}

describe("bench/world-load (smoke)", function () {
  this.timeout(90_000);

  it("runs 10 bots of both kinds for 8 s and reports ticks, bytes and move latencies", async () => {
    const doc = await runBench<Results>("world-load", ["--clients", "10", "--seconds", "8", "--settle", "2"]);
    const r = doc.results[0]!;
    assert.equal(r.clients, 10);
    assert.ok(r.ok, r.error);
    assert.ok(r.server.metrics.ticks.count > 0, "the server ticked during the window");
    assert.equal(r.server.metrics.players, 10);
    assert.equal(r.server.exit.code, 0, "the server shut down cleanly");
    for (const kind of ["colyseus", "ws"] as const) {
      const k = r.bots[kind];
      assert.equal(k.connected, 5, `${kind} bots connected`);
      assert.ok(k.latencySamples > 0, `${kind} bots timed some moves`);
      assert.ok(k.latencyP50Ms > 0 && k.latencyP50Ms < 5_000, `${kind} latency ${k.latencyP50Ms} ms`);
      assert.ok(k.wireBytesPerClientPerS > 0, `${kind} bots received bytes`);
    }
  });

  it("splits the bots over processes by kind (--bot-processes 4) and merges their reports (the /ws bots on the documented world:update)", async () => {
    const doc = await runBench<Results>("world-load", ["--clients", "12", "--seconds", "6", "--settle", "2", "--bot-processes", "4", "--ws-updates", "full"]);
    const r = doc.results[0]!;
    assert.ok(r.ok, r.error);
    assert.equal(r.server.metrics.players, 12);
    for (const kind of ["colyseus", "ws"] as const) {
      const k = r.bots[kind];
      assert.equal(k.connected, 6, `${kind} bots connected over two processes`);
      assert.ok(k.latencySamples > 0, `${kind} bots timed some moves`);
      assert.equal((k as { latencies?: unknown }).latencies, undefined, "raw samples are not written to the results");
    }
  });

  it("runs probe clients of both kinds in their own process (--probes 4) and reports them apart from the bots", async () => {
    const doc = await runBench<Results>("world-load", ["--clients", "12", "--seconds", "8", "--settle", "2", "--probes", "4"]);
    const r = doc.results[0]!;
    assert.ok(r.ok, r.error);
    assert.equal(r.server.metrics.players, 12, "the probes are among the clients, not added to them");
    assert.ok(r.probes !== undefined, "the probes' report is in the results");
    for (const kind of ["colyseus", "ws"] as const) {
      assert.equal(r.bots[kind].connected, 4, `${kind}: the bots process runs the clients that are not probes`);
      assert.equal(r.probes[kind].connected, 2, `${kind}: two probes`);
      assert.ok(r.probes[kind].latencySamples > 0, `${kind} probes timed some moves`);
      assert.ok(r.probes[kind].latencyP50Ms > 0 && r.probes[kind].latencyP50Ms < 5_000, `${kind} probe latency ${r.probes[kind].latencyP50Ms} ms`);
    }
  });

  it("refuses probes it cannot split evenly between the kinds, or more than half the clients", async () => {
    await assert.rejects(runBench("world-load", ["--clients", "10", "--seconds", "1", "--probes", "3"]), /usage: run\.ts/);
    await assert.rejects(runBench("world-load", ["--clients", "10", "--seconds", "1", "--probes", "8"]), /usage: run\.ts/);
  });

  it("runs path-finding attackers beside the players (--attackers) and reports the tick's searches", async () => {
    const doc = await runBench<Results>("world-load", ["--clients", "6", "--attackers", "4", "--seconds", "6", "--settle", "2"]);
    const r = doc.results[0]!;
    assert.ok(r.ok, r.error);
    assert.equal(r.server.metrics.players, 10);
    assert.equal(r.attackers?.connected, 4);
    assert.ok(r.attackers.movesSent > 4 * 6 * 30, `the attackers sent ${r.attackers.movesSent} moves`);
    assert.equal(r.attackers.disconnects, 0, "under the per-connection limit, nobody is cut off");
    assert.ok(r.server.metrics.paths.searchesPerTick > 0);
    assert.ok(r.server.metrics.paths.maxExpansions <= PATH_BUDGET_PER_TICK + MAX_EXPANSIONS);
  });

  it("refuses an odd number of bot processes", async () => {
    await assert.rejects(runBench("world-load", ["--clients", "10", "--seconds", "1", "--bot-processes", "3"]), /usage: run\.ts/);
  });
});
