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
    | {
        kind: "autosave";
        db: string;
        players: number;
        ok: boolean;
        error?: string;
        first: Save;
        autosaves: Save[];
        interval: { players: number; savedPerTickMean: number; verified: boolean };
      }
  )[];
}

describe("bench/autosave (smoke)", function () {
  this.timeout(120_000);
  // PostgreSQL when the suite has one (test/run.ts finds it), as the bench's own default does;
  // without one its test below is reported as skipped (CI fails on skips), never passed.
  const withPostgres = Boolean(process.env.TEST_PG_URL);
  const dbs = withPostgres ? "sqlite,postgresql" : "sqlite";
  let doc: Results;
  before(async () => {
    doc = await runBench<Results>("autosave", ["--players", "30", "--rounds", "2", "--ticks", "20", "--db", dbs]);
  });

  function checkRun(db: string): void {
    const runs = doc.results.flatMap((r) => (r.kind === "autosave" ? [r] : []));
    assert.deepEqual(
      runs.map((r) => r.db),
      dbs.split(","),
    );
    const r = runs.find((x) => x.db === db)!;
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

  it("seeds 30 characters, saves them all dirty, checks the database against the world, and times the persistence phase", () => {
    const phase = doc.results.find((r) => r.kind === "persistence-phase");
    assert.ok(phase !== undefined && phase.kind === "persistence-phase");
    assert.equal(phase.players, 30);
    assert.ok(phase.dirty.snapshotsPerTick > 0, "dirty players were snapshotted");
    checkRun("sqlite");
  });

  it("does the same on PostgreSQL", function () {
    if (!withPostgres) this.skip();
    checkRun("postgresql");
  });
});
