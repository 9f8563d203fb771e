/**
 * Database setup: one code base, two dialects, chosen by URL.
 * - `DATABASE_URL` unset: embedded SQLite in `<WORLD>/local/game.sqlite`, WAL on, its checkpoints
 *   in a worker thread (walCheckpointer.ts).
 * - `sqlite:<path>`: SQLite at that path (`sqlite::memory:` for a throwaway database).
 * - `postgres://…` / `postgresql://…`: PostgreSQL.
 * - `USE_LOCAL_POSTGRES=true` (development): a PostgreSQL started here, data under the world dir.
 *
 * The committed migrations of the dialect (`src/db/migrations/<dialect>/`) run at startup; the
 * MikroORM CLI (`npm run migration:…`, configured by `mikro-orm.config.ts` from the same options)
 * lists, runs and rolls them back by hand.
 */
import fs from "node:fs";
import path from "node:path";
import { EntityCaseNamingStrategy, MikroORM, type LoggerOptions } from "@mikro-orm/core";
import { Migrator } from "@mikro-orm/migrations";
import type { AbstractSqlDriver, SqlEntityManager } from "@mikro-orm/sqlite";
import { ENTITIES } from "../../entities/index.ts";
import { DEFAULT_PG_CONNECT_TIMEOUT_MS, type Config } from "../config/env.ts";
import type { Logger } from "../logger.ts";
import { localPostgresUrl, startLocalPostgres, type LocalPostgres } from "./localPostgres.ts";
import { DatabaseProbe } from "./probe.ts";
import { explainDatabaseFailure } from "./openFailure.ts";
import { SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES, WAL_AUTOCHECKPOINT_PAGES, WalCheckpointer } from "./walCheckpointer.ts";
import { QueryTimingLogger, type QueryObserver } from "./queryTiming.ts";
import type { Statements } from "./rawSql.ts";

export type Dialect = "sqlite" | "postgresql";
export type Orm = MikroORM<AbstractSqlDriver, SqlEntityManager>;

export const MIGRATIONS_DIR = path.join(import.meta.dirname, "migrations");
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;
export const PG_POOL_MAX = 10;

export interface Database {
  readonly orm: Orm;
  readonly dialect: Dialect;
  readonly probe: DatabaseProbe;
  /** A fresh EntityManager for one unit of work. */
  em(): SqlEntityManager;
  /**
   * One EntityManager for raw statements outside a transaction (src/db/rawSql.ts), shared: a fork
   * costs ~40 µs, a join's statements forked 17 of them. Never for entities (its identity map would
   * be everyone's); a transaction's statements take `em()`'s.
   */
  readonly statements: Statements;
  /** Receives every executed query's kind and time (the server's Prometheus histogram). */
  onQuery: QueryObserver | undefined;
  close(): Promise<void>;
}

export function dialectOf(url: string): Dialect {
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgresql";
  if (/^sqlite:/i.test(url)) return "sqlite";
  throw new Error(`DATABASE_URL: unsupported database URL "${url.replace(/\/\/[^@]*@/, "//***@")}" (expected postgres://… or sqlite:<path>)`);
}

/** Options shared by both dialects (kept un-annotated: see MikroORM's `Options` variance). */
function baseOptions(dialect: Dialect, logger: Logger, onQuery: () => QueryObserver | undefined) {
  return {
    entities: ENTITIES,
    extensions: [Migrator],
    // Column names are the entities' property names (the spec's record fields: `accountId`, …).
    namingStrategy: EntityCaseNamingStrategy,
    migrations: {
      path: path.join(MIGRATIONS_DIR, dialect),
      glob: "!(*.d).ts",
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      emit: "ts" as const,
      silent: true,
    },
    // The triggers that keep the hiscores' bucket counts are written per dialect in the migrations
    // (`…_hiscore_counts`), not declared on the entities: the schema diff leaves triggers alone.
    schemaGenerator: { ignoreTriggers: true },
    logger: (message: string) => logger.debug({ component: "orm" }, message),
    loggerFactory: (options: LoggerOptions) => new QueryTimingLogger(options, onQuery),
  };
}

/**
 * The ORM's options for a URL: what {@link createOrm} opens, and what the MikroORM CLI's
 * configuration (`mikro-orm.config.ts`) hands the CLI, so both open a database the same way.
 */
export async function ormOptions(
  url: string,
  logger: Logger,
  onQuery: () => QueryObserver | undefined = () => undefined,
  pgConnectTimeoutMs = DEFAULT_PG_CONNECT_TIMEOUT_MS,
) {
  const dialect = dialectOf(url);
  if (dialect === "postgresql") {
    // MikroORM's driver, its connections given back when a transaction cannot begin or roll back.
    const { ReleasingPostgreSqlDriver } = await import("./postgresDriver.ts");
    return {
      ...baseOptions(dialect, logger, onQuery),
      driver: ReleasingPostgreSqlDriver,
      clientUrl: url,
      pool: { min: 0, max: PG_POOL_MAX },
      // node-postgres waits for an answer forever by default: a host that accepts and never answers
      // (a firewall, a stuck server) hung the start in silence. Past this, `no answer` (openFailure.ts).
      driverOptions: { connectionTimeoutMillis: pgConnectTimeoutMs },
    };
  }
  // MikroORM's SQLite driver, with string parameters bound and statements reused (see the file).
  const { ReusingSqliteDriver } = await import("./sqliteStatements.ts");
  const file = url.slice("sqlite:".length);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return {
    ...baseOptions(dialect, logger, onQuery),
    driver: ReusingSqliteDriver,
    dbName: file,
    driverOptions: { timeout: SQLITE_BUSY_TIMEOUT_MS },
  };
}

/** Opens an ORM for a URL without running migrations (tools and tests use this). */
export async function createOrm(
  url: string,
  logger: Logger,
  onQuery: () => QueryObserver | undefined = () => undefined,
  pgConnectTimeoutMs?: number,
): Promise<Orm> {
  const options: Parameters<typeof MikroORM.init>[0] = await ormOptions(url, logger, onQuery, pgConnectTimeoutMs);
  return (await MikroORM.init(options)) as unknown as Orm;
}

/**
 * The database the server opens for a configuration: `DATABASE_URL`; else, with
 * `USE_LOCAL_POSTGRES`, the local PostgreSQL (`local`: {@link openDatabase} starts it first);
 * else SQLite at `<WORLD>/local/game.sqlite`.
 */
export function databaseLocation(config: Pick<Config, "databaseUrl" | "useLocalPostgres" | "localPostgresPort" | "worldDir">): { url: string; local: boolean } {
  if (config.databaseUrl !== undefined) return { url: config.databaseUrl, local: false };
  if (config.useLocalPostgres) return { url: localPostgresUrl(config.localPostgresPort), local: true };
  return { url: `sqlite:${path.join(config.worldDir, "local", "game.sqlite")}`, local: false };
}

/**
 * Opens the configured database and brings it up to date. A database that cannot be reached or
 * opened ends the start with one line saying where and what to do (./openFailure.ts).
 */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  const { url, local } = databaseLocation(config);
  try {
    return await openAt(url, local, config, logger);
  } catch (err) {
    // The local PostgreSQL says its own problems (localPostgres.ts).
    const explained = local ? undefined : explainDatabaseFailure(err, { url, variable: config.databaseUrl !== undefined ? "DATABASE_URL" : "WORLD" });
    throw explained ?? err;
  }
}

async function openAt(url: string, local: boolean, config: Config, logger: Logger): Promise<Database> {
  const dialect = dialectOf(url);
  let localPg: LocalPostgres | undefined;
  if (local) localPg = await startLocalPostgres(path.join(config.worldDir, "local", "postgres"), config.localPostgresPort, logger);

  let orm: Orm;
  let onQuery: QueryObserver | undefined;
  try {
    orm = await createOrm(url, logger, () => onQuery, config.pgConnectTimeoutMs);
  } catch (err) {
    await localPg?.stop();
    throw err;
  }
  try {
    await orm.connect();
    if (dialect === "sqlite") {
      // WAL: readers never block the writer; `normal` sync is durable at checkpoints and safe
      // against corruption (a power cut can lose the last transactions, not the file).
      await orm.em.getConnection().execute("pragma journal_mode = wal");
      await orm.em.getConnection().execute("pragma synchronous = normal");
    }
    const applied = await orm.migrator.up();
    if (applied.length > 0) logger.info({ dialect, migrations: applied.map((m) => m.name) }, "database migrated");
  } catch (err) {
    await orm.close(true);
    await localPg?.stop();
    throw err;
  }
  let checkpointer: WalCheckpointer | undefined;
  const file = url.slice("sqlite:".length);
  if (dialect === "sqlite" && file !== ":memory:") {
    // Checkpoints in a worker thread, off the event loop's (walCheckpointer.ts).
    const autocheckpoint = (pages: number) => orm.em.getConnection().execute(`pragma wal_autocheckpoint = ${pages}`);
    await autocheckpoint(WAL_AUTOCHECKPOINT_PAGES);
    checkpointer = WalCheckpointer.start(path.resolve(file), logger, () => {
      autocheckpoint(SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES).catch((err: unknown) => logger.error({ err }, "could not restore SQLite's own WAL checkpoints"));
    });
  }

  const probe = new DatabaseProbe(dialect, () => orm.em.getConnection().execute("select 1 as ok"));
  let closed = false;
  return {
    orm,
    dialect,
    probe,
    em: () => orm.em.fork(),
    statements: orm.em.fork(),
    get onQuery() {
      return onQuery;
    },
    set onQuery(observer) {
      onQuery = observer;
    },
    async close() {
      if (closed) return;
      closed = true;
      await checkpointer?.stop();
      await orm.close(true);
      await localPg?.stop();
    },
  };
}
