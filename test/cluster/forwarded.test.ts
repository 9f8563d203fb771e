/**
 * The cluster's edges: what one process tells another about a client (src/cluster/forwarded.ts).
 * A signed client address is good once, for the process it was made for; a copy of one (seen on the
 * plain-TCP hop between processes) counts as its sender's own address. Agent control passed on to
 * the process holding the character is authenticated first where it arrives, so bad tokens never
 * count against the forwarding process's address. Two real processes on Redis and one SQLite
 * database, with the limits on, the second reached through a TCP relay that shows what the first
 * sends it; then the header's rules in-process.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { Redis } from "ioredis";
import { pino } from "pino";
import { FORWARDED_HEADER, FORWARDED_MAX_AGE_MS, ForwardedAddress } from "../../src/cluster/forwarded.ts";
import { REST_LIMIT_PER_MIN } from "../../src/http/rateLimit.ts";
import { freePort } from "../support/postgres.ts";
import { spawnServer, type Running } from "../support/process.ts";
import { freshRedisUrl } from "../support/redis.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcpProxy.ts";
import { eventually } from "../support/until.ts";
import { makeWorldDir } from "../support/world.ts";
import { WsTestClient } from "../support/wsClient.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Node {
  world: number;
  port: number;
  dir: string;
  run: Running;
}

/** The forwarded-address headers a process sent through the relay, in order. */
const forwardedHeaders = (relay: TcpProxy) => [...relay.sent().matchAll(new RegExp(`^${FORWARDED_HEADER}: ([^\\r\\n]+)`, "gim"))].map((m) => m[1]!);

describe("signed client addresses between the processes of a cluster", function () {
  this.timeout(180_000);
  let redisUrl: string;
  let redis: Redis;
  let sqliteDir: string;
  let relay: TcpProxy;
  const nodes: Node[] = [];
  let a: Node;
  let b: Node;

  before(async function () {
    if (!process.env.TEST_REDIS_URL) this.skip();
    redisUrl = await freshRedisUrl();
    redis = new Redis(redisUrl);
    sqliteDir = makeWorldDir("none");
    const env = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      TRUST_PROXY: "1",
      TICK_MS: "50",
      JWT_SECRET: "forwarded-secret-0123456789abcdefghijkl",
      REDIS_URL: redisUrl,
      DATABASE_URL: `sqlite:${path.join(sqliteDir, "shared.sqlite")}`,
    };
    const start = async (world: number, port: number, publicPort: number): Promise<Node> => {
      const dir = makeWorldDir();
      const run = await spawnServer(
        { ...env, WORLD: dir, WORLD_ID: String(world), PORT: String(port), PUBLIC_ADDRESS: `127.0.0.1:${publicPort}` },
        undefined,
        60_000,
      );
      const node = { world, port, dir, run };
      nodes.push(node);
      return node;
    };
    const [portA, portB] = [await freePort(), await freePort()];
    // World 2 is reached at the relay: what world 1 passes on to it is there to read.
    relay = await startTcpProxy("127.0.0.1", portB);
    a = await start(1, portA, portA);
    b = await start(2, portB, relay.port);
    await eventually(
      async () => {
        const res = await fetch(`http://127.0.0.1:${a.port}/api/v1/worlds`, { headers: { "X-Forwarded-For": "203.0.113.99" } });
        return ((await res.json()) as Json).worlds.length === 2 ? true : undefined;
      },
      "both worlds listed",
      30_000,
    );
  });

  after(async () => {
    for (const n of nodes) n.run.child.kill("SIGKILL");
    await Promise.all(nodes.map((n) => n.run.exited));
    await relay?.close();
    redis?.disconnect();
    for (const n of nodes) fs.rmSync(n.dir, { recursive: true, force: true });
    if (sqliteDir !== undefined) fs.rmSync(sqliteDir, { recursive: true, force: true });
  });

  /** A /ws login with a bad token: refused, and counted against whichever address the server believes. */
  async function badLogin(port: number, world: number, client: string, headers: Record<string, string> = {}): Promise<void> {
    const ws = await WsTestClient.connect(`ws://127.0.0.1:${port}/ws?world=${world}&token=not-a-token`, { headers: { "X-Forwarded-For": client, ...headers } });
    assert.equal((await ws.next("error")).code, "NOT_AUTHENTICATED");
    assert.equal((await ws.waitClosed()).code, 4001);
  }
  const failures = async (client: string) => Number((await redis.get(`rsworld:rl:ws-token:${client}`)) ?? 0);

  it("accepts a proxied /ws connection's signed address once: used again, or at another process, it counts as its sender's own", async () => {
    const [client, replayer, elsewhere] = ["203.0.113.60", "203.0.113.61", "203.0.113.62"];
    await badLogin(a.port, 2, client);
    const [header] = forwardedHeaders(relay);
    assert.ok(header !== undefined, "world 1 passed the connection on with the client's address signed");
    assert.equal(await failures(client), 1, "world 2 counted the failure against the client");

    await badLogin(b.port, 2, replayer, { [FORWARDED_HEADER]: header });
    await badLogin(a.port, 1, elsewhere, { [FORWARDED_HEADER]: header });
    assert.equal(await failures(client), 1, "the copies did not count against the client");
    assert.equal(await failures(replayer), 1);
    assert.equal(await failures(elsewhere), 1);
    await eventually(() => (/signed client address used again \(replayed\)/.test(b.run.stdout()) ? true : undefined), "world 2 says it saw a replay");
    await eventually(
      () => (/signed client address made for another process/.test(a.run.stdout()) ? true : undefined),
      "world 1 says it saw another process's header",
    );
  });

  it("authenticates agent control before passing it on: bad tokens routed elsewhere do not lock out others behind the forwarding process", async () => {
    const owner = "203.0.113.70";
    const ownerLogin = await WsTestClient.connect(`ws://127.0.0.1:${b.port}/ws?world=2&name=EdgeOwner`, { headers: { "X-Forwarded-For": owner } });
    const welcome = await ownerLogin.next("welcome");
    const [ownerToken, characterId] = [String(welcome.token), String(welcome.characterId)];
    ownerLogin.close();
    const rest = (port: number, pathname: string, client: string, token: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${port}${pathname}`, {
        ...init,
        headers: { "X-Forwarded-For": client, authorization: `Bearer ${token}`, "content-type": "application/json" },
      });
    await eventually(async () => {
      const res = await rest(b.port, "/api/v1/world", owner, ownerToken);
      return ((await res.json()) as Json).players.some((p: Json) => p.name === "EdgeOwner") ? undefined : true;
    }, "the owner logged out");
    const registered = (await (await rest(a.port, "/api/agent", owner, ownerToken, { method: "POST", body: JSON.stringify({ characterId }) })).json()) as Json;
    const agentId = String(registered.agent.agentId);
    const agent = await WsTestClient.connect(`ws://127.0.0.1:${b.port}/ws?world=2&token=${String(registered.token)}`, {
      headers: { "X-Forwarded-For": owner },
    });
    try {
      await agent.next("agent:goal");
      const stop = `/api/agents/${agentId}/goal/stop`;
      // A client with bad tokens, at world 1, for an agent playing on world 2: refused at world 1.
      for (let i = 0; i < REST_LIMIT_PER_MIN; i++) {
        const res = await rest(a.port, stop, "203.0.113.71", `not-a-token-${i}`, { method: "POST" });
        assert.equal(res.status, 401, `attempt ${i + 1}`);
      }
      assert.equal((await rest(a.port, stop, "203.0.113.71", "not-a-token", { method: "POST" })).status, 429, "the client's own budget is spent");
      // Another client behind world 1 is passed on and served.
      const other = "203.0.113.72";
      const served = await rest(a.port, stop, other, ownerToken, { method: "POST" });
      assert.equal(served.status, 200, await served.text());
      assert.equal((await agent.next("agent:goal")).goalsPaused, true);
      assert.equal(relay.sent().split(`POST ${stop} `).length - 1, 1, "only the good request went on to world 2");
      // World 2 counted it against the client (as world 1 did), never against world 1's address.
      assert.equal(await redis.get(`rsworld:rl:rest:${other}`), "2");
      assert.equal(await redis.get("rsworld:rl:rest:127.0.0.1"), null);
      // Its signed address is spent: sent again, it counts as its sender's.
      const header = forwardedHeaders(relay).at(-1)!;
      const again = await fetch(`http://127.0.0.1:${b.port}/api/nothing`, { headers: { "X-Forwarded-For": "203.0.113.73", [FORWARDED_HEADER]: header } });
      assert.equal(again.status, 404);
      assert.equal(await redis.get(`rsworld:rl:rest:${other}`), "2");
      assert.equal(await redis.get("rsworld:rl:rest:203.0.113.73"), "1");
    } finally {
      agent.close();
    }
  });
});

describe("a signed client address (in-process)", () => {
  const logs: { msg: string }[] = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => logs.push(JSON.parse(line) as { msg: string }) });
  let now = 1_000_000;
  const make = (ownIds: string[], secret = "secret-0123456789") => new ForwardedAddress({ secret, ownIds: () => ownIds, logger, now: () => now });
  const request = (header: string | undefined, peer = "10.0.0.1") =>
    ({ headers: header === undefined ? {} : { [FORWARDED_HEADER]: header }, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;

  beforeEach(() => {
    logs.length = 0;
    now = 1_000_000;
  });

  it("verifies once, at the process it names, within its age; the same request asked again keeps its answer", () => {
    const proxy = make(["proxy"]);
    const target = make(["target", "target-lease-owner"]);
    const header = proxy.sign("198.51.100.7", "target");
    const first = request(header);
    assert.equal(target.verify(first), "198.51.100.7");
    assert.equal(target.verify(first), "198.51.100.7", "the upgrade listener and the gateway ask of one request");
    assert.equal(target.verify(request(header)), undefined, "another request with the same header");
    assert.match(logs.at(-1)!.msg, /used again \(replayed\)/);
    assert.equal(make(["other"]).verify(request(header)), undefined);
    assert.match(logs.at(-1)!.msg, /made for another process/);
    assert.equal(target.verify(request(proxy.sign("198.51.100.8", "target-lease-owner"))), "198.51.100.8", "either of its ids");
    const old = proxy.sign("198.51.100.9", "target");
    now += FORWARDED_MAX_AGE_MS + 1;
    assert.equal(target.verify(request(old)), undefined, "too old");
  });

  it("ignores what the cluster's secret did not sign, without a warning (any client can send it)", () => {
    const target = make(["target"]);
    const header = make([], "secret-0123456789").sign("198.51.100.7", "target");
    const parts = header.split(";");
    const cases = [
      undefined,
      "",
      "garbage",
      make([], "another-secret").sign("198.51.100.7", "target"),
      [encodeURIComponent("203.0.113.1"), ...parts.slice(1)].join(";"),
      [...parts.slice(0, 3), "other", parts[4]].join(";"),
      [parts[0], now + 1, ...parts.slice(2)].join(";"),
      parts.slice(0, 4).join(";"),
      `${header};extra`,
      [parts[0], parts[1], "short", ...parts.slice(3)].join(";"),
      ["%E0%A4%A", ...parts.slice(1)].join(";"),
    ];
    for (const h of cases) assert.equal(target.verify(request(h)), undefined, String(h));
    assert.deepEqual(logs, []);
    assert.equal(target.verify(request(header)), "198.51.100.7", "the real one, after all these");
  });

  it("says nothing for an empty address (the proxy did not know it)", () => {
    assert.equal(make(["target"]).verify(request(make([]).sign("", "target"))), undefined);
  });
});
