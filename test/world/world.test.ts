import assert from "node:assert/strict";
import fs from "node:fs";
import { Character, PlayerSession } from "../../entities/index.ts";
import { chebyshev } from "../../src/game/map/CollisionMap.ts";
import { findPath } from "../../src/game/map/pathfinding.ts";
import { VIEW_RADIUS } from "../../src/game/world/World.ts";
import { CLOSE_REPLACED } from "../../src/sessions/WorldService.ts";
import { CLOSE_RATE_LIMITED, MESSAGES_PER_SECOND } from "../../src/sessions/inputLimiter.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { forEachDialect } from "../support/dialects.ts";
import { until } from "../support/until.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import type { WsDeltas } from "../../src/ws/WsDeltas.ts";
import { makeWorldDir } from "../support/world.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { ViewCopy, type WorldUpdate } from "../../src/game/worldUpdate.ts";
import { matchMaker } from "@colyseus/core";
import { REMOVED_KEPT_TICKS, type WorldRoom } from "../../rooms/WorldRoom.ts";
import { adminBasic } from "../support/http.ts";

const FAST = { TICK_MS: "50" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Entity = { id: string; x: number; z: number };

/** The latest position of an entity that a /ws client was told about, if it is in view (either form of world:update). */
function wsView(c: WsTestClient): Map<string, Entity> {
  const copy = new ViewCopy();
  for (const e of c.events) if (e.type === "world:update") copy.apply(e.data as unknown as WorldUpdate);
  return copy.entities;
}

/** A walkable tile reachable from the spawn, exactly `distance` tiles away from it. */
function reachableTileAt(t: TestServer, distance: number): { x: number; z: number } {
  const world = t.server.world.world;
  const spawn = { x: world.content.world.spawn.x, z: world.content.world.spawn.z };
  for (let dz = -distance; dz <= distance; dz++) {
    for (const dx of [-distance, distance]) {
      const target = { x: spawn.x + dx, z: spawn.z + dz };
      const r = findPath(world.collision, spawn, target);
      if (r.ok && r.reachesTarget && r.path.length <= distance + 6) return target;
    }
  }
  throw new Error("no reachable tile at that distance");
}

// The tick's writes in a burst (the default), without and with the delta worker; and each as soon as built (TICK_WRITES=each);
// the sockets in the socket process (the default on two cores) and in this one.
for (const [worker, writes, sockets] of [[false, "burst", false], [true, "burst", true], [true, "each", false], [false, "each", true]] as const) describe(`the world: movement and visibility${worker ? " (/ws deltas in a worker thread)" : ""}${writes === "each" ? " (each update written as soon as built)" : ""}${sockets ? " (sockets in the socket process)" : ""}`, function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    // Many anonymous logins from one address: its identity budget is not what this suite tests.
    t = await startTestServer({ ...FAST, WS_DELTAS_WORKER: String(worker), TICK_WRITES: writes, SOCKET_PROCESS: String(sockets), DISABLE_RATE_LIMIT: "true" });
    assert.equal((t.server.world.deltas as WsDeltas).threaded, worker, "the configured delta builder");
    assert.equal(t.server.sockets !== undefined, sockets, "the configured socket process");
  });
  after(() => t.close());

  it("two Colyseus clients and two /ws clients (one with compact updates) in one world see each other move", async () => {
    const c1 = await WorldTestClient.join(t.baseUrl, { name: "ColyOne" });
    const c2 = await WorldTestClient.join(t.baseUrl, { name: "ColyTwo" });
    const w1 = await WsTestClient.connect(`${t.wsUrl}?name=WsOne`);
    const w2 = await WsTestClient.connect(`${t.wsUrl}?name=WsTwo&updates=compact`);
    const ids = [
      String((await c1.next("welcome")).playerId),
      String((await c2.next("welcome")).playerId),
      String((await w1.next("welcome")).playerId),
      String((await w2.next("welcome")).playerId),
    ];
    const targets = [
      { x: 2, z: 1 },
      { x: -2, z: 1 },
      { x: 1, z: -1 },
      { x: -1, z: -1 },
    ];
    c1.send("player:move", targets[0]);
    c2.send("player:move", targets[1]);
    w1.send("player:move", targets[2]);
    w2.send("player:move", targets[3]);
    const colyseus = [c1, c2];
    const ws = [w1, w2];
    for (const c of colyseus) {
      for (let i = 0; i < 4; i++) {
        await c.waitFor(() => {
          const p = c.state().players[ids[i]!];
          return p && p.x === targets[i]!.x && p.z === targets[i]!.z ? true : undefined;
        }, 5_000, `Colyseus client sees player ${i} arrive`);
      }
    }
    for (const w of ws) {
      for (let i = 0; i < 4; i++) {
        await until(() => {
          const e = wsView(w).get(ids[i]!);
          return e && e.x === targets[i]!.x && e.z === targets[i]!.z ? true : undefined;
        }, `/ws client sees player ${i} arrive`);
      }
    }
    const updates = (w: WsTestClient) => w.events.filter((e) => e.type === "world:update").map((e) => e.data as unknown as WorldUpdate);
    assert.ok(updates(w2).some((u) => (u.moved ?? []).length >= 3), "the compact client got moves by handle");
    assert.ok(updates(w1).every((u) => u.moved === undefined && u.entities.every((e) => !("h" in e))), "the other got the documented entries only");
    for (const c of colyseus) await c.room.leave();
    for (const w of ws) w.close();
  });

  it("sends each chat line once to every player in view, on both transports, in one order for all", async () => {
    const c1 = await WorldTestClient.join(t.baseUrl, { name: "ChatColA" });
    const c2 = await WorldTestClient.join(t.baseUrl, { name: "ChatColB" });
    const w1 = await WsTestClient.connect(`${t.wsUrl}?name=ChatWsA`);
    const w2 = await WsTestClient.connect(`${t.wsUrl}?name=ChatWsB&updates=compact`);
    for (const c of [c1, c2, w1, w2]) await c.next("welcome");
    // Two senders, alternating, so that lines of both go out in the same ticks (one frame to many
    // sockets, then the next: see Outbox).
    const lines = ["line one 🐉", "line two ünï", "line three", "line four"];
    for (const [i, line] of lines.entries()) (i % 2 === 0 ? w1 : c1).send("player:chat", { message: line });
    const heard = (c: WorldTestClient | WsTestClient) => c.events.filter((e) => e.type === "chat:message").map((e) => String(e.data.message));
    for (const c of [c1, c2, w1, w2]) await until(() => (heard(c).length >= lines.length ? true : undefined), "every line heard");
    await sleep(300);
    const order = heard(c1);
    assert.deepEqual([...order].sort(), [...lines].sort(), "each line once");
    for (const c of [c2, w1, w2]) assert.deepEqual(heard(c), order, "the same lines in the same order for every player");
    // Each sender's lines in the order it sent them.
    assert.ok(order.indexOf(lines[0]!) < order.indexOf(lines[2]!) && order.indexOf(lines[1]!) < order.indexOf(lines[3]!), order.join(" | "));
    for (const c of [c1, c2]) await c.room.leave();
    for (const w of [w1, w2]) w.close();
  });

  it("never gives B's decoded state A's private data", async () => {
    const a = await WorldTestClient.join(t.baseUrl, { name: "PrivateA" });
    const b = await WorldTestClient.join(t.baseUrl, { name: "PrivateB" });
    const aId = String((await a.next("welcome")).playerId);
    const bId = String((await b.next("welcome")).playerId);
    await b.waitFor(() => (b.state().players[aId] ? true : undefined), 5_000, "B sees A");
    await a.waitFor(() => ((a.state().players[aId]?.inventory as unknown[] | undefined)?.length ? true : undefined), 5_000, "A sees its inventory");
    const aSelf = a.state().players[aId]!;
    assert.ok((aSelf.inventory as unknown[]).length > 0);
    assert.ok(Object.keys(aSelf.skills as object).length > 0);
    assert.equal(aSelf.coins, 25);
    const aSeenByB = b.state().players[aId]!;
    for (const key of ["coins", "inventory", "skills", "equipment", "bank"]) {
      const v = aSeenByB[key];
      assert.ok(v === undefined || (typeof v === "object" && Object.keys(v as object).length === 0), `B must not see A's ${key}: ${JSON.stringify(v)}`);
    }
    assert.equal(aSeenByB.name, "PrivateA", "public fields are visible");
    // B's own private state is there.
    assert.ok((b.state().players[bId]!.inventory as unknown[]).length > 0);
    await a.room.leave();
    await b.room.leave();
  });

  it("shows a Colyseus client a player who logged out and straight back in, with its new state", async () => {
    const a = await WsTestClient.connect(`${t.wsUrl}?name=Relogger`);
    const welcome = await a.next("welcome");
    const aId = String(welcome.playerId);
    const b = await WorldTestClient.join(t.baseUrl, { name: "Watcher" });
    await b.waitFor(() => (b.state().players?.[aId] ? true : undefined), 5_000, "B sees A");
    // A logs out (a normal close: at once) and back in before B's view has let it go.
    a.socket.close(1000, "logout");
    await until(() => (t.server.world.world.players.has(aId) ? undefined : true), "A logged out");
    const again = await WsTestClient.connect(`${t.wsUrl}?token=${welcome.token}`);
    assert.equal((await again.next("welcome")).playerId, aId);
    again.send("player:move", { x: 2, z: 1 });
    const player = () => t.server.world.world.players.get(aId);
    await until(() => (player()?.x === 2 && player()?.z === 1 ? true : undefined), "A walked", 8_000);
    await b.waitFor(() => (b.state().players[aId]?.x === 2 && b.state().players[aId]?.z === 1 ? true : undefined), 5_000, "B sees A again, where it walked");
    assert.equal(b.state().players[aId]!.name, "Relogger");
    again.close();
    await b.room.leave();
  });

  if (!worker && writes === "burst") {
    it("remembers a player who left the state for a relogin like the one above, not one never seen, and lets its id go after REMOVED_KEPT_TICKS", async () => {
      const [listing] = await matchMaker.query({ name: "world" });
      const room = matchMaker.getLocalRoomById(listing!.roomId) as unknown as WorldRoom;
      const removedAt = (room as unknown as { removedAt: Map<string, number> }).removedAt;
      const watcher = await WorldTestClient.join(t.baseUrl, { name: "Rememberer" });
      const a = await WsTestClient.connect(`${t.wsUrl}?name=Leaver`);
      const id = String((await a.next("welcome")).playerId);
      await watcher.waitFor(() => (watcher.state().players?.[id] ? true : undefined), 5_000, "the watcher seeing the new player");
      assert.equal(removedAt.has(id), false, "a first login: nothing remembered of it");
      a.socket.close(1000, "logout");
      await until(() => (removedAt.has(id) ? true : undefined), "its id remembered as it leaves the state");
      const at = removedAt.get(id)!;
      await until(() => (removedAt.has(id) ? undefined : true), "its id let go", (REMOVED_KEPT_TICKS + 40) * 50 * 2);
      assert.ok(t.server.world.world.tick - at > REMOVED_KEPT_TICKS, `let go ${t.server.world.world.tick - at} ticks after`);
      await watcher.room.leave();
    });
  }

  if (worker) {
    it("keeps the Colyseus clients' views current when the delta worker dies: worked out here again", async () => {
      const far = reachableTileAt(t, VIEW_RADIUS + 4);
      const a = await WsTestClient.connect(`${t.wsUrl}?name=Walker`);
      const aId = String((await a.next("welcome")).playerId);
      const b = await WorldTestClient.join(t.baseUrl, { name: "Stayer" });
      await b.waitFor(() => (b.state().players?.[aId] ? true : undefined), 5_000, "B sees A");
      const deltas = t.server.world.deltas as WsDeltas;
      assert.equal(deltas.interestsThreaded, true, "B's view is worked out in the worker");
      await (deltas as unknown as { worker: { thread: { terminate(): Promise<number> } } }).worker.thread.terminate();
      await until(() => (deltas.interestsThreaded ? undefined : true), "the worker given up");
      a.send("player:move", { ...far, run: true });
      await b.waitFor(() => (b.state().players[aId] ? undefined : true), 8_000, "A leaves B's view");
      a.send("player:move", { x: 1, z: 0, run: true });
      await b.waitFor(() => (b.state().players[aId] ? true : undefined), 8_000, "A comes back into B's view");
      a.close();
      await b.room.leave();
    });
  }

  it("hides a player beyond the view radius and shows it again when near, and counts the Colyseus views' changes in the metrics", async () => {
    const admin = { Authorization: adminBasic(t.server.adminCode) };
    assert.equal((await fetch(`${t.baseUrl}/api/admin/metrics/reset`, { method: "POST", headers: admin })).status, 200);
    const far = reachableTileAt(t, VIEW_RADIUS + 4);
    const a = await WsTestClient.connect(`${t.wsUrl}?name=Wanderer`);
    const aId = String((await a.next("welcome")).playerId);
    const b = await WorldTestClient.join(t.baseUrl, { name: "StayHome" });
    const w = await WsTestClient.connect(`${t.wsUrl}?name=WatchHome`);
    await w.next("welcome");
    await b.waitFor(() => (b.state().players[aId] ? true : undefined), 5_000, "B sees A at first");
    await until(() => (wsView(w).has(aId) ? true : undefined), "W sees A at first");

    a.send("player:move", { ...far, run: true });
    await b.waitFor(() => (b.state().players[aId] ? undefined : true), 8_000, "A leaves B's view");
    await until(() => (wsView(w).has(aId) ? undefined : true), "A leaves W's view", 8_000);
    const player = t.server.world.world.players.get(aId)!;
    await until(() => (player.x === far.x && player.z === far.z ? true : undefined), "A arrives far away", 8_000);
    assert.ok(chebyshev(player, { x: 0, z: 0 }) > VIEW_RADIUS);
    assert.equal(b.state().players[aId], undefined);

    a.send("player:move", { x: 1, z: 0, run: true });
    await b.waitFor(() => (b.state().players[aId] ? true : undefined), 8_000, "A comes back into B's view");
    await until(() => (wsView(w).has(aId) ? true : undefined), "A comes back into W's view", 8_000);
    // A left B's view and came back: at least one leave and one entry.
    const { metrics } = (await (await fetch(`${t.baseUrl}/api/admin/metrics`, { headers: admin })).json()) as { metrics: { views: { entered: number; left: number } } };
    assert.ok(metrics.views.left >= 1, `the leave is counted: ${JSON.stringify(metrics.views)}`);
    assert.ok(metrics.views.entered >= 1, `the entry is counted: ${JSON.stringify(metrics.views)}`);
    a.close();
    w.close();
    await b.room.leave();
  });
});

describe("the world: bad input", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer(FAST);
  });
  after(() => t.close());

  it("answers a fuzz of bad frames with errors, stays healthy and changes no state", async () => {
    const victim = await WsTestClient.connect(`${t.wsUrl}?name=FuzzTarget`);
    const id = String((await victim.next("welcome")).playerId);
    await sleep(200);
    const player = t.server.world.world.players.get(id)!;
    const before = JSON.stringify(player.data);
    const frames = [
      "not json",
      "[]",
      "[1,2]",
      "null",
      '"string"',
      "{}",
      '{"type":5,"data":{}}',
      '{"type":"player:move","data":[]}',
      '{"type":"player:move","data":{"x":NaN,"z":0}}',
      '{"type":"player:move","data":{"x":1e308,"z":0}}',
      '{"type":"player:move","data":{"x":"3","z":"4"}}',
      '{"type":"player:move","data":{"x":1.5,"z":0}}',
      '{"type":"player:move","data":{"x":-1e20,"z":1e20}}',
      '{"type":"player:move","data":{"x":null,"z":{}}}',
      '{"type":"player:move"}',
      '{"type":"player:chat","data":{"message":["hi"]}}',
      '{"type":"player:chat","data":{"message":""}}',
      '{"type":"player:chat","data":{"message":"' + "x".repeat(5000) + '"}}',
      '{"type":"__proto__","data":{"constructor":{"prototype":{"polluted":true}}}}',
      '{"type":"player:move","data":{"__proto__":{"x":3},"z":1}}',
    ];
    for (const f of frames) victim.sendRaw(f);
    await until(() => (victim.events.filter((e) => e.type === "error").length >= frames.length - 2 ? true : undefined), "errors for the bad frames");
    await sleep(300);
    assert.equal(JSON.stringify(player.data), before, "no state changed");
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(victim.closed, undefined, "the socket stays open");

    const big = await WsTestClient.connect(`${t.wsUrl}?name=BigFrame`);
    await big.next("welcome");
    big.sendRaw(JSON.stringify({ type: "player:chat", data: { message: "x".repeat(1024 * 1024) } }));
    assert.equal((await big.waitClosed()).code, 1009);

    const c = await WorldTestClient.join(t.baseUrl, { name: "ColyFuzz" });
    const cid = String((await c.next("welcome")).playerId);
    const cBefore = JSON.stringify(t.server.world.world.players.get(cid)!.data);
    for (const [type, data] of [
      ["player:move", "x"],
      ["player:move", { x: 1e308, z: 0 }],
      ["player:move", null],
      ["no:such:event", {}],
      ["player:chat", { message: 42 }],
    ] as const) {
      c.send(type, data);
    }
    await c.waitFor(() => (c.events.filter((e) => e.type === "error").length >= 5 ? true : undefined), 5_000, "Colyseus errors");
    assert.equal(JSON.stringify(t.server.world.world.players.get(cid)!.data), cBefore);
    assert.equal((await fetch(`${t.baseUrl}/health`)).status, 200);
    victim.close();
    await c.room.leave();
  });

  it(`drops messages over ${MESSAGES_PER_SECOND} a second with one RATE_LIMITED error`, async () => {
    const c = await WsTestClient.connect(`${t.wsUrl}?name=Flooder`);
    await c.next("welcome");
    // Started at the start of a second, so the burst falls in one window. Should it straddle two
    // on a busy machine, at most one of them can hold more than 60 of its 100 messages.
    await sleep(1000 - (Date.now() % 1000) + 5);
    for (let i = 0; i < MESSAGES_PER_SECOND + 40; i++) c.send("player:move", { x: 1, z: 1 });
    await c.next("error").then((e) => assert.equal(e.code, "RATE_LIMITED"));
    // Every answer to the burst has arrived once a later message is answered (one socket, in
    // order): a bad move is, with INVALID_PAYLOAD, as soon as a new window admits it.
    await until(() => {
      if (c.events.some((e) => e.type === "error" && e.data.code === "INVALID_PAYLOAD")) return true;
      c.send("player:move", { x: "not a number" });
      return undefined;
    }, "a message of a later window to be answered", 10_000);
    const limited = c.events.filter((e) => e.type === "error" && e.data.code === "RATE_LIMITED");
    assert.equal(limited.length, 0, "one RATE_LIMITED for the whole burst (the first was taken above)");
    assert.equal(c.closed, undefined);
    c.close();
    assert.equal(CLOSE_RATE_LIMITED, 4029);
  });
});

// On both databases: logins, takeovers and the playerSessions records read and write it.
forEachDialect("the world: sessions", (ctx) => {
  let t: TestServer;
  before(async function () {
    this.timeout(30_000);
    t = await startTestServer({ ...FAST, DATABASE_URL: ctx.url });
  });
  after(() => t.close());

  it("keeps a /ws player through a reconnection within 30 s", async () => {
    const a = await WsTestClient.connect(`${t.wsUrl}?name=Returner`);
    const welcome = await a.next("welcome");
    const id = String(welcome.playerId);
    a.send("player:move", { x: 2, z: 2 });
    await until(() => (t.server.world.world.players.get(id)?.x === 2 ? true : undefined), "arrival");
    a.close();
    await sleep(200);
    assert.ok(t.server.world.world.players.has(id), "the player lingers");
    const back = await WsTestClient.connect(`${t.wsUrl}?token=${welcome.token}`);
    const again = await back.next("welcome");
    assert.equal(again.playerId, id);
    const sync = await back.next("player:sync");
    assert.deepEqual(sync.position, { x: 2, y: 10, z: 2 });
    assert.equal([...t.server.world.world.players.values()].filter((p) => p.id === id).length, 1);
    back.close();
  });

  it("logs a /ws player out at once, saved, when its client closes the socket normally (1000)", async () => {
    const a = await WsTestClient.connect(`${t.wsUrl}?name=Leaver`);
    const welcome = await a.next("welcome");
    const id = String(welcome.playerId);
    a.send("player:move", { x: 3, z: 1 });
    await until(() => (t.server.world.world.players.get(id)?.x === 3 ? true : undefined), "arrival");
    a.socket.close(1000, "logout");
    await until(() => (t.server.world.world.players.has(id) ? undefined : true), "the player to leave", 2_000);
    // Saved where it stood: the next login starts there.
    const back = await WsTestClient.connect(`${t.wsUrl}?token=${welcome.token}`);
    assert.equal((await back.next("welcome")).playerId, id);
    assert.deepEqual((await back.next("player:sync")).position, { x: 3, y: 10, z: 1 });
    back.close();
  });

  it("keeps a Colyseus player through a dropped connection and a reconnection", async () => {
    const a = await WorldTestClient.join(t.baseUrl, { name: "ColyBack" });
    const id = String((await a.next("welcome")).playerId);
    const sessionId = a.room.sessionId;
    a.send("player:move", { x: -2, z: 2 });
    await until(() => (t.server.world.world.players.get(id)?.x === -2 ? true : undefined), "arrival");
    a.room.reconnection.enabled = false;
    const token = a.room.reconnectionToken;
    void a.room.leave(false);
    await sleep(300);
    assert.ok(t.server.world.world.players.has(id), "the player stays while the seat is held");
    const room = await a.sdk.reconnect<"world">(token);
    assert.equal(room.sessionId, sessionId);
    const b = new WorldTestClient(t.baseUrl);
    b.attach(room);
    room.send("player:move", { x: -3, z: 2 });
    await until(() => (t.server.world.world.players.get(id)?.x === -3 ? true : undefined), "the reconnected client controls the player");
    await room.leave();
  });

  it("never makes two copies of a character: a second login takes over", async () => {
    const first = await WsTestClient.connect(`${t.wsUrl}?name=Twice`);
    const welcome = await first.next("welcome");
    const id = String(welcome.playerId);
    const second = await WsTestClient.connect(`${t.wsUrl}?token=${welcome.token}`);
    assert.equal((await second.next("welcome")).playerId, id);
    assert.equal((await first.next("error")).code, "SESSION_REPLACED");
    assert.equal((await first.waitClosed()).code, CLOSE_REPLACED);
    // A Colyseus login for the same account takes over from the /ws one.
    const third = await WorldTestClient.join(t.baseUrl, { token: String(welcome.token) });
    const thirdLeft = new Promise<number>((resolve) => third.room.onLeave((code: number) => resolve(code)));
    assert.equal((await third.next("welcome")).playerId, id);
    assert.equal((await second.waitClosed()).code, CLOSE_REPLACED);
    const copies = [...t.server.world.world.players.values()].filter((p) => p.id === id);
    assert.equal(copies.length, 1);
    // Simultaneous logins of one account end with one player and one live connection.
    const logins = await Promise.all([1, 2, 3].map(() => WsTestClient.connect(`${t.wsUrl}?token=${welcome.token}`)));
    const welcomes = await Promise.all(logins.map((c) => c.next("welcome")));
    assert.ok(welcomes.every((w) => w.playerId === id));
    await sleep(300);
    assert.equal(logins.filter((c) => c.closed === undefined).length, 1);
    assert.equal([...t.server.world.world.players.values()].filter((p) => p.id === id).length, 1);
    // …and the Colyseus session was taken over by them.
    assert.equal(await thirdLeft, CLOSE_REPLACED);
    assert.ok(third.events.some((e) => e.type === "error" && e.data.code === "SESSION_REPLACED"));
    for (const c of logins) c.close();
  });

  it("a login that takes a character over finds it standing: the old session's walk, action and inputs go with it", async () => {
    const first = await WsTestClient.connect(`${t.wsUrl}?name=Walked Off`);
    const welcome = await first.next("welcome");
    const id = String(welcome.playerId);
    const player = t.server.world.world.players.get(id)!;
    const from = { x: player.x, z: player.z };
    // A long walk, under way when the takeover comes, and an action queued behind it.
    first.send("player:move", { x: from.x + 12, z: from.z });
    await until(() => (player.path.length > 0 && player.x !== from.x ? true : undefined), "the walk under way");
    first.send("player:move", { x: from.x - 12, z: from.z });
    const second = await WorldTestClient.join(t.baseUrl, { token: String(welcome.token) });
    await second.next("welcome");
    assert.equal((await first.waitClosed()).code, CLOSE_REPLACED);
    const at = { x: player.x, z: player.z };
    assert.deepEqual(player.path, [], "no walk left");
    assert.equal(player.action, undefined);
    assert.equal(player.inputs.length, 0, "the old session's inputs not yet handled are dropped");
    await sleep(Number(FAST.TICK_MS) * 5);
    assert.deepEqual({ x: player.x, z: player.z }, at, "it stands where the takeover found it");
    // The new session controls it.
    second.room.send("player:move", { x: at.x, z: at.z + 2 });
    await until(() => (player.z === at.z + 2 ? true : undefined), "the new session's walk");
    await second.room.leave();
  });

  it("records logins and logouts in playerSessions", async () => {
    const c = await WorldTestClient.join(t.baseUrl, { name: "Sessioner" });
    const id = String((await c.next("welcome")).playerId);
    await sleep(200);
    await c.room.leave();
    await until(() => (t.server.world.world.players.has(id) ? undefined : true), "the player leaves on logout");
    await sleep(200);
    const rows = await t.server.db.em().find(PlayerSession, { characterId: id });
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.transport, "colyseus");
    assert.ok(rows[0]!.loginAt instanceof Date);
    assert.ok(rows[0]!.logoutAt instanceof Date);
    assert.equal(rows[0]!.logoutReason, "logout");
  });

  it("refuses an unknown form of world:update with INVALID_PAYLOAD and 4000, before any login", async () => {
    const c = await WsTestClient.connect(`${t.wsUrl}?name=OddUpdates&updates=binary`);
    const err = await c.next("error");
    assert.equal(err.code, "INVALID_PAYLOAD");
    assert.match(String(err.message), /updates must be "full" or "compact", got "binary"/);
    assert.equal((await c.waitClosed()).code, 4000);
    assert.ok(![...t.server.world.world.players.values()].some((p) => p.data.name === "OddUpdates"), "no player came in");
  });

  it("refuses someone else's character with 4003", async () => {
    const owner = await WsTestClient.connect(`${t.wsUrl}?name=Owner`);
    const id = String((await owner.next("welcome")).characterId);
    const thief = await WsTestClient.connect(`${t.wsUrl}?characterId=${id}`);
    assert.equal((await thief.next("error")).code, "FORBIDDEN");
    assert.equal((await thief.waitClosed()).code, 4003);
    await assert.rejects(WorldTestClient.join(t.baseUrl, { characterId: id }));
    owner.close();
  });
});

forEachDialect("the world: persistence", (db) => {
  it("autosaves every SAVE_INTERVAL, saves on leave, and a player's state survives a restart", async function () {
    this.timeout(30_000);
    const world = makeWorldDir();
    const env = { ...FAST, SAVE_INTERVAL: "1", DATABASE_URL: db.url, JWT_SECRET: "restart-secret-0123456789abcdef" };
    try {
      let t = await startTestServer(env, "bundled", world);
      const a = await WsTestClient.connect(`${t.wsUrl}?name=Survivor`);
      const welcome = await a.next("welcome");
      const id = String(welcome.characterId);
      a.send("player:move", { x: 3, z: 2 });
      // Autosave, while still connected.
      const saved = await (async () => {
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline) {
          const row = await t.server.db.em().findOne(Character, { id });
          if (row && Number(row.positionX) === 3 && Number(row.positionZ) === 2) return row;
          await sleep(100);
        }
        return undefined;
      })();
      assert.ok(saved, "the autosave wrote the new position while the player was online");
      const inventoryBefore = t.server.world.world.players.get(id)!.data.inventory;
      a.close();
      await t.close();

      t = await startTestServer(env, "bundled", world);
      const b = await WsTestClient.connect(`${t.wsUrl}?token=${welcome.token}`);
      const again = await b.next("welcome");
      assert.equal(again.characterId, id);
      const sync = await b.next("player:sync");
      assert.deepEqual(sync.position, { x: 3, y: 10, z: 2 });
      assert.deepEqual(t.server.world.world.players.get(id)!.data.inventory, inventoryBefore);
      b.close();
      await t.close();
    } finally {
      fs.rmSync(world, { recursive: true, force: true });
    }
  });
});

describe("the world: the Colyseus state with /ws players only", function () {
  this.timeout(20_000);
  it("is not kept while no Colyseus client is in the world, and is brought up to date for the next one", async () => {
    const t = await startTestServer(FAST);
    try {
      const [listing] = await matchMaker.query({ name: "world" });
      const room = matchMaker.getLocalRoomById(listing!.roomId) as unknown as WorldRoom;
      const w = await WsTestClient.connect(`${t.wsUrl}?name=OnlyWs`);
      const id = String((await w.next("welcome")).playerId);
      const target = reachableTileAt(t, 3);
      w.send("player:move", target);
      await until(() => {
        const e = wsView(w).get(id);
        return e && e.x === target.x && e.z === target.z ? true : undefined;
      }, "the /ws player arrives");
      await sleep(150);
      const lagging = room.state.players.get(id);
      assert.ok(lagging, "the /ws player is in the state (its schema is made when it logs in)");
      assert.notDeepEqual({ x: lagging.x, z: lagging.z }, target, "ticks without a Colyseus client leave the state alone");
      const c = await WorldTestClient.join(t.baseUrl, { name: "LateColy" });
      const seen = await c.waitFor(() => c.state().players?.[id], 5_000, "the late Colyseus client sees the /ws player");
      assert.deepEqual({ x: seen.x, z: seen.z }, target, "in its first state, where it stands now");
      w.close();
      await c.room.leave();
    } finally {
      await t.close();
    }
  });
});

describe("the world: entities on the wire", function () {
  this.timeout(20_000);
  it("sends NPCs and resources in view as world:update entities, and Colyseus clients get them in their state", async () => {
    const t = await startTestServer(FAST);
    try {
      const w = await WsTestClient.connect(`${t.wsUrl}?name=Looker`);
      await w.next("welcome");
      const first = await w.next("world:update");
      const kinds = new Set((first.entities as { kind: string }[]).map((e) => e.kind));
      assert.ok(kinds.has("npc"), "the banker and shopkeepers are in view of the spawn");
      const c = await WorldTestClient.join(t.baseUrl, { name: "LookerToo" });
      await c.waitFor(() => (Object.values((c.state() as unknown as { entities: Record<string, { kind: string }> }).entities ?? {}).some((e) => e.kind === "npc") ? true : undefined), 5_000, "npc entities in the Colyseus state");
      const far = Object.values((c.state() as unknown as { entities: Record<string, { x: number; z: number }> }).entities);
      assert.ok(far.every((e) => Math.max(Math.abs(e.x), Math.abs(e.z)) <= 16 + 8), "only what is near (npcs may have wandered a little)");
      w.close();
      await c.room.leave();
    } finally {
      await t.close();
    }
  });
});
