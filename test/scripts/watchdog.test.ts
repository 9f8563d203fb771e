/**
 * The test runner's watchdog (test/support/watchdog.ts): a test that blocks the event loop (a
 * synchronous loop that never ends, which mocha's timers cannot interrupt) stops the run with the
 * test's name instead of hanging until CI's limit; a test that waits without blocking is left alone.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "../support/process.ts";

/** Runs a small program that arms the watchdog (2 s), names a test, then does `then`. */
function arm(then: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; stdout: string }> {
  const program = `
    import { watchBlockedLoop } from ${JSON.stringify(path.join(ROOT, "test/support/watchdog.ts"))};
    watchBlockedLoop((onTest) => onTest("a suite a test that spins"), 2);
    ${then}
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", program], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stderr, stdout }));
  });
}

describe("the test runner's watchdog for a blocked event loop", function () {
  this.timeout(30_000);

  it("kills a run whose event loop is blocked past its limit, naming the test", async () => {
    // Blocks for at most 20 s (bounded, so a broken watchdog fails this test rather than hanging it).
    const r = await arm(`const end = Date.now() + 20_000; while (Date.now() < end); console.log("not stopped");`);
    assert.equal(r.signal, "SIGKILL");
    assert.match(r.stderr, /the event loop has been blocked for \d+ s .* in: a suite a test that spins/);
    assert.doesNotMatch(r.stdout, /not stopped/);
  });

  it("leaves a run alone that waits longer than the limit without blocking", async () => {
    const r = await arm(`await new Promise((resolve) => setTimeout(resolve, 5_000)); console.log("done");`);
    assert.equal(r.code, 0);
    assert.equal(r.signal, null);
    assert.match(r.stdout, /done/);
    assert.equal(r.stderr, "");
  });
});
