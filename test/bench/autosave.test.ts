import assert from "node:assert/strict";
import { runBench } from "../support/bench.ts";

interface Save {
  players: number;
  wallMs: number;
  mainThreadCpuMs: number;
  longestStallMs: number;
  verified: boolean;
}

interface Results {
  results: (
    | { kind: "persistence-phase"; players: number; idle: { p50Us: number }; dirty: { p50Us: number; snapshotsPerTick: number } }
    | { kind: "autosave"; db: string; players: number; ok: boolean; error?: string; first: Save; autosaves: Save[]; interval: { players: number; savedPerTickMean: number; verified: boolean } }
  )[];
}

describe("bench/autosave (smoke)", function () {
  this.timeout(120_000);

  it("seeds 30 characters, saves them all dirty, checks the database against the world, and times the persistence phase", async () => {
    // PostgreSQL when the suite has one (test/run.ts finds it), as the bench's own default does.
    const dbs = process.env.TEST_PG_URL ? "sqlite,postgresql" : "sqlite";
    const doc = await runBench<Results>("autosave", ["--players", "30", "--rounds", "2", "--ticks", "20", "--db", dbs]);
    const phase = doc.results.find((r) => r.kind === "persistence-phase");
    assert.ok(phase !== undefined && phase.kind === "persistence-phase");
    assert.equal(phase.players, 30);
    assert.ok(phase.dirty.snapshotsPerTick > 0, "dirty players were snapshotted");
    const runs = doc.results.flatMap((r) => (r.kind === "autosave" ? [r] : []));
    assert.deepEqual(runs.map((r) => r.db), dbs.split(","));
    for (const r of runs) {
      assert.ok(r.ok, r.error);
      assert.equal(r.autosaves.length, 2);
      for (const s of [r.first, ...r.autosaves]) {
        assert.equal(s.players, 30);
        assert.ok(s.verified, "the database equals the world after the save");
        assert.ok(s.wallMs > 0 && s.mainThreadCpuMs >= 0 && s.longestStallMs >= 0);
      }
      assert.equal(r.interval.players, 30);
      assert.ok(r.interval.verified);
    }
  });
});
