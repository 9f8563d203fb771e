/**
 * A thread's makes left across a save and a restart, on both databases, through the real server
 * and the game's own events: a player sews two pairs of leather gloves (the thread taken at the
 * first, three of its five makes left: recipes/crafting.json), the server shuts down (its shutdown
 * save), a new one starts on the same database, and the player sews three more with no thread in
 * the inventory; the sixth is refused (MISSING_CONSUMABLE). Before the makes left were saved
 * (column `consumableUses`, migration `…_consumable_uses`), the restart lost them and the third
 * pair was refused.
 */
import assert from "node:assert/strict";
import { consumableUsesOf } from "../../src/persistence/players.ts";
import { callJson as call } from "../support/http.ts";
import { forEachDialect } from "../support/dialects.ts";
import { restartableServers } from "../support/restarts.ts";
import type { TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

forEachDialect("a thread's makes left across a restart", (ctx) => {
  const { start } = restartableServers(() => ctx.url, "thread-uses-test-secret-of-at-least-32-bytes");

  const login = async (t: TestServer, token: string, characterId: string) => {
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${token}`);
    await ws.next("welcome");
    const player = await until(() => t.server.world.world.players.get(characterId), "the player in the world");
    return { ws, player };
  };
  const sew = async (ws: WsTestClient, quantity: number) => {
    ws.send("skill:make", { recipeId: "crafting:leather_gloves", quantity });
    return ws.next("skill:makeStopped");
  };

  it("keeps the makes left of a thread begun, so the same spool sews on after the restart", async function () {
    this.timeout(90_000);
    const first = await start();
    const { body: anon } = await call(first.baseUrl, "POST", "/api/auth/anonymous");
    const token = String(anon.token);
    const created = await call(first.baseUrl, "POST", "/api/v1/player", token, { name: "Seamster" });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const characterId = String(created.body.player.characterId);
    const { ws, player } = await login(first, token, characterId);
    // Set between two ticks: a needle, one thread and six pieces of leather in empty slots.
    const free = () => player.data.inventory.indexOf(null);
    for (const itemId of ["needle", "thread", "leather", "leather", "leather", "leather", "leather", "leather"])
      player.data.inventory[free()] = { itemId, quantity: 1 };
    player.syncDue = true;
    assert.deepEqual(await sew(ws, 2), { recipeId: "crafting:leather_gloves", made: 2, reason: "done" });
    assert.deepEqual(player.data.consumableUses, { thread: 3 }, "three makes left of the thread");
    assert.equal(player.data.inventory.filter((s) => s?.itemId === "thread").length, 0, "the thread was taken at the first make");

    await first.close();
    await ws.waitClosed().catch(() => {});
    const second = await start();
    const again = await login(second, token, characterId);
    assert.deepEqual(again.player.data.consumableUses, { thread: 3 }, "reloaded");
    assert.deepEqual(await sew(again.ws, 4), {
      recipeId: "crafting:leather_gloves",
      made: 3,
      reason: "no_materials",
      code: "MISSING_CONSUMABLE",
      message: "you need some thread",
    });
    const gloves = again.player.data.inventory.filter((s) => s?.itemId === "leather_gloves").length;
    assert.equal(gloves, 5, "two before the restart, three after, on the same thread");
    assert.equal(again.player.data.consumableUses, undefined, "the thread used up");
    again.ws.close();
  });
});

describe("the consumableUses column, read", () => {
  it("gives whole counts above 0, and none begun for anything else", () => {
    assert.deepEqual(consumableUsesOf('{"thread":3}'), { consumableUses: { thread: 3 } });
    assert.deepEqual(consumableUsesOf('{"thread":0,"wax":2.5,"twine":-1,"yarn":"4","silk":1}'), { consumableUses: { silk: 1 } });
    for (const column of [null, undefined, "", "not json", "[3]", "null", "7", '{"thread":0}']) assert.deepEqual(consumableUsesOf(column), {}, String(column));
  });
});
