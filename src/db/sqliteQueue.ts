/**
 * SQLite's one connection, handed to the queries waiting for it in turn.
 *
 * kysely serialises the queries on a dialect with one connection (SQLite) with a mutex that wakes
 * every waiter at each release, and all but one go back to waiting (`while (locked) await lock`):
 * with N queries queued, N² wake-ups. A login storm queues thousands (2,000 clients reconnecting
 * after a restart: ~4 reads each). 2,000 logins at once took 6.1–6.4 s of the main thread's CPU
 * against 1.8–2.3 s one after the other; in turns, 1.8–1.9 s (bench/README.md, "logins").
 *
 * {@link queuedConnection} wraps the dialect: its driver hands the connection to the oldest waiter
 * when the holder releases it, and its adapter tells kysely that the driver serialises itself (so
 * kysely's mutex is not made). What is serialised, and in which order, is the same: one query or
 * transaction at a time, first come first served.
 *
 * better-sqlite3 runs each query synchronously, so a queue of waiting queries drains in one run of
 * promise callbacks, and nothing else of the event loop (the tick's timer, the sockets) runs until
 * it is empty: 2,000 logins at once were a stall of ~2 s. A run of hand-overs lasting
 * {@link TURN_RUN_MS} hands the next one over from `setImmediate`, after the event loop's turn.
 */
import type { DatabaseConnection, Dialect, DialectAdapter, Driver } from "kysely";
import { DelegatingDriver, wrappedDialect } from "./wrappedDialect.ts";

/** A run of hand-overs without a turn of the event loop lasts about this long at most (ms). */
export const TURN_RUN_MS = 10;

/** A lock handed over in order: at most one holder, and the waiters queue. */
export class TurnLock {
  private held = false;
  private waiting: (() => void)[] = [];
  private head = 0;
  /** When the current run of hand-overs began (performance.now()); -1: the event loop has turned since. */
  private runStart = -1;
  private readonly endRun = (): void => {
    this.runStart = -1;
  };

  /** Resolves once the caller holds the lock (at once when it is free). */
  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the lock to the oldest waiter, or frees it. */
  release(): void {
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head]!;
      this.waiting[this.head++] = undefined as never;
      // The queue's front is dropped once it is half of it (O(1) per turn, amortised).
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting = this.waiting.slice(this.head);
        this.head = 0;
      }
      const now = performance.now();
      if (this.runStart < 0) {
        this.runStart = now;
        setImmediate(this.endRun);
      } else if (now - this.runStart >= TURN_RUN_MS) {
        // Held (not free) meanwhile: the next waiter still has the next turn.
        setImmediate(next);
        return;
      }
      next();
      return;
    }
    this.held = false;
  }

  /** Waiters not yet served. */
  get queued(): number {
    return this.waiting.length - this.head;
  }
}

/** The driver of a one-connection dialect, taking its connection in turns (see the file comment). */
class QueuedDriver extends DelegatingDriver {
  readonly lock = new TurnLock();
  constructor(inner: Driver) {
    super(inner, "queuedConnection");
  }
  override async acquireConnection(...args: Parameters<Driver["acquireConnection"]>): Promise<DatabaseConnection> {
    await this.lock.acquire();
    try {
      return await this.inner.acquireConnection(...args);
    } catch (err) {
      this.lock.release();
      throw err;
    }
  }
  override async releaseConnection(...args: Parameters<Driver["releaseConnection"]>): Promise<void> {
    try {
      await this.inner.releaseConnection(...args);
    } finally {
      this.lock.release();
    }
  }
}

/**
 * `dialect` (one connection: SQLite) with its connection handed out in turns; `onDriver` is given
 * the driver (tests read its lock).
 */
export function queuedConnection(dialect: Dialect, onDriver?: (driver: { readonly lock: TurnLock }) => void): Dialect {
  return wrappedDialect(
    dialect,
    (inner) => {
      const driver = new QueuedDriver(inner);
      onDriver?.(driver);
      return driver;
    },
    (adapter) => {
      if (adapter.supportsMultipleConnections !== false) throw new Error("queuedConnection: for a dialect of one connection");
      // The driver serialises its connection itself: kysely adds no mutex of its own.
      return Object.create(adapter, { supportsMultipleConnections: { value: true } }) as DialectAdapter;
    },
  );
}
