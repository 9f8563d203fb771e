/**
 * The server's database on a fresh SQLite file, for one suite: opened before its tests, closed and
 * removed after them (called inside a `describe`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";

export function sqliteSuiteDatabase(prefix: string): { readonly db: Database } {
  let dir: string | undefined;
  let db: Database | undefined;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    db = await openDatabase(
      loadConfig({ DATABASE_URL: `sqlite:${path.join(dir, "game.sqlite")}`, WORLD_DIR: dir, JWT_SECRET: "s".repeat(40) }, process.cwd()),
      pino({ level: "silent" }),
    );
  });
  after(async () => {
    await db?.close();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get db(): Database {
      if (db === undefined) throw new Error("sqliteSuiteDatabase: used before the suite's before hook");
      return db;
    },
  };
}
