/**
 * SQLite through MikroORM with its statements reused.
 *
 * MikroORM 7 writes every parameter into the SQL text (`Platform.formatQuery`) before handing it to
 * Kysely, and Kysely's SQLite driver compiles each text it gets (`Database.prepare`). So every
 * login compiled its four reads afresh, because each names its character in the text: a quarter of
 * a login's CPU here (`npm run bench:logins`, bench/README.md).
 *
 * {@link ReusingSqliteDriver} passes the string and integer parameters as bound values instead, and
 * keeps the compiled statements by their text, so the same query for another character is compiled
 * once. SQLite reads a bound string exactly as the quoted literal it replaces, and an integer bound
 * as a BigInt as the integer literal (an INTEGER; a JavaScript number would bind as a REAL, and a
 * TEXT column would then store "5.0" for 5). Integers include dates, which MikroORM writes as their
 * milliseconds: a join's lease, session and last-login writes carry the time, and were compiled
 * at every join. Everything else (fractions, booleans, null, lists, JSON) is still written in as
 * MikroORM writes it.
 *
 * Its queries also take the one connection in turns (sqliteQueue.ts), not through kysely's mutex,
 * which woke every waiting query at each release, and are given back when a transaction cannot
 * begin or roll back (transactionRelease.ts).
 */
import { SqliteConnection, SqliteDriver, type Configuration } from "@mikro-orm/sqlite";
import { CompiledQuery } from "kysely";
import { queuedConnection, type TurnLock } from "./sqliteQueue.ts";
import { releasingOnFailure } from "./transactionRelease.ts";

/** What this file uses of a better-sqlite3 `Database` and its statements (the package ships no types). */
interface Statement {
  readonly busy: boolean;
}
interface Database {
  prepare(source: string): Statement;
}

/** How many compiled statements a connection keeps (the least recently used go first). */
export const STATEMENT_CACHE_SIZE = 256;
/**
 * Texts longer than this are compiled each time, not kept: a flush's multi-row insert, written in
 * with its values, is a text used once, and compiled it holds ~15 times its length of SQLite's
 * memory (512 kept 300-row inserts of characters held 443 MB).
 */
export const STATEMENT_CACHE_MAX_TEXT = 2048;
/**
 * At most this many values are bound in one statement; past it the statement is written in whole
 * as MikroORM writes it (SQLite takes at most 32,766 bound values, and MikroORM writes a long `$in`
 * list or a batch of rows one `?` a value; such a text is used once anyway).
 */
export const MAX_BOUND_VALUES = 256;
/** An integer as MikroORM writes it into a text. */
const INTEGER = /^-?\d+$/;
/** The text so far ends with LIMIT or OFFSET: the placeholder after it is the limit's (tested on the text's tail: a long insert tests it at each value). */
const LIMIT_BEFORE = /\b(limit|offset)\s*$/i;
/**
 * Only these statements get bound values: in the others (DDL, `pragma`) SQLite refuses a
 * parameter where it takes a literal (`create table … default ?`, `pragma table_info(?)`).
 */
const BINDABLE = /^\s*\(?\s*(select|insert|update|delete|with|replace)\b/i;

interface Quoting {
  quoteIdentifier(id: string): string;
  quoteValue(value: unknown): string;
}

/**
 * `sql`'s placeholders filled in as MikroORM's `Platform.formatQuery` fills them, except that each
 * string or integer parameter stays a `?` and is returned to be bound (an integer as a BigInt); undefined when the text holds an
 * escaped `\?` (its `?` would then be read as a placeholder) or the counts do not match.
 */
export function bindValues(platform: Quoting, sql: string, params: readonly unknown[]): { sql: string; parameters: (string | bigint)[] } | undefined {
  if (params.length === 0) return { sql, parameters: [] };
  if (sql.includes("\\?") || !BINDABLE.test(sql)) return undefined;
  const parameters: (string | bigint)[] = [];
  let out = "";
  let pos = 0;
  let j = 0;
  for (;;) {
    const at = sql.indexOf("?", pos);
    if (at === -1) break;
    out += sql.slice(pos, at);
    if (j >= params.length) return undefined;
    if (sql[at + 1] === "?") {
      out += platform.quoteIdentifier(params[j++] as string);
      pos = at + 2;
      continue;
    }
    const value = params[j++];
    if (typeof value === "string") {
      if (parameters.length === MAX_BOUND_VALUES) return undefined;
      out += "?";
      parameters.push(value);
      pos = at + 1;
      continue;
    }
    const written = platform.quoteValue(value);
    // An integer (a count, a version, a timestamp: MikroORM writes a date as its milliseconds) is
    // bound as a BigInt: an INTEGER, as the literal would be. A JavaScript number would bind as a
    // REAL (a TEXT column would store "5.0" for 5).
    // Not a LIMIT or OFFSET: SQLite marks a statement whose LIMIT is a parameter to be compiled
    // again at each new binding of it (58-98 µs a `findOne`, against 5 with the literal).
    if (INTEGER.test(written) && Number.isSafeInteger(Number(written)) && !LIMIT_BEFORE.test(out.slice(-16))) {
      if (parameters.length === MAX_BOUND_VALUES) return undefined;
      out += "?";
      parameters.push(BigInt(written));
    } else {
      out += written;
    }
    pos = at + 1;
  }
  if (j !== params.length) return undefined;
  return { sql: out + sql.slice(pos), parameters };
}

/**
 * Makes `db.prepare` hand out the statement it compiled last time for the same text (up to `size`
 * texts of at most `maxText` characters).
 */
export function reuseStatements(db: Database, size = STATEMENT_CACHE_SIZE, maxText = STATEMENT_CACHE_MAX_TEXT): { compiled: () => number } {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Statement>();
  let compiled = 0;
  db.prepare = (source: string) => {
    if (source.length > maxText) {
      compiled++;
      return prepare(source);
    }
    const hit = cache.get(source);
    // A statement still being iterated (a stream) cannot run again meanwhile: a fresh one for that.
    if (hit !== undefined && !hit.busy) {
      // Most recently used last: the Map's first key is the one to let go.
      cache.delete(source);
      cache.set(source, hit);
      return hit;
    }
    const statement = prepare(source);
    compiled++;
    if (hit === undefined) {
      cache.set(source, statement);
      if (cache.size > size) cache.delete(cache.keys().next().value!);
    }
    return statement;
  };
  return { compiled: () => compiled };
}

// `AbstractSqlConnection.execute`'s handling of a query's abort options (not exported by MikroORM).
function abortOptions(loggerContext: Record<string, unknown> | undefined) {
  if (loggerContext?.signal == null && loggerContext?.inflightQueryAbortStrategy == null) return { loggerContext };
  const { signal, inflightQueryAbortStrategy, ...rest } = loggerContext;
  return { abort: { signal, inflightQueryAbortStrategy }, loggerContext: rest };
}

/** MikroORM's better-sqlite3 connection, binding string and integer parameters and reusing statements (see the file comment). */
export class ReusingSqliteConnection extends SqliteConnection {
  /** How many statements this connection compiled (tests read it). */
  compiledStatements: () => number = () => 0;

  /** The lock its queries take the connection in turns with (see sqliteQueue.ts; tests read it). */
  lock: TurnLock | undefined;

  override createKyselyDialect(options: Parameters<SqliteConnection["createKyselyDialect"]>[0]) {
    const dialect = super.createKyselyDialect(options);
    this.compiledStatements = reuseStatements((this as unknown as { database: Database }).database).compiled;
    // The lease outermost: a failed BEGIN or ROLLBACK gives the connection back through the queue.
    return releasingOnFailure(queuedConnection(dialect, (driver) => (this.lock = driver.lock)));
  }

  /** As MikroORM 7.2's `AbstractSqlConnection.execute`, with the string and integer parameters bound. */
  override async execute<T>(...args: Parameters<SqliteConnection["execute"]>): Promise<T> {
    // MikroORM types the transaction context (`ctx`) as any.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
    const [query, params = [], method = "all", ctx, loggerContext] = args;
    await this.ensureConnection();
    const q = (this as unknown as { prepareQuery: (query: unknown, params: unknown) => { query: string; params: unknown[]; formatted: string } }).prepareQuery(
      query,
      params,
    );
    const bound = typeof q.query === "string" ? bindValues(this.platform, q.query, q.params) : undefined;
    const sql = this.getSql(q.query, q.formatted, loggerContext);
    const { abort, loggerContext: rest } = abortOptions(loggerContext);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- its result is MikroORM's, asserted as execute's T
    return this.executeQuery(
      sql,
      async () => {
        const compiled = bound !== undefined ? CompiledQuery.raw(bound.sql, bound.parameters) : CompiledQuery.raw(q.formatted);
        // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access -- ctx is MikroORM's any
        const res = await (ctx ?? this.getClient()).executeQuery(compiled, abort);
        return this.transformRawResult(res as never, method);
      },
      { ...q, ...rest },
    ) as Promise<T>;
  }
}

/** MikroORM's SQLite driver on a {@link ReusingSqliteConnection}. */
export class ReusingSqliteDriver extends SqliteDriver {
  constructor(config: Configuration) {
    super(config);
    (this as unknown as { connection: SqliteConnection }).connection = new ReusingSqliteConnection(this.config);
  }
}
