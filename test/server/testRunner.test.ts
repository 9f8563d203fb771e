import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../support/process.ts";

function runSuite(env: Record<string, string>, filter: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "test", "run.ts"), filter], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

describe("the test runner", function () {
  this.timeout(60_000);
  const noPostgres = { TEST_PG_URL: "postgresql://postgres@127.0.0.1:1/none", TEST_PG_EMBEDDED: "false" };

  it("fails in CI when no PostgreSQL can be found or started", async () => {
    const r = await runSuite({ ...noPostgres, CI: "true" }, "config/env");
    assert.equal(r.code, 1);
    assert.match(r.out, /CI requires the PostgreSQL runs/);
  });

  it("fails in CI when any test is skipped, and passes the same skip outside CI", async () => {
    // A throwaway suite that skips itself, as a test does when a fixture is missing.
    const name = `skip-probe-${process.pid}.test.ts`;
    const file = path.join(ROOT, "test", name);
    fs.writeFileSync(file, 'describe("probe", () => { it("skips", function () { this.skip(); }); });\n');
    try {
      const inCi = await runSuite({ CI: "true", TEST_PG_URL: process.env.TEST_PG_URL ?? "" }, name);
      assert.equal(inCi.code, 1, inCi.out);
      assert.match(inCi.out, /1 skipped; CI requires every test to run/);
      const outside = await runSuite({ ...noPostgres }, name);
      assert.equal(outside.code, 0, outside.out);
      assert.match(outside.out, /tests: 0 passed, 0 failed, 1 skipped/);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it("outside CI, runs the SQLite half and reports the PostgreSQL half as skipped, loudly", async () => {
    const r = await runSuite(noPostgres, "db/database");
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /WARNING: no PostgreSQL available/);
    assert.match(r.out, /tests: \d+ passed, 0 failed, [1-9]\d* skipped/);
  });
});
