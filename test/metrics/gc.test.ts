/**
 * ServerMetrics reports the window's garbage-collection pauses by kind (src/metrics.ts), so that a
 * slow tick can be told apart from a collection.
 */
import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { setTimeout as sleep } from "node:timers/promises";
import { ServerMetrics } from "../../src/metrics.ts";

type Gc = (options?: { type?: "major" | "minor" }) => void;
type Bucket = { count: number; ms: number; maxMs: number };

function exposeGc(): Gc {
  const global = (globalThis as { gc?: Gc }).gc;
  if (typeof global === "function") return global;
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as Gc;
}

describe("ServerMetrics: garbage collection", () => {
  it("counts major and minor pauses in the window, and reset starts a new window", async () => {
    const gc = exposeGc();
    const metrics = new ServerMetrics();
    try {
      gc({ type: "major" });
      gc({ type: "minor" });
      gc({ type: "minor" });
      // GC entries reach observers asynchronously.
      await sleep(50);
      const seen = (metrics.snapshot() as { gc: { major: Bucket; minor: Bucket } }).gc;
      assert.ok(seen.major.count >= 1, `major: ${JSON.stringify(seen.major)}`);
      assert.ok(seen.minor.count >= 2, `minor: ${JSON.stringify(seen.minor)}`);
      assert.ok(seen.major.ms > 0 && seen.major.maxMs > 0 && seen.major.maxMs <= seen.major.ms);
      metrics.reset();
      const after = (metrics.snapshot() as { gc: { major: Bucket; minor: Bucket } }).gc;
      assert.deepEqual(after.major, { count: 0, ms: 0, maxMs: 0 });
    } finally {
      metrics.stop();
    }
  });
});
