/**
 * A kysely dialect with its driver wrapped: what sqliteQueue.ts (the connection in turns) and
 * transactionRelease.ts (a connection given back on a failed BEGIN or ROLLBACK) share. A wrapper
 * extends {@link DelegatingDriver} and overrides what it changes; the rest goes to the inner driver.
 */
import type { DatabaseConnection, Dialect, DialectAdapter, Driver } from "kysely";

/** Hands every call to the inner driver, each connection mapped by {@link DelegatingDriver.unwrap}. */
export class DelegatingDriver implements Driver {
  protected readonly inner: Driver;
  /** `what`: the wrapper's name, for its errors. */
  constructor(inner: Driver, what: string) {
    // kysely calls a missing savepoint method as a no-op (`driver.savepoint?.()`): the wrapper would hide that.
    if (inner.savepoint === undefined || inner.rollbackToSavepoint === undefined || inner.releaseSavepoint === undefined) {
      throw new Error(`${what}: the dialect's driver has no savepoints`);
    }
    this.inner = inner;
  }
  /** The inner driver's connection for one this driver handed out (the same one unless a subclass wraps them). */
  protected unwrap(connection: DatabaseConnection): DatabaseConnection {
    return connection;
  }
  init(...args: Parameters<Driver["init"]>): Promise<void> {
    return this.inner.init(...args);
  }
  acquireConnection(...args: Parameters<Driver["acquireConnection"]>): Promise<DatabaseConnection> {
    return this.inner.acquireConnection(...args);
  }
  releaseConnection(connection: DatabaseConnection, ...rest: [Parameters<Driver["releaseConnection"]>[1]?]): Promise<void> {
    return this.inner.releaseConnection(this.unwrap(connection), ...rest);
  }
  beginTransaction(connection: DatabaseConnection, ...rest: [Parameters<Driver["beginTransaction"]>[1]]): Promise<void> {
    return this.inner.beginTransaction(this.unwrap(connection), ...rest);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(this.unwrap(connection));
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(this.unwrap(connection));
  }
  savepoint(connection: DatabaseConnection, ...rest: [string, never]): Promise<void> {
    return this.inner.savepoint!(this.unwrap(connection), ...rest);
  }
  rollbackToSavepoint(connection: DatabaseConnection, ...rest: [string, never]): Promise<void> {
    return this.inner.rollbackToSavepoint!(this.unwrap(connection), ...rest);
  }
  releaseSavepoint(connection: DatabaseConnection, ...rest: [string, never]): Promise<void> {
    return this.inner.releaseSavepoint!(this.unwrap(connection), ...rest);
  }
  destroy(...args: Parameters<Driver["destroy"]>): Promise<void> {
    return this.inner.destroy(...args);
  }
}

/** `dialect` with its driver wrapped by `driver`, and its adapter checked or changed by `adapter`. */
export function wrappedDialect(dialect: Dialect, driver: (inner: Driver) => Driver, adapter: (inner: DialectAdapter) => DialectAdapter): Dialect {
  return {
    createDriver: () => driver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createAdapter: () => adapter(dialect.createAdapter()),
  };
}
