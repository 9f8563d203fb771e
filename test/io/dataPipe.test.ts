/**
 * The World's process's end of the data pipe (src/io/dataPipe.ts): written directly, it never
 * waits for the child, and `pump()` moves it on while the event loop cannot (a tick running).
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import { DataPipe } from "../../src/io/dataPipe.ts";
import { until } from "../support/until.ts";

/**
 * A child reading fd 4 (as the socket process does): it checks that byte i is i % 251, and says
 * when it has `want` bytes (`{n, ok}`), over IPC and by creating the file `doneFile`: a process
 * whose event loop is busy cannot read a message, but it can see a file appear. With `wait`, it
 * reads nothing until told.
 */
const READER = `
const net = require("node:net");
const fs = require("node:fs");
const want = Number(process.argv[1]);
let n = 0, ok = true;
const s = new net.Socket({ fd: 4, readable: true, writable: false });
if (process.argv[2] === "wait") { s.pause(); process.on("message", () => s.resume()); }
s.on("data", (c) => {
  for (let i = 0; i < c.length; i++) if (c[i] !== (n + i) % 251) ok = false;
  n += c.length;
  if (n >= want) { fs.writeFileSync(process.argv[3], ""); process.send({ n, ok }); }
});
process.send({ ready: true });
`;

interface Report {
  n: number;
  ok: boolean;
}

function reader(
  want: number,
  mode: "read" | "wait",
): { child: ChildProcess; pipe: DataPipe; report: () => Report | undefined; ready: Promise<void>; errors: Error[]; done: () => boolean } {
  const doneFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-datapipe-")), "done");
  const child = spawn(process.execPath, ["-e", READER, String(want), mode, doneFile], { stdio: ["ignore", "inherit", "inherit", "ipc", "pipe"] });
  child.on("exit", () => fs.rmSync(path.dirname(doneFile), { recursive: true, force: true }));
  let report: Report | undefined;
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  child.on("message", (m: Report & { ready?: boolean }) => {
    if (m.ready) ready();
    else report = m;
  });
  const errors: Error[] = [];
  const pipe = new DataPipe(child.stdio[4] as Writable, (err) => errors.push(err));
  return { child, pipe, report: () => report, ready: readyP, errors, done: () => fs.existsSync(doneFile) };
}

/** `total` bytes where byte i is i % 251, in buffers of `size`. */
function pattern(total: number, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < total; at += size) {
    const b = Buffer.allocUnsafe(Math.min(size, total - at));
    for (let i = 0; i < b.length; i++) b[i] = (at + i) % 251;
    out.push(b);
  }
  return out;
}

/**
 * Keeps the event loop busy (calling `each` every millisecond) for `ms`, or with `stop` until it
 * says so (failing after `ms`: never a loop that could spin forever).
 */
function busy(ms: number, each?: () => void, stop?: () => boolean): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    each?.();
    if (stop?.()) return;
    const t = performance.now();
    while (performance.now() - t < 1);
  }
  if (stop !== undefined) assert.fail(`busy for ${ms} ms and still waiting`);
}

describe("the socket process's data pipe, written directly (DataPipe)", function () {
  this.timeout(20_000);
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill("SIGKILL");
  });

  it("never waits for a child that does not read: what the kernel does not take is queued, then written in order", async () => {
    const total = 8 * 1024 * 1024;
    const r = reader(total, "wait");
    children.push(r.child);
    await r.ready;
    assert.ok(r.pipe.direct, "the pipe's descriptor is written directly");
    const done: number[] = [];
    const buffers = pattern(total, 1024 * 1024);
    // Every write(2) as the pipe made it: a write() that waited would try again while the pipe is full.
    const writeSync = fs.writeSync;
    let calls = 0;
    fs.writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
      calls++;
      return (writeSync as (...a: unknown[]) => number)(...args);
    }) as typeof fs.writeSync;
    try {
      buffers.forEach((b, i) => r.pipe.write(b, () => done.push(i)));
    } finally {
      fs.writeSync = writeSync;
    }
    // Each write() stops at the first write(2) that does not finish a buffer (full pipe: partial or EAGAIN).
    assert.ok(calls <= buffers.length + done.length, `8 MB written to a pipe no one reads, without waiting: ${calls} write(2) calls`);
    assert.ok(r.pipe.queuedBytes > 0, "the kernel took only part of it");
    assert.ok(done.length < 8, `done only once taken (${done.length} of 8)`);
    r.child.send("read");
    const got = await until(r.report, "the child reading all of it", 10_000);
    assert.deepEqual({ n: got.n, ok: got.ok }, { n: total, ok: true });
    await until(() => (done.length === 8 ? true : undefined), "every write done");
    assert.deepEqual(done, [0, 1, 2, 3, 4, 5, 6, 7], "done in order");
    assert.equal(r.pipe.queuedBytes, 0);
  });

  it("stops at a partial write (the pipe is full) instead of trying again at once into an EAGAIN", async () => {
    const r = reader(8 * 1024 * 1024, "wait");
    children.push(r.child);
    await r.ready;
    const writeSync = fs.writeSync;
    const calls: string[] = [];
    fs.writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
      try {
        const n = (writeSync as (...a: unknown[]) => number)(...args);
        calls.push(`wrote ${n}`);
        return n;
      } catch (err) {
        calls.push((err as NodeJS.ErrnoException).code ?? "error");
        throw err;
      }
    }) as typeof fs.writeSync;
    try {
      r.pipe.write(Buffer.alloc(8 * 1024 * 1024));
      assert.equal(calls.length, 1, `one write(2) for a buffer the pipe took part of: ${calls.join(", ")}`);
      assert.match(calls[0]!, /^wrote \d+$/);
      assert.ok(r.pipe.queuedBytes > 0 && r.pipe.queuedBytes < 8 * 1024 * 1024, "the kernel took part of it");
      // Pumped again while no one reads: one call, which finds it full or takes a little more.
      r.pipe.pump();
      assert.equal(calls.length, 2, calls.join(", "));
      assert.match(calls[1]!, /^(wrote \d+|EAGAIN)$/);
    } finally {
      fs.writeSync = writeSync;
    }
    r.child.send("read");
    const got = await until(r.report, "the child reading all of it", 10_000);
    assert.equal(got.n, 8 * 1024 * 1024);
    await until(() => (r.pipe.queuedBytes === 0 ? true : undefined), "all of it written");
  });

  it("moves on while the event loop is busy only when pumped (as a tick does between patches)", async () => {
    const total = 4 * 1024 * 1024;
    // Without pump(): the child has the bytes only after the busy stretch.
    const a = reader(total, "read");
    children.push(a.child);
    await a.ready;
    for (const b of pattern(total, total)) a.pipe.write(b);
    busy(400);
    assert.equal(a.done(), false, "without pump(), not all of it while the event loop is busy");
    const aGot = await until(a.report, "the child reading all of it", 10_000);
    assert.ok(aGot.ok);
    // With pump() every millisecond: during it (the loop stays busy until the child has it all).
    const b = reader(total, "read");
    children.push(b.child);
    await b.ready;
    for (const buf of pattern(total, total)) b.pipe.write(buf);
    busy(15_000, () => b.pipe.pump(), b.done);
    const bGot = await until(b.report, "the child reading all of it", 10_000);
    assert.ok(bGot.ok);
  });

  it("drops what is queued when the child is gone, and never writes to the closed descriptor (whose number may be another file's)", async () => {
    const r = reader(1, "wait");
    children.push(r.child);
    await r.ready;
    for (const b of pattern(4 * 1024 * 1024, 1024 * 1024)) r.pipe.write(b);
    assert.ok(r.pipe.queuedBytes > 0);
    r.child.kill("SIGKILL");
    // Dropped by a write failing (EPIPE), or once Node has closed the stream, whichever comes first.
    await until(() => (r.pipe.queuedBytes === 0 ? true : undefined), "the queue dropped", 5_000);
    r.pipe.write(Buffer.from("more"));
    assert.equal(r.pipe.queuedBytes, 0, "nothing queued after");
    assert.ok(r.errors.length >= 1, "told");
    for (const err of r.errors)
      assert.ok(/EPIPE|ECONNRESET/.test((err as NodeJS.ErrnoException).code ?? "") || err.message === "the data pipe was closed", String(err));

    // A child that took everything, then died: nothing failed, but Node has closed the stream.
    const q = reader(3, "read");
    children.push(q.child);
    await q.ready;
    q.pipe.write(Buffer.from([0, 1, 2]));
    await until(q.report, "the child reading it", 5_000);
    q.child.kill("SIGKILL");
    await until(() => ((q.child.stdio[4] as Writable).destroyed ? true : undefined), "Node closing the stream", 5_000);
    q.pipe.write(Buffer.from("after"));
    assert.deepEqual(
      q.errors.map((e) => e.message),
      ["the data pipe was closed"],
      "told, and no write to the closed descriptor (EBADF, or another file's)",
    );
    assert.equal(q.pipe.queuedBytes, 0);
  });
});
