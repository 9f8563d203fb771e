/**
 * SQLite's WAL checkpoints, in a worker thread. By default the connection that commits a
 * transaction checkpoints once the WAL passes 1,000 pages: it copies them into the database file
 * and fsyncs it, on its own thread, which held the event loop ~30 ms longer every few save chunks
 * on the benchmark machine (bench/README.md, `autosave`). With this worker the server's connection
 * checkpoints only past {@link WAL_AUTOCHECKPOINT_PAGES} pages, and the worker, on a connection of
 * its own, runs a `PASSIVE` checkpoint every {@link WAL_CHECKPOINT_INTERVAL_MS}: it never waits for
 * the writer nor blocks it, and the writer starts the WAL over once a checkpoint has caught up (a
 * pause in the writes). Under writes that never pause the WAL grows to the connection's threshold,
 * whose checkpoint then finds most pages copied already. If the worker fails, the connection goes
 * back to SQLite's default (`onFailure`).
 */
import { Worker } from "node:worker_threads";
import type { Logger } from "../logger.ts";

export const WAL_CHECKPOINT_INTERVAL_MS = 100;
/** The server's connection's own checkpoints with the worker running (40 MB of 4 KiB pages). */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;
/** SQLite's default, restored if the worker fails. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

export class WalCheckpointer {
  private readonly thread: Worker;
  private stopped = false;

  private constructor(thread: Worker) {
    this.thread = thread;
  }

  /** Starts checkpointing the database file (an existing one); `onFailure` runs once if the worker stops on its own. */
  static start(file: string, logger: Logger, onFailure: () => void, intervalMs = WAL_CHECKPOINT_INTERVAL_MS): WalCheckpointer {
    const thread = new Worker(new URL("./walCheckpointWorker.ts", import.meta.url), { workerData: { file, intervalMs }, name: "wal-checkpoint" });
    // It must not keep a process alive that is otherwise done (a tool, a test that forgot to close).
    thread.unref();
    const checkpointer = new WalCheckpointer(thread);
    let failed = false;
    const fail = (err: unknown) => {
      if (checkpointer.stopped || failed) return;
      failed = true;
      logger.error({ err }, "the WAL checkpoint worker failed; commits checkpoint by themselves from now on");
      onFailure();
    };
    thread.on("error", fail);
    thread.on("exit", (code) => fail(new Error(`the WAL checkpoint worker exited with code ${code}`)));
    return checkpointer;
  }

  /** Stops the worker (its connection closed). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const exited = new Promise<void>((resolve) => this.thread.once("exit", () => resolve()));
    // Until it has gone: an unreferenced worker would let the process end while this waits.
    this.thread.ref();
    this.thread.postMessage("stop");
    await exited;
  }
}
