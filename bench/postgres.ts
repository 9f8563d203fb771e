/**
 * A fresh PostgreSQL database for one benchmark run, on the server of an admin connection URL
 * (`TEST_PG_URL`, default the local test server), and its removal afterwards.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";

export const DEFAULT_PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test";

/** Creates `<prefix>_<pid>_<random>`; `drop` removes it (connections and all). */
export async function freshPostgres(prefix: string, adminUrl = process.env.TEST_PG_URL || DEFAULT_PG_ADMIN_URL): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}

/**
 * A run's scratch storage at its end: its directory and its database (if any) kept with `keep`
 * (the log says where), else removed; a database that cannot be dropped is logged, not thrown.
 */
export async function releaseScratch(opts: { dir: string; db: { url: string; drop(): Promise<void> } | undefined; keep: boolean; tag: string; log(message: string): void }): Promise<void> {
  const { dir, db, keep, tag, log } = opts;
  if (db !== undefined) {
    if (keep) log(`${tag}: kept database ${db.url}`);
    else await db.drop().catch((err: unknown) => log(`${tag}: could not drop ${db.url}: ${(err as Error).message}`));
  }
  if (keep) log(`${tag}: kept ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}
