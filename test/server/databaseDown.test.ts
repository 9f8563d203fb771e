/**
 * What an operator meets when the database cannot be opened: the real server process, started
 * against a PostgreSQL that refuses, a host that does not exist, a database its user may not
 * create, and SQLite paths that cannot be made. Each ends the start in one line on stderr naming
 * the variable to fix and what to do, without a password or a stack trace (unless LOG_LEVEL=debug),
 * with exit code 69 (unavailable: a later start may succeed) or 78 (configuration: fix it first).
 * A trace of the driver's frames, naming neither, was all there was (src/db/openFailure.ts).
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { explainDatabaseFailure } from "../../src/db/openFailure.ts";
import { EXIT_CONFIG, EXIT_UNAVAILABLE } from "../../src/exit.ts";
import { runToExit, type Exited } from "../support/process.ts";
import { makeWorldDir } from "../support/world.ts";

/** One line on stderr, no stack frame anywhere in the output, and that line returned. */
function oneLine(exit: Exited): string {
  const lines = exit.stderr.trim().split("\n");
  assert.equal(lines.length, 1, exit.stderr);
  assert.doesNotMatch(exit.stdout + exit.stderr, /^\s+at /m, "no stack trace");
  return lines[0]!;
}

describe("a database that cannot be opened at startup", function () {
  this.timeout(60_000);
  let world: string;
  beforeEach(() => {
    world = makeWorldDir();
  });
  afterEach(() => fs.rmSync(world, { recursive: true, force: true }));
  // A start takes seconds on a busy machine: the refusal is waited for generously.
  const run = (extra: Record<string, string>) => runToExit({ NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", WORLD: world, ...extra }, undefined, 50_000);

  it("PostgreSQL refusing connections: one line naming DATABASE_URL and the address, no password, exit 69", async () => {
    const exit = await run({ DATABASE_URL: "postgres://gm:hunter2secret@127.0.0.1:1/game" });
    assert.equal(exit.code, EXIT_UNAVAILABLE, exit.stderr);
    assert.equal(
      oneLine(exit),
      "rs-world-server: failed to start: cannot reach PostgreSQL at 127.0.0.1:1 (DATABASE_URL): connection refused; start PostgreSQL or fix DATABASE_URL",
    );
    assert.doesNotMatch(exit.stdout + exit.stderr, /hunter2secret/);
  });

  it("a PostgreSQL host name that does not exist: one line naming DATABASE_URL, exit 69", async () => {
    const exit = await run({ DATABASE_URL: "postgres://gm:hunter2secret@no-such-host.invalid:5432/game" });
    assert.equal(exit.code, EXIT_UNAVAILABLE, exit.stderr);
    assert.match(
      oneLine(exit),
      /^rs-world-server: failed to start: cannot reach PostgreSQL at no-such-host\.invalid:5432 \(DATABASE_URL\): (no such host|its host name could not be looked up); start PostgreSQL or fix DATABASE_URL$/,
    );
  });

  it("a PostgreSQL address that accepts and never answers: one line after PG_CONNECT_TIMEOUT_MS, exit 69, not a hang", async () => {
    // A port that takes the connection and says nothing (a stuck server, a proxy to nowhere).
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const exit = await run({ DATABASE_URL: `postgres://gm:hunter2secret@127.0.0.1:${port}/game`, PG_CONNECT_TIMEOUT_MS: "1500" });
      assert.equal(exit.code, EXIT_UNAVAILABLE, exit.stderr);
      assert.equal(
        oneLine(exit),
        `rs-world-server: failed to start: cannot reach PostgreSQL at 127.0.0.1:${port} (DATABASE_URL): no answer; start PostgreSQL or fix DATABASE_URL`,
      );
      assert.ok(sockets.length > 0, "the server did connect");
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("under LOG_LEVEL=debug, the line is followed by the trace of what it came from", async () => {
    const exit = await run({ LOG_LEVEL: "debug", DATABASE_URL: "postgres://gm@127.0.0.1:1/game" });
    assert.equal(exit.code, EXIT_UNAVAILABLE);
    const [first, ...rest] = exit.stderr.trim().split("\n");
    assert.match(first!, /cannot reach PostgreSQL at 127\.0\.0\.1:1 \(DATABASE_URL\)/);
    assert.match(rest.join("\n"), /ECONNREFUSED[\s\S]*\n\s+at /);
  });

  it("a database that does not exist and that its user may not create: one line saying to create it, exit 78", async function () {
    if (!process.env.TEST_PG_URL) this.skip();
    const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
    await admin.connect();
    const role = `rsworld_nocreate_${randomBytes(4).toString("hex")}`;
    await admin.query(`create role ${role} login nocreatedb`);
    try {
      const url = new URL(process.env.TEST_PG_URL);
      url.username = role;
      url.password = "hunter2secret";
      url.pathname = `/missing_${randomBytes(4).toString("hex")}`;
      const exit = await run({ DATABASE_URL: url.toString() });
      assert.equal(exit.code, EXIT_CONFIG, exit.stderr);
      const name = url.pathname.slice(1);
      assert.match(
        oneLine(exit),
        new RegExp(
          `PostgreSQL at ${url.hostname.replace(/\./g, "\\.")}:${url.port || 5432} \\(DATABASE_URL\\) has no database "${name}", and its user may not create it \\(.*\\): create it \\(createdb ${name}\\) or fix DATABASE_URL$`,
        ),
      );
      assert.doesNotMatch(exit.stderr, /hunter2secret/);
    } finally {
      await admin.query(`drop role ${role}`);
      await admin.end();
    }
  });

  it("a SQLite path under a file (DATABASE_URL): one line naming DATABASE_URL and the path, exit 78", async () => {
    fs.writeFileSync(path.join(world, "not-a-dir"), "");
    const file = path.join(world, "not-a-dir", "game.sqlite");
    const exit = await run({ DATABASE_URL: `sqlite:${file}` });
    assert.equal(exit.code, EXIT_CONFIG, exit.stderr);
    assert.match(
      oneLine(exit),
      new RegExp(
        `^rs-world-server: failed to start: cannot open the SQLite database ${file.replace(/[.]/g, "\\.")} \\(DATABASE_URL\\): .*; fix DATABASE_URL, or make its directory writable by this user$`,
      ),
    );
  });

  it("a SQLite path that is a directory: one line naming DATABASE_URL, exit 78", async () => {
    const dir = path.join(world, "a-dir.sqlite");
    fs.mkdirSync(dir);
    const exit = await run({ DATABASE_URL: `sqlite:${dir}` });
    assert.equal(exit.code, EXIT_CONFIG, exit.stderr);
    assert.match(oneLine(exit), /cannot open the SQLite database .*a-dir\.sqlite \(DATABASE_URL\): unable to open database file/);
  });

  it("the default SQLite file when WORLD/local cannot be made: one line naming WORLD, exit 78", async () => {
    fs.writeFileSync(path.join(world, "local"), "");
    // With the secrets given, nothing else needs <WORLD>/local before the database.
    const exit = await run({ JWT_SECRET: "s".repeat(32), ADMIN_CODE: "admin-code-0123" });
    assert.equal(exit.code, EXIT_CONFIG, exit.stderr);
    assert.match(
      oneLine(exit),
      /cannot open the SQLite database .*\/local\/game\.sqlite \(WORLD\): .*; set WORLD to a directory this user can write, or DATABASE_URL to another database$/,
    );
  });
});

describe("explainDatabaseFailure", () => {
  const source = { url: "postgres://gm:hunter2secret@db.internal:6543/game", variable: "DATABASE_URL" as const };

  it("a refused login (SQLSTATE 28P01, as node-postgres reports it): fix the user name or password, exit 78, no password", () => {
    // The test PostgreSQL trusts every login, so the server's error is made here as pg makes it.
    const err = Object.assign(new Error('password authentication failed for user "gm"'), { code: "28P01", severity: "FATAL" });
    const explained = explainDatabaseFailure(err, source);
    assert.equal(explained?.exitCode, EXIT_CONFIG);
    assert.equal(
      explained?.message,
      'PostgreSQL at db.internal:6543 (DATABASE_URL) refused the login: password authentication failed for user "gm"; fix the user name or password in DATABASE_URL (or the server\'s pg_hba.conf)',
    );
    assert.equal(explained?.cause, err);
  });

  it("a missing database (3D000) wrapped by the ORM: create it, exit 78", () => {
    const err = Object.assign(new Error("DriverException"), { cause: Object.assign(new Error('database "game" does not exist'), { code: "3D000" }) });
    assert.equal(
      explainDatabaseFailure(err, source)?.message,
      'PostgreSQL at db.internal:6543 (DATABASE_URL) has no database "game": create it (createdb game) or fix DATABASE_URL',
    );
  });

  it("a host name with several addresses, each refused (an AggregateError): connection refused, exit 69", () => {
    const err = new AggregateError([Object.assign(new Error("connect ECONNREFUSED ::1:6543"), { code: "ECONNREFUSED" })], "");
    const explained = explainDatabaseFailure(err, source);
    assert.equal(explained?.exitCode, EXIT_UNAVAILABLE);
    assert.match(explained.message, /^cannot reach PostgreSQL at db\.internal:6543 \(DATABASE_URL\): connection refused/);
  });

  it("anything else (a failed migration) is left as it is, with its trace", () => {
    assert.equal(explainDatabaseFailure(new Error('relation "x" already exists'), source), undefined);
  });
});
