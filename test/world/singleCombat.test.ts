/**
 * Single-way combat on both transports (one event table, src/game/singleCombat.ts): while a player
 * of one transport fights a monster, an attack or a cast on it from a player of the other is
 * refused with an `IN_COMBAT` error naming the event ("Someone else is fighting that."), and no
 * hit, rune or damage follows.
 */
import assert from "node:assert/strict";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { holdStill } from "../support/placing.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

describe("single-way combat on both transports", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(async () => {
    await t.close();
  });

  const join = async (transport: "colyseus" | "ws", name: string) =>
    transport === "colyseus" ? await WorldTestClient.join(t.baseUrl, { name }) : await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
  const used = new Set<string>();

  for (const transport of ["colyseus", "ws"] as const) {
    it(`${transport}: refuses an attack and a cast on a monster a player of the other transport fights`, async () => {
      const world = t.server.world.world;
      const walk = (x: number, z: number) => world.collision.isWalkable(x, z);
      const rat: NpcInstance = [...world.npcs.values()].find(
        (n) => n.def.id === "meadow_rat" && !used.has(n.id) && n.deadUntil === 0 && walk(n.x + 1, n.z) && walk(n.x - 1, n.z),
      )!;
      used.add(rat.id);
      // Many hits to take, no hits back (its own would only prolong the fight), never wandering.
      holdStill(rat, { health: 10_000, maxHealth: 10_000, combat: { retaliates: false, aggressive: false } });
      const fighter = await join(transport === "ws" ? "colyseus" : "ws", `Fights${transport}`);
      const fighterId = String((await fighter.next("welcome")).characterId);
      const other = await join(transport, `Second${transport}`);
      const otherId = String((await other.next("welcome")).characterId);
      const first = world.players.get(fighterId)!;
      const second = world.players.get(otherId)!;
      assert.ok(world.teleport(first, { x: rat.x + 1, z: rat.z }));
      assert.ok(world.teleport(second, { x: rat.x - 1, z: rat.z }));
      const free = second.data.inventory.flatMap((s, i) => (s === null ? [i] : []));
      second.data.inventory[free[0]!] = { itemId: "air_rune", quantity: 5 };
      second.data.inventory[free[1]!] = { itemId: "mind_rune", quantity: 5 };

      fighter.send("player:action", { action: "attack", targetId: rat.id });
      for (;;) if ((await fighter.next("combat:hit")).attackerId === fighterId) break;

      other.send("player:action", { action: "attack", targetId: rat.id });
      const refused = await other.next("error");
      assert.deepEqual([refused.code, refused.message, refused.event], ["IN_COMBAT", "Someone else is fighting that.", "player:action"]);
      other.send("player:action", { action: "cast", spellId: "wind_strike", targetId: rat.id });
      const cast = await other.next("error");
      assert.deepEqual([cast.code, cast.event], ["IN_COMBAT", "player:action"]);
      // A few ticks on: the first fights on, the second has done nothing.
      for (let hits = 0; hits < 2; ) if ((await fighter.next("combat:hit")).attackerId === fighterId) hits++;
      assert.equal(second.action, undefined);
      assert.ok(!rat.damageBy.has(otherId), "no hit of the second's");
      const count = (id: string) => second.data.inventory.reduce((n, s) => n + (s?.itemId === id ? s.quantity : 0), 0);
      assert.deepEqual([count("air_rune"), count("mind_rune")], [5, 5], "no rune used");

      for (const c of [fighter, other]) {
        if (c instanceof WorldTestClient) await c.room.leave();
        else c.close();
      }
    });
  }
});
