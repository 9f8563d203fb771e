/**
 * SQLite's one connection taken in turns (src/db/sqliteQueue.ts): the lock hands it to the oldest
 * waiter, a failing driver does not keep it, and through the server's database many queries and
 * transactions at once still run one at a time, in the order they came, each transaction whole.
 */
import assert from "node:assert/strict";
import type { DatabaseConnection, Dialect, Driver } from "kysely";
import { SqliteDialect } from "kysely";
import { Character } from "../../entities/index.ts";
import { queuedConnection, TURN_RUN_MS, TurnLock } from "../../src/db/sqliteQueue.ts";
import { ReusingSqliteConnection } from "../../src/db/sqliteStatements.ts";
import { loadOrCreatePlayer } from "../../src/persistence/players.ts";
import { bundledContent } from "../support/content.ts";
import { sqliteSuiteDatabase } from "../support/sqlite.ts";

describe("SQLite connection in turns: the lock", () => {
  it("hands the lock to the waiters in the order they came, and frees it when none waits", async () => {
    const lock = new TurnLock();
    const got: number[] = [];
    await lock.acquire();
    // More waiters than the queue keeps before it drops its served front (1,024).
    const n = 3_000;
    const waiters = Array.from({ length: n }, (_, i) =>
      lock.acquire().then(() => {
        got.push(i);
        // Each holds it over a turn of the event loop, as a query does.
        setImmediate(() => lock.release());
      }),
    );
    assert.equal(lock.queued, n);
    lock.release();
    await Promise.all(waiters);
    assert.deepEqual(
      got,
      Array.from({ length: n }, (_, i) => i),
    );
    assert.equal(lock.queued, 0);
    // Free again once the last holder released it: taken at once.
    await new Promise((r) => setImmediate(r));
    let taken = false;
    void lock.acquire().then(() => (taken = true));
    await Promise.resolve();
    assert.ok(taken);
  });

  it(`lets the event loop turn once a run of hand-overs has lasted ${TURN_RUN_MS} ms (a storm of synchronous queries would stall it)`, async () => {
    const lock = new TurnLock();
    await lock.acquire();
    const n = 2_000;
    let served = 0;
    const order: number[] = [];
    const waiters = Array.from({ length: n }, (_, i) =>
      lock.acquire().then(() => {
        order.push(i);
        served++;
        // A synchronous query of ~0.05 ms, then the connection goes back at once.
        const until = performance.now() + 0.05;
        while (performance.now() < until);
        lock.release();
      }),
    );
    let servedWhenTimerRan = -1;
    setTimeout(() => (servedWhenTimerRan = served), 0);
    // Long enough for the timer to be due.
    const due = performance.now() + 2;
    while (performance.now() < due);
    lock.release();
    await Promise.all(waiters);
    assert.ok(servedWhenTimerRan > 0 && servedWhenTimerRan < n, `the timer ran amid the run of ${n} turns (after ${servedWhenTimerRan})`);
    assert.deepEqual(
      order,
      Array.from({ length: n }, (_, i) => i),
      "in order still",
    );
  });

  /** A driver whose acquire or release fails when told to. */
  function failingDialect(fail: { acquire: boolean; release: boolean }): Dialect {
    const base = new SqliteDialect({ database: {} as never });
    const conn = {} as DatabaseConnection;
    const driver: Driver = {
      init: async () => {},
      acquireConnection: async () => {
        if (fail.acquire) throw new Error("acquire failed");
        return conn;
      },
      releaseConnection: async () => {
        if (fail.release) throw new Error("release failed");
      },
      beginTransaction: async () => {},
      commitTransaction: async () => {},
      rollbackTransaction: async () => {},
      savepoint: async () => {},
      rollbackToSavepoint: async () => {},
      releaseSavepoint: async () => {},
      destroy: async () => {},
    };
    return {
      createDriver: () => driver,
      createAdapter: () => base.createAdapter(),
      createQueryCompiler: () => base.createQueryCompiler(),
      createIntrospector: (db) => base.createIntrospector(db),
    };
  }

  it("lets the next query have the connection when taking or giving it back fails", async () => {
    const fail = { acquire: true, release: false };
    let lock: TurnLock | undefined;
    const dialect = queuedConnection(failingDialect(fail), (d) => (lock = d.lock));
    const driver = dialect.createDriver();
    await assert.rejects(driver.acquireConnection(), /acquire failed/);
    assert.equal(lock!.queued, 0);
    fail.acquire = false;
    fail.release = true;
    const conn = await driver.acquireConnection();
    const next = driver.acquireConnection();
    assert.equal(lock!.queued, 1, "the next one waits while the connection is held");
    await assert.rejects(driver.releaseConnection(conn), /release failed/);
    assert.equal(await next, conn, "and has it once the release failed");
  });

  it("tells kysely the driver serialises its one connection itself (kysely adds no mutex), and refuses a dialect of many", () => {
    const sqlite = new SqliteDialect({ database: {} as never });
    assert.equal(sqlite.createAdapter().supportsMultipleConnections, false);
    const adapter = queuedConnection(sqlite).createAdapter();
    assert.equal(adapter.supportsMultipleConnections, true);
    assert.equal(adapter.supportsReturning, sqlite.createAdapter().supportsReturning, "the rest of the adapter is SQLite's");
    const many = { ...sqlite, createAdapter: () => Object.create(sqlite.createAdapter(), { supportsMultipleConnections: { value: true } }) } as Dialect;
    assert.throws(() => queuedConnection(many).createAdapter(), /one connection/);
  });
});

describe("SQLite connection in turns: through the server's database", () => {
  const sqlite = sqliteSuiteDatabase("sqlite-queue-");

  it("runs a storm of logins at once, each whole, with a transaction's queries kept together", async () => {
    const connection = sqlite.db.em().getConnection() as unknown as ReusingSqliteConnection;
    assert.ok(connection instanceof ReusingSqliteConnection);
    const content = await bundledContent();
    const n = 300;
    for (let i = 0; i < n; i++) await loadOrCreatePlayer(sqlite.db, content, { accountId: `queue-${i}`, name: `Queue${i}` });

    // A transaction that holds the connection across an await: the logins queue behind it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const transaction = sqlite.db.em().transactional(async (em) => {
      await em.nativeUpdate(Character, { name: "Queue0" }, { coins: 1 });
      await held;
      await em.nativeUpdate(Character, { name: "Queue0" }, { coins: 2 });
    });
    await new Promise((r) => setTimeout(r, 20));
    const logins = Array.from({ length: n }, (_, i) => loadOrCreatePlayer(sqlite.db, content, { accountId: `queue-${i}` }));
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(connection.lock!.queued >= n, `the logins wait for the transaction (${connection.lock!.queued} queued)`);
    release();
    await transaction;
    const loaded = await Promise.all(logins);
    assert.deepEqual(
      loaded.map((p) => p.name),
      Array.from({ length: n }, (_, i) => `Queue${i}`),
    );
    assert.equal(connection.lock!.queued, 0);
    assert.equal((await sqlite.db.em().findOneOrFail(Character, { name: "Queue0" })).coins, 2, "the transaction's both writes, none lost");
  });

  it("hands the connection on after a query that fails, and after a transaction that throws", async () => {
    const connection = sqlite.db.em().getConnection() as unknown as ReusingSqliteConnection;
    const queries = [
      sqlite.db.em().getConnection().execute("select * from no_such_table"),
      sqlite.db.em().transactional(async (em) => {
        await em.nativeUpdate(Character, { name: "Queue1" }, { coins: 77 });
        throw new Error("the transaction's own failure");
      }),
      sqlite.db.em().count(Character, { name: "Queue1" }),
      sqlite.db.em().findOneOrFail(Character, { name: "Queue1" }),
    ];
    const [bad, failed, count, row] = await Promise.allSettled(queries);
    assert.equal(bad!.status, "rejected");
    assert.match(String((bad as PromiseRejectedResult).reason), /no such table/);
    assert.equal(failed!.status, "rejected");
    assert.equal((count as PromiseFulfilledResult<number>).value, 1);
    assert.notEqual((row as PromiseFulfilledResult<{ coins: number }>).value.coins, 77, "the failed transaction was rolled back");
    assert.equal(connection.lock!.queued, 0);
  });
});
