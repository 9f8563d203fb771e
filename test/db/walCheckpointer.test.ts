import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { WAL_AUTOCHECKPOINT_PAGES } from "../../src/db/walCheckpointer.ts";
import { until } from "../support/until.ts";

describe("SQLite WAL checkpoints", () => {
  it("are run by a worker thread, not by the commits of the event loop's connection, and stop with the database", async function () {
    this.timeout(20_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-wal-"));
    const file = path.join(dir, "game.sqlite");
    const db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: `sqlite:${file}` }), pino({ level: "silent" }));
    try {
      const [setting] = await db.em().execute<{ wal_autocheckpoint: number }[]>("pragma wal_autocheckpoint");
      assert.equal(setting!.wal_autocheckpoint, WAL_AUTOCHECKPOINT_PAGES, "the connection's own checkpoints only far past SQLite's default");
      const before = fs.statSync(file).size;
      // About 2 MB in the WAL: fewer pages than SQLite's default threshold (1,000), so no commit
      // here checkpoints, with or without the worker.
      const blob = JSON.stringify({ data: "x".repeat(20_000) });
      for (let i = 0; i < 100; i++) await db.em().execute(`insert into "worldChunks" ("chunkX", "chunkZ", "data") values (?, ?, ?)`, [i, 0, blob]);
      // The pages reach the database file all the same: the worker copied them.
      await until(() => (fs.statSync(file).size > before + 1_500_000 ? true : undefined), "the WAL's pages in the database file", 10_000);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
