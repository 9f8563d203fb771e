/**
 * Selling surplus (agent-runtime/brain/selling.ts) with the bundled world's stores: what a store
 * pays (the server's own price formula), which items are surplus and which are kept (tools, gear,
 * runes, coins, the food it keeps, what a `keep` predicate holds back), which store a trip goes
 * to, when the scripted policy chooses a sale, and the Sell behaviour's orders from the store's view.
 */
import assert from "node:assert/strict";
import type { Self } from "../../agent-runtime/AgentView.ts";
import type { Observation } from "../../agent-runtime/brain/Brain.ts";
import { ScriptedBrain } from "../../agent-runtime/brain/scripted.ts";
import { basePay, saleTrip, Sell, surplus } from "../../agent-runtime/brain/selling.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import type { WorldUpdate } from "../../src/game/worldUpdate.ts";
import { bundledKnowledge, ctxOf, observation, selfOf, viewOf } from "./support.ts";

const slots = (...ids: [string, number][]) => ids.map(([itemId, quantity], slot) => ({ slot, itemId, quantity }));

describe("agent selling: surplus, prices, the store, the trip", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });

  it("prices a sale as the server does: the buyback rate of the item's value at the base stock, 0 where the store does not buy it", () => {
    // Hobb's Provisions, a general store (buyback 0.4): any tradeable item.
    assert.equal(basePay(know, "brackenford_general", "oak_logs"), 4, "⌊12 × 0.4⌋");
    assert.equal(basePay(know, "brackenford_general", "raw_trout"), 7);
    assert.equal(basePay(know, "brackenford_general", "bones"), 0, "⌊2 × 0.4⌋: worth nothing");
    // A specialist buys only what it sells: Tawney's (0.5) takes cowhide, not logs.
    assert.equal(basePay(know, "tawney_leatherworks", "cowhide"), 1);
    assert.equal(basePay(know, "tawney_leatherworks", "oak_logs"), 0);
    assert.equal(basePay(know, "brackenford_general", "coins"), 0);
  });

  it("sells only surplus: never coins, tools, gear (but its spare copies), runes, the food it keeps, nor what `keep` holds back", () => {
    const inv = slots(
      ["bronze_hatchet", 1],
      ["tinderbox", 1],
      ["bronze_sword", 1],
      ["air_rune", 50],
      ["oak_logs", 1],
      ["oak_logs", 1],
      ["cowhide", 1],
      ...Array.from({ length: 7 }, () => ["shrimp", 1] as [string, number]),
      ["raw_trout", 1],
    );
    const ids = (keep?: (id: string) => boolean) => surplus(inv, know, keep).map((s) => s.itemId);
    assert.deepEqual(ids(), ["oak_logs", "oak_logs", "cowhide", "shrimp", "shrimp", "raw_trout"], "five shrimp kept to eat");
    assert.deepEqual(
      ids((id) => id === "oak_logs" || id === "raw_trout"),
      ["cowhide", "shrimp", "shrimp"],
      "a making chain keeps its logs, a cook its raw fish",
    );
    // Spare copies of kept gear (the daggers it smiths, the gloves it sews) are surplus; one of each is kept, runes and thread are not spares.
    const spares = slots(
      ["bronze_dagger", 1],
      ["bronze_dagger", 1],
      ["leather_gloves", 1],
      ["thread", 1],
      ["thread", 1],
      ["air_rune", 5],
      ["air_rune", 5],
      ["bronze_dagger", 1],
    );
    assert.deepEqual(
      surplus(spares, know).map((s) => s.slot),
      [1, 7],
    );
  });

  it("takes the surplus to the store paying the most for it", () => {
    const here = { x: 0, z: 0 };
    assert.deepEqual(saleTrip(slots(["oak_logs", 1], ["oak_logs", 1], ["bones", 1]), know, here), {
      storeId: "brackenford_general",
      itemIds: ["oak_logs"],
      coins: 8,
    });
    // Cowhide: the general store pays ⌊2 × 0.4⌋ = 0, the leatherworks 1.
    assert.equal(saleTrip(slots(["cowhide", 1], ["cowhide", 1]), know, here)?.storeId, "tawney_leatherworks");
    assert.equal(saleTrip(slots(["bones", 1], ["bronze_hatchet", 1]), know, here), undefined, "nothing a store pays for");
  });

  it("the scripted policy sells a full inventory before banking it, keeps raw food to cook, and makes no trip for a few coins", () => {
    const obs = (inventory: Observation["inventory"], freeSlots: number): Observation =>
      observation({
        inventory,
        freeSlots,
        availableGoals: [
          { type: "selling", description: "Sell items", targets: ["brackenford_general", "tawney_leatherworks"] },
          { type: "banking", description: "Bank items", targets: [] },
          { type: "idle", description: "Stand still", targets: [] },
        ],
      });
    const full = Array.from({ length: 28 }, (_, slot) => ({ slot, itemId: "oak_logs", quantity: 1 }));
    const c = new ScriptedBrain(know, "sell").choose(obs(full, 0));
    assert.deepEqual({ type: c.type, target: c.target }, { type: "selling", target: "brackenford_general" });
    assert.match(c.reason, /^sell Oak logs \(about 20 coins\)$/);
    const raw = Array.from({ length: 28 }, (_, slot) => ({ slot, itemId: "raw_trout", quantity: 1 }));
    assert.equal(new ScriptedBrain(know, "sell").choose(obs(raw, 0)).type, "banking", "raw fish is kept to cook, not sold");
    assert.equal(new ScriptedBrain(know, "sell").choose(obs(slots(["logs", 1]), 27)).type, "idle", "one log: no trip");
  });

  it("Sell: walks to the keeper, opens the store, sells what the store's view pays for one at a time, and is done when nothing more pays", () => {
    const keeper = know.keepers.find((k) => k.storeId === "brackenford_general")!;
    const self = (inventory: Self["inventory"], coins = 0): Self => selfOf({ position: { x: keeper.x + 1, y: 0, z: keeper.z }, coins, inventory });
    const view = viewOf(self(slots(["bronze_hatchet", 1], ["oak_logs", 1], ["oak_logs", 1], ["bones", 1])));
    const { ctx, sent } = ctxOf(know, view, "sell");
    const far = { tick: 1, entities: [{ id: "me", kind: "player", x: 30, z: 30, name: "Robin" }], removed: [] } as unknown as WorldUpdate;
    view.update(far);
    const sell = new Sell("brackenford_general");
    sell.step(ctx);
    assert.deepEqual(sent.at(-1), { type: "player:move", data: { x: keeper.x, z: keeper.z, run: true } }, "to the keeper, running with energy to spare");
    view.update({
      tick: 2,
      entities: [
        { id: "me", kind: "player", x: keeper.x + 1, z: keeper.z, name: "Robin" },
        { id: "hobb", kind: "npc", x: keeper.x, z: keeper.z, ref: keeper.npcRef, name: "Hobb" },
      ],
      removed: [],
    } as unknown as WorldUpdate);
    ctx.tick = 2;
    sell.step(ctx);
    assert.deepEqual(sent.at(-1), { type: "player:action", data: { action: "interact", targetId: "hobb" } });
    sell.onEvent(
      "interface:open",
      {
        type: "store",
        npcId: "hobb",
        name: "General Store",
        items: [],
        storeId: "brackenford_general",
        sell: [
          { itemId: "bronze_hatchet", price: 16 },
          { itemId: "oak_logs", price: 4 },
          { itemId: "bones", price: 0, refusal: "pays nothing" },
        ],
      },
      ctx,
    );
    ctx.tick = 3;
    sell.step(ctx);
    assert.deepEqual(sent.at(-1), { type: "store:sell", data: { storeId: "brackenford_general", slot: 1, quantity: 1 } }, "the logs, not the hatchet");
    ctx.tick = 4;
    sell.step(ctx);
    assert.equal(sent.filter((s) => s.type === "store:sell").length, 1, "waits for the store's answer");
    view.sync(
      self(
        [
          { slot: 0, itemId: "bronze_hatchet", quantity: 1 },
          { slot: 2, itemId: "oak_logs", quantity: 1 },
          { slot: 3, itemId: "bones", quantity: 1 },
        ],
        4,
      ),
    );
    sell.onEvent(
      "store:update",
      {
        storeId: "brackenford_general",
        items: [],
        sell: [
          { itemId: "bronze_hatchet", price: 16 },
          { itemId: "oak_logs", price: 3 },
          { itemId: "bones", price: 0 },
        ],
      },
      ctx,
    );
    ctx.tick = 5;
    sell.step(ctx);
    assert.deepEqual(sent.at(-1), { type: "store:sell", data: { storeId: "brackenford_general", slot: 2, quantity: 1 } });
    view.sync(
      self(
        [
          { slot: 0, itemId: "bronze_hatchet", quantity: 1 },
          { slot: 3, itemId: "bones", quantity: 1 },
        ],
        7,
      ),
    );
    sell.onEvent(
      "store:update",
      {
        storeId: "brackenford_general",
        items: [],
        sell: [
          { itemId: "bronze_hatchet", price: 16 },
          { itemId: "bones", price: 0 },
        ],
      },
      ctx,
    );
    ctx.tick = 6;
    const out = sell.step(ctx);
    assert.equal(out.end, "done");
    assert.ok("why" in out && out.why === "sold 2 for 7 coins", JSON.stringify(out));

    // A sale the store refuses (it would pay nothing now): that item is left, and the trip ends.
    view.sync(
      self(
        [
          { slot: 0, itemId: "bronze_hatchet", quantity: 1 },
          { slot: 1, itemId: "oak_logs", quantity: 1 },
        ],
        7,
      ),
    );
    const again = new Sell("brackenford_general");
    ctx.tick = 10;
    again.step(ctx);
    again.onEvent(
      "interface:open",
      { type: "store", npcId: "hobb", name: "General Store", items: [], storeId: "brackenford_general", sell: [{ itemId: "oak_logs", price: 1 }] },
      ctx,
    );
    ctx.tick = 11;
    again.step(ctx);
    assert.deepEqual(sent.at(-1), { type: "store:sell", data: { storeId: "brackenford_general", slot: 1, quantity: 1 } });
    again.onEvent("error", { event: "store:sell", code: "WORTHLESS", message: "Hobb would pay nothing for Oak logs" }, ctx);
    ctx.tick = 12;
    const refused = again.step(ctx);
    assert.equal(refused.end, "failed", "nothing sold, nothing left it pays for");
  });
});
