/**
 * A transaction that cannot begin or roll back gives its connection back (src/db/transactionRelease.ts).
 * Without it, kysely kept the connection: on SQLite every later query of the server waited for
 * ever, on PostgreSQL the pool lost a connection for good at each such failure.
 *
 * The failures are real ones: on SQLite, a transaction ended under MikroORM's feet (as SQLite does
 * itself on a full disk), so that its COMMIT or ROLLBACK fails, and a BEGIN on a connection already
 * in a transaction; on PostgreSQL, the transaction's connection terminated by the server.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { pino } from "pino";
import type { DatabaseConnection, Dialect, Driver } from "kysely";
import { CompiledQuery, Kysely, SqliteDialect } from "kysely";
import { openDatabase, PG_POOL_MAX, type Database } from "../../src/db/orm.ts";
import { loadConfig } from "../../src/config/env.ts";
import { releasingOnFailure } from "../../src/db/transactionRelease.ts";
import { forEachDialect } from "../support/dialects.ts";
import { eventually } from "../support/until.ts";

/** `promise`, or a failure naming `what` if it has not settled within `ms`. */
async function within<T>(promise: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms (the connection was never given back)`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function selectOne(db: Database, what: string): Promise<void> {
  const rows = await within(db.em().execute<{ one: number }[]>("select 1 as one"), what);
  assert.equal(Number(rows[0]!.one), 1);
}

describe("Transactions that cannot begin or roll back: the driver", () => {
  const rollbacks = { n: 0 };
  const queries = { n: 0 };
  beforeEach(() => {
    rollbacks.n = 0;
    queries.n = 0;
  });
  /** A SQLite dialect (in memory) whose BEGIN or ROLLBACK fails when told to, counting the releases, ROLLBACKs and queries. */
  function countingDialect(fail: { begin: boolean; rollback: boolean }, releases: { n: number }): Dialect {
    const base = new SqliteDialect({ database: {} as never });
    const conn = {
      executeQuery: async () => {
        queries.n++;
        return { rows: [] };
      },
      streamQuery: async function* () {},
    } as unknown as DatabaseConnection;
    const driver: Driver = {
      init: async () => {},
      acquireConnection: async () => conn,
      releaseConnection: async (c) => {
        assert.equal(c, conn, "the inner driver gets its own connection back, not the lease");
        releases.n++;
      },
      beginTransaction: async (c) => {
        assert.equal(c, conn);
        if (fail.begin) throw new Error("begin failed");
      },
      commitTransaction: async () => {
        throw new Error("commit failed");
      },
      rollbackTransaction: async () => {
        rollbacks.n++;
        if (fail.rollback) throw new Error("rollback failed");
      },
      savepoint: async () => {},
      rollbackToSavepoint: async () => {},
      releaseSavepoint: async () => {},
      destroy: async () => {},
    };
    // As queuedConnection's: the driver serialises itself, kysely adds no mutex.
    const adapter = () => Object.create(base.createAdapter(), { supportsMultipleConnections: { value: true } });
    return {
      createDriver: () => driver,
      createAdapter: adapter,
      createQueryCompiler: () => base.createQueryCompiler(),
      createIntrospector: (db) => base.createIntrospector(db),
    };
  }

  it("gives a connection back once when BEGIN fails, whether kysely releases it too (transaction().execute) or never (startTransaction)", async () => {
    const releases = { n: 0 };
    const fail = { begin: true, rollback: false };
    const db = new Kysely<Record<string, never>>({ dialect: releasingOnFailure(countingDialect(fail, releases)) });
    await assert.rejects(
      db.transaction().execute(async () => {}),
      /begin failed/,
    );
    assert.equal(releases.n, 1, "kysely's own release after the failed BEGIN is not a second one");
    await assert.rejects(db.startTransaction().execute(), /begin failed/);
    assert.equal(releases.n, 2, "given back although kysely never releases it");
    await db.destroy();
  });

  it("gives a connection back once when ROLLBACK fails, and not when COMMIT fails (its caller rolls back)", async () => {
    const releases = { n: 0 };
    const fail = { begin: false, rollback: true };
    const db = new Kysely<Record<string, never>>({ dialect: releasingOnFailure(countingDialect(fail, releases)) });
    const trx = await db.startTransaction().execute();
    await assert.rejects(trx.commit().execute(), /commit failed/);
    assert.equal(releases.n, 0, "still held after a failed COMMIT");
    await assert.rejects(trx.rollback().execute(), /rollback failed/);
    assert.equal(releases.n, 1, "given back after the failed ROLLBACK");
    assert.equal(rollbacks.n, 2, "tried once more before it was given back");
    // kysely does not mark it rolled back, but its connection is no longer its own.
    await assert.rejects(trx.executeQuery(CompiledQuery.raw("select 1")), /given back/);
    assert.equal(queries.n, 0, "the query did not reach the connection");
    await assert.rejects(
      db.transaction().execute(async () => {
        throw new Error("the work failed");
      }),
      /rollback failed/,
    );
    assert.equal(releases.n, 2, "once, with kysely's own release after it");
    // A successful ROLLBACK: kysely's release is the one.
    fail.rollback = false;
    const ok = await db.startTransaction().execute();
    await ok.rollback().execute();
    assert.equal(releases.n, 3);
    await db.destroy();
  });

  it("refuses a dialect of one connection not queued first (kysely's own mutex would stay locked)", () => {
    assert.throws(() => releasingOnFailure(new SqliteDialect({ database: {} as never })).createAdapter(), /queued first/);
  });
});

forEachDialect("Transactions that cannot begin or roll back", (ctx) => {
  let db: Database;
  before(async () => {
    db = await openDatabase(loadConfig({ DATABASE_URL: ctx.url, JWT_SECRET: "s".repeat(40) }, process.cwd()), pino({ level: "silent" }));
  });
  after(async () => {
    await db?.close();
  });

  if (ctx.dialect === "sqlite") {
    it("a ROLLBACK that fails (the transaction already ended) gives SQLite's connection back", async () => {
      await assert.rejects(
        within(
          db.em().transactional(async (em) => {
            await em.execute("rollback");
            throw new Error("the work failed");
          }),
          "the transaction",
        ),
        /the work failed/,
        "the caller sees why the transaction failed",
      );
      await selectOne(db, "a query after it");
    });

    it("a COMMIT that fails (the transaction already ended), then its ROLLBACK, gives SQLite's connection back", async () => {
      await assert.rejects(
        within(
          db.em().transactional(async (em) => {
            await em.execute("rollback");
          }),
          "the transaction",
        ),
        /no transaction is active/,
      );
      await selectOne(db, "a query after it");
    });

    it("a BEGIN that fails (a transaction already open on the connection) gives SQLite's connection back", async () => {
      await db.em().execute("begin");
      await assert.rejects(
        within(
          db.em().transactional(async () => {}),
          "the transaction",
        ),
        /within a transaction/,
      );
      await within(db.em().execute("rollback"), "the ROLLBACK of the transaction left open");
      // And transactions work again.
      await within(
        db.em().transactional(async (em) => em.execute("select 1")),
        "a transaction after it",
      );
    });
  } else {
    it(`${PG_POOL_MAX + 2} transactions whose connection the server cut each give their pool connection back`, async function () {
      this.timeout(60_000);
      const admin = new pg.Client({ connectionString: ctx.url });
      await admin.connect();
      try {
        for (let i = 0; i < PG_POOL_MAX + 2; i++) {
          await assert.rejects(
            within(
              db.em().transactional(async (em) => {
                const pid = (await em.execute<{ pid: number }[]>("select pg_backend_pid() as pid"))[0]!.pid;
                // Cut while a query runs (a cut between queries is an error on an idle client).
                const sleeping = em.execute("select pg_sleep(30)").then(
                  () => undefined,
                  (err: unknown) => err,
                );
                await eventually(
                  async () =>
                    (await admin.query("select 1 from pg_stat_activity where pid = $1 and state = 'active'", [pid])).rowCount === 1 ? true : undefined,
                  "the sleep to run",
                );
                await admin.query("select pg_terminate_backend($1)", [pid]);
                assert.ok((await sleeping) instanceof Error, "the sleeping query fails with its connection");
                throw new Error("the connection was cut");
              }),
              `cut transaction ${i + 1}`,
              20_000,
            ),
            /the connection was cut/,
          );
        }
        await selectOne(db, `a query after ${PG_POOL_MAX + 2} cut transactions (a pool of ${PG_POOL_MAX})`);
      } finally {
        await admin.end();
      }
    });
  }
});
