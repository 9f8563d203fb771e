/**
 * `player:setCombatStyle` on both transports (one event table): a style the weapon offers comes
 * back in `player:sync` (and, on Colyseus, in the owner's private `combatStyle` field); one it does
 * not offer is an `INVALID_COMBAT_STYLE` error naming the event, and changes nothing. A weapon
 * switch keeps the Combat tab's button slot (src/game/combatStyles.ts `styleAfterSwitch`), told alike.
 */
import assert from "node:assert/strict";
import type { MapSchema } from "@colyseus/schema";
import type { PlayerState } from "../../schema/WorldState.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

describe("player:setCombatStyle on both transports", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(async () => {
    await t.close();
  });

  /** The next `player:sync` whose style is `style` (earlier ones, from the join, are skipped). */
  async function syncWith(client: WorldTestClient | WsTestClient, style: string): Promise<Record<string, unknown>> {
    for (;;) {
      const sync = await client.next("player:sync");
      if (sync.combatStyle === style) return sync;
    }
  }

  for (const transport of ["colyseus", "ws"] as const) {
    it(`${transport}: sets an offered style, refuses one the weapon lacks`, async () => {
      const name = `Style${transport}`;
      const client = transport === "colyseus" ? await WorldTestClient.join(t.baseUrl, { name }) : await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
      const id = String((await client.next("welcome")).characterId);
      const player = t.server.world.world.players.get(id)!;
      assert.equal((await client.next("player:sync")).combatStyle, "accurate", "a new character's style");
      // A new character fights in melee (its starter kit holds no bow): aggressive is offered, rapid is not.
      client.send("player:setCombatStyle", { style: "aggressive" });
      await syncWith(client, "aggressive");
      assert.equal(player.data.combatStyle, "aggressive");
      if (client instanceof WorldTestClient) {
        const mine = await client.waitFor(() => {
          const s = (client.room.state as { players?: MapSchema<PlayerState> }).players?.get(id);
          return s?.combatStyle === "aggressive" ? s : undefined;
        }, 5_000, "the owner's combatStyle field");
        assert.equal(mine.combatStyle, "aggressive");
      }
      client.send("player:setCombatStyle", { style: "rapid" });
      const error = await client.next("error");
      assert.deepEqual([error.code, error.event], ["INVALID_COMBAT_STYLE", "player:setCombatStyle"]);
      assert.match(String(error.message), /not rapid/);
      assert.equal(player.data.combatStyle, "aggressive", "unchanged");
      client.send("player:setCombatStyle", { style: "berserk" });
      assert.equal((await client.next("error")).code, "INVALID_PAYLOAD");
      assert.equal(player.data.combatStyle, "aggressive", "unchanged");
      if (client instanceof WorldTestClient) await client.room.leave();
      else client.close();
    });
  }

  for (const transport of ["colyseus", "ws"] as const) {
    it(`${transport}: keeps the button slot on a weapon switch, the dagger's Slash becoming Block unarmed`, async () => {
      const name = `Slot${transport}`;
      const client = transport === "colyseus" ? await WorldTestClient.join(t.baseUrl, { name }) : await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
      const id = String((await client.next("welcome")).characterId);
      const player = t.server.world.world.players.get(id)!;
      const dagger = player.data.inventory.findIndex((s) => s?.itemId === "bronze_dagger");
      assert.ok(dagger >= 0, "the starter kit's bronze dagger");
      client.send("inventory:use", { slot: dagger });
      client.send("player:setCombatStyle", { style: "alt_aggressive" });
      await syncWith(client, "alt_aggressive");
      assert.equal(player.data.equipment.weapon?.itemId, "bronze_dagger");
      client.send("equipment:remove", { slot: "weapon" });
      await syncWith(client, "defensive");
      assert.equal(player.data.combatStyle, "defensive", "unarmed has no third button: the next, Block");
      if (client instanceof WorldTestClient) {
        await client.waitFor(() => {
          const s = (client.room.state as { players?: MapSchema<PlayerState> }).players?.get(id);
          return s?.combatStyle === "defensive" ? s : undefined;
        }, 5_000, "the owner's combatStyle field");
        await client.room.leave();
      } else client.close();
    });
  }
});
