/**
 * A database the server cannot open, said in one line its operator acts on: which variable points
 * at it, where (never the password), what went wrong and what to do. A trace of the driver's
 * frames named none of that. Exit codes (src/exit.ts): 69 (unavailable) where a later start may
 * succeed once the database is up (refused, no such host, no answer); 78 (configuration) where
 * nothing changes until someone fixes the address, the credentials or the path.
 */
import { EXIT_CONFIG, EXIT_UNAVAILABLE } from "../exit.ts";
import { cannotReachLine, codesOf, StartupError, UNREACHABLE, urlAddress } from "../startupError.ts";

/** Where the database came from: the variable that named it, and its URL. */
export interface DatabaseSource {
  url: string;
  /** `DATABASE_URL`, or `WORLD` for the default SQLite file under the world directory. */
  variable: "DATABASE_URL" | "WORLD";
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `host:port` of a PostgreSQL URL (no user, no password). */
export function postgresAddress(url: string): string {
  return urlAddress(url, 5432);
}

/** The database's name in a PostgreSQL URL. */
function databaseName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.slice(1)) || "(none)";
  } catch {
    return "(none)";
  }
}

/**
 * The one-line refusal for a failure to open the database, or undefined when it is none of the
 * kinds above (a failed migration, a bug): that keeps its trace.
 */
export function explainDatabaseFailure(err: unknown, source: DatabaseSource): StartupError | undefined {
  const codes = codesOf(err);
  if (/^sqlite:/i.test(source.url)) return explainSqlite(err, codes, source);
  const where = `PostgreSQL at ${postgresAddress(source.url)} (${source.variable})`;
  const unreachable = codes.find((c) => c in UNREACHABLE);
  if (unreachable !== undefined) {
    return new StartupError(cannotReachLine("PostgreSQL", postgresAddress(source.url), source.variable, UNREACHABLE[unreachable]!, "start PostgreSQL"), {
      cause: err,
      exitCode: EXIT_UNAVAILABLE,
    });
  }
  // node-postgres' own timeout, when one is set: "timeout expired", "Connection terminated due to connection timeout".
  if (/connection timeout|timeout expired/i.test(messageOf(err))) {
    return new StartupError(cannotReachLine("PostgreSQL", postgresAddress(source.url), source.variable, "no answer", "start PostgreSQL"), {
      cause: err,
      exitCode: EXIT_UNAVAILABLE,
    });
  }
  // SQLSTATE classes: 28 (authorization), 3D000 (no such database).
  if (codes.includes("28P01") || codes.includes("28000")) {
    return new StartupError(
      `${where} refused the login: ${messageOf(err)}; fix the user name or password in ${source.variable} (or the server's pg_hba.conf)`,
      { cause: err, exitCode: EXIT_CONFIG },
    );
  }
  // A missing database is created at startup (MikroORM) when the user may; else one of these.
  const cannotCreate = codes.includes("42501") && /create database/i.test(messageOf(err));
  if (codes.includes("3D000") || cannotCreate) {
    const name = databaseName(source.url);
    const why = cannotCreate ? `, and its user may not create it (${messageOf(err)})` : "";
    return new StartupError(`${where} has no database "${name}"${why}: create it (createdb ${name}) or fix ${source.variable}`, {
      cause: err,
      exitCode: EXIT_CONFIG,
    });
  }
  return undefined;
}

/** Codes of a file or directory that cannot be made or opened (node:fs, better-sqlite3). */
const CANNOT_OPEN = new Set([
  "EACCES",
  "EPERM",
  "ENOTDIR",
  "EROFS",
  "EEXIST",
  "ENOENT",
  "EISDIR",
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
  "SQLITE_PERM",
  "SQLITE_NOTADB",
]);

function explainSqlite(err: unknown, codes: string[], source: DatabaseSource): StartupError | undefined {
  if (!codes.some((c) => CANNOT_OPEN.has(c))) return undefined;
  const file = source.url.slice("sqlite:".length);
  const fix =
    source.variable === "WORLD"
      ? "set WORLD to a directory this user can write, or DATABASE_URL to another database"
      : "fix DATABASE_URL, or make its directory writable by this user";
  // A path is configuration: it stays wrong until someone changes it.
  return new StartupError(`cannot open the SQLite database ${file} (${source.variable}): ${messageOf(err)}; ${fix}`, { cause: err, exitCode: EXIT_CONFIG });
}
