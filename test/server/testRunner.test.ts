import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { ROOT } from "../support/process.ts";
import { makeWorldDir } from "../support/world.ts";

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

  it("loads every test file without starting a server (src/main.ts starts one when imported)", async () => {
    // A test imported a constant from src/main.ts: every run started a server inside the suite's
    // process on the default port, with the working directory's database, and a run beside a
    // server on that port (`npm start` in another terminal) died at once. Here the port is taken.
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const world = makeWorldDir();
    try {
      const script = `
        import fs from "node:fs";
        import path from "node:path";
        import Mocha from "mocha";
        const root = ${JSON.stringify(path.join(ROOT, "test"))};
        const mocha = new Mocha();
        for (const f of fs.globSync("**/*.test.ts", { cwd: root })) mocha.addFile(path.join(root, f));
        await mocha.loadFilesAsync();
        setTimeout(() => { process.stdout.write("loaded\\n"); process.exit(0); }, 2000);
      `;
      const port = (taken.address() as net.AddressInfo).port;
      const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
          cwd: ROOT,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "test", LOG_LEVEL: "info", HOST: "127.0.0.1", PORT: String(port), WORLD: world },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let text = "";
        child.stdout.on("data", (c: Buffer) => (text += c.toString()));
        child.stderr.on("data", (c: Buffer) => (text += c.toString()));
        child.on("exit", (c) => resolve({ code: c, out: text }));
      });
      // Nothing but the script's own line: a server started by an import logs before it fails.
      assert.deepEqual({ code, out: out.trim() }, { code: 0, out: "loaded" }, out.slice(-3000));
    } finally {
      taken.close();
      fs.rmSync(world, { recursive: true, force: true });
    }
  });

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
