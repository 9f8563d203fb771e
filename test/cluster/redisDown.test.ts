/**
 * What an operator meets when a cluster's Redis is down: the real server process against a Redis
 * that is not there at startup (one line naming REDIS_URL, exit 69, where there were ~20
 * `[ioredis] Unhandled error event` traces a second and then a crash), and against a throwaway
 * `redis-server` SIGKILLed while the process runs (no unhandled-error traces, one line when it goes
 * and one when it is back, `/health` says so, the world goes on, the rate limits count in memory);
 * then `scripts/check-redis.ts`, which `npm run cluster:start` runs before PM2.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { EXIT_UNAVAILABLE } from "../../src/exit.ts";
import { HEALTH_RESPONSES } from "../../src/http/routes/health.ts";
import { freePort } from "../support/postgres.ts";
import { ROOT, runToExit, spawnServer, type Running } from "../support/process.ts";
import { eventually } from "../support/until.ts";
import { makeWorldDir } from "../support/world.ts";
import { WsTestClient } from "../support/wsClient.ts";

interface LogLine {
  level: number;
  msg: string;
  component?: string;
}

function logLines(stdout: string): LogLine[] {
  return stdout
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as LogLine);
}

/** A `redis-server` of this test's own on `port`, nothing kept on disk; resolves once it answers. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  await eventually(
    () => (spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout.trim() === "PONG" ? true : undefined),
    "redis-server to answer",
    20_000,
  );
  return child;
}

async function sigkill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await gone;
}

/** A cluster process needs JWT_SECRET beside REDIS_URL (src/config/env.ts). */
const CLUSTER_SECRET = "redis-down-test-secret-0123456789abcdef";

describe("a cluster process whose Redis is down", function () {
  this.timeout(120_000);
  let world: string;
  let running: Running | undefined;
  let redis: ChildProcess | undefined;
  beforeEach(() => {
    world = makeWorldDir();
  });
  afterEach(async () => {
    running?.child.kill("SIGKILL");
    running = undefined;
    if (redis !== undefined) await sigkill(redis);
    redis = undefined;
    fs.rmSync(world, { recursive: true, force: true });
  });

  it("at startup: one line naming REDIS_URL and the address, no password, no ioredis traces, exit 69", async () => {
    const exit = await runToExit(
      { NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", WORLD: world, REDIS_URL: "redis://:hunter2secret@127.0.0.1:1", JWT_SECRET: CLUSTER_SECRET },
      undefined,
      60_000,
    );
    assert.equal(exit.code, EXIT_UNAVAILABLE, exit.stderr.slice(0, 2000));
    assert.equal(
      exit.stderr,
      "rs-world-server: failed to start: cannot reach Redis at 127.0.0.1:1 (REDIS_URL): connection refused; start Redis (redis-server --daemonize yes) or fix REDIS_URL\n",
    );
    assert.doesNotMatch(exit.stdout + exit.stderr, /Unhandled error event|hunter2secret|^\s+at /m);
    // The few lines before the start (the generated secrets, the content), nothing per retry.
    assert.ok(exit.stdout.trim().split("\n").length < 10, exit.stdout);
  });

  it("while running: no unhandled-error traces, one line when it goes and one when it is back, /health says so, the world and the rate limits go on", async function () {
    if (spawnSync("redis-server", ["--version"]).error !== undefined) this.skip();
    const redisPort = await freePort();
    redis = await startRedis(redisPort);
    const port = await freePort();
    running = await spawnServer(
      {
        NODE_ENV: "test",
        LOG_LEVEL: "info",
        HOST: "127.0.0.1",
        PORT: String(port),
        WORLD: world,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        JWT_SECRET: CLUSTER_SECRET,
        PUBLIC_ADDRESS: `127.0.0.1:${port}`,
        TICK_MS: "100",
      },
      undefined,
      60_000,
    );
    const health = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      return { code: res.status, body: HEALTH_RESPONSES.health.parse(await res.json()) };
    };
    assert.deepEqual((await health()).body.redis, { status: "up" });
    const ws = await WsTestClient.connect(`ws://127.0.0.1:${port}/ws?world=1`);
    await ws.next("welcome", 20_000);

    await sigkill(redis);
    redis = undefined;
    const down = await eventually(
      async () => {
        const h = await health();
        return h.body.redis?.status === "down" ? h : undefined;
      },
      "/health to say Redis is down",
      30_000,
    );
    // Readiness stands: the process serves its own world without Redis (see health.ts).
    assert.equal(down.code, 200);
    assert.equal(down.body.status, "ok");
    assert.ok(down.body.redis?.downSince !== undefined);
    // Several reconnections later (one every 2 s at most), still one line about it.
    await new Promise((r) => setTimeout(r, 8_000));
    // The world goes on for the player already in it: it still talks, and hears itself.
    ws.send("player:chat", { message: "still here" });
    assert.equal((await ws.next("chat:message", 20_000)).message, "still here");
    // The rate limits count in memory: answered, and counted (RateLimit-Remaining goes down).
    const remaining = async () => Number((await fetch(`http://127.0.0.1:${port}/api/data/skill-unlocks`)).headers.get("ratelimit-remaining"));
    const first = await remaining();
    assert.ok(Number.isInteger(first), "a RateLimit-Remaining header");
    assert.equal(await remaining(), first - 1);
    assert.equal((await health()).body.redis?.status, "down");

    redis = await startRedis(redisPort);
    await eventually(async () => ((await health()).body.redis?.status === "up" ? true : undefined), "/health to say Redis is back", 30_000);
    const out = running.stdout() + running.stderr();
    assert.doesNotMatch(out, /Unhandled error event|RedisPresence: (pub|sub) connection error/);
    const redisLines = logLines(running.stdout()).filter((l) => l.component === "redis");
    assert.equal(redisLines.filter((l) => /cannot be reached/.test(l.msg)).length, 1, JSON.stringify(redisLines));
    assert.equal(redisLines.filter((l) => /answers again/.test(l.msg)).length, 1, JSON.stringify(redisLines));
    // Not ended by an unhandled rejection of a Redis command meanwhile.
    assert.equal(running.child.exitCode, null, running.stdout().slice(-3000));
    ws.close();
  });
});

describe("scripts/check-redis.ts (before npm run cluster:start)", function () {
  this.timeout(60_000);
  const script = path.join(ROOT, "scripts", "check-redis.ts");
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, [script, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, encoding: "utf8" });

  it("with Redis down: one line saying so and how to start Redis, exit 69", () => {
    const r = run([], { REDIS_URL: "redis://127.0.0.1:1" });
    assert.equal(r.status, EXIT_UNAVAILABLE, r.stderr);
    assert.equal(r.stdout, "");
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0]!,
      /^rs-world: cannot reach Redis at 127\.0\.0\.1:1 \(REDIS_URL\): connection refused; start Redis \(redis-server --daemonize yes; to install it: apt-get install redis-server, or brew install redis\) or set REDIS_URL; the cluster was not started$/,
    );
  });

  it("with Redis there: silent, exit 0", function () {
    if (!process.env.TEST_REDIS_URL) this.skip();
    const r = run([], { REDIS_URL: process.env.TEST_REDIS_URL });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout + r.stderr, "");
  });

  it("--help says what it does, exit 0", () => {
    const r = run(["--help"], {});
    assert.equal(r.status, 0);
    assert.match(r.stdout, /REDIS_URL/);
  });

  it("is run by npm run cluster:start before PM2", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    assert.match(pkg.scripts["precluster:start"]!, /node scripts\/check-redis\.ts/);
  });
});
