/**
 * The World's process's end of the data pipe (see protocol.ts DATA_FD), written with `write(2)`
 * directly instead of through Node's stream.
 *
 * Why: a stream writes what the kernel takes at once (a few hundred KB on this socket pair) and
 * the rest only when the event loop polls again, which it does not while a tick runs. A tick's
 * `/ws` frames (~1.7 MB at 2,000 clients) are flushed before the Colyseus patches are encoded, and
 * measured in the child they took 17–45 ms to arrive: until the tick's end. Here the tick calls
 * {@link DataPipe.pump} between patches (WorldRoom), which writes what the kernel takes then and
 * never waits; outside a tick what is left is pumped every millisecond.
 *
 * Where the pipe's descriptor cannot be had (not a Unix pipe), writes go through the stream.
 */
import fs from "node:fs";
import type { Writable } from "node:stream";

/** Outside a tick, what the kernel did not take is tried again this often (ms). */
const RETRY_MS = 1;

interface Queued {
  buf: Buffer;
  done: (() => void) | undefined;
}

export class DataPipe {
  private readonly stream: Writable;
  private readonly fd: number | undefined;
  private readonly queue: Queued[] = [];
  /** Bytes of the queue's first buffer already written. */
  private offset = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly onError: (err: Error) => void;

  /**
   * `onError`: the pipe can take nothing more: a write failed other than by a full pipe (EPIPE:
   * the child is gone), or Node has closed the stream. What is queued is dropped, and so is every
   * later write; its owner restarts the child (SocketProcess).
   */
  constructor(stream: Writable, onError: (err: Error) => void = () => {}) {
    this.stream = stream;
    this.onError = onError;
    const fd = (stream as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
    this.fd = typeof fd === "number" && fd >= 0 ? fd : undefined;
    // A dead child's pipe fails the stream's writes too (EPIPE); the child's exit is handled by its owner.
    stream.on("error", () => {});
  }

  /** Whether writes bypass the stream (the descriptor could be had). */
  get direct(): boolean {
    return this.fd !== undefined;
  }

  /** Bytes queued that the kernel has not taken yet. */
  get queuedBytes(): number {
    let n = 0;
    for (const q of this.queue) n += q.buf.length;
    return n - this.offset;
  }

  /** Writes `buf` after everything before it; `done` once the kernel has taken all of it (not if the pipe fails). */
  write(buf: Buffer, done?: () => void): void {
    if (this.closed) return;
    if (this.fd === undefined) {
      this.stream.write(buf, done === undefined ? undefined : () => done());
      return;
    }
    this.queue.push({ buf, done });
    this.pump();
  }

  /** Writes what the kernel takes now, without waiting. What it does not take is tried again in {@link RETRY_MS}. */
  pump(): void {
    const fd = this.fd;
    if (fd === undefined || this.closed) return;
    // Once Node has closed the stream (the child exited), its descriptor is closed, and its number
    // may already be another file's: never written again.
    if (this.stream.destroyed) {
      this.close();
      this.onError(new Error("the data pipe was closed"));
      return;
    }
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      let n: number;
      try {
        n = fs.writeSync(fd, head.buf, this.offset, head.buf.length - this.offset);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "EAGAIN") break;
        this.close();
        this.onError(err as Error);
        return;
      }
      this.offset += n;
      // A partial write: the pipe is full. Trying again now would only fail with EAGAIN (a thrown
      // error built each time: ~1.4 ms a tick at 2,000 clients, pumped every 32 patches).
      if (this.offset < head.buf.length) break;
      this.queue.shift();
      this.offset = 0;
      head.done?.();
    }
    if (this.queue.length > 0 && this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, RETRY_MS);
      // Pending writes alone do not keep the process up (its child does, while it lives).
      this.timer.unref();
    }
  }

  /** Drops what is queued and writes nothing more (its child is gone). */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.offset = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
