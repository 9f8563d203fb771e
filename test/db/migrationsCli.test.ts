import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { MIGRATIONS_DIR, openDatabase, type Dialect } from "../../src/db/orm.ts";
import { forEachDialect } from "../support/dialects.ts";
import { freePort } from "../support/postgres.ts";
import { ROOT } from "../support/process.ts";
import { makeWorldDir } from "../support/world.ts";

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run -s <script>` as a developer types it, in the project's root, with only the given
 * variables (and PATH/HOME): `DATABASE_URL` and `USE_LOCAL_POSTGRES` are emptied unless given,
 * so a developer's `.env` cannot point the CLI elsewhere (an empty variable wins over `.env`).
 */
function npmRun(script: string, env: Record<string, string>, args: string[] = []): Promise<CliRun> {
  const childEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "test", DATABASE_URL: "", USE_LOCAL_POSTGRES: "", ...env };
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "-s", script, ...(args.length > 0 ? ["--", ...args] : [])],
      { cwd: ROOT, env: childEnv, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
        resolve({ code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) });
      },
    );
  });
}

async function cli(script: string, env: Record<string, string>, args: string[] = []): Promise<string> {
  const run = await npmRun(script, env, args);
  assert.equal(run.code, 0, `npm run ${script} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** The migration names of a `migration:list` or `migration:pending` table, in order. */
function names(table: string): string[] {
  return [...table.matchAll(/^│ (Migration\w+)\s/gm)].map((m) => m[1]!);
}

/** The committed migrations of a dialect, oldest first. */
function committed(dialect: Dialect): string[] {
  return fs
    .readdirSync(path.join(MIGRATIONS_DIR, dialect))
    .filter((f) => /^Migration\w+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ""))
    .sort();
}

/** Opens the database as the server does at startup, and returns the migrations it applied. */
async function serverStartup(env: Record<string, string>): Promise<string[]> {
  const applied: string[] = [];
  const logger = pino(
    { level: "info" },
    {
      write(line: string) {
        const entry = JSON.parse(line) as { msg: string; migrations?: string[] };
        if (entry.msg === "database migrated") applied.push(...entry.migrations!);
      },
    },
  );
  const db = await openDatabase(loadConfig({ NODE_ENV: "test", ...env }), logger);
  await db.close();
  return applied;
}

forEachDialect("the MikroORM CLI's migration commands", (ctx) => {
  it("lists every committed migration as pending on an empty database, applies them all, and rolls back the last", async function () {
    this.timeout(120_000);
    const all = committed(ctx.dialect);
    const env = { DATABASE_URL: ctx.url };
    assert.ok(all.length >= 2, "at least two committed migrations");
    assert.deepEqual(names(await cli("migration:pending", env)), all);
    assert.match(await cli("migration:list", env), /No migrations executed yet/);

    assert.match(await cli("migration:up", env), /Successfully migrated up to the latest version/);
    assert.deepEqual(names(await cli("migration:list", env)), all, "every migration listed as executed");
    assert.match(await cli("migration:pending", env), /No pending migrations/);

    assert.match(await cli("migration:down", env), /Successfully migrated down to previous version/);
    assert.deepEqual(names(await cli("migration:list", env)), all.slice(0, -1));
    assert.deepEqual(names(await cli("migration:pending", env)), all.slice(-1), "only the last one rolled back");
  });

  it("agrees with the server's startup migration: what one applied the other does not run again", async function () {
    this.timeout(120_000);
    const all = committed(ctx.dialect);
    const env = { DATABASE_URL: await ctx.newUrl() };
    await cli("migration:up", env);
    assert.deepEqual(await serverStartup(env), [], "the server runs nothing after the CLI's up");

    await cli("migration:down", env);
    assert.deepEqual(await serverStartup(env), all.slice(-1), "the server runs exactly the migration the CLI rolled back");
    assert.match(await cli("migration:pending", env), /No pending migrations/);
    assert.deepEqual(names(await cli("migration:list", env)), all);
  });
});

describe("the MikroORM CLI without DATABASE_URL", function () {
  this.timeout(120_000);
  let world: string;
  before(() => {
    world = makeWorldDir("none");
  });
  after(() => fs.rmSync(world, { recursive: true, force: true }));

  it("migrates the server's default SQLite database, <WORLD>/local/game.sqlite", async () => {
    await cli("migration:up", { WORLD: world });
    assert.ok(fs.existsSync(path.join(world, "local", "game.sqlite")));
    assert.deepEqual(await serverStartup({ WORLD: world }), [], "the server finds it migrated");
    assert.deepEqual(names(await cli("migration:list", { WORLD: world })), committed("sqlite"));
  });
});

describe("the MikroORM CLI on bad input", function () {
  this.timeout(60_000);

  /** A failed run: exit code 1, the reason on stderr (npm's own warnings aside), no usage text. */
  async function failure(env: Record<string, string>): Promise<string> {
    const run = await npmRun("migration:pending", env);
    assert.equal(run.code, 1, `expected a failure:\n${run.stdout}\n${run.stderr}`);
    assert.doesNotMatch(run.stdout + run.stderr, /Options:|\n\s+at /, "no usage text, no stack trace");
    const lines = run.stderr.split("\n").filter((l) => l.startsWith("mikro-orm: "));
    assert.equal(lines.length, 1, run.stderr);
    return run.stderr.slice(run.stderr.indexOf("mikro-orm: "));
  }

  it("names an unsupported DATABASE_URL", async () => {
    assert.match(
      await failure({ DATABASE_URL: "mysql://db.example/game" }),
      /^mikro-orm: DATABASE_URL: unsupported database URL "mysql:\/\/db\.example\/game"/,
    );
  });

  it("lists an invalid configuration as the server does", async () => {
    assert.match(await failure({ PORT: "abc" }), /^mikro-orm: Invalid configuration:\n {2}- PORT: expected an integer/);
  });

  it("says when the database does not answer", async () => {
    const port = await freePort();
    assert.match(
      await failure({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/game` }),
      new RegExp(`^mikro-orm: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`),
    );
  });

  it("says that USE_LOCAL_POSTGRES needs the server's local PostgreSQL running", async () => {
    const port = await freePort();
    assert.match(
      await failure({ USE_LOCAL_POSTGRES: "true", LOCAL_POSTGRES_PORT: String(port) }),
      new RegExp(`^mikro-orm: USE_LOCAL_POSTGRES: no local PostgreSQL answers on port ${port}`),
    );
  });

  it("shows the usage for an unknown option", async () => {
    const run = await npmRun("migration:pending", {}, ["--bogus"]);
    assert.equal(run.code, 1);
    assert.match(run.stdout + run.stderr, /Unknown argument: bogus/);
  });
});
