/**
 * A connection given back when its transaction cannot begin or roll back.
 *
 * kysely (0.29.6) hands a transaction begun with `startTransaction()` (every MikroORM transaction)
 * its connection, and gives it back only once COMMIT or ROLLBACK succeeds: if BEGIN throws, or
 * ROLLBACK does, the connection is never given back (kysely-org/kysely#1990, open). On PostgreSQL
 * that is a pool connection lost for good (a pool of 10 is gone after 10 such failures: every query
 * waits for ever); on SQLite, the one connection, and the server's every query after it waits for
 * ever. Both happen: SQLite rolls a transaction back by itself on a full disk or an I/O error, and
 * then the ROLLBACK that follows fails ("no transaction is active"); a PostgreSQL connection cut in
 * a transaction fails its ROLLBACK.
 *
 * {@link releasingOnFailure} wraps a dialect: each acquisition of a connection is a lease, given back
 * at most once, by whichever comes first: kysely's release, or a BEGIN or ROLLBACK that failed. A
 * COMMIT that fails is not given back here: the transaction may still be open, and its caller rolls
 * it back (MikroORM does), which gives it back whether it succeeds or not. A dialect of one
 * connection (SQLite) must take it in turns through queuedConnection (sqliteQueue.ts) first:
 * kysely's own mutex for one connection would stay locked.
 */
import type { DatabaseConnection, Dialect, Driver } from "kysely";
import { DelegatingDriver, wrappedDialect } from "./wrappedDialect.ts";

/** One acquisition of a connection: the connection's queries, and whether it was given back. */
class Lease implements DatabaseConnection {
  released = false;
  readonly cancelQuery: DatabaseConnection["cancelQuery"];
  readonly killSession: DatabaseConnection["killSession"];
  readonly collectSessionInfo: DatabaseConnection["collectSessionInfo"];
  readonly inner: DatabaseConnection;
  constructor(inner: DatabaseConnection) {
    this.inner = inner;
    // kysely looks these up to know whether the dialect has them.
    this.cancelQuery = inner.cancelQuery?.bind(inner);
    this.killSession = inner.killSession?.bind(inner);
    this.collectSessionInfo = inner.collectSessionInfo?.bind(inner);
  }
  // A transaction whose ROLLBACK failed is not marked rolled back by kysely, so its queries are not
  // refused there: once given back, the connection may be another caller's.
  executeQuery<R>(...args: Parameters<DatabaseConnection["executeQuery"]>) {
    if (this.released) return Promise.reject(new Error(GIVEN_BACK));
    return this.inner.executeQuery<R>(...args);
  }
  streamQuery<R>(...args: Parameters<DatabaseConnection["streamQuery"]>) {
    if (this.released) throw new Error(GIVEN_BACK);
    return this.inner.streamQuery<R>(...args);
  }
}

const GIVEN_BACK = "this transaction's connection was given back after its BEGIN or ROLLBACK failed: the query did not run";

class ReleasingDriver extends DelegatingDriver {
  constructor(inner: Driver) {
    super(inner, "releasingOnFailure");
  }
  protected override unwrap(connection: DatabaseConnection): DatabaseConnection {
    return leaseOf(connection).inner;
  }
  override async acquireConnection(...args: Parameters<Driver["acquireConnection"]>): Promise<DatabaseConnection> {
    return new Lease(await this.inner.acquireConnection(...args));
  }
  override async releaseConnection(connection: DatabaseConnection, ...rest: [Parameters<Driver["releaseConnection"]>[1]?]): Promise<void> {
    const lease = leaseOf(connection);
    if (lease.released) return;
    lease.released = true;
    await this.inner.releaseConnection(lease.inner, ...rest);
  }
  /** Gives the lease back after a failure of its transaction; the failure is what the caller sees. */
  private async releaseAfter(connection: DatabaseConnection, failure: unknown): Promise<never> {
    try {
      await this.releaseConnection(connection);
    } catch {
      // The failure that brought us here is the one to report.
    }
    throw failure;
  }
  override async beginTransaction(connection: DatabaseConnection, ...rest: [Parameters<Driver["beginTransaction"]>[1]]): Promise<void> {
    try {
      await super.beginTransaction(connection, ...rest);
    } catch (err) {
      await this.releaseAfter(connection, err);
    }
  }
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (err) {
      // Once more before it is given back: a ROLLBACK that failed on a live connection (a cancel
      // that landed on it) would leave its transaction open for the connection's next user. On a
      // dead connection, or one with no transaction (SQLite's own rollback), this fails at once too.
      await super.rollbackTransaction(connection).catch(() => {});
      await this.releaseAfter(connection, err);
    }
  }
}

function leaseOf(connection: DatabaseConnection): Lease {
  if (!(connection instanceof Lease)) throw new Error("releasingOnFailure: a connection this driver did not hand out");
  return connection;
}

/** `dialect` with its connections given back when a transaction cannot begin or roll back (see the file comment). */
export function releasingOnFailure(dialect: Dialect): Dialect {
  return wrappedDialect(
    dialect,
    (inner) => new ReleasingDriver(inner),
    (adapter) => {
      // With one connection kysely holds a mutex of its own around each lease, which a lease given
      // back here would leave locked: such a dialect goes through queuedConnection first.
      if (adapter.supportsMultipleConnections === false)
        throw new Error("releasingOnFailure: a dialect of one connection must be queued first (queuedConnection)");
      return adapter;
    },
  );
}
