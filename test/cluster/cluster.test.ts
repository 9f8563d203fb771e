/**
 * A cluster of three real server processes (worlds 1, 2 and 3) sharing a real Redis (Colyseus'
 * Redis presence and driver) and one PostgreSQL database, as `ecosystem.config.js` runs them:
 * the world list, joins routed to the chosen world's process on both transports, one login
 * across the cluster (a hop with its cooldown, every item exactly once), friends and private
 * messages between processes, and a SIGKILLed process whose players come back elsewhere with their
 * last committed save.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { EquipmentSlot, InventorySlot } from "../../entities/index.ts";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { bundledContent } from "../support/content.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { createTestDatabase, freePort, type TestDatabase } from "../support/postgres.ts";
import { spawnServer, type Running } from "../support/process.ts";
import { freshRedisUrl } from "../support/redis.ts";
import { eventually } from "../support/until.ts";
import { makeWorldDir } from "../support/world.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { adminBasic } from "../support/http.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LEASE_MS = 1_500;
const HOP_COOLDOWN_S = 2;

interface Node {
  world: number;
  port: number;
  dir: string;
  run: Running;
}

describe("a cluster of three processes on Redis and PostgreSQL", function () {
  this.timeout(120_000);
  const nodes: Node[] = [];
  let pgDb: TestDatabase | undefined;
  let db: Database | undefined;
  let env: Record<string, string> = {};

  before(async function () {
    if (!process.env.TEST_PG_URL || !process.env.TEST_REDIS_URL) this.skip();
    pgDb = await createTestDatabase();
    env = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      DATABASE_URL: pgDb.url,
      REDIS_URL: await freshRedisUrl(),
      JWT_SECRET: "cluster-secret-0123456789abcdefghijklmnop",
      ADMIN_CODE: "cluster-admin-code",
      TICK_MS: "50",
      SAVE_INTERVAL: "1",
      DISABLE_RATE_LIMIT: "true",
      CHARACTER_LEASE_MS: String(LEASE_MS),
      HOP_COOLDOWN_S: String(HOP_COOLDOWN_S),
    };
    const start = async (world: number): Promise<Node> => {
      const port = await freePort();
      const dir = makeWorldDir();
      const run = await spawnServer(
        { ...env, WORLD: dir, WORLD_ID: String(world), PORT: String(port), PUBLIC_ADDRESS: `127.0.0.1:${port}` },
        undefined,
        30_000,
      );
      return { world, port, dir, run };
    };
    // The first one migrates the database; the others start together.
    nodes.push(await start(1));
    nodes.push(...(await Promise.all([start(2), start(3)])));
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: pgDb.url }), pino({ level: "silent" }));
  });

  after(async () => {
    for (const n of nodes) n.run.child.kill("SIGKILL");
    await Promise.all(nodes.map((n) => n.run.exited));
    await db?.close();
    await pgDb?.drop();
    for (const n of nodes) fs.rmSync(n.dir, { recursive: true, force: true });
  });

  const node = (world: number) => nodes.find((n) => n.world === world)!;
  const http = (world: number) => `http://127.0.0.1:${node(world).port}`;
  const ws = (world: number, query: string) => `ws://127.0.0.1:${node(world).port}/ws?${query}`;
  const get = async (url: string, token?: string): Promise<Json> => {
    const res = await fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, url);
    return (await res.json()) as Json;
  };
  /** The names of the players in a process's world (its own REST). */
  const namesIn = async (world: number, token: string): Promise<string[]> =>
    ((await get(`${http(world)}/api/v1/world`, token)).players as Json[]).map((p) => String(p.name));
  /** The world list as a process serves it, once it satisfies `ok` (listings refresh every second). */
  const worldsWhen = (from: number, ok: (worlds: Json[]) => boolean, what: string) =>
    eventually(async () => {
      const list = await get(`${http(from)}/api/v1/worlds`);
      return ok(list.worlds as Json[]) ? list : undefined;
    }, what);
  const playersOf = (worlds: Json[], id: number) => worlds.find((w) => w.id === id)?.players as number | undefined;

  /** A /ws login: the welcome and the first player:sync, or the refusal (error and close code). */
  async function login(url: string): Promise<{ client: WsTestClient; welcome?: Json; sync?: Json; refused?: Json & { close: number } }> {
    const client = await WsTestClient.connect(url);
    const first = await client.nextOf(["welcome", "error"], 20_000);
    if (first.type === "welcome") return { client, welcome: first.data, sync: await client.next("player:sync") };
    return { client, refused: { ...first.data, close: (await client.waitClosed()).code } };
  }

  /** A login that waits out the hop cooldown when it is refused for it. */
  async function loginAfterCooldown(url: string): ReturnType<typeof login> {
    const first = await login(url);
    if (first.refused?.code !== "HOP_COOLDOWN") return first;
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(String(first.refused!.until)) - Date.now()) + 100));
    return login(url);
  }

  it("lists every world of the cluster on every process, with where to join each", async () => {
    for (const from of [1, 2, 3]) {
      const list = await get(`${http(from)}/api/v1/worlds`);
      assert.deepEqual(
        (list.worlds as Json[]).map((w) => ({ id: w.id, capacity: w.capacity, status: w.status, wsUrl: w.wsUrl, httpUrl: w.httpUrl })),
        [1, 2, 3].map((id) => ({
          id,
          capacity: 2000,
          status: "online",
          wsUrl: `ws://127.0.0.1:${node(id).port}/ws?world=${id}`,
          httpUrl: `http://127.0.0.1:${node(id).port}`,
        })),
        `as process ${from} lists them`,
      );
    }
  });

  it("routes a Colyseus join and a /ws connection to the chosen world's process, and a join without a choice to the fullest world", async () => {
    // Asked of world 1's process, played in world 2's: Colyseus connects there (its public address).
    const col = await WorldTestClient.join(http(1), { name: "RouteCol", world: 2 });
    const colToken = String((await col.next("welcome")).token);
    // /ws asked of world 1's process for world 3: passed on to world 3's process.
    const viaProxy = await login(ws(1, "world=3&name=RouteWs"));
    assert.ok(viaProxy.welcome, JSON.stringify(viaProxy.refused));
    const wsToken = String(viaProxy.welcome.token);
    try {
      assert.deepEqual(await namesIn(2, colToken), ["RouteCol"]);
      assert.deepEqual(await namesIn(3, wsToken), ["RouteWs"]);
      assert.deepEqual(await namesIn(1, wsToken), []);
      // The proxied socket is a whole session: a command and its answer pass both ways.
      viaProxy.client.send("player:chat", { message: "through the proxy" });
      assert.equal((await viaProxy.client.next("chat:message")).message, "through the proxy");

      // One more player on world 2 makes it the fullest below 80%: the choice for joins that name none.
      const extra = await login(ws(2, "world=2&name=RouteExtra"));
      assert.ok(extra.welcome);
      const list = await worldsWhen(
        3,
        (w) => playersOf(w, 2) === 2 && playersOf(w, 3) === 1 && playersOf(w, 1) === 0,
        "the counts of every process in the list",
      );
      assert.equal(list.recommended, 2);
      // The monitor of any process lists every world's room, each with its /ws players.
      const monitor = await fetch(`${http(1)}/colyseus/api`, { headers: { authorization: adminBasic("cluster-admin-code") } });
      assert.equal(monitor.status, 200);
      const rooms = ((await monitor.json()) as Json).rooms as Json[];
      const wsColumn = (id: number) => rooms.find((r) => r.name === "world" && r.metadata?.world === id)?.metadata?.wsPlayers;
      assert.deepEqual([wsColumn(1), wsColumn(2), wsColumn(3)], [0, 1, 1]);
      // Its DISPOSE of another process's world room is refused as of its own (the world plays on below).
      const world2 = rooms.find((r) => r.name === "world" && r.metadata?.world === 2)!;
      const dispose = await fetch(
        `${http(1)}/colyseus/api/room/call?${new URLSearchParams({ roomId: String(world2.roomId), method: "disconnect", args: "[]" })}`,
        { headers: { authorization: adminBasic("cluster-admin-code") } },
      );
      assert.equal(dispose.status, 409);
      assert.equal(((await dispose.json()) as Json).error.code, "ROOM_ACTION_REFUSED");
      const chosenWs = await login(ws(3, "name=RouteAnyWs"));
      const chosenCol = await WorldTestClient.join(http(3), { name: "RouteAnyCol" });
      await chosenCol.next("welcome");
      assert.deepEqual((await namesIn(2, colToken)).sort(), ["RouteAnyCol", "RouteAnyWs", "RouteCol", "RouteExtra"]);
      chosenWs.client.socket.close(1000);
      extra.client.socket.close(1000);
      await chosenCol.room.leave();
    } finally {
      viaProxy.client.socket.close(1000);
      await col.room.leave();
    }
  });

  it("hops: refused within the cooldown, then the world-1 copy ends (SESSION_REPLACED) and world 2 loads every item exactly once", async () => {
    const content = await bundledContent();
    const first = await login(ws(1, "world=1&name=Hopper"));
    assert.ok(first.welcome);
    const token = String(first.welcome.token);
    const characterId = String(first.welcome.characterId);
    // Unsaved changes at the hop: an item moved to the equipment, and a walk.
    const equipable = (first.sync!.inventory as Json[]).find((s) => content.item(String(s.itemId))?.equipSlot !== undefined);
    assert.ok(equipable, "the starter kit has something to wear");
    first.client.send("inventory:use", { slot: equipable.slot });
    let last: Json = first.sync!;
    while (Object.keys(last.equipment).length === 0) last = await first.client.next("player:sync");
    const start = first.sync!.position as Json;
    const target = { x: Number(start.x) + 2, z: Number(start.z) };
    first.client.send("player:move", target);
    for (;;) {
      const update = await first.client.next("world:update");
      const me = (update.entities as Json[]).find((e) => e.id === characterId);
      if (me?.x === target.x && me.z === target.z) break;
    }

    // Too soon: refused, and the world-1 session goes on.
    const early = await login(ws(2, `world=2&token=${token}`));
    assert.equal(early.refused?.code, "HOP_COOLDOWN", JSON.stringify(early));
    assert.equal(early.refused.close, 1013);
    assert.ok(Date.parse(String(early.refused.until)) > Date.now() - 1_000);
    assert.equal(first.client.closed, undefined);
    assert.deepEqual(await namesIn(2, token), []);

    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(String(early.refused!.until)) - Date.now()) + 100));
    const hop = await login(ws(2, `world=2&token=${token}`));
    assert.ok(hop.welcome, JSON.stringify(hop.refused));
    assert.equal((await first.client.next("error")).code, "SESSION_REPLACED");
    assert.equal((await first.client.waitClosed()).code, 4009);
    // Everything the world-1 copy had, and nothing twice.
    assert.deepEqual(hop.sync!.inventory, last.inventory);
    assert.deepEqual(hop.sync!.equipment, last.equipment);
    assert.deepEqual({ x: (hop.sync!.position as Json).x, z: (hop.sync!.position as Json).z }, target);
    assert.deepEqual(await namesIn(1, token), []);
    assert.deepEqual(await namesIn(2, token), ["Hopper"]);
    const rows = await db!.em().find(InventorySlot, { characterId });
    assert.equal(rows.length, (last.inventory as Json[]).length, "one inventory row per slot");
    assert.equal((await db!.em().find(EquipmentSlot, { characterId })).length, Object.keys(last.equipment).length);
    hop.client.socket.close(1000);
  });

  it("carries friends' status, private messages and ignores between processes", async () => {
    const ann = await login(ws(1, "world=1&name=SocialAnn"));
    const bob = await login(ws(3, "world=3&name=SocialBob"));
    assert.ok(ann.welcome && bob.welcome);
    ann.client.send("social:addFriend", { name: "SocialBob" });
    await bob.client.next("social:list");
    bob.client.send("social:acceptFriend", { name: "SocialAnn" });
    const annList = await eventually(async () => {
      const l = await ann.client.next("social:list");
      return (l.friends as Json[]).length === 1 ? l : undefined;
    }, "Ann's friends list with Bob");
    assert.deepEqual(
      (annList.friends as Json[]).map((f) => ({ name: f.name, online: f.online, world: f.world })),
      [{ name: "SocialBob", online: true, world: 3 }],
    );

    // A private message from world 1's process to world 3's: delivered once, and confirmed.
    ann.client.send("social:sendMessage", { to: "SocialBob", message: "across the cluster" });
    assert.equal((await bob.client.next("social:message")).message, "across the cluster");
    assert.equal((await ann.client.next("social:messageSent")).message, "across the cluster");

    // Bob logs out: Ann hears it.
    bob.client.socket.close(1000);
    const gone = await ann.client.next("social:status", 10_000);
    assert.deepEqual({ name: gone.name, online: gone.online }, { name: "SocialBob", online: false });
    // Back on world 2 (after the hop cooldown): Ann hears where.
    const bobAgain = await loginAfterCooldown(ws(2, `world=2&token=${String(bob.welcome.token)}`));
    assert.ok(bobAgain.welcome, JSON.stringify(bobAgain.refused));
    const back = await ann.client.next("social:status", 10_000);
    assert.deepEqual({ name: back.name, online: back.online, world: back.world }, { name: "SocialBob", online: true, world: 2 });

    // Bob drops Ann and ignores her: her friend request is refused (IGNORED) and her messages never reach him.
    bobAgain.client.send("social:removeFriend", { name: "SocialAnn" });
    await bobAgain.client.next("social:list");
    bobAgain.client.send("social:addIgnore", { name: "SocialAnn" });
    const ignoring = await bobAgain.client.next("social:list");
    assert.deepEqual(
      (ignoring.ignored as Json[]).map((i) => i.name),
      ["SocialAnn"],
    );
    const listsBefore = bobAgain.client.events.filter((e) => e.type === "social:list").length;
    ann.client.send("social:addFriend", { name: "SocialBob" });
    assert.equal((await ann.client.next("error", 10_000)).code, "IGNORED");
    ann.client.send("social:sendMessage", { to: "SocialBob", message: "still there?" });
    assert.equal((await ann.client.next("error", 10_000)).event, "social:sendMessage");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(bobAgain.client.events.filter((e) => e.type === "social:message").length, 0, "no message reached Bob");
    assert.equal(bobAgain.client.events.filter((e) => e.type === "social:list").length, listsBefore, "no request reached Bob");
    ann.client.socket.close(1000);
    bobAgain.client.socket.close(1000);
  });

  it("passes agent control over REST on to the process where the agent plays", async () => {
    // The owner's character, on world 2, handed to an agent.
    const owner = await login(ws(2, "world=2&name=AgentOwner"));
    assert.ok(owner.welcome);
    const ownerToken = String(owner.welcome.token);
    const characterId = String(owner.welcome.characterId);
    owner.client.socket.close(1000);
    await eventually(async () => ((await namesIn(2, ownerToken)).includes("AgentOwner") ? undefined : true), "the owner logged out");
    const post = (world: number, path: string, body: unknown) =>
      fetch(`${http(world)}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${ownerToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const registered = (await (await post(1, "/api/agent", { characterId })).json()) as Json;
    const agentId = String(registered.agent.agentId);
    const agent = await login(ws(2, `world=2&token=${String(registered.token)}`));
    assert.ok(agent.welcome, JSON.stringify(agent.refused));
    await agent.client.next("agent:goal");

    // Asked of world 1's process, done where the character is: a message, a stop, what is nearby.
    const message = (await (await post(1, `/api/agents/${agentId}/message`, { message: "hello from another process" })).json()) as Json;
    assert.equal(message.delivered, true, JSON.stringify(message));
    assert.equal((await agent.client.next("agent:message")).message, "hello from another process");
    assert.equal((await post(1, `/api/agents/${agentId}/goal/stop`, {})).status, 200);
    assert.equal((await agent.client.next("agent:goal")).goalsPaused, true);
    const quick = await get(`${http(1)}/api/agents/${agentId}/quick-actions`, ownerToken);
    assert.ok((quick.nearby as Json[]).length > 0, "the live world's surroundings, from the process that has them");
    // Someone else's agent is refused by the process that answers, with the error shape.
    const stranger = String((await login(ws(1, "world=1&name=AgentStranger"))).welcome!.token);
    const refused = await fetch(`${http(1)}/api/agents/${agentId}/goal/stop`, { method: "POST", headers: { authorization: `Bearer ${stranger}` } });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as Json).error.code, "FORBIDDEN");
    agent.client.socket.close(1000);
  });

  it("lets a SIGKILLed process's players in on another world once their lease expires, with their last committed save", async () => {
    const content = await bundledContent();
    const victim = await login(ws(3, "world=3&name=Survivor"));
    assert.ok(victim.welcome);
    const token = String(victim.welcome.token);
    const equipable = (victim.sync!.inventory as Json[]).find((s) => content.item(String(s.itemId))?.equipSlot !== undefined)!;
    victim.client.send("inventory:use", { slot: equipable.slot });
    let last: Json = victim.sync!;
    while (Object.keys(last.equipment).length === 0) last = await victim.client.next("player:sync");
    // The autosave (SAVE_INTERVAL 1 s) commits it, and the hop cooldown passes.
    await new Promise((r) => setTimeout(r, Math.max(2_500, HOP_COOLDOWN_S * 1000 + 500)));

    // A friend on world 1 watches.
    const watcher = await login(ws(1, "world=1&name=Watcher"));
    assert.ok(watcher.welcome);
    watcher.client.send("social:addFriend", { name: "Survivor" });
    await victim.client.next("social:list");
    victim.client.send("social:acceptFriend", { name: "Watcher" });
    await eventually(async () => {
      const l = await watcher.client.next("social:list");
      return (l.friends as Json[]).some((f) => f.name === "Survivor" && f.online === true) ? true : undefined;
    }, "the watcher sees Survivor online");

    node(3).run.child.kill("SIGKILL");
    await node(3).run.exited;
    // Its world leaves the list at once (its process no longer listens).
    await worldsWhen(1, (w) => w.every((x) => x.id !== 3), "world 3 gone from the list");
    // Nobody said goodbye for its players: the other processes' sweep finds them and tells their friends.
    const offline = await watcher.client.next("social:status", 15_000);
    assert.deepEqual({ name: offline.name, online: offline.online, world: offline.world }, { name: "Survivor", online: false, world: null });

    // Logging in elsewhere waits for the dead process's lease to expire, then loads the last save.
    const back = await login(ws(1, `world=1&token=${token}`));
    assert.ok(back.welcome, JSON.stringify(back.refused));
    assert.deepEqual(back.sync!.equipment, last.equipment);
    assert.deepEqual(back.sync!.inventory, last.inventory);
    // And the friend sees it online again, on world 1.
    const again = await watcher.client.next("social:status", 10_000);
    assert.deepEqual({ name: again.name, online: again.online, world: again.world }, { name: "Survivor", online: true, world: 1 });
    back.client.socket.close(1000);
    watcher.client.socket.close(1000);
  });
});
