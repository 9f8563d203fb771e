/**
 * The worker thread of {@link WalCheckpointer}: its own connection to the SQLite file, and a
 * `PASSIVE` checkpoint every interval. It uses the better-sqlite3 that MikroORM's SQLite driver
 * loads (resolved from that package, not from this project's own dependencies).
 */
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

interface NativeSqlite {
  pragma(source: string): unknown;
  close(): void;
}

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const Database = createRequire(import.meta.resolve("@mikro-orm/sqlite"))("better-sqlite3") as new (
  file: string,
  options: { timeout: number; fileMustExist: boolean },
) => NativeSqlite;
const db = new Database(file, { timeout: 5_000, fileMustExist: true });

const timer = setInterval(() => db.pragma("wal_checkpoint(PASSIVE)"), intervalMs);

parentPort!.once("message", () => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
