/**
 * A fresh PostgreSQL database for one benchmark run, on the server of an admin connection URL
 * (`TEST_PG_URL`, default the local test server), and its removal afterwards.
 */
import { randomBytes } from "node:crypto";
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
