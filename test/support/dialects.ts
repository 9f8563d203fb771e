/**
 * Runs a database suite twice: on SQLite and on PostgreSQL. The PostgreSQL run gets a fresh
 * database per suite. Without a PostgreSQL server (outside CI only; `test/run.ts` fails CI
 * first) the PostgreSQL run is reported as skipped, never silently passed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Dialect } from "../../src/db/orm.ts";
import { createTestDatabase, type TestDatabase } from "./postgres.ts";

export interface DialectContext {
  readonly dialect: Dialect;
  /** A database URL for this suite (SQLite file in a temp dir, or a fresh PostgreSQL database). */
  readonly url: string;
  /** A second, independent database URL (e.g. for restart tests that need a clean slate). */
  newUrl(): Promise<string>;
}

export function forEachDialect(title: string, body: (ctx: DialectContext) => void): void {
  for (const dialect of ["sqlite", "postgresql"] as const) {
    describe(`${title} [${dialect}]`, function () {
      const cleanups: (() => Promise<void>)[] = [];
      let current = "";
      const newUrl = async (): Promise<string> => {
        if (dialect === "sqlite") {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-sqlite-"));
          cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
          return `sqlite:${path.join(dir, "test.sqlite")}`;
        }
        const db: TestDatabase = await createTestDatabase();
        cleanups.push(() => db.drop());
        return db.url;
      };
      const ctx: DialectContext = {
        dialect,
        get url() {
          return current;
        },
        newUrl,
      };
      before(async function () {
        if (dialect === "postgresql" && !process.env.TEST_PG_URL) this.skip();
        current = await newUrl();
      });
      body(ctx);
      // Registered after the body's own hooks, so it runs after them: a suite's server is closed
      // (its last save written) before its database is dropped under it.
      after(async () => {
        for (const c of cleanups.reverse()) await c();
      });
    });
  }
}
