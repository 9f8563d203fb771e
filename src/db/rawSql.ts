/**
 * Raw statements for the hot paths (a join's reads and writes): MikroORM's `find`, `findOne` and
 * `nativeUpdate` build a query builder, criteria nodes and entities for every call, about 5 ms of
 * the main thread a join and most of the garbage of a join ramp (bench/README.md, world-load,
 * "a join's statements as raw SQL"). These run the same SQL text through `em.execute`: in the
 * entity manager's transaction if it has one, timed by the query log, and with the driver's errors
 * converted as MikroORM's own (`UniqueConstraintViolationException`, …).
 *
 * The text is written for both dialects: `?` placeholders (MikroORM fills them in on PostgreSQL,
 * the SQLite driver binds them: src/db/sqliteStatements.ts), identifiers in double quotes (the
 * entities' column names), nothing dialect-specific. A `Date` parameter is written as each
 * dialect's MikroORM writes a datetime column (milliseconds on SQLite, a timestamp on PostgreSQL);
 * an `undefined` one as null (PostgreSQL's formatting would write the word `undefined`).
 */
import type { SqlEntityManager } from "@mikro-orm/sqlite";

/**
 * What runs raw statements: an entity manager (a transaction's), or the database's shared one
 * (`Database.statements`), which offers nothing else, so that no caller begins a transaction on it
 * that every other caller would then join.
 */
export type Statements = Pick<SqlEntityManager, "execute" | "getPlatform">;

const params = (values: readonly unknown[]): unknown[] => values.map((v) => (v === undefined ? null : v));

/** The rows a statement returns, with the columns as the driver gives them (see {@link dateOf}). */
export function selectRows<T extends object>(em: Statements, sql: string, values: readonly unknown[]): Promise<T[]> {
  return em.execute<T[]>(sql, params(values), "all");
}

/** The first row a statement returns, if any. */
export async function selectRow<T extends object>(em: Statements, sql: string, values: readonly unknown[]): Promise<T | undefined> {
  return (await selectRows<T>(em, sql, values))[0];
}

/** Runs a statement; the number of rows it changed. */
export async function runStatement(em: Statements, sql: string, values: readonly unknown[]): Promise<number> {
  const res = await em.execute<{ affectedRows: number }>(sql, params(values), "run");
  return res.affectedRows;
}

/** SQL's `current_timestamp` as SQLite writes it: UTC, without a zone. */
const SQLITE_TEXT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/;

/**
 * A datetime column's value as a Date. MikroORM stores a datetime on SQLite as its milliseconds
 * (an integer), or SQL's `current_timestamp` default wrote text; PostgreSQL's driver, as MikroORM
 * sets it up, gives a timestamptz as PostgreSQL's text, read here by the platform's own parser as
 * MikroORM reads it (postgres-date).
 */
export function dateOf(em: Statements, value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  if (typeof value === "string") {
    if (/^-?\d+$/.test(value)) return new Date(Number(value));
    const date = SQLITE_TEXT.test(value) ? new Date(`${value.replace(" ", "T")}Z`) : em.getPlatform().parseDate(value);
    if (date instanceof Date && !Number.isNaN(date.getTime())) return date;
  }
  throw new Error(`not a datetime value: ${String(value)}`);
}
