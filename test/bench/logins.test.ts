import assert from "node:assert/strict";
import { runBench } from "../support/bench.ts";

interface Results {
  settings: { players: number; rounds: number; atOnce: boolean };
  results: {
    round: number;
    driver: string;
    logins: number;
    atOnce: boolean;
    cpuMsPerLogin: number;
    wallMsPerLogin: number;
    statementsCompiled: number | string;
  }[];
}

/**
 * Every round's times are numbers: wall time above 0, CPU time at least 0. A round's CPU may read 0:
 * 20 logins on the server's driver are a few ms of CPU, and this machine's kernel reported a
 * process's CPU time in steps of 4 ms (0, 4, 4.4 ms for 20 logins). Over every round of both
 * drivers it cannot be none.
 */
function assertTimes(results: Results["results"]): void {
  for (const r of results) assert.ok(Number.isFinite(r.cpuMsPerLogin) && r.cpuMsPerLogin >= 0 && r.wallMsPerLogin > 0, JSON.stringify(r));
  assert.ok(results.reduce((sum, r) => sum + r.cpuMsPerLogin, 0) > 0, `some CPU time over all rounds: ${JSON.stringify(results)}`);
}

describe("bench/logins (smoke)", function () {
  this.timeout(120_000);
  it("times both drivers each round, and the server's compiles no statement for the other characters' logins", async () => {
    const doc = await runBench<Results>("logins", ["--players", "20", "--rounds", "2"]);
    assert.deepEqual(doc.settings, { players: 20, rounds: 2, atOnce: false });
    assert.deepEqual(
      doc.results.map((r) => [r.round, r.driver, r.logins]),
      [
        [1, "SqliteDriver", 20],
        [1, "ReusingSqliteDriver", 20],
        [2, "SqliteDriver", 20],
        [2, "ReusingSqliteDriver", 20],
      ],
    );
    assertTimes(doc.results);
    assert.deepEqual(
      doc.results.filter((r) => r.driver === "ReusingSqliteDriver").map((r) => r.statementsCompiled),
      [0, 0],
    );
  });

  it("logs every character in at once with --at-once", async () => {
    const doc = await runBench<Results>("logins", ["--players", "30", "--rounds", "1", "--at-once"]);
    assert.deepEqual(doc.settings, { players: 30, rounds: 1, atOnce: true });
    assert.deepEqual(
      doc.results.map((r) => [r.driver, r.logins, r.atOnce]),
      [
        ["SqliteDriver", 30, true],
        ["ReusingSqliteDriver", 30, true],
      ],
    );
    assertTimes(doc.results);
  });

  it("refuses bad arguments with its usage line (exit 2)", async () => {
    await assert.rejects(runBench("logins", ["--players", "0"]), /usage: run\.ts/);
  });
});
