/**
 * Rate limits and authentication-attempt budgets across the processes of a cluster: with REDIS_URL
 * every budget (REST, REST authentication, /ws anonymous identities, /ws failed tokens) is counted
 * in Redis and shared by the processes; without it each process counts on its own. Two real
 * processes on one Redis and one SQLite database, with limits on, and two without Redis; then the
 * counters in-process, against a Redis that cannot be reached, that stops answering, and that goes
 * away and comes back (src/cluster/sharedLimits.ts).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import { Redis } from "ioredis";
import { pino } from "pino";
import { AuthAttempts, TooManyAttempts } from "../../src/auth/attemptLimiter.ts";
import { TokenError } from "../../src/auth/tokens.ts";
import { limitConnection, REDIS_COMMAND_TIMEOUT_MS } from "../../src/cluster/sharedLimits.ts";
import { AUTH_LIMIT_PER_MIN, createRateLimiters, REST_LIMIT_PER_MIN } from "../../src/http/rateLimit.ts";
import { freePort } from "../support/postgres.ts";
import { spawnServer, type Running } from "../support/process.ts";
import { freshRedisUrl } from "../support/redis.ts";
import { startTcpProxy } from "../support/tcpProxy.ts";
import { eventually } from "../support/until.ts";
import { makeWorldDir } from "../support/world.ts";
import { WsTestClient } from "../support/wsClient.ts";

interface Node {
  world: number;
  port: number;
  dir: string;
  run: Running;
}

const AUTH_REFUSAL = `too many authentication attempts: at most ${AUTH_LIMIT_PER_MIN} per minute`;

/** A request from `client` (the server trusts one proxy: the test, which says whom it forwards). */
async function request(port: number, pathname: string, client: string, init: RequestInit = {}): Promise<{ res: Response; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`, { ...init, headers: { "X-Forwarded-For": client } });
  const text = await res.text();
  return { res, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

function ws(node: Node, client: string, query = ""): Promise<WsTestClient> {
  return WsTestClient.connect(`ws://127.0.0.1:${node.port}/ws?world=${node.world}${query}`, { headers: { "X-Forwarded-For": client } });
}

describe("rate limits across the processes of a cluster", function () {
  this.timeout(60_000);
  let redisUrl: string;
  let sqliteDir: string;
  const nodes: Node[] = [];
  const byName: Record<"a" | "b" | "alone1" | "alone2", Node> = {} as never;

  before(async function () {
    if (!process.env.TEST_REDIS_URL) this.skip();
    redisUrl = await freshRedisUrl();
    sqliteDir = makeWorldDir("none");
    const env = { NODE_ENV: "test", LOG_LEVEL: "info", HOST: "127.0.0.1", TRUST_PROXY: "1", JWT_SECRET: "rate-limits-secret-0123456789abcdefghij" };
    const start = async (world: number, extra: Record<string, string>): Promise<Node> => {
      const port = await freePort();
      const dir = makeWorldDir();
      const run = await spawnServer({ ...env, ...extra, WORLD: dir, WORLD_ID: String(world), PORT: String(port) }, undefined, 30_000);
      const node = { world, port, dir, run };
      nodes.push(node);
      return node;
    };
    const cluster = (world: number, port?: number) => ({
      REDIS_URL: redisUrl,
      DATABASE_URL: `sqlite:${path.join(sqliteDir, "shared.sqlite")}`,
      ...(port ? { PUBLIC_ADDRESS: `127.0.0.1:${port}` } : {}),
    });
    // Two processes on their own (SQLite each) start alongside the cluster's first one, which
    // migrates the shared database before the second starts.
    [byName.a, byName.alone1, byName.alone2] = await Promise.all([start(1, cluster(1)), start(1, {}), start(2, {})]);
    byName.b = await start(2, cluster(2));
  });

  after(async () => {
    for (const n of nodes) n.run.child.kill("SIGKILL");
    await Promise.all(nodes.map((n) => n.run.exited));
    for (const n of nodes) fs.rmSync(n.dir, { recursive: true, force: true });
    if (sqliteDir !== undefined) fs.rmSync(sqliteDir, { recursive: true, force: true });
  });

  it(`counts a client's REST requests on both processes in one budget: the ${REST_LIMIT_PER_MIN + 1}st in a minute gets 429 with the error body and headers`, async () => {
    const { a, b } = byName;
    const client = "203.0.113.10";
    for (let i = 0; i < REST_LIMIT_PER_MIN; i++) {
      const { res } = await request(i % 2 === 0 ? a.port : b.port, "/api/nothing", client);
      assert.equal(res.status, 404, `request ${i + 1}`);
      assert.equal(res.headers.get("ratelimit-remaining"), String(REST_LIMIT_PER_MIN - 1 - i), `request ${i + 1}: what is left of the shared budget`);
    }
    for (const node of [a, b]) {
      const { res, body } = await request(node.port, "/api/nothing", client);
      assert.equal(res.status, 429, `world ${node.world}`);
      assert.deepEqual(body, {
        success: false,
        error: { code: "RATE_LIMITED", message: `rate limit exceeded: at most ${REST_LIMIT_PER_MIN} requests per minute` },
      });
      assert.equal(res.headers.get("ratelimit-limit"), String(REST_LIMIT_PER_MIN));
      assert.equal(res.headers.get("ratelimit-remaining"), "0");
      assert.equal(res.headers.get("ratelimit-policy"), `${REST_LIMIT_PER_MIN};w=60`);
      const reset = Number(res.headers.get("ratelimit-reset"));
      assert.ok(reset > 0 && reset <= 60, `RateLimit-Reset ${reset}`);
      const retry = Number(res.headers.get("retry-after"));
      assert.ok(retry > 0 && retry <= 60, `Retry-After ${retry}`);
    }
    // Another client has its own budget; the count lives in Redis under its namespaced key, for the window.
    assert.equal((await request(b.port, "/api/nothing", "203.0.113.11")).res.status, 404);
    const redis = new Redis(redisUrl);
    try {
      assert.equal(await redis.get(`rsworld:rl:rest:${client}`), String(REST_LIMIT_PER_MIN + 2));
      const ttl = await redis.pttl(`rsworld:rl:rest:${client}`);
      assert.ok(ttl > 0 && ttl <= 60_000, `TTL ${ttl} ms`);
    } finally {
      redis.disconnect();
    }
  });

  it("counts authentication attempts on both processes in one budget: REST token requests, /ws anonymous identities and /ws bad tokens", async () => {
    const { a, b } = byName;
    // POST /api/auth/anonymous, alternating between the processes.
    let token = "";
    for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) {
      const { res, body } = await request(i % 2 === 0 ? a.port : b.port, "/api/auth/anonymous", "203.0.113.20", { method: "POST" });
      assert.equal(res.status, 201, `attempt ${i + 1}`);
      token = String((body as { token: string }).token);
    }
    const refused = await request(b.port, "/api/auth/anonymous", "203.0.113.20", { method: "POST" });
    assert.equal(refused.res.status, 429);
    assert.deepEqual(refused.body, { success: false, error: { code: "RATE_LIMITED", message: AUTH_REFUSAL } });
    assert.ok(Number(refused.res.headers.get("retry-after")) > 0);

    // /ws without a token: a new anonymous identity each, from one budget.
    const open: WsTestClient[] = [];
    try {
      for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) {
        const client = await ws(i % 2 === 0 ? a : b, "203.0.113.21");
        open.push(client);
        await client.next("welcome");
      }
      for (const node of [a, b]) {
        const client = await ws(node, "203.0.113.21");
        open.push(client);
        const error = await client.next("error");
        assert.equal(error.code, "RATE_LIMITED", `world ${node.world}`);
        assert.match(String(error.message), new RegExp(`^${AUTH_REFUSAL}; retry in \\d+ s$`));
        assert.equal((await client.waitClosed()).code, 4029);
      }
    } finally {
      for (const client of open) client.close();
    }

    // /ws with bad tokens: once the shared budget of failures is used, not even a good token is checked.
    for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) {
      const client = await ws(i % 2 === 0 ? a : b, "203.0.113.22", `&token=not-a-token-${i}`);
      assert.equal((await client.next("error")).code, "NOT_AUTHENTICATED", `attempt ${i + 1}`);
      assert.equal((await client.waitClosed()).code, 4001);
    }
    for (const node of [a, b]) {
      const client = await ws(node, "203.0.113.22", `&token=${token}`);
      assert.equal((await client.next("error")).code, "RATE_LIMITED", `world ${node.world}`);
      assert.equal((await client.waitClosed()).code, 4029);
    }
    // The good token itself is fine from another address.
    const good = await ws(b, "203.0.113.23", `&token=${token}`);
    await good.next("welcome");
    good.close();
  });

  it("without REDIS_URL, each process counts on its own: the sharing comes from Redis", async () => {
    const { alone1, alone2 } = byName;
    for (let i = 0; i < REST_LIMIT_PER_MIN; i++) assert.equal((await request(alone1.port, "/api/nothing", "203.0.113.30")).res.status, 404);
    assert.equal((await request(alone1.port, "/api/nothing", "203.0.113.30")).res.status, 429);
    const other = await request(alone2.port, "/api/nothing", "203.0.113.30");
    assert.equal(other.res.status, 404, "the other process has a budget of its own");
    assert.equal(other.res.headers.get("ratelimit-remaining"), String(REST_LIMIT_PER_MIN - 1));

    for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) {
      const client = await ws(alone1, "203.0.113.31", `&token=not-a-token-${i}`);
      assert.equal((await client.next("error")).code, "NOT_AUTHENTICATED");
    }
    const refused = await ws(alone1, "203.0.113.31", "&token=not-a-token");
    assert.equal((await refused.next("error")).code, "RATE_LIMITED");
    const elsewhere = await ws(alone2, "203.0.113.31", "&token=not-a-token");
    assert.equal((await elsewhere.next("error")).code, "NOT_AUTHENTICATED", "checked: the other process has not counted a failure");
  });
});

describe("shared rate-limit counters (in-process)", function () {
  this.timeout(30_000);
  let redisUrl: string;
  const logs: { level: number; msg: string }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => logs.push(JSON.parse(line) as { level: number; msg: string }) });

  before(async function () {
    if (!process.env.TEST_REDIS_URL) this.skip();
    redisUrl = await freshRedisUrl();
  });

  /** A server with the REST limit only, counting where `url` says. */
  async function restServer(url: string | undefined): Promise<{ get: () => Promise<Response>; owner: object; close: () => Promise<void> }> {
    const app = express();
    const limits = createRateLimiters(false, { redisUrl: url, owner: app, logger });
    app.use(limits.rest, (_req, res) => {
      res.status(204).end();
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const attempts = new AuthAttempts(true, { redisUrl: url, owner: app, logger });
    const { port } = server.address() as AddressInfo;
    return {
      get: () => fetch(`http://127.0.0.1:${port}/`),
      owner: app,
      close: async () => {
        server.close();
        await attempts.close();
      },
    };
  }

  async function hammer(get: () => Promise<Response>, n: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push((await get()).status);
    return statuses;
  }

  it("with a Redis that cannot be reached, counts in this process with the same limits, without waiting for Redis, and says so once", async () => {
    logs.length = 0;
    const unreachable = `redis://127.0.0.1:${await freePort()}`;
    const s = await restServer(unreachable);
    const attempts = new AuthAttempts(true, { redisUrl: unreachable, owner: s.owner, logger });
    try {
      const started = Date.now();
      const statuses = await hammer(s.get, REST_LIMIT_PER_MIN + 1);
      assert.deepEqual(statuses, [...Array<number>(REST_LIMIT_PER_MIN).fill(204), 429]);
      // Waiting for Redis on each check would take (REST_LIMIT_PER_MIN + 1) × REDIS_COMMAND_TIMEOUT_MS;
      // a quarter of that is far above any machine's time for the requests themselves (a loaded CI
      // machine took 2.6 s where a tight bound of two timeouts expected under 2).
      const waitingEach = (REST_LIMIT_PER_MIN + 1) * REDIS_COMMAND_TIMEOUT_MS;
      assert.ok(Date.now() - started < waitingEach / 4, `took ${Date.now() - started} ms: it waited for Redis (${waitingEach} ms if on each check)`);
      for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) await attempts.takeAnonymousIdentity("198.51.100.1");
      await assert.rejects(attempts.takeAnonymousIdentity("198.51.100.1"), TooManyAttempts);
      await eventually(() => logs.some((l) => /Redis cannot be reached/.test(l.msg)) || undefined, "the outage in the log");
      assert.equal(logs.filter((l) => /Redis cannot be reached/.test(l.msg)).length, 1, "said once, not on every reconnection");
    } finally {
      await s.close();
    }
  });

  it("counts in memory while Redis is away or does not answer, and in Redis again once it is back", async () => {
    logs.length = 0;
    const url = new URL(redisUrl);
    const proxy = await startTcpProxy(url.hostname, Number(url.port || 6379));
    const viaProxy = `redis://127.0.0.1:${proxy.port}${url.pathname}`;
    const s = await restServer(viaProxy);
    const redis = new Redis(redisUrl);
    const key = "rsworld:rl:rest:127.0.0.1";
    try {
      await eventually(() => limitConnection({ redisUrl: viaProxy, owner: s.owner })!.status === "ready" || undefined, "the connection");
      await redis.del(key);
      assert.deepEqual(await hammer(s.get, 3), [204, 204, 204]);
      assert.equal(await redis.get(key), "3");

      // Stalled: a check waits for Redis at most REDIS_COMMAND_TIMEOUT_MS, then counts in memory.
      proxy.stall();
      const started = Date.now();
      assert.equal((await s.get()).status, 204);
      const waited = Date.now() - started;
      assert.ok(waited >= REDIS_COMMAND_TIMEOUT_MS * 0.9 && waited < REDIS_COMMAND_TIMEOUT_MS * 3, `waited ${waited} ms`);

      // Gone: counted in memory at once, the limit still holds.
      proxy.refuse(true);
      proxy.cut();
      proxy.resume();
      await eventually(() => logs.some((l) => /Redis cannot be reached/.test(l.msg)) || undefined, "the outage in the log");
      const statuses = await hammer(s.get, REST_LIMIT_PER_MIN + 1);
      assert.equal(statuses.filter((st) => st === 204).length, REST_LIMIT_PER_MIN - 1, "the memory counted the stalled request too");
      assert.equal(statuses.at(-1), 429);

      // Back: the count is Redis's again (what was counted there before, plus what follows).
      proxy.refuse(false);
      await eventually(() => logs.some((l) => /Redis answers again/.test(l.msg)) || undefined, "the recovery in the log", 10_000);
      const before = Number(await redis.get(key));
      assert.equal((await s.get()).status, 204);
      assert.equal(Number(await redis.get(key)), before + 1);
    } finally {
      await s.close();
      redis.disconnect();
      await proxy.close();
    }
  });

  it("shares both socket budgets between processes (two servers here), and closes its connection with the server", async () => {
    const [one, two] = [{}, {}];
    const first = new AuthAttempts(true, { redisUrl, owner: one, logger });
    const second = new AuthAttempts(true, { redisUrl, owner: two, logger });
    const connection = limitConnection({ redisUrl, owner: one })!;
    try {
      // Until it is ready, a process counts in memory (a server's is, long before its first request).
      await eventually(() => [connection, limitConnection({ redisUrl, owner: two })!].every((c) => c.status === "ready") || undefined, "the connections");
      const bad = () => Promise.reject(new TokenError("bad token"));
      for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) await assert.rejects((i % 2 === 0 ? first : second).checkToken("198.51.100.2", bad), TokenError);
      await assert.rejects(
        first.checkToken("198.51.100.2", async () => "good"),
        TooManyAttempts,
      );
      await assert.rejects(
        second.checkToken("198.51.100.2", async () => "good"),
        TooManyAttempts,
      );
      assert.equal(await first.checkToken("198.51.100.3", async () => "good"), "good", "another address");

      for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) await (i % 2 === 0 ? first : second).takeAnonymousIdentity("198.51.100.4");
      await assert.rejects(second.takeAnonymousIdentity("198.51.100.4"), TooManyAttempts);
    } finally {
      await first.close();
      await second.close();
    }
    assert.equal(connection.status, "end", "closed with the server");
  });
});
