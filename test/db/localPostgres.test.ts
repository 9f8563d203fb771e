import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
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
