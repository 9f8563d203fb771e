/**
 * Raw statements for the hot paths (a join's reads and writes): MikroORM's `find`, `findOne` and
 * `nativeUpdate` build a query builder, criteria nodes and entities for every call, about 5 ms of
 * the main thread a join and most of the garbage of a join ramp (bench/README.md, world-load,
 * "the join's statements"). These run the same SQL text through `em.execute`: in the entity
 * manager's transaction if it has one, timed by the query log, and with the driver's errors
 * converted as MikroORM's own (`UniqueConstraintViolationException`, …).
 *
 * The text is written for both dialects: `?` placeholders (MikroORM fills them in on PostgreSQL,
 * the SQLite driver binds them: src/db/sqliteStatements.ts), identifiers in double quotes (the
 * entities' column names), nothing dialect-specific. A `Date` parameter is written as each
 * dialect's MikroORM writes a datetime column (milliseconds on SQLite, a timestamp on PostgreSQL).
 */
import type { SqlEntityManager } from "@mikro-orm/sqlite";

/** The rows a statement returns, with the columns as the driver gives them (see {@link dateOf}). */
export function selectRows<T extends object>(em: SqlEntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  return em.execute<T[]>(sql, params as unknown[], "all");
}

/** The first row a statement returns, if any. */
export async function selectRow<T extends object>(em: SqlEntityManager, sql: string, params: readonly unknown[]): Promise<T | undefined> {
  return (await selectRows<T>(em, sql, params))[0];
}

/** Runs a statement; the number of rows it changed. */
export async function runStatement(em: SqlEntityManager, sql: string, params: readonly unknown[]): Promise<number> {
  const res = await em.execute<{ affectedRows: number }>(sql, params as unknown[], "run");
  return res.affectedRows;
}

/**
 * A datetime column's value as a Date. PostgreSQL's driver gives a Date; MikroORM stores a
 * datetime on SQLite as its milliseconds (an integer), or SQL's `current_timestamp` default wrote
 * text (`YYYY-MM-DD HH:MM:SS`, UTC).
 */
export function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  if (typeof value === "string") {
    if (/^-?\d+$/.test(value)) return new Date(Number(value));
    const text = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new Error(`not a datetime value: ${String(value)}`);
}
