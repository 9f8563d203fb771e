/** Counts the queries a piece of work runs on a database, by statement kind (the server's own query hook). */
import type { Database } from "../../src/db/orm.ts";
import type { QueryKind } from "../../src/db/queryTiming.ts";

export async function countQueries<T>(db: Database, fn: () => Promise<T>): Promise<{ result: T; queries: Record<QueryKind, number> }> {
  const queries: Record<QueryKind, number> = { select: 0, insert: 0, update: 0, delete: 0, other: 0 };
  db.onQuery = (kind) => queries[kind]++;
  try {
    return { result: await fn(), queries };
  } finally {
    db.onQuery = undefined;
  }
}
