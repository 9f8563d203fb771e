/**
 * Numbered worlds on one process (no Redis): the world list, a join that names its world or
 * leaves the choice to the matchmaker, refusals of unknown and malformed worlds on both
 * transports, and a world's capacity. Several processes are in cluster.test.ts.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { WsTestClient } from "../support/wsClient.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("worlds on one process", function () {
  this.timeout(30_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ WORLD_ID: "7", WORLD_CAPACITY: "2", DISABLE_RATE_LIMIT: "true", TICK_MS: "50" });
  });
  after(() => t?.close());

  const worlds = async (): Promise<Json> => {
    const res = await fetch(`${t.baseUrl}/api/v1/worlds`);
    assert.equal(res.status, 200);
    return (await res.json()) as Json;
  };

  it("lists its world with players, capacity, status and where to join it, and recommends it", async () => {
    const list = await worlds();
    assert.equal(list.success, true);
    assert.deepEqual(
      list.worlds.map((w: Json) => ({ ...w })),
      [{ id: 7, players: 0, capacity: 2, status: "online", wsUrl: `ws://localhost:${t.server.port}/ws?world=7`, httpUrl: `http://localhost:${t.server.port}` }],
    );
    assert.equal(list.recommended, 7);
    // The hop cooldown (HOP_COOLDOWN_S, 10 s by default), which the browser client counts down.
    assert.equal(list.hopCooldownS, 10);
  });

  it("joins the named world on both transports (a number, or its digits), and counts the players in the list", async () => {
    const ws = await WsTestClient.connect(`${t.wsUrl}?world=7&name=WorldWs`);
    // The welcome says which world the player is in.
    assert.equal((await ws.next("welcome")).world, 7);
    const col = await WorldTestClient.join(t.baseUrl, { name: "WorldCol", world: "7" });
    assert.equal((await col.next("welcome")).world, 7);
    try {
      // The listing is refreshed every second.
      let list = await worlds();
      for (const deadline = Date.now() + 3_000; list.worlds[0].players !== 2; list = await worlds()) {
        assert.ok(Date.now() < deadline, `players counted: ${JSON.stringify(list)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(list.worlds[0].status, "full");

      // Full: a third player is refused with WORLD_FULL on both transports, and nothing of it is loaded.
      const third = await WsTestClient.connect(`${t.wsUrl}?name=WorldThird`);
      assert.equal((await third.next("error")).code, "WORLD_FULL");
      assert.equal((await third.waitClosed()).code, 1013);
      await assert.rejects(WorldTestClient.join(t.baseUrl, { name: "WorldFourth" }), /WORLD_FULL/);
      assert.equal(t.server.world.world.players.size, 2);
    } finally {
      ws.close();
      await col.room.leave();
    }
  });

  it("refuses a world no process runs, and a malformed world, with the error shape on both transports", async () => {
    const before = t.server.world.world.players.size;
    const unknown = await WsTestClient.connect(`${t.wsUrl}?world=8`);
    const e = await unknown.next("error");
    assert.equal(e.code, "UNKNOWN_WORLD");
    assert.match(String(e.message), /no world 8/);
    assert.equal((await unknown.waitClosed()).code, 4004);
    for (const bad of ["0", "abc", "10000", "1.5", "-1"]) {
      const c = await WsTestClient.connect(`${t.wsUrl}?world=${encodeURIComponent(bad)}`);
      assert.equal((await c.next("error")).code, "INVALID_WORLD", bad);
      assert.equal((await c.waitClosed()).code, 4000, bad);
    }
    await assert.rejects(WorldTestClient.join(t.baseUrl, { world: 8 }), /UNKNOWN_WORLD: there is no world 8/);
    for (const bad of [0, "abc", 10_000, 1.5, true, { n: 1 }]) {
      await assert.rejects(WorldTestClient.join(t.baseUrl, { world: bad }), /INVALID_WORLD/, JSON.stringify(bad));
    }
    // Nothing joined meanwhile.
    assert.equal(t.server.world.world.players.size, before);
    // The refused joins reached the matchmaker's create, whose room Colyseus disposed: that room
    // was never the world, so the server goes on (it once closed, taking it for the world's loss).
    assert.equal((await fetch(`${t.baseUrl}/health`)).status, 200);
    await assert.rejects(WorldTestClient.join(t.baseUrl, { world: 9 }), /UNKNOWN_WORLD/);
    await assert.rejects(WorldTestClient.join(t.baseUrl, { world: "x" }), /INVALID_WORLD/);
  });
});
