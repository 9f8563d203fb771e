/**
 * MikroORM's PostgreSQL driver with its pool connections given back when a transaction cannot
 * begin or roll back (transactionRelease.ts): a connection cut in a transaction is otherwise lost
 * to the pool for good.
 */
import { PostgreSqlConnection, PostgreSqlDriver } from "@mikro-orm/postgresql";
import type { Configuration } from "@mikro-orm/core";
import type { PostgresDialect } from "kysely";
import { releasingOnFailure } from "./transactionRelease.ts";

class ReleasingPostgreSqlConnection extends PostgreSqlConnection {
  override createKyselyDialect(overrides: Parameters<PostgreSqlConnection["createKyselyDialect"]>[0]) {
    // Declared as kysely's PostgresDialect; MikroORM only hands it to `new Kysely` as a Dialect.
    return releasingOnFailure(super.createKyselyDialect(overrides)) as PostgresDialect;
  }
}

export class ReleasingPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    (this as unknown as { connection: PostgreSqlConnection }).connection = new ReleasingPostgreSqlConnection(this.config);
  }
}
