/**
 * Coins in trades (the game rules, in one world without sockets): an offer carries coins from the
 * player's pouch, both sides see them, the confirmation screen counts them in its values, a change
 * of the amount clears both acceptances, and the swap moves them with the items, or refuses and
 * moves nothing. Storage under SIGKILL: test/trade/crash.test.ts (every trade there carries coins);
 * both transports: test/trade/tradeRoom.test.ts.
 */
import assert from "node:assert/strict";
import type { Player } from "../../src/game/world/Player.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";

type Offer = { items: { itemId: string; quantity: number }[]; coins: number; accepted: boolean };

async function trading(aCoins: number, bCoins: number) {
  const g = await gameWorld();
  const a = g.add({ name: "Ann", x: 0, z: 1, coins: aCoins }, [{ itemId: "logs", quantity: 1 }]);
  const b = g.add({ name: "Ben", x: 1, z: 1, coins: bCoins }, [{ itemId: "bronze_sword", quantity: 1 }]);
  g.send(a, "tradeRequest", { targetPlayerId: b.id });
  g.tick();
  const tradeId = String(g.events(b, "tradeIncoming").at(-1)!.tradeId);
  g.send(b, "tradeRequestRespond", { tradeId, accept: true });
  g.tick();
  return { g, a, b, tradeId };
}

const lastUpdate = (g: GameHarness, p: Player) => g.events(p, "tradeUpdated").at(-1) as { myOffer: Offer; theirOffer: Offer };
const tradeErrors = (g: GameHarness, p: Player) => g.events(p, "tradeError").map((e) => e.code);

describe("coins in trades", () => {
  it("moves the offered coins with the items; both screens and the confirmation's values show them", async () => {
    const { g, a, b, tradeId } = await trading(1_000, 50);
    g.send(a, "tradeSetCoins", { tradeId, amount: 600 });
    g.send(b, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
    g.tick();
    assert.equal(lastUpdate(g, a).myOffer.coins, 600);
    assert.equal(lastUpdate(g, a).theirOffer.coins, 0);
    assert.equal(lastUpdate(g, b).theirOffer.coins, 600, "Ben sees Ann's coins");
    g.send(a, "tradeAccept", { tradeId });
    g.send(b, "tradeAccept", { tradeId });
    g.tick();
    const sword = g.world.content.item("bronze_sword")!.value;
    const confirmB = g.events(b, "tradeConfirmScreen")[0] as { theirOffer: Offer; values: unknown };
    assert.equal(confirmB.theirOffer.coins, 600);
    assert.deepEqual(confirmB.values, { myOfferValue: sword, theirOfferValue: 600, net: 600 - sword });
    g.send(a, "tradeAccept", { tradeId });
    g.send(b, "tradeAccept", { tradeId });
    g.tick();
    assert.deepEqual(g.events(b, "tradeCompleted")[0], { tradeId, receivedItems: [], receivedCoins: 600 });
    assert.deepEqual(g.events(a, "tradeCompleted")[0], { tradeId, receivedItems: [{ itemId: "bronze_sword", quantity: 1 }], receivedCoins: 0 });
    assert.deepEqual([a.data.coins, b.data.coins], [400, 650]);
    assert.equal(a.data.coins + b.data.coins, 1_050, "no coin made or lost");
  });

  it("clears both acceptances when the amount changes, and leaves the confirmation screen for the offers", async () => {
    const { g, a, b, tradeId } = await trading(100, 100);
    g.send(a, "tradeSetCoins", { tradeId, amount: 10 });
    g.tick();
    g.send(a, "tradeAccept", { tradeId });
    g.tick();
    assert.equal(lastUpdate(g, b).theirOffer.accepted, true);
    g.send(a, "tradeSetCoins", { tradeId, amount: 10 });
    g.tick();
    assert.equal(lastUpdate(g, b).theirOffer.accepted, true, "the same amount again is no change");
    g.send(b, "tradeSetCoins", { tradeId, amount: 5 });
    g.tick();
    assert.equal(lastUpdate(g, b).theirOffer.accepted, false, "Ben's change cleared Ann's accept");
    g.send(a, "tradeAccept", { tradeId });
    g.send(b, "tradeAccept", { tradeId });
    g.tick();
    assert.equal(g.world.trades.sessionOf(a.id)!.screen, "confirm");
    g.send(a, "tradeSetCoins", { tradeId, amount: 0 });
    g.tick();
    assert.equal(g.world.trades.sessionOf(a.id)!.screen, "offer", "a change on the confirmation screen goes back to the offers");
    assert.deepEqual([lastUpdate(g, b).theirOffer.coins, lastUpdate(g, b).theirOffer.accepted, lastUpdate(g, b).myOffer.accepted], [0, false, false]);
  });

  it("refuses more coins than carried, and bad amounts, changing nothing", async () => {
    const { g, a, b, tradeId } = await trading(30, 0);
    g.send(a, "tradeSetCoins", { tradeId, amount: 20 });
    g.tick();
    g.send(a, "tradeSetCoins", { tradeId, amount: 31 });
    g.tick();
    assert.deepEqual(tradeErrors(g, a), ["NOT_ENOUGH_COINS"]);
    assert.match(String(g.events(a, "tradeError")[0]!.message), /30 coins/);
    // Refused by the event's schema before any handler (every transport validates the same way).
    for (const amount of [-1, 2.5, 2_147_483_648, "10", undefined]) {
      const v = g.validate("tradeSetCoins", { tradeId, amount });
      assert.ok(!v.ok && v.code === "INVALID_PAYLOAD" && /amount/.test(v.message), `${String(amount)}: ${JSON.stringify(v)}`);
    }
    assert.equal(lastUpdate(g, b).theirOffer.coins, 20, "the offer stands as it was");
    g.send(b, "tradeSetCoins", { tradeId: "another-trade", amount: 0 });
    g.tick();
    assert.deepEqual(tradeErrors(g, b), ["INVALID_TRADE"]);
  });

  it("refuses the swap when the coins offered are gone or the receiver's would overflow, moving nothing", async () => {
    const { g, a, b, tradeId } = await trading(500, 2_147_483_600);
    g.send(a, "tradeSetCoins", { tradeId, amount: 100 });
    g.tick();
    for (let i = 0; i < 2; i++) {
      g.send(a, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
    }
    assert.deepEqual(tradeErrors(g, a), ["STACK_OVERFLOW"]);
    assert.deepEqual([a.data.coins, b.data.coins], [500, 2_147_483_600]);
    assert.equal(g.world.trades.sessionOf(a.id)!.screen, "offer");

    // Ann spends coins after her offer (as if from elsewhere): the swap finds them gone.
    b.data.coins = 0;
    g.send(a, "tradeSetCoins", { tradeId, amount: 200 });
    g.tick();
    a.data.coins = 150;
    for (let i = 0; i < 2; i++) {
      g.send(a, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
    }
    assert.deepEqual(tradeErrors(g, a), ["STACK_OVERFLOW", "NOT_ENOUGH_COINS"]);
    assert.deepEqual([a.data.coins, b.data.coins], [150, 0]);
    assert.equal(g.events(a, "tradeCompleted").length, 0);
  });
});
