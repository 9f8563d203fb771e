/**
 * The README's cluster commands for real: `pm2 start ecosystem.config.cjs` (PM2 from
 * node_modules, a PM2 home of its own) starts one process per world on consecutive ports, waits
 * for each one's ready signal, and the worlds find each other through Redis.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { freePort } from "../support/postgres.ts";
import { ROOT } from "../support/process.ts";
import { freshRedisUrl } from "../support/redis.ts";
import { eventually } from "../support/until.ts";
import { makeWorldDir } from "../support/world.ts";

const PM2 = createRequire(import.meta.url).resolve("pm2/bin/pm2");

describe("the PM2 cluster (ecosystem.config.cjs)", function () {
  this.timeout(120_000);
  let home = "";
  let world = "";
  let env: NodeJS.ProcessEnv = {};

  const pm2 = (...args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [PM2, ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr.on("data", (c: Buffer) => (out += c.toString()));
      child.on("exit", (code) => resolve({ code, out }));
    });

  before(async function () {
    if (!process.env.TEST_REDIS_URL) this.skip();
    home = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-pm2-"));
    world = makeWorldDir();
    const port = await freePort();
    env = {
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
      HOME: home,
      PM2_HOME: home,
      WORLDS: "2",
      PORT: String(port),
      WORLD: world,
      REDIS_URL: await freshRedisUrl(),
      // No JWT_SECRET, as a newcomer runs it: the ecosystem file gives the instances one.
      DISABLE_RATE_LIMIT: "true",
    };
  });

  after(async () => {
    if (home === "") return;
    await pm2("kill");
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(world, { recursive: true, force: true });
  });

  it("starts worlds 1 and 2 on PORT and PORT + 1, each listing both, on one token secret it makes when JWT_SECRET is not set", async () => {
    const started = await pm2("start", "ecosystem.config.cjs");
    assert.equal(started.code, 0, started.out);
    const status = await pm2("jlist");
    const apps = JSON.parse(status.out.slice(status.out.indexOf("["))) as { name: string; pm2_env: { status: string } }[];
    assert.deepEqual(
      apps.map((a) => [a.name, a.pm2_env.status]),
      [
        ["rs-world", "online"],
        ["rs-world", "online"],
      ],
    );
    const port = Number(env.PORT);
    for (const p of [port, port + 1]) {
      const list = await eventually(
        async () => {
          const res = await fetch(`http://127.0.0.1:${p}/api/v1/worlds`).catch(() => undefined);
          if (res?.status !== 200) return undefined;
          const body = (await res.json()) as { worlds: { id: number; httpUrl: string }[] };
          return body.worlds.length === 2 ? body : undefined;
        },
        `both worlds listed on port ${p}`,
        30_000,
      );
      assert.deepEqual(
        list.worlds.map((w) => [w.id, w.httpUrl]),
        [
          [1, `http://localhost:${port}`],
          [2, `http://localhost:${port + 1}`],
        ],
      );
    }
    // Without JWT_SECRET the worlds share the one made in the world directory, for its owner alone:
    // a token world 1 issued opens world 2.
    const secretFile = path.join(world, "local", "jwt-secret");
    assert.equal(fs.statSync(secretFile).mode & 0o777, 0o600);
    assert.ok(fs.readFileSync(secretFile, "utf8").trim().length >= 32);
    const issued = await fetch(`http://127.0.0.1:${port}/api/auth/anonymous`, { method: "POST" });
    assert.equal(issued.status, 201);
    const { token } = (await issued.json()) as { token: string };
    const other = await fetch(`http://127.0.0.1:${port + 1}/api/v1/world`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(other.status, 200, await other.text());
  });
});
