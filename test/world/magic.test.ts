/**
 * Magic on both transports (one event table): `player:action {action: "cast"}` casts Wind Strike
 * on a monster (a `combat:hit`, one air and one mind rune used), an unknown spell is an
 * `UNKNOWN_SPELL` error naming the event, and `player:setAutocast` comes back in `player:sync`
 * (and, on Colyseus, in the owner's private `autocast` field).
 */
import assert from "node:assert/strict";
import type { MapSchema } from "@colyseus/schema";
import type { PlayerState } from "../../schema/WorldState.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

describe("magic on both transports", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(async () => {
    await t.close();
  });

  const count = (inv: ({ itemId: string; quantity: number } | null)[], itemId: string) => inv.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);

  for (const transport of ["colyseus", "ws"] as const) {
    it(`${transport}: casts Wind Strike on a monster, refuses an unknown spell, autocasts with a staff`, async () => {
      const name = `Mage${transport}`;
      const client = transport === "colyseus" ? await WorldTestClient.join(t.baseUrl, { name }) : await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
      const id = String((await client.next("welcome")).characterId);
      const world = t.server.world.world;
      const player = world.players.get(id)!;
      assert.equal((await client.next("player:sync")).autocast, null, "no autocast at first");
      // Runes in two free slots, and the player three tiles from a rat (between two ticks).
      const free = player.data.inventory.flatMap((s, i) => (s === null ? [i] : []));
      player.data.inventory[free[0]!] = { itemId: "air_rune", quantity: 10 };
      player.data.inventory[free[1]!] = { itemId: "mind_rune", quantity: 10 };
      player.syncDue = true;
      const rat = [...world.npcs.values()].find((n) => n.def.id === "meadow_rat" && world.collision.isWalkable(n.x + 3, n.z))!;
      assert.ok(world.teleport(player, { x: rat.x + 3, z: rat.z }));

      client.send("player:action", { action: "cast", spellId: "wind_strike", targetId: rat.id });
      for (;;) {
        const hit = await client.next("combat:hit");
        if (hit.attackerId === id) break;
      }
      assert.deepEqual([count(player.data.inventory, "air_rune"), count(player.data.inventory, "mind_rune")], [9, 9], "one of each, once");

      client.send("player:action", { action: "cast", spellId: "ice_barrage", targetId: rat.id });
      const error = await client.next("error");
      assert.deepEqual([error.code, error.event], ["UNKNOWN_SPELL", "player:action"]);
      assert.equal(count(player.data.inventory, "mind_rune"), 9, "unchanged");

      client.send("player:setAutocast", { spellId: "wind_strike" });
      assert.deepEqual([(await client.next("error")).code], ["NO_STAFF"]);
      player.data.equipment.weapon = { itemId: "staff_of_air", quantity: 1 };
      client.send("player:setAutocast", { spellId: "wind_strike" });
      for (;;) if ((await client.next("player:sync")).autocast === "wind_strike") break;
      assert.equal(player.data.autocast, "wind_strike");
      if (client instanceof WorldTestClient) {
        await client.waitFor(() => {
          const s = (client.room.state as { players?: MapSchema<PlayerState> }).players?.get(id);
          return s?.autocast === "wind_strike" ? s : undefined;
        }, 5_000, "the owner's autocast field");
        await client.room.leave();
      } else client.close();
    });
  }
});
