/**
 * Stores whose prices move with their stock (docs/gameplay.md "Stores"): the formula against the
 * genre's published numbers, purchases and sales moving stock and price, sold items joining the
 * stock and drifting back, a specialist's refusal, a 0-coin sale refused with nothing changed, and
 * the views (`interface:open`, `store:update`) carrying the prices a purchase charges.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { DRIFT_TICKS, EXTRA_KINDS, isGeneral, purchaseCost, saleValue } from "../../src/game/store.ts";
import { GENERAL_SELL_MULTIPLIER, shopPrice, sumPrices } from "../../src/game/storePricing.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { count, gameWorld, type GameHarness } from "../support/game.ts";

const GENERAL = "brackenford_general";
const SPECIALIST = "flintwright_arms";
const HOBB = { x: -3, z: -4 };
const ORLA = { x: 12, z: 3 };

type View = { items: { itemId: string; price: number; stock: number | null }[]; sell: { itemId: string; price: number; refusal?: string }[] };

/** Talks to the keeper of a store and returns the `interface:open` it answers with. */
function open(g: GameHarness, p: Player, storeId: string): View {
  const keeper = [...g.world.npcs.values()].find((n) => n.service?.storeId === storeId)!;
  g.send(p, "player:action", { action: "interact", targetId: keeper.id });
  g.tick(3);
  const opened = g.events(p, "interface:open").at(-1);
  assert.ok(opened, "the store opened");
  return opened as unknown as View;
}
const lastView = (g: GameHarness, p: Player): View => g.events(p, "store:update").at(-1) as unknown as View;
const priceOf = (v: View, itemId: string) => v.items.find((i) => i.itemId === itemId);

describe("store prices (LostCity calc_shop_value; OSRS wiki StoreTableHead)", () => {
  it("prices a general store as published: sells at 130%, buys at 40%, 3% of value per item off base stock, never under 10%", () => {
    // Lumbridge General Store: sellmultiplier=1300, buymultiplier=400, delta=30 (an item worth 100 coins).
    assert.deepEqual(
      [0, 1, 2, -1, -2].map((d) => shopPrice(100, GENERAL_SELL_MULTIPLIER, 30, d)),
      [130, 127, 124, 133, 136],
    );
    assert.deepEqual(
      [0, 1, 2, 9, 10, 50].map((d) => shopPrice(100, 400, 30, d)),
      [40, 37, 34, 13, 10, 10],
      "never under 10% of the value",
    );
    // The change is bounded: at most 100% of the value down (so 130% → 30%) and 500% up.
    assert.equal(shopPrice(100, GENERAL_SELL_MULTIPLIER, 30, 1_000), 30);
    assert.equal(shopPrice(100, 400, 30, -1_000), 540);
    assert.equal(shopPrice(2, 400, 30, 0), 0, "a 2-coin item fetches nothing");
  });

  it("sums a run of prices like adding them one by one, however long the run", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: -400, max: 400 }),
        fc.integer({ min: 0, max: 900 }),
        fc.boolean(),
        (cost, delta, start, n, up) => {
          const price = (d: number) => shopPrice(cost, 1000, delta, d) + shopPrice(cost, 400, delta, d - 1);
          let naive = 0;
          for (let i = 0; i < n; i++) naive += price(start + (up ? i : -i));
          assert.equal(sumPrices(price, start, up ? 1 : -1, n, delta), naive);
        },
      ),
    );
  });

  it("tells a general store from a specialist by its keeper's placement", async () => {
    const g = await gameWorld();
    assert.equal(isGeneral(g.world.content, g.world.content.stores.get(GENERAL)!), true);
    assert.equal(isGeneral(g.world.content, g.world.content.stores.get(SPECIALIST)!), false);
  });
});

describe("stores: prices move with stock", () => {
  it("charges each item of a purchase at the stock it is taken from, and the next price is higher", async () => {
    const g = await gameWorld();
    const p = g.add({ ...HOBB, coins: 1_000 });
    const v0 = open(g, p, GENERAL);
    assert.deepEqual(priceOf(v0, "bronze_hatchet"), { itemId: "bronze_hatchet", price: 40, stock: 5 }, "the listed price at the base stock");
    g.send(p, "store:buy", { storeId: GENERAL, itemId: "bronze_hatchet", quantity: 5 });
    g.tick();
    // 40 at 5 in stock, then 3% of 40 more for each one short: 41, 42, 43, 44.
    assert.equal(p.data.coins, 1_000 - (40 + 41 + 42 + 43 + 44));
    assert.deepEqual(priceOf(lastView(g, p), "bronze_hatchet"), { itemId: "bronze_hatchet", price: 46, stock: 0 }, "the view moved with the stock");
    g.send(p, "store:buy", { storeId: GENERAL, itemId: "bronze_hatchet", quantity: 1 });
    g.tick();
    assert.equal(g.errors(p).at(-1)!.code, "OUT_OF_STOCK");
  });

  it("charges what the view showed: the view's price is the purchase's", async () => {
    const g = await gameWorld();
    const p = g.add({ ...HOBB, coins: 1_000 });
    let view = open(g, p, GENERAL);
    for (let i = 0; i < 8; i++) {
      const shown = priceOf(view, "iron_sword") ?? priceOf(view, "bread")!;
      const before = p.data.coins;
      g.send(p, "store:buy", { storeId: GENERAL, itemId: "bread", quantity: 1 });
      g.tick();
      assert.equal(before - p.data.coins, shown.price, `purchase ${i + 1}`);
      view = lastView(g, p);
    }
    assert.ok(priceOf(view, "bread")!.price > 12, "the price rose as the stock fell");
  });

  it("keeps an unlimited item's price fixed", async () => {
    const g = await gameWorld();
    const p = g.add({ ...HOBB, coins: 1_000 });
    g.send(p, "store:buy", { storeId: GENERAL, itemId: "feathers", quantity: 100 });
    g.tick();
    assert.equal(p.data.coins, 1_000 - 300);
  });
});

describe("stores: selling", () => {
  it("adds a sold item to the stock at a falling price; another player buys it back at 130% of its value", async () => {
    const g = await gameWorld();
    const oak = g.world.content.item("oak_logs")!.value;
    const p = g.add(
      { ...HOBB },
      Array.from({ length: 4 }, () => ({ itemId: "oak_logs", quantity: 1 })),
    );
    const v = open(g, p, GENERAL);
    assert.deepEqual(v.sell, [{ itemId: "oak_logs", price: Math.floor((oak * 400) / 1000) }], "what the store pays, shown before selling");
    g.send(p, "store:sell", { storeId: GENERAL, slot: 0, quantity: 3 });
    g.tick();
    const paid = [400, 370, 340].map((m) => Math.floor((oak * m) / 1000));
    assert.equal(
      p.data.coins,
      paid.reduce((a, b) => a + b),
    );
    assert.equal(count(p, "oak_logs"), 1);
    const after = lastView(g, p);
    assert.deepEqual(priceOf(after, "oak_logs"), { itemId: "oak_logs", price: Math.floor((oak * (1300 - 90)) / 1000), stock: 3 });
    assert.deepEqual(after.sell, [{ itemId: "oak_logs", price: Math.floor((oak * 310) / 1000) }]);
    const q = g.add({ ...HOBB, coins: 100 });
    g.send(q, "store:buy", { storeId: GENERAL, itemId: "oak_logs", quantity: 3 });
    g.tick();
    assert.equal(count(q, "oak_logs"), 3);
    assert.equal(
      100 - q.data.coins,
      [1210, 1240, 1270].map((m) => Math.floor((oak * m) / 1000)).reduce((a, b) => a + b),
    );
    assert.equal(priceOf(lastView(g, p), "oak_logs"), undefined, "sold out: gone from the list");
    assert.equal(g.errors(p).length + g.errors(q).length, 0);
  });

  it("lets stock drift back to the base one item at a time", async () => {
    const g = await gameWorld();
    const store = g.world.content.stores.get(GENERAL)!;
    const p = g.add({ ...HOBB }, [
      { itemId: "oak_logs", quantity: 1 },
      { itemId: "oak_logs", quantity: 1 },
      { itemId: "bronze_hatchet", quantity: 1 },
    ]);
    g.send(p, "store:sell", { storeId: GENERAL, slot: 0, quantity: 2 });
    g.send(p, "store:sell", { storeId: GENERAL, slot: 2, quantity: 1 });
    g.tick();
    assert.equal(g.world.stores.count(store, "oak_logs", g.world.tick), 2);
    assert.equal(g.world.stores.count(store, "bronze_hatchet", g.world.tick), 6, "one over its base of 5");
    g.tick(DRIFT_TICKS);
    assert.equal(g.world.stores.count(store, "oak_logs", g.world.tick), 1, "one gone after the drift interval");
    const hatchetEvery = Math.round(store.items.find((i) => i.itemId === "bronze_hatchet")!.restockTime / 0.6);
    g.tick(Math.max(DRIFT_TICKS, hatchetEvery));
    assert.equal(g.world.stores.count(store, "oak_logs", g.world.tick), 0);
    assert.equal(g.world.stores.count(store, "bronze_hatchet", g.world.tick), 5, "back to its base, not below");
    g.tick(hatchetEvery * 3);
    assert.equal(g.world.stores.count(store, "bronze_hatchet", g.world.tick), 5, "and it stays there");
  });

  it("a specialist buys what it sells and refuses the rest with a clear message", async () => {
    const g = await gameWorld();
    const p = g.add({ ...ORLA }, [
      { itemId: "logs", quantity: 1 },
      { itemId: "bronze_dagger", quantity: 1 },
    ]);
    const v = open(g, p, SPECIALIST);
    const logs = v.sell.find((s) => s.itemId === "logs")!;
    assert.equal(logs.price, 0);
    assert.match(logs.refusal!, /only buys what it sells/);
    g.send(p, "store:sell", { storeId: SPECIALIST, slot: 0, quantity: 1 });
    g.send(p, "store:sell", { storeId: SPECIALIST, slot: 1, quantity: 1 });
    g.tick();
    assert.deepEqual(
      g.errors(p).map((e) => e.code),
      ["NOT_WANTED"],
    );
    assert.match(g.errors(p)[0]!.message, /Flintwright Arms only buys what it sells/);
    assert.equal(count(p, "logs"), 1, "kept");
    assert.equal(count(p, "bronze_dagger"), 0);
    assert.equal(p.data.coins, Math.floor((g.world.content.item("bronze_dagger")!.value * 500) / 1000));
  });

  it("refuses a sale that would pay nothing, changing nothing, and says so before the player sells", async () => {
    const g = await gameWorld();
    const store = g.world.content.stores.get(GENERAL)!;
    const p = g.add({ ...HOBB, coins: 7 }, [
      { itemId: "bones", quantity: 1 },
      { itemId: "feathers", quantity: 4 },
    ]);
    const v = open(g, p, GENERAL);
    const bones = v.sell.find((s) => s.itemId === "bones")!;
    assert.equal(bones.price, 0);
    assert.match(bones.refusal!, /would pay nothing/);
    g.send(p, "store:sell", { storeId: GENERAL, slot: 0, quantity: 1 });
    // Feathers (3 coins): 1, 1, 1, then 0 for the fourth.
    g.send(p, "store:sell", { storeId: GENERAL, slot: 1, quantity: 4 });
    g.tick();
    assert.deepEqual(
      g.errors(p).map((e) => e.code),
      ["WORTHLESS", "WORTHLESS"],
    );
    assert.match(g.errors(p)[0]!.message, /would pay nothing for Bones/);
    assert.match(g.errors(p)[1]!.message, /nothing for more than 3 Feathers/);
    assert.equal(count(p, "bones"), 1);
    assert.equal(count(p, "feathers"), 4);
    assert.equal(p.data.coins, 7);
    assert.equal(g.world.stores.count(store, "bones", g.world.tick), 0);
    assert.equal(g.world.stores.count(store, "feathers", g.world.tick), 0);
    g.send(p, "store:sell", { storeId: GENERAL, slot: 1, quantity: 3 });
    g.tick();
    assert.equal(p.data.coins, 10);
    assert.equal(count(p, "feathers"), 1);
    assert.equal(purchaseCost(store, g.world.content.item("feathers")!, 0, 1), 3, "an unlimited item keeps its price");
  });

  it("refuses untradeable items, more than the player holds, and an empty slot, changing nothing", async () => {
    const g = await gameWorld();
    const p = g.add({ ...HOBB, coins: 5 }, [
      { itemId: "settlers_charter", quantity: 1 },
      { itemId: "oak_logs", quantity: 1 },
    ]);
    g.send(p, "store:sell", { storeId: GENERAL, slot: 0, quantity: 1 });
    g.send(p, "store:sell", { storeId: GENERAL, slot: 1, quantity: 2 });
    g.send(p, "store:sell", { storeId: GENERAL, slot: 5, quantity: 1 });
    g.tick();
    assert.deepEqual(
      g.errors(p).map((e) => e.code),
      ["UNTRADEABLE_ITEM", "ITEM_NOT_FOUND", "INVALID_SLOT"],
    );
    assert.equal(count(p, "oak_logs"), 1);
    assert.equal(p.data.coins, 5);
  });

  it("keeps at most 40 kinds of items a general store does not list, refusing a new kind beyond them", async () => {
    const g = await gameWorld();
    const store = g.world.content.stores.get(GENERAL)!;
    const kinds = [...g.world.content.items.values()]
      .filter((i) => i.tradeable && i.value >= 3 && i.id !== "coins" && !store.items.some((e) => e.itemId === i.id))
      .map((i) => i.id);
    assert.ok(kinds.length > EXTRA_KINDS);
    const p = g.add({ ...HOBB });
    for (const id of kinds.slice(0, EXTRA_KINDS + 1)) {
      p.data.inventory[0] = { itemId: id, quantity: 1 };
      g.send(p, "store:sell", { storeId: GENERAL, slot: 0, quantity: 1 });
      g.tick();
    }
    assert.deepEqual(
      g.errors(p).map((e) => e.code),
      ["STORE_FULL"],
    );
    assert.equal(p.data.inventory[0]?.itemId, kinds[EXTRA_KINDS], "the 41st kind kept");
    p.data.inventory[1] = { itemId: kinds[0]!, quantity: 1 };
    g.send(p, "store:sell", { storeId: GENERAL, slot: 1, quantity: 1 });
    g.tick();
    assert.equal(g.errors(p).length, 1, "a kind it already holds is still bought");
    assert.equal(g.world.stores.count(store, kinds[0]!, g.world.tick), 2);
  });

  it("never sells an item for less than it buys it back at the same stock", async () => {
    const g = await gameWorld();
    const store = g.world.content.stores.get(GENERAL)!;
    for (const e of store.items) {
      const item = g.world.content.item(e.itemId)!;
      for (let c = 1; c < 60; c++) assert.ok(purchaseCost(store, item, c, 1) >= saleValue(store, item, c - 1, 1), `${e.itemId} at ${c}`);
    }
  });
});

describe("stores: viewers", () => {
  it("sends store:update when the stock drifts back, with the price it then charges", async () => {
    const g = await gameWorld();
    const p = g.add({ ...HOBB }, [{ itemId: "oak_logs", quantity: 1 }]);
    open(g, p, GENERAL);
    g.send(p, "store:sell", { storeId: GENERAL, slot: 0, quantity: 1 });
    g.tick();
    assert.equal(priceOf(lastView(g, p), "oak_logs")?.stock, 1);
    g.clearSent();
    g.tick(DRIFT_TICKS - 2);
    assert.equal(g.events(p, "store:update").length, 0, "not yet");
    g.tick(2);
    assert.equal(g.events(p, "store:update").length, 1);
    assert.equal(priceOf(lastView(g, p), "oak_logs"), undefined, "drifted back to none");
  });

  it("sends store:update to a viewer when another player's purchase moves the price, and stops once they walk away", async () => {
    const g = await gameWorld();
    const viewer = g.add({ ...HOBB });
    const buyer = g.add({ ...HOBB, coins: 500 });
    open(g, viewer, GENERAL);
    g.clearSent();
    g.tick(2);
    assert.deepEqual(g.events(viewer, "store:update"), [], "nothing changed, nothing sent");
    g.send(buyer, "store:buy", { storeId: GENERAL, itemId: "fly_fishing_rod", quantity: 1 });
    g.tick();
    const update = lastView(g, viewer) as View & { storeId: string };
    assert.equal(update.storeId, GENERAL);
    assert.deepEqual(priceOf(update, "fly_fishing_rod"), { itemId: "fly_fishing_rod", price: 72, stock: 1 });
    const away = [...Array(20).keys()].map((i) => ({ x: HOBB.x + 6 + i, z: HOBB.z })).find((t) => g.world.collision.isWalkable(t.x, t.z))!;
    assert.ok(g.world.teleport(viewer, away));
    g.tick();
    g.clearSent();
    g.send(buyer, "store:buy", { storeId: GENERAL, itemId: "fly_fishing_rod", quantity: 1 });
    g.tick();
    assert.equal(g.events(viewer, "store:update").length, 0);
    assert.equal(g.world.stores.viewers.has(viewer.id), false);
  });
});
