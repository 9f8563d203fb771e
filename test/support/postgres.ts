/**
 * PostgreSQL for the tests: a server found at TEST_PG_URL or 127.0.0.1:5432 (database `test`),
 * or, failing that, an embedded one started in a temporary directory (unless
 * TEST_PG_EMBEDDED=false). Each suite gets a fresh
 * database of its own and drops it afterwards.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadEmbeddedPostgres } from "../../src/db/localPostgres.ts";

export const DEFAULT_TEST_PG_URL = "postgresql://postgres@127.0.0.1:5432/test";

export interface PgServer {
  adminUrl: string;
  kind: "existing" | "embedded";
  stop(): Promise<void>;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export async function providePostgres(): Promise<PgServer | undefined> {
  const url = process.env.TEST_PG_URL || DEFAULT_TEST_PG_URL;
  if (await canConnect(url)) return { adminUrl: url, kind: "existing", stop: async () => {} };
  if (process.env.TEST_PG_EMBEDDED === "false") return undefined;

  // Run from a copy when the postgres user cannot reach node_modules (a project under /root, as root).
  let embedded;
  try {
    embedded = await loadEmbeddedPostgres();
  } catch (err) {
    process.stderr.write(`tests: could not load the embedded PostgreSQL: ${(err as Error).message}\n`);
    return undefined;
  }
  const { EmbeddedPostgres, cleanup } = embedded;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-test-pg-"));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, "data"),
    port,
    user: "postgres",
    password: "postgres",
    persistent: false,
    createPostgresUser: os.userInfo().uid === 0,
    onLog: () => {},
    onError: () => {},
  });
  try {
    if (os.userInfo().uid === 0) fs.chmodSync(dir, 0o777);
    await server.initialise();
    await server.start();
    await server.createDatabase("test");
  } catch (err) {
    process.stderr.write(`tests: could not start an embedded PostgreSQL: ${(err as Error).message}\n`);
    await server.stop().catch(() => {});
    cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return {
    adminUrl: `postgresql://postgres:postgres@127.0.0.1:${port}/test`,
    kind: "embedded",
    stop: async () => {
      await server.stop();
      cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty PostgreSQL database for one suite (`<prefix>_<pid>_<random>`), on the server of
 * `adminUrl` (the suite's TEST_PG_URL unless given; the benchmarks pass their own).
 */
export async function createTestDatabase(opts: { prefix?: string; adminUrl?: string | undefined } = {}): Promise<TestDatabase> {
  const adminUrl = opts.adminUrl ?? process.env.TEST_PG_URL;
  if (!adminUrl) throw new Error("TEST_PG_URL is not set: run the suite with `npm test`");
  const name = `${opts.prefix ?? "t"}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
