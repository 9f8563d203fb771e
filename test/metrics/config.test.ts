/**
 * METRICS_PORT and METRICS_HOST: validated like every variable (a bad value is refused with the
 * variable named, by loadConfig and by the server process at startup).
 */
import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../../src/config/env.ts";
import { runToExit } from "../support/process.ts";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    return err.problems;
  }
  assert.fail(`expected ${JSON.stringify(env)} to be refused`);
}

describe("METRICS_PORT and METRICS_HOST", () => {
  it("turn the metrics server on only when METRICS_PORT is set", () => {
    assert.equal(loadConfig({}).metrics, undefined);
    assert.equal(loadConfig({ METRICS_PORT: "" }).metrics, undefined);
    assert.deepEqual(loadConfig({ METRICS_PORT: "9464" }).metrics, { port: 9464, host: undefined });
    assert.deepEqual(loadConfig({ METRICS_PORT: "0" }).metrics, { port: 0, host: undefined }, "0: any free port (tests)");
  });

  it("bind METRICS_HOST, else HOST", () => {
    assert.deepEqual(loadConfig({ METRICS_PORT: "9464", HOST: "10.0.0.5" }).metrics, { port: 9464, host: "10.0.0.5" });
    assert.deepEqual(loadConfig({ METRICS_PORT: "9464", HOST: "0.0.0.0", METRICS_HOST: "127.0.0.1" }).metrics, { port: 9464, host: "127.0.0.1" });
  });

  it("refuse a bad METRICS_PORT, naming it", () => {
    for (const bad of ["abc", "-1", "65536", "9464.5", "0x10", "9464 9465"]) {
      assert.match(problemsOf({ METRICS_PORT: bad }).join("\n"), /^METRICS_PORT: expected an integer from 0 to 65535/m, bad);
    }
  });

  it("refuse METRICS_PORT equal to PORT, and METRICS_HOST without METRICS_PORT", () => {
    assert.deepEqual(problemsOf({ PORT: "6000", METRICS_PORT: "6000" }), [
      "METRICS_PORT: must differ from PORT (both are 6000): metrics are served on a port of their own",
    ]);
    assert.match(problemsOf({ METRICS_PORT: "5555" }).join("\n"), /^METRICS_PORT: must differ from PORT/m, "the default PORT counts");
    assert.equal(loadConfig({ PORT: "0", METRICS_PORT: "0" }).metrics?.port, 0, "two ephemeral ports never collide");
    assert.deepEqual(problemsOf({ METRICS_HOST: "127.0.0.1" }), ["METRICS_HOST: set without METRICS_PORT, which turns the metrics server on"]);
  });

  it("are listed with the other invalid variables at once", () => {
    const problems = problemsOf({ PORT: "abc", METRICS_PORT: "x" });
    assert.deepEqual(problems.map((p) => p.split(":")[0]).sort(), ["METRICS_PORT", "PORT"]);
  });

  it("a bad METRICS_PORT stops the server process at startup, naming it (exit 78)", async function () {
    this.timeout(30_000);
    const r = await runToExit({ NODE_ENV: "test", METRICS_PORT: "metrics" });
    assert.equal(r.code, 78, r.stderr);
    assert.match(r.stderr, /refusing to start/);
    assert.match(r.stderr, /METRICS_PORT: expected an integer from 0 to 65535, got "metrics"/);
  });
});
