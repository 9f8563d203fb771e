import assert from "node:assert/strict";
import { INACTIVITY_TICKS, REQUEST_TICKS } from "../../src/game/trade/Trades.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { count, gameWorld, type GameHarness } from "../support/game.ts";

type Msg = Record<string, unknown>;

/** Every item both players hold, bank and have on the ground: the conserved quantity. */
function totals(g: GameHarness, players: Player[]): Record<string, number> {
  const out: Record<string, number> = {};
  const add = (id: string, q: number) => (out[id] = (out[id] ?? 0) + q);
  for (const p of players) {
    for (const s of p.data.inventory) if (s) add(s.itemId, s.quantity);
    for (const s of p.data.bank) add(s.itemId, s.quantity);
  }
  for (const i of g.world.groundItems.values()) add(i.itemId, i.quantity);
  return out;
}

async function pair(aItems: Player["data"]["inventory"] = [], bItems: Player["data"]["inventory"] = []) {
  const g = await gameWorld();
  const a = g.add({ name: "Ann", x: 0, z: 1 }, aItems);
  const b = g.add({ name: "Ben", x: 1, z: 1 }, bItems);
  return { g, a, b };
}

/** Request and accept: returns the trade id. */
/** A asks B to trade; returns the id B was offered. */
function request(g: GameHarness, a: Player, b: Player): string {
  g.send(a, "tradeRequest", { targetPlayerId: b.id });
  g.tick();
  return String(g.events(b, "tradeIncoming").at(-1)!.tradeId);
}

function open(g: GameHarness, a: Player, b: Player): string {
  const tradeId = request(g, a, b);
  g.send(b, "tradeRequestRespond", { tradeId, accept: true });
  g.tick();
  return tradeId;
}

const tradeErrors = (g: GameHarness, p: Player) => g.events(p, "tradeError").map((e) => e.code);
const cancelled = (g: GameHarness, p: Player) => g.events(p, "tradeCancelled") as Msg[];

describe("trading", () => {
  it("trades within 2 tiles: request, accept, offer, confirm, complete, seen from each side", async () => {
    const { g, a, b } = await pair(
      [
        { itemId: "bronze_sword", quantity: 1 },
        { itemId: "feathers", quantity: 100 },
      ],
      [{ itemId: "logs", quantity: 1 }],
    );
    const before = totals(g, [a, b]);
    g.send(a, "tradeRequest", { targetPlayerId: b.id });
    g.tick();
    const incoming = g.events(b, "tradeIncoming")[0]!;
    assert.deepEqual(incoming, { tradeId: incoming.tradeId, fromPlayerId: a.id, fromPlayerName: "Ann" });
    const tradeId = String(incoming.tradeId);
    g.send(b, "tradeRequestRespond", { tradeId, accept: true });
    g.tick();
    assert.deepEqual(g.events(a, "tradeStarted")[0], { tradeId, partnerId: b.id, partnerName: "Ben" });
    assert.deepEqual(g.events(b, "tradeStarted")[0], { tradeId, partnerId: a.id, partnerName: "Ann" });
    assert.ok(a.inTrade && b.inTrade);

    g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
    g.send(a, "tradeAddItem", { tradeId, inventorySlot: 1, quantity: 40 });
    g.send(b, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
    g.tick();
    const seenByB = g.events(b, "tradeUpdated").at(-1)!;
    assert.deepEqual(
      (seenByB.theirOffer as { items: { itemId: string; quantity: number }[] }).items.map((i) => [i.itemId, i.quantity]),
      [
        ["bronze_sword", 1],
        ["feathers", 40],
      ],
    );
    assert.deepEqual(
      (seenByB.myOffer as { items: { itemId: string }[] }).items.map((i) => i.itemId),
      ["logs"],
    );

    g.send(a, "tradeAccept", { tradeId });
    g.send(b, "tradeAccept", { tradeId });
    g.tick();
    const confirm = g.events(a, "tradeConfirmScreen")[0]!;
    const value = (id: string) => g.world.content.item(id)!.value;
    assert.deepEqual(confirm.values, {
      myOfferValue: value("bronze_sword") + 40 * value("feathers"),
      theirOfferValue: value("logs"),
      net: value("logs") - value("bronze_sword") - 40 * value("feathers"),
    });
    g.send(a, "tradeAccept", { tradeId });
    g.send(b, "tradeAccept", { tradeId });
    g.tick();
    assert.deepEqual(g.events(a, "tradeCompleted")[0], { tradeId, receivedItems: [{ itemId: "logs", quantity: 1 }], receivedCoins: 0 });
    assert.deepEqual(g.events(b, "tradeCompleted")[0], {
      tradeId,
      receivedItems: [
        { itemId: "bronze_sword", quantity: 1 },
        { itemId: "feathers", quantity: 40 },
      ],
      receivedCoins: 0,
    });
    assert.equal(count(a, "logs"), 1);
    assert.equal(count(a, "feathers"), 60);
    assert.equal(count(b, "bronze_sword"), 1);
    assert.equal(count(b, "feathers"), 40);
    assert.deepEqual(totals(g, [a, b]), before);
    assert.ok(!a.inTrade && !b.inTrade);
  });

  it("refuses requests to yourself, from too far, to busy or absent players", async () => {
    const { g, a, b } = await pair();
    const far = g.add({ x: 6, z: 1 });
    g.send(a, "tradeRequest", { targetPlayerId: a.id });
    g.send(a, "tradeRequest", { targetPlayerId: far.id });
    g.send(a, "tradeRequest", { targetPlayerId: "nobody" });
    g.tick();
    assert.deepEqual(tradeErrors(g, a), ["SELF_TRADE", "TOO_FAR", "PLAYER_OFFLINE"]);
    open(g, a, b);
    const c = g.add({ x: 0, z: 2 });
    g.send(c, "tradeRequest", { targetPlayerId: a.id });
    g.tick();
    assert.deepEqual(tradeErrors(g, c), ["PLAYER_BUSY"]);
  });

  it("expires a request after 30 seconds and tells both players once", async () => {
    const { g, a, b } = await pair();
    const tradeId = request(g, a, b);
    g.tick(REQUEST_TICKS + 1);
    for (const p of [a, b]) assert.deepEqual(cancelled(g, p), [{ tradeId, reason: "timeout" }]);
    g.send(b, "tradeRequestRespond", { tradeId, accept: true });
    g.tick();
    assert.deepEqual(tradeErrors(g, b), ["INVALID_TRADE"]);
  });

  it("declines: tradeCancelled with reason declined, exactly once each", async () => {
    const { g, a, b } = await pair();
    const tradeId = request(g, a, b);
    g.send(b, "tradeRequestRespond", { tradeId, accept: false });
    g.tick(5);
    for (const p of [a, b]) assert.deepEqual(cancelled(g, p), [{ tradeId, reason: "declined" }]);
    assert.ok(!a.inTrade && !b.inTrade);
  });

  describe("adversarial offers (each leaves every item where it was)", () => {
    const bad: [string, unknown][] = [
      ["quantity 0", { inventorySlot: 0, quantity: 0 }],
      ["quantity -1", { inventorySlot: 0, quantity: -1 }],
      ["quantity 1.5", { inventorySlot: 0, quantity: 1.5 }],
      ['quantity "10"', { inventorySlot: 0, quantity: "10" }],
      ["quantity 2^31", { inventorySlot: 0, quantity: 2 ** 31 }],
      ["quantity 2^53", { inventorySlot: 0, quantity: 2 ** 53 }],
      ["quantity NaN (null on the wire)", { inventorySlot: 0, quantity: null }],
      ["no quantity", { inventorySlot: 0 }],
      ["slot -1", { inventorySlot: -1, quantity: 1 }],
      ["slot 28", { inventorySlot: 28, quantity: 1 }],
      ["no slot", { quantity: 1 }],
    ];
    for (const [what, data] of bad) {
      it(`refuses ${what} before it reaches the trade`, async () => {
        const { g } = await pair();
        const r = g.validate("tradeAddItem", { tradeId: "t", ...(data as object) });
        assert.equal(r.ok, false);
      });
    }

    it("refuses an empty slot, a slot only the partner has filled, and untradeable items", async () => {
      const { g, a, b } = await pair([{ itemId: "settlers_charter", quantity: 1 }], [null, null, null, { itemId: "logs", quantity: 1 }]);
      const before = totals(g, [a, b]);
      const tradeId = open(g, a, b);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 5, quantity: 1 });
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 3, quantity: 1 });
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
      g.tick();
      assert.deepEqual(tradeErrors(g, a), ["INVALID_SLOT", "INVALID_SLOT", "UNTRADEABLE_ITEM"]);
      assert.deepEqual(totals(g, [a, b]), before);
    });

    it("refuses offering one stack twice beyond what it holds", async () => {
      const { g, a, b } = await pair([{ itemId: "feathers", quantity: 10 }]);
      const tradeId = open(g, a, b);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 7 });
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 4 });
      g.tick();
      assert.deepEqual(tradeErrors(g, a), ["INVALID_QUANTITY"]);
      const offer = g.events(b, "tradeUpdated").at(-1)!.theirOffer as { items: { quantity: number }[] };
      assert.deepEqual(
        offer.items.map((i) => i.quantity),
        [7],
      );
    });

    it("clears both acceptances when an offer changes after the partner accepted", async () => {
      const { g, a, b } = await pair([
        { itemId: "logs", quantity: 1 },
        { itemId: "feathers", quantity: 5 },
      ]);
      const tradeId = open(g, a, b);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
      assert.equal((g.events(a, "tradeUpdated").at(-1)!.theirOffer as { accepted: boolean }).accepted, true);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 1, quantity: 5 });
      g.send(a, "tradeAccept", { tradeId });
      g.tick();
      assert.equal(g.events(a, "tradeConfirmScreen").length, 0, "B's old acceptance does not count");
    });

    it("returns to the offer screen on an edit in the confirmation screen; a replayed accept then needs both again", async () => {
      const { g, a, b } = await pair([
        { itemId: "logs", quantity: 1 },
        { itemId: "feathers", quantity: 5 },
      ]);
      const before = totals(g, [a, b]);
      const tradeId = open(g, a, b);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
      g.send(a, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
      assert.equal(g.events(a, "tradeConfirmScreen").length, 1);
      g.send(a, "tradeRemoveItem", { tradeId, tradeSlot: 0 });
      g.send(b, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
      assert.equal(g.events(a, "tradeCompleted").length, 0, "no swap from stale acceptances");
      assert.deepEqual(totals(g, [a, b]), before);
      assert.equal(g.world.trades.sessions.get(tradeId)!.screen, "offer");
    });

    it("refuses an accept of a screen the trade has left (a double click on the offer screen), changing nothing; the trade then completes", async () => {
      const { g, a, b } = await pair([{ itemId: "logs", quantity: 1 }]);
      const before = totals(g, [a, b]);
      const tradeId = open(g, a, b);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
      g.send(b, "tradeAccept", { tradeId, screen: "offer" });
      g.tick();
      // A's double click: the first accept moves the trade to the confirmation screen, the second
      // (still for the offer screen) is refused instead of accepting a screen A has not seen.
      g.send(a, "tradeAccept", { tradeId, screen: "offer" });
      g.send(a, "tradeAccept", { tradeId, screen: "offer" });
      g.tick();
      const session = g.world.trades.sessions.get(tradeId)!;
      assert.equal(session.screen, "confirm");
      assert.deepEqual([session.a.accepted, session.b.accepted], [false, false]);
      assert.deepEqual(g.events(a, "tradeError"), [
        {
          tradeId,
          code: "TRADE_SCREEN_CHANGED",
          message: "the trade moved to the confirmation screen before your accept of the offer screen arrived: check it and accept again",
        },
      ]);
      assert.deepEqual(tradeErrors(g, b), []);
      assert.equal(g.events(a, "tradeConfirmScreen").length, 1);
      assert.deepEqual((g.events(b, "tradeConfirmScreen")[0]!.theirOffer as { accepted: boolean }).accepted, false);

      // A late accept of the offer screen while the confirmation screen is up: refused the same way,
      // B's acceptance stays, and the refusal is no activity.
      g.send(b, "tradeAccept", { tradeId, screen: "confirm" });
      g.tick();
      assert.equal(session.b.accepted, true);
      const idle = session.lastActivityTick;
      g.send(a, "tradeAccept", { tradeId, screen: "offer" });
      g.tick(2);
      assert.deepEqual(tradeErrors(g, a), ["TRADE_SCREEN_CHANGED", "TRADE_SCREEN_CHANGED"]);
      assert.deepEqual([session.screen, session.a.accepted, session.b.accepted, session.lastActivityTick], ["confirm", false, true, idle], "nothing changed");
      assert.equal(count(b, "logs"), 0);

      // Accepting the screen shown (or without a screen, as before) completes it.
      g.send(a, "tradeAccept", { tradeId, screen: "confirm" });
      g.tick();
      assert.deepEqual(g.events(b, "tradeCompleted"), [{ tradeId, receivedItems: [{ itemId: "logs", quantity: 1 }], receivedCoins: 0 }]);
      assert.equal(count(b, "logs"), 1);
      assert.deepEqual(totals(g, [a, b]), before);
    });

    it("refuses an accept of the confirmation screen once an edit has sent the trade back; accepts without a screen as before", async () => {
      const { g, a, b } = await pair([{ itemId: "logs", quantity: 1 }]);
      const tradeId = open(g, a, b);
      for (const screen of ["committing", "OFFER", "", 1, null])
        assert.equal(g.validate("tradeAccept", { tradeId, screen }).ok, false, `screen ${JSON.stringify(screen)}`);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
      g.send(a, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
      const session = g.world.trades.sessions.get(tradeId)!;
      assert.equal(session.screen, "confirm");
      // A takes the logs back; B's click on the confirmation screen's Accept arrives after it.
      g.send(a, "tradeRemoveItem", { tradeId, tradeSlot: 0 });
      g.send(b, "tradeAccept", { tradeId, screen: "confirm" });
      g.tick();
      assert.deepEqual(tradeErrors(g, b), ["TRADE_SCREEN_CHANGED"]);
      assert.deepEqual([session.screen, session.a.accepted, session.b.accepted], ["offer", false, false]);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
      g.send(a, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
      assert.equal(session.screen, "confirm");
      // Screens may be mixed: one side names it, the other does not.
      g.send(a, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId, screen: "confirm" });
      g.tick();
      assert.equal(g.events(a, "tradeCompleted").length, 1);
      assert.equal(count(b, "logs"), 1);
      assert.deepEqual(tradeErrors(g, a).concat(tradeErrors(g, b)), ["TRADE_SCREEN_CHANGED"]);
    });

    it("swaps once when both accept the confirmation in the same tick, and refuses replays", async () => {
      const { g, a, b } = await pair([{ itemId: "logs", quantity: 1 }]);
      const before = totals(g, [a, b]);
      const tradeId = open(g, a, b);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
      g.send(a, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
      for (let i = 0; i < 3; i++) {
        g.send(a, "tradeAccept", { tradeId });
        g.send(b, "tradeAccept", { tradeId });
      }
      g.tick(2);
      assert.equal(g.events(a, "tradeCompleted").length, 1);
      assert.equal(count(b, "logs"), 1);
      assert.deepEqual(totals(g, [a, b]), before);
    });

    it("refuses to complete into a full inventory or an overflowing stack, changing nothing", async () => {
      const full = Array.from({ length: 28 }, () => ({ itemId: "bread", quantity: 1 }));
      const { g, a, b } = await pair(
        [
          { itemId: "logs", quantity: 1 },
          { itemId: "feathers", quantity: 10 },
        ],
        full,
      );
      const before = totals(g, [a, b]);
      const tradeId = open(g, a, b);
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
      for (const p of [a, b]) g.send(p, "tradeAccept", { tradeId });
      g.tick();
      for (const p of [a, b]) g.send(p, "tradeAccept", { tradeId });
      g.tick();
      assert.deepEqual(tradeErrors(g, a), ["INVENTORY_FULL"]);
      assert.deepEqual(totals(g, [a, b]), before);
      assert.equal(g.world.trades.sessions.get(tradeId)!.screen, "offer");

      const o = await pair([{ itemId: "feathers", quantity: 10 }], [{ itemId: "feathers", quantity: 2 ** 31 - 5 }]);
      const id2 = open(o.g, o.a, o.b);
      o.g.send(o.a, "tradeAddItem", { tradeId: id2, inventorySlot: 0, quantity: 10 });
      for (const p of [o.a, o.b]) o.g.send(p, "tradeAccept", { tradeId: id2 });
      o.g.tick();
      for (const p of [o.a, o.b]) o.g.send(p, "tradeAccept", { tradeId: id2 });
      o.g.tick();
      assert.deepEqual(tradeErrors(o.g, o.a), ["STACK_OVERFLOW"]);
      assert.equal(count(o.b, "feathers"), 2 ** 31 - 5);
    });

    it("blocks banking, dropping, eating, equipping, stores, pickup, gathering and combat during a trade, and cancels it when a player walks away", async () => {
      const { g, a, b } = await pair([{ itemId: "logs", quantity: 1 }]);
      const before = totals(g, [a, b]);
      const tradeId = open(g, a, b);
      const blocked: [string, object][] = [
        ["player:action", { action: "drop", slot: 0 }],
        ["player:action", { action: "dropAll" }],
        ["bank:deposit", { slot: 0, quantity: 1 }],
        ["bank:withdraw", { itemId: "logs", quantity: 1 }],
        ["inventory:use", { slot: 0 }], // eat and equip go through here
        ["equipment:remove", { slot: "weapon" }],
        ["store:buy", { storeId: "brackenford_general", itemId: "logs", quantity: 1 }],
        ["store:sell", { storeId: "brackenford_general", slot: 0, quantity: 1 }],
        ["player:action", { action: "pickup", targetId: "ground-1" }],
        ["player:action", { action: "attack", targetId: b.id }],
        ["player:action", { action: "gather", targetId: "tree-1" }],
      ];
      // One a tick: eleven commands in one tick would pass the per-tick caps.
      for (const [type, data] of blocked) {
        g.send(a, type, data);
        g.tick();
      }
      assert.deepEqual(
        g.errors(a).map((e) => e.code),
        blocked.map(() => "PLAYER_BUSY"),
      );
      assert.equal(a.action, undefined);
      g.send(a, "player:move", { x: 0, z: 8 });
      g.tick(6);
      for (const p of [a, b]) assert.deepEqual(cancelled(g, p), [{ tradeId, reason: "moved_away" }]);
      assert.deepEqual(totals(g, [a, b]), before);
    });

    it("lets A ask B and C at once, but trade with only one of them", async () => {
      const g = await gameWorld();
      const a = g.add({ x: 0, z: 1 }, [{ itemId: "logs", quantity: 1 }]);
      const b = g.add({ x: 1, z: 1 });
      const c = g.add({ x: -1, z: 1 });
      g.send(a, "tradeRequest", { targetPlayerId: b.id });
      g.send(a, "tradeRequest", { targetPlayerId: c.id });
      g.tick();
      const tb = g.events(b, "tradeIncoming")[0]!.tradeId;
      const tc = g.events(c, "tradeIncoming")[0]!.tradeId;
      g.send(b, "tradeRequestRespond", { tradeId: tb, accept: true });
      g.send(c, "tradeRequestRespond", { tradeId: tc, accept: true });
      g.tick();
      assert.equal(g.world.trades.sessionOf(a.id)?.id, tb);
      assert.deepEqual(tradeErrors(g, c), ["PLAYER_BUSY"]);
      assert.deepEqual(cancelled(g, c), [{ tradeId: tc, reason: "cancelled" }]);
      assert.deepEqual(
        cancelled(g, a).filter((e) => e.tradeId === tc),
        [{ tradeId: tc, reason: "cancelled" }],
      );
      assert.equal(g.world.trades.sessions.size, 1);
    });

    it("cancels on a disconnect, a death and 5 minutes of inactivity, each reaching both players once", async () => {
      for (const [reason, act] of [
        ["disconnected", (g: GameHarness, a: Player) => g.world.removePlayer(a.id)],
        ["died", (g: GameHarness, a: Player) => ((a.data.health = 0), import("../../src/game/death.ts").then((m) => m.killPlayer(g.world, a, "test")))],
        ["timeout", (g: GameHarness) => g.tick(INACTIVITY_TICKS + 1)],
      ] as const) {
        const { g, a, b } = await pair([{ itemId: "logs", quantity: 1 }]);
        const tradeId = open(g, a, b);
        g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
        g.tick();
        await act(g, a);
        g.tick(2);
        assert.deepEqual(cancelled(g, b), [{ tradeId, reason }], reason);
        assert.deepEqual(cancelled(g, a), [{ tradeId, reason }], reason);
        assert.equal(g.world.trades.sessions.size, 0);
        assert.ok(!b.inTrade);
      }
    });

    it("cancels on a disconnect at the request and on the confirmation screen, once each, changing nothing", async () => {
      // At the request: the asker leaves before the answer.
      {
        const { g, a, b } = await pair([{ itemId: "logs", quantity: 1 }]);
        const tradeId = request(g, a, b);
        g.world.removePlayer(a.id);
        g.tick(2);
        assert.deepEqual(cancelled(g, b), [{ tradeId, reason: "disconnected" }]);
        g.send(b, "tradeRequestRespond", { tradeId, accept: true });
        g.tick();
        assert.deepEqual(tradeErrors(g, b), ["INVALID_TRADE"]);
        assert.equal(g.world.trades.sessions.size, 0);
      }
      // On the confirmation screen, after both accepted the offers.
      {
        const { g, a, b } = await pair([{ itemId: "logs", quantity: 1 }], [{ itemId: "feathers", quantity: 5 }]);
        const before = totals(g, [a, b]);
        const tradeId = open(g, a, b);
        g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
        g.send(b, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 5 });
        g.tick();
        for (const p of [a, b]) g.send(p, "tradeAccept", { tradeId });
        g.tick();
        assert.equal(g.events(a, "tradeConfirmScreen").length, 1);
        g.send(a, "tradeAccept", { tradeId });
        g.tick();
        g.world.removePlayer(b.id);
        g.tick(2);
        assert.deepEqual(cancelled(g, a), [{ tradeId, reason: "disconnected" }]);
        assert.deepEqual(cancelled(g, b), [{ tradeId, reason: "disconnected" }]);
        assert.equal(g.events(a, "tradeCompleted").length, 0);
        assert.deepEqual(totals(g, [a, b]), before);
        assert.ok(!a.inTrade);
      }
    });

    it("survives a flood of 1,000 trade messages from one side, accepts among them: no swap without the other's accept, nothing lost, and the trade still works", async () => {
      const { g, a, b } = await pair([{ itemId: "feathers", quantity: 5 }], [{ itemId: "logs", quantity: 1 }]);
      const before = totals(g, [a, b]);
      const tradeId = open(g, a, b);
      // Ann's flood: accepts, adds (valid and not) and removes, five a tick (the per-tick cap of
      // trade commands), so every one is handled rather than dropped by the cap.
      const flood: [string, object][] = [
        ["tradeAccept", { tradeId }],
        ["tradeRemoveItem", { tradeId, tradeSlot: 0 }],
        ["tradeAddItem", { tradeId, inventorySlot: 7, quantity: 99 }],
        ["tradeAddItem", { tradeId, inventorySlot: 0, quantity: 6 }],
        ["tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 }],
      ];
      for (let i = 0; i < 1000; i++) {
        const [type, data] = flood[i % flood.length]!;
        const r = g.validate(type, data);
        assert.ok(r.ok, type);
        g.world.enqueue(a.id, type, r.data);
        if (i % 5 === 4) g.tick();
      }
      g.tick(2);
      assert.ok(tradeErrors(g, a).length > 0, "the bad ones are refused");
      assert.ok(!g.events(a, "error").some((e) => e.code === "RATE_LIMITED"), "none was dropped by the per-tick cap");
      assert.equal(g.events(a, "tradeConfirmScreen").length, 0, "no confirm screen without Ben's accept");
      assert.equal(g.events(a, "tradeCompleted").length + g.events(b, "tradeCompleted").length, 0, "no swap");
      assert.ok(a.inTrade && b.inTrade, "the trade is still open");
      assert.deepEqual(totals(g, [a, b]), before);
      // Each round of the flood ends with all five feathers offered (an offer of more than one has
      // offers what there is); both accept twice: the trade completes, nothing lost or doubled.
      for (const p of [a, b]) g.send(p, "tradeAccept", { tradeId });
      g.tick();
      for (const p of [a, b]) g.send(p, "tradeAccept", { tradeId });
      g.tick(3);
      assert.equal(g.events(b, "tradeCompleted").length, 1, "the trade completes after the flood");
      assert.deepEqual(totals(g, [a, b]), before);
      assert.deepEqual(g.events(b, "tradeCompleted")[0]!.receivedItems, [{ itemId: "feathers", quantity: 5 }], "Ben got what Ann offered last");
    });
  });
});

describe("a death while the swap is being stored", () => {
  /** Five stacks: three are kept on death, two drop. */
  const DYING_KIT = [
    { itemId: "bronze_sword", quantity: 1 },
    { itemId: "feathers", quantity: 100 },
    { itemId: "logs", quantity: 1 },
    { itemId: "bronze_axe", quantity: 1 },
    { itemId: "tinderbox", quantity: 1 },
  ];
  it("waits for the trade to end, then drops from what the player holds after it", async () => {
    const { g, a, b } = await pair(DYING_KIT, [{ itemId: "logs", quantity: 2 }]);
    const pending: { session: { id: string }; swap: Parameters<typeof g.world.trades.finish>[2] }[] = [];
    g.world.trades.commit = (req) => pending.push(req);
    const tradeId = open(g, a, b);
    g.send(a, "tradeAddItem", { tradeId, inventorySlot: 1, quantity: 100 });
    g.send(b, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 2 });
    g.tick();
    for (let i = 0; i < 2; i++) {
      g.send(a, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
    }
    assert.equal(pending.length, 1, "the swap is being stored");
    assert.ok(a.tradeCommitting);
    const { killPlayer } = await import("../../src/game/death.ts");
    a.data.health = 0;
    killPlayer(g.world, a, "goblin");
    killPlayer(g.world, a, "goblin");
    g.tick(); // a tick while the swap is still being stored: its messages are delivered, nothing dies
    assert.equal(g.events(a, "player:death").length, 0, "not while the swap is being stored");
    assert.equal(count(a, "feathers"), 100, "its items are untouched meanwhile");

    const afterTrade = pending[0]!.swap.inventories.get(a.id)!.filter((s) => s !== null).length;
    g.world.trades.finish(g.world, tradeId, pending[0]!.swap);
    g.tick();
    assert.equal(g.events(a, "player:death").length, 1, "once the trade has ended, exactly once");
    assert.deepEqual(
      g.events(a, "tradeCompleted").map((e) => e.tradeId),
      [tradeId],
    );
    assert.equal(count(a, "feathers"), 0, "the feathers went to Ben");
    assert.equal(count(b, "feathers"), 100);
    // A kept its three most valuable stacks of what it held after the trade; the rest lies where it died.
    const held = a.data.inventory.filter((s) => s !== null).length;
    assert.equal(held, 3);
    const dropped = [...g.world.groundItems.values()].filter((i) => i.ownerId === a.id).map((i) => i.itemId);
    assert.equal(dropped.length, afterTrade - 3, `dropped ${dropped.join(", ")}`);
    assert.ok(dropped.filter((id) => id === "logs").length >= 1, "Ben's logs were A's by then, and can drop");
    assert.equal(a.data.health, a.maxHealth, "respawned");
    assert.equal(a.deathAfterTrade, undefined);
    // One death record (the playerDeaths lock row of the next save), naming exactly what dropped.
    assert.equal(a.pendingDeaths.length, 1);
    const recorded = a.pendingDeaths[0]!.items.filter((i) => i.outcome === "dropped").map((i) => i.itemId);
    assert.deepEqual(recorded.sort(), dropped.sort());
  });

  it("waits for a rolled-back trade too, then drops from what the player held before it, once", async () => {
    const { g, a, b } = await pair(DYING_KIT, [{ itemId: "logs", quantity: 2 }]);
    const pending: { session: { id: string } }[] = [];
    g.world.trades.commit = (req) => pending.push(req);
    const tradeId = open(g, a, b);
    g.send(a, "tradeAddItem", { tradeId, inventorySlot: 1, quantity: 100 });
    g.tick();
    for (let i = 0; i < 2; i++) {
      g.send(a, "tradeAccept", { tradeId });
      g.send(b, "tradeAccept", { tradeId });
      g.tick();
    }
    assert.equal(pending.length, 1, "the swap is being stored");
    const { killPlayer } = await import("../../src/game/death.ts");
    a.data.health = 0;
    killPlayer(g.world, a, "goblin");
    g.tick();
    assert.equal(g.events(a, "player:death").length, 0, "not while the swap is being stored");
    g.world.trades.abort(g.world, tradeId, "SERVER_ERROR", "rolled back");
    g.tick(2);
    assert.equal(g.events(a, "player:death").length, 1, "once the trade has ended, exactly once");
    assert.equal(count(b, "feathers"), 0, "the trade never happened");
    assert.equal(a.data.inventory.filter((s) => s !== null).length, 3, "its three most valuable stacks kept");
    const dropped = [...g.world.groundItems.values()].filter((i) => i.ownerId === a.id).map((i) => i.itemId);
    assert.equal(dropped.length, 2, `dropped ${dropped.join(", ")}`);
    assert.equal(a.pendingDeaths.length, 1);
    assert.deepEqual(
      a.pendingDeaths[0]!.items.filter((i) => i.outcome === "dropped")
        .map((i) => i.itemId)
        .sort(),
      dropped.sort(),
    );
  });
});
