import assert from "node:assert/strict";
import { runBench } from "../support/bench.ts";

interface Results {
  settings: { players: number; queries: number; dialects: string[] };
  results: { dialect: string; players: number; query: string; medianMs: number; p95Ms: number; maxMs: number }[];
}

describe("bench/hiscores (smoke)", function () {
  this.timeout(120_000);
  it("fills both databases and times every query on each", async () => {
    const doc = await runBench<Results>("hiscores", ["--players", "300", "--queries", "3"]);
    assert.deepEqual(doc.settings, { players: 300, queries: 3, dialects: ["postgresql", "sqlite"] });
    assert.equal(doc.results.length, 12);
    for (const r of doc.results) assert.ok(r.players === 300 && r.medianMs > 0 && r.medianMs <= r.p95Ms && r.p95Ms <= r.maxMs, JSON.stringify(r));
    assert.ok(
      doc.results.some((r) => r.query === "page overall, 100 at rank 51"),
      JSON.stringify(doc.results.map((r) => r.query)),
    );
  });
});
