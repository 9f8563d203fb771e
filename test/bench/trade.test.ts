import assert from "node:assert/strict";
import { runBench } from "../support/bench.ts";

interface Results {
  results: {
    db: string;
    pairs: number;
    ok: boolean;
    error?: string;
    trades: { completed: number; completedTradeIds: number; latencyP50Ms: number; stuck: number; byKind: Record<"colyseus" | "ws", { completed: number }> };
    server: { exit: { code: number | null } };
    store: { completed: number; failed: number; p50S: number; p99S: number; withinOneSecond: number };
    integrity: { ok: boolean; problems: string[]; auditRows: number; botsCompleted: number; seeded: Record<string, number>; stored: Record<string, number> };
  }[];
}

describe("bench/trade (smoke)", function () {
  this.timeout(60_000);

  it("runs 2 trading pairs on SQLite for 6 s at a 100 ms tick, and the database adds up afterwards", async () => {
    const doc = await runBench<Results>("trade", ["--pairs", "2", "--seconds", "6", "--db", "sqlite", "--tick-ms", "100", "--warmup", "2"]);
    const r = doc.results[0]!;
    assert.equal(r.pairs, 2);
    assert.ok(r.ok, r.error);
    assert.ok(r.trades.completed > 0, "trades completed in the window");
    assert.ok(r.trades.byKind.colyseus.completed > 0 && r.trades.byKind.ws.completed > 0, "both transports traded");
    assert.ok(r.trades.latencyP50Ms > 0 && r.trades.latencyP50Ms < 5_000, `latency ${r.trades.latencyP50Ms} ms`);
    assert.equal(r.trades.stuck, 0);
    assert.ok(r.store.completed > 0 && r.store.failed === 0, `the server's store times cover the window's trades: ${JSON.stringify(r.store)}`);
    assert.ok(r.store.p50S > 0 && r.store.p50S <= r.store.p99S && r.store.withinOneSecond > 0);
    assert.equal(r.server.exit.code, 0, "the server shut down cleanly");
    assert.ok(r.integrity.ok, r.integrity.problems.join("; "));
    assert.deepEqual(r.integrity.stored, r.integrity.seeded);
    assert.equal(r.integrity.auditRows, r.integrity.botsCompleted);
    assert.equal(r.integrity.auditRows, r.trades.completedTradeIds);
  });
});
