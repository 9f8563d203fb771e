import assert from "node:assert/strict";
import fs from "node:fs";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { smeltingWorld } from "../support/smeltingWorld.ts";
import { WsTestClient } from "../support/wsClient.ts";

/** Both transports carry the production events: the furnace's recipes listed, two bars made, the loop's end. */
describe("making things over both transports", function () {
  this.timeout(60_000);
  let t: TestServer;
  let world: string;
  before(async () => {
    world = smeltingWorld();
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" }, "bundled", world);
  });
  after(async () => {
    await t.close();
    fs.rmSync(world, { recursive: true, force: true });
  });

  for (const transport of ["colyseus", "ws"] as const) {
    it(`lists the furnace's recipes and smelts two bars (${transport})`, async () => {
      const c = transport === "colyseus" ? await WorldTestClient.join(t.baseUrl, { name: "SmeltCol" }) : await WsTestClient.connect(`${t.wsUrl}?name=SmeltWs`);
      try {
        await c.next("player:sync");
        c.send("skill:getRecipes", { station: "furnace" });
        const list = (await c.next("skill:recipes")) as { station: string; recipes: { id: string; makeable: boolean }[] };
        assert.equal(list.station, "furnace");
        assert.ok(
          list.recipes.some((r) => r.id === "smelting:bronze_bar" && r.makeable),
          JSON.stringify(list.recipes.map((r) => [r.id, r.makeable])),
        );
        c.send("skill:make", { recipeId: "smelting:bronze_bar", quantity: 2 });
        assert.deepEqual(await c.next("skill:makeProgress"), { recipeId: "smelting:bronze_bar", made: 1, remaining: 1, itemId: "bronze_bar", quantity: 1 });
        assert.deepEqual(await c.next("skill:makeProgress"), { recipeId: "smelting:bronze_bar", made: 2, remaining: 0, itemId: "bronze_bar", quantity: 1 });
        assert.deepEqual(await c.next("skill:makeStopped"), { recipeId: "smelting:bronze_bar", made: 2, reason: "done" });
        c.send("skill:make", { recipeId: "smelting:nothing", quantity: 1 });
        assert.equal((await c.next("error")).code, "UNKNOWN_RECIPE");
      } finally {
        if (c instanceof WorldTestClient) await c.room.leave();
        else c.close();
      }
    });
  }
});
