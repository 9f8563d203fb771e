/**
 * Stores on both transports (one event table): talking to a keeper opens the store with its
 * current prices, stock and what it pays for each item carried; a sale moves the price and comes
 * back as `store:update`; a sale that would pay nothing is a `WORTHLESS` error naming the event,
 * and changes nothing.
 */
import assert from "node:assert/strict";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

type View = { items: { itemId: string; price: number; stock: number | null }[]; sell: { itemId: string; price: number; refusal?: string }[] };

describe("stores on both transports", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(async () => {
    await t.close();
  });

  for (const transport of ["colyseus", "ws"] as const) {
    it(`${transport}: opens with current prices, sells at the quoted price, updates the view, refuses a 0-coin sale`, async () => {
      const name = `Shop${transport}`;
      const client = transport === "colyseus" ? await WorldTestClient.join(t.baseUrl, { name }) : await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
      const id = String((await client.next("welcome")).characterId);
      const world = t.server.world.world;
      const player = world.players.get(id)!;
      const keeper = [...world.npcs.values()].find((n) => n.service?.storeId === "brackenford_general")!;
      assert.ok(world.teleport(player, { x: keeper.x, z: keeper.z + 1 }) || world.teleport(player, { x: keeper.x + 1, z: keeper.z }));
      const slots = player.data.inventory;
      const oak = slots.indexOf(null);
      slots[oak] = { itemId: "oak_logs", quantity: 1 };
      const bones = slots.indexOf(null);
      slots[bones] = { itemId: "bones", quantity: 1 };
      player.syncDue = true;
      client.send("player:action", { action: "interact", targetId: keeper.id });
      const opened = (await client.next("interface:open")) as unknown as View & { type: string; storeId: string };
      assert.equal(opened.type, "store");
      assert.deepEqual(
        opened.items.find((i) => i.itemId === "tinderbox"),
        { itemId: "tinderbox", price: 6, stock: 10 },
      );
      // Oak logs (value 12) at 40%, 3% less per one already sold to the store (the other transport's run).
      const held = opened.items.find((i) => i.itemId === "oak_logs")?.stock ?? 0;
      const quote = opened.sell.find((s) => s.itemId === "oak_logs")!;
      assert.equal(quote.price, Math.floor((12 * (400 - 30 * held)) / 1000));
      assert.match(opened.sell.find((s) => s.itemId === "bones")!.refusal!, /would pay nothing/);

      const coins = player.data.coins;
      client.send("store:sell", { storeId: "brackenford_general", slot: oak, quantity: 1 });
      for (;;) {
        const update = (await client.next("store:update")) as unknown as View;
        if (update.items.some((i) => i.itemId === "oak_logs" && i.stock === held + 1)) {
          const price = Math.floor((12 * (1300 - 30 * (held + 1))) / 1000);
          assert.deepEqual(update.items.find((i) => i.itemId === "oak_logs"), { itemId: "oak_logs", price, stock: held + 1 }, "it joined the stock, sold at 130% less 3% an item");
          break;
        }
      }
      assert.equal(player.data.coins, coins + quote.price, "paid what the view quoted");

      client.send("store:sell", { storeId: "brackenford_general", slot: bones, quantity: 1 });
      const error = await client.next("error");
      assert.deepEqual([error.code, error.event], ["WORTHLESS", "store:sell"]);
      assert.match(String(error.message), /would pay nothing for Bones/);
      assert.equal(player.data.inventory[bones]?.itemId, "bones", "kept");
      assert.equal(player.data.coins, coins + quote.price);
      if (client instanceof WorldTestClient) await client.room.leave();
      else client.close();
    });
  }
});
