/**
 * A fresh PostgreSQL database for one benchmark run, on the server of an admin connection URL
 * (`TEST_PG_URL`, default the local test server), and its removal afterwards.
 */
import fs from "node:fs";
import { createTestDatabase, DEFAULT_TEST_PG_URL, type TestDatabase } from "../test/support/postgres.ts";

/** Creates `<prefix>_<pid>_<random>` (the tests' createTestDatabase); `drop` removes it (connections and all). */
export function freshPostgres(prefix: string, adminUrl = process.env.TEST_PG_URL || DEFAULT_TEST_PG_URL): Promise<TestDatabase> {
  return createTestDatabase({ prefix, adminUrl });
}

/**
 * A run's scratch storage at its end: its directory and its database (if any) kept with `keep`
 * (the log says where), else removed; a database that cannot be dropped is logged, not thrown.
 */
export async function releaseScratch(opts: {
  dir: string;
  db: { url: string; drop(): Promise<void> } | undefined;
  keep: boolean;
  tag: string;
  log(message: string): void;
}): Promise<void> {
  const { dir, db, keep, tag, log } = opts;
  if (db !== undefined) {
    if (keep) log(`${tag}: kept database ${db.url}`);
    else await db.drop().catch((err: unknown) => log(`${tag}: could not drop ${db.url}: ${(err as Error).message}`));
  }
  if (keep) log(`${tag}: kept ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}
