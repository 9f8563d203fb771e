/**
 * Percentiles by nearest rank (src/metrics.ts), used for the server's tick times and by the
 * benchmarks. The earlier formula took index floor(p·n), one rank too high: the p99 of 100 ticks
 * was the slowest tick.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import os from "node:os";
import { percentileOfSorted, runQueueWaitNs, ServerMetrics } from "../../src/metrics.ts";
import { percentile } from "../../bench/world-load/common.ts";

const range = (n: number) => Float64Array.from({ length: n }, (_, i) => i + 1);

describe("percentiles (nearest rank)", () => {
  it("p99 of 1..100 is 99, p50 is 50, p100 the largest, p0 the smallest", () => {
    assert.equal(percentileOfSorted(range(100), 99), 99);
    assert.equal(percentileOfSorted(range(100), 50), 50);
    assert.equal(percentileOfSorted(range(100), 100), 100);
    assert.equal(percentileOfSorted(range(100), 0), 1);
    assert.equal(percentileOfSorted(range(1000), 99), 990);
    assert.equal(percentileOfSorted(range(1), 99), 1);
    assert.equal(percentileOfSorted(range(3), 50), 2);
    assert.equal(percentileOfSorted(new Float64Array(0), 99), 0);
  });

  it("the benchmarks' percentile sorts numerically and agrees", () => {
    const shuffled = [100, 3, 20, 1, 99, 5, 42, 7, 8, 9];
    assert.equal(percentile(shuffled, 50), 8);
    assert.equal(percentile(shuffled, 90), 99);
    assert.equal(percentile(shuffled, 99), 100);
    assert.equal(percentile([], 99), 0);
  });

  it("the server's tick p99 over 100 ticks is the second slowest, and max the slowest", () => {
    const m = new ServerMetrics();
    for (let i = 100; i >= 1; i--) m.recordTick(i);
    const snap = m.snapshot() as { ticks: { count: number; p50Ms: number; p99Ms: number; maxMs: number } };
    assert.equal(snap.ticks.count, 100);
    assert.equal(snap.ticks.p50Ms, 50);
    assert.equal(snap.ticks.p99Ms, 99);
    assert.equal(snap.ticks.maxMs, 100);
  });

  it("reports the ticking thread's CPU time: its mean per tick, and the slowest tick's", () => {
    const m = new ServerMetrics();
    m.recordTick(10, { game: 10 }, 8);
    m.recordTick(90, { game: 90 }, 30);
    m.recordTick(20, { game: 20 }, 16);
    const snap = m.snapshot() as { ticks: { cpuMeanMs: number; slowest: { ms: number; cpuMs: number } } };
    assert.equal(snap.ticks.cpuMeanMs, 18);
    assert.deepEqual({ ms: snap.ticks.slowest.ms, cpuMs: snap.ticks.slowest.cpuMs }, { ms: 90, cpuMs: 30 }, "a slow tick that mostly waited");
  });

  it("reports the ticking thread's run-queue wait: its mean per tick, and the slowest tick's", () => {
    const m = new ServerMetrics();
    m.recordTick(10, { game: 10 }, 8, undefined, 1);
    m.recordTick(90, { game: 90 }, 30, undefined, 55);
    m.recordTick(20, { game: 20 }, 16, undefined, 3);
    const snap = m.snapshot() as { ticks: { waitMeanMs: number; slowest: { ms: number; waitMs: number } } };
    assert.equal(snap.ticks.waitMeanMs, 19.67);
    assert.deepEqual({ ms: snap.ticks.slowest.ms, waitMs: snap.ticks.slowest.waitMs }, { ms: 90, waitMs: 55 });
    const none = new ServerMetrics();
    none.recordTick(10, { game: 10 }, 8);
    assert.equal((none.snapshot() as { ticks: { waitMeanMs: number | null } }).ticks.waitMeanMs, null, "not known is not zero");
  });

  it("reads the thread's run-queue wait from Linux: it grows while more busy processes than cores run", async function () {
    this.timeout(20_000);
    const before = runQueueWaitNs();
    assert.ok(before !== undefined && before >= 0, "Linux tells it (/proc/thread-self/schedstat)");
    // A busy loop here alone on the machine waits little; with twice as many busy processes as
    // cores beside it, the kernel shares each core and this thread waits for its turns.
    const spin = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    const busy = Array.from({ length: 2 * os.availableParallelism() }, () =>
      spawn(process.execPath, ["-e", "const e = Date.now() + 8000; while (Date.now() < e);"], { stdio: "ignore" }),
    );
    try {
      await new Promise((r) => setTimeout(r, 300));
      const start = runQueueWaitNs()!;
      spin(1000);
      const waitedMs = (runQueueWaitNs()! - start) / 1e6;
      assert.ok(waitedMs > 100, `waited ${waitedMs} ms of a 1 s busy loop beside ${busy.length} busy processes`);
    } finally {
      for (const b of busy) b.kill("SIGKILL");
    }
  });

  it("tells the GC pauses within the slowest tick (V8 reports them after it)", async () => {
    const m = new ServerMetrics();
    try {
      const quiet = performance.now();
      m.recordTick(5, { game: 5 }, 5, quiet - 10_000);
      type Slowest = { ms: number; gcMs: number | null };
      const slowest = () => (m.snapshot() as { ticks: { slowest: Slowest } }).ticks.slowest;
      assert.equal(slowest().gcMs, 0, "a tick long before any pause");
      // A "tick" that allocates ~250 MB of short-lived arrays: scavenges, whatever the young generation's size.
      const started = performance.now();
      let last: unknown;
      for (let i = 0; i < 2_000_000; i++) last = new Array(16).fill(i);
      assert.ok(last !== undefined);
      const ms = performance.now() - started;
      m.recordTick(ms, { game: ms }, ms, started);
      await new Promise((r) => setTimeout(r, 100));
      const s = slowest();
      assert.equal(s.ms, ms);
      assert.ok(s.gcMs !== null && s.gcMs > 0 && s.gcMs <= ms, `${s.gcMs} ms of GC in a ${ms} ms tick`);
      // Many later pauses (a long window) do not take the slowest tick's away.
      type Gc = { gc: { minor: { count: number }; major: { count: number } } };
      const pauses = () => {
        const g = (m.snapshot() as Gc).gc;
        return g.minor.count + g.major.count;
      };
      const before = pauses();
      for (let k = 0; k < 200 && pauses() < before + 100; k++) {
        for (let i = 0; i < 1_000_000; i++) last = new Array(16).fill(i);
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.ok(pauses() >= before + 100, `${pauses() - before} more pauses`);
      assert.equal(slowest().gcMs, s.gcMs, "still its own pauses after more collections");
      // Without its start, a tick's pauses cannot be told.
      m.recordTick(ms * 10, { game: ms * 10 });
      assert.equal(slowest().gcMs, null);
    } finally {
      m.stop();
    }
  });
});
