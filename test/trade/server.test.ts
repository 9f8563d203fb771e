/**
 * Trading through a real server on each dialect: a second login mid-trade, a disconnect while the
 * swap is being stored, and the adversarial moves (forged trade ids, replays, dropping or banking
 * an offered item) sent over `/ws` rather than into the game core.
 */
import assert from "node:assert/strict";
import { InventorySlot, TradeAudit } from "../../entities/index.ts";
import type { CommitRequest } from "../../src/game/trade/Trades.ts";
import { CLOSE_REPLACED } from "../../src/sessions/WorldService.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

interface Trader {
  ws: WsTestClient;
  id: string;
  token: string;
  inventory: { slot: number; itemId: string; quantity: number }[];
}

async function join(t: TestServer, query: string): Promise<Trader> {
  const ws = await WsTestClient.connect(`${t.wsUrl}?${query}`);
  const welcome = await ws.next("welcome");
  const sync = await ws.next("player:sync");
  return { ws, id: String(welcome.playerId), token: String(welcome.token ?? ""), inventory: sync.inventory as Trader["inventory"] };
}

/** A opens a trade with B and both reach the offer screen. */
async function openTrade(a: Trader, b: Trader): Promise<string> {
  a.ws.send("tradeRequest", { targetPlayerId: b.id });
  const tradeId = String((await b.ws.next("tradeIncoming")).tradeId);
  b.ws.send("tradeRequestRespond", { tradeId, accept: true });
  await a.ws.next("tradeStarted");
  await b.ws.next("tradeStarted");
  return tradeId;
}

const eventsOf = (c: WsTestClient, type: string) => c.events.filter((e) => e.type === type).map((e) => e.data);
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

/** Every stored stack of the two characters, as "itemId:quantity" sorted, for before/after comparisons. */
async function storedItems(t: TestServer, ids: string[]): Promise<string[]> {
  const rows = await t.server.db.em().find(InventorySlot, { characterId: { $in: ids } });
  return rows.map((r) => `${r.characterId}:${r.itemId}:${r.quantity}`).sort();
}

function liveItems(t: TestServer, ids: string[]): string[] {
  const out: string[] = [];
  for (const id of ids) {
    for (const s of t.server.world.world.players.get(id)?.data.inventory ?? []) if (s) out.push(`${id}:${s.itemId}:${s.quantity}`);
  }
  return out.sort();
}

forEachDialect("trading through the server", (ctx) => {
  let t: TestServer;
  let closed = false;
  const tag = ctx.dialect.slice(0, 2);
  beforeEach(async () => {
    t = await startTestServer({ DATABASE_URL: ctx.url, TICK_MS: "50", DISABLE_RATE_LIMIT: "true", SAVE_INTERVAL: "1" });
    closed = false;
  });
  afterEach(async () => {
    if (!closed) await t?.close();
  });

  it("a server shutdown cancels an open trade once for each player, reason server_error, before the sockets close", async function () {
    this.timeout(20_000);
    const ann = await join(t, `name=ShutAnn${tag}`);
    const ben = await join(t, `name=ShutBen${tag}`);
    const tradeId = await openTrade(ann, ben);
    ann.ws.send("tradeAddItem", { tradeId, inventorySlot: ann.inventory[0]!.slot, quantity: 1 });
    await ben.ws.next("tradeUpdated");
    const before = liveItems(t, [ann.id, ben.id]);
    closed = true;
    await t.close();
    for (const p of [ann, ben]) {
      await p.ws.waitClosed();
      assert.deepEqual(eventsOf(p.ws, "tradeCancelled"), [{ tradeId, reason: "server_error" }]);
      assert.equal(eventsOf(p.ws, "tradeCompleted").length, 0);
    }
    assert.deepEqual(liveItems(t, [ann.id, ben.id]), before);
  });

  it("survives a flood of 1,000 trade messages over /ws: rate limited, no swap, no item changed", async function () {
    this.timeout(20_000);
    const ann = await join(t, `name=FloodAnn${tag}`);
    const ben = await join(t, `name=FloodBen${tag}`);
    const ids = [ann.id, ben.id];
    const before = liveItems(t, ids);
    const tradeId = await openTrade(ann, ben);
    const kinds = ["tradeAddItem", "tradeRemoveItem", "tradeAccept", "tradeRequest", "tradeRequestRespond"];
    for (let i = 0; i < 1000; i++) {
      const type = kinds[i % kinds.length]!;
      ann.ws.send(type, { tradeId, inventorySlot: i % 40, tradeSlot: i % 30, quantity: i % 7 === 0 ? 0 : 99, targetPlayerId: ben.id, accept: i % 2 === 0 });
    }
    await settle(1_000);
    assert.ok(
      eventsOf(ann.ws, "error").some((e) => e.code === "RATE_LIMITED"),
      "the flood is limited",
    );
    // The server is still serving the other player, and nothing was swapped or changed.
    ben.ws.send("tradeCancel", { tradeId });
    assert.deepEqual(await ben.ws.next("tradeCancelled"), { tradeId, reason: "cancelled" });
    assert.equal(eventsOf(ben.ws, "tradeCompleted").length + eventsOf(ann.ws, "tradeCompleted").length, 0);
    assert.equal(await t.server.db.em().count(TradeAudit, { tradeId }), 0);
    assert.deepEqual(liveItems(t, ids), before);
    ann.ws.close();
    ben.ws.close();
  });

  it("a second login mid-trade cancels the trade once for both players and changes no item", async function () {
    this.timeout(20_000);
    const ann = await join(t, `name=SecondAnn${tag}`);
    const ben = await join(t, `name=SecondBen${tag}`);
    const tradeId = await openTrade(ann, ben);
    ann.ws.send("tradeAddItem", { tradeId, inventorySlot: ann.inventory[0]!.slot, quantity: 1 });
    await ben.ws.next("tradeUpdated");
    const before = liveItems(t, [ann.id, ben.id]);

    const again = await join(t, `token=${encodeURIComponent(ann.token)}`);
    assert.equal(again.id, ann.id, "the token logs in the same character");
    assert.equal((await ann.ws.waitClosed()).code, CLOSE_REPLACED);
    assert.deepEqual(await ben.ws.next("tradeCancelled"), { tradeId, reason: "disconnected" });
    assert.equal(eventsOf(ann.ws, "error").at(-1)?.code, "SESSION_REPLACED");
    // Ann hears of it once, on the connection that now speaks for her (the old one is closed).
    assert.deepEqual(await again.ws.next("tradeCancelled"), { tradeId, reason: "disconnected" });
    await settle();
    assert.deepEqual(eventsOf(ben.ws, "tradeCancelled"), [], "exactly once");
    assert.deepEqual([...eventsOf(again.ws, "tradeCancelled"), ...eventsOf(ann.ws, "tradeCancelled")], [], "exactly once");
    assert.equal(t.server.world.world.trades.sessions.size, 0);
    assert.deepEqual(liveItems(t, [ann.id, ben.id]), before);

    // The replacing connection can trade again at once, and an accept for the old trade is refused.
    again.ws.send("tradeAccept", { tradeId });
    assert.equal((await again.ws.next("tradeError")).code, "NOT_IN_TRADE");
    const second = await openTrade(again, ben);
    assert.notEqual(second, tradeId);
    again.ws.close();
    ben.ws.close();
  });

  it("a player who disconnects while the swap is being stored still gets it, stored once", async function () {
    this.timeout(20_000);
    // Hold each swap before it reaches the database, as a slow database would.
    const world = t.server.world.world;
    const commit = world.trades.commit;
    assert.ok(commit, "the server stores swaps through trades.commit");
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held: CommitRequest[] = [];
    world.trades.commit = (req) => {
      held.push(req);
      void gate.then(() => commit(req));
    };

    const ann = await join(t, `name=SlowAnn${tag}`);
    const ben = await join(t, `name=SlowBen${tag}`);
    const given = ann.inventory[0]!;
    const tradeId = await openTrade(ann, ben);
    ann.ws.send("tradeAddItem", { tradeId, inventorySlot: given.slot, quantity: given.quantity });
    await ben.ws.next("tradeUpdated");
    for (const p of [ann, ben]) p.ws.send("tradeAccept", { tradeId });
    await ann.ws.next("tradeConfirmScreen");
    for (const p of [ann, ben]) p.ws.send("tradeAccept", { tradeId });
    const deadline = Date.now() + 5_000;
    while (held.length === 0 && Date.now() < deadline) await settle(20);
    assert.equal(held.length, 1, "the swap reached the committer");

    // Ann leaves mid-commit; Ben tries to cancel. Neither may undo or repeat the swap.
    ann.ws.close();
    ben.ws.send("tradeCancel", { tradeId });
    assert.equal((await ben.ws.next("tradeError")).code, "INVALID_TRADE");
    await settle();
    assert.ok(world.players.has(ann.id), "a player in a committing trade stays until it settles");
    release();

    const done = await ben.ws.next("tradeCompleted", 10_000);
    assert.deepEqual(done.receivedItems, [{ itemId: given.itemId, quantity: given.quantity }]);
    assert.deepEqual(eventsOf(ben.ws, "tradeCancelled"), []);
    assert.equal(await t.server.db.em().count(TradeAudit, { tradeId }), 1);

    // Ann comes back (the lingering character or a fresh load): the item is gone from her
    // inventory and sits in Ben's, live and stored.
    const back = await join(t, `token=${encodeURIComponent(ann.token)}`);
    assert.equal(back.id, ann.id);
    const count = (inv: Trader["inventory"]) => inv.filter((s) => s.itemId === given.itemId).reduce((n, s) => n + s.quantity, 0);
    assert.equal(count(back.inventory), count(ann.inventory) - given.quantity);
    await settle(1_500); // one autosave
    assert.deepEqual(await storedItems(t, [ann.id, ben.id]), liveItems(t, [ann.id, ben.id]));
    back.ws.close();
    ben.ws.close();
  });

  it("refuses forged trade ids, replays and moving an offered item over /ws, changing nothing", async function () {
    this.timeout(20_000);
    const ann = await join(t, `name=ForgeAnn${tag}`);
    const ben = await join(t, `name=ForgeBen${tag}`);
    const eve = await join(t, `name=ForgeEve${tag}`);
    const ids = [ann.id, ben.id, eve.id];
    const before = liveItems(t, ids);
    const tradeId = await openTrade(ann, ben);
    const slot = ann.inventory[0]!.slot;

    // Eve, outside the trade, acts on it by id.
    for (const [type, data, code] of [
      ["tradeAddItem", { tradeId, inventorySlot: eve.inventory[0]!.slot, quantity: 1 }, "NOT_IN_TRADE"],
      ["tradeAccept", { tradeId }, "NOT_IN_TRADE"],
      ["tradeCancel", { tradeId }, "NOT_IN_TRADE"],
      ["tradeRequestRespond", { tradeId, accept: true }, "INVALID_TRADE"],
    ] as const) {
      eve.ws.send(type, data);
      assert.equal((await eve.ws.next("tradeError")).code, code, type);
    }
    // Ann offers an item, then tries to drop it, bank it, and offer more than she has.
    ann.ws.send("tradeAddItem", { tradeId, inventorySlot: slot, quantity: 1 });
    await ben.ws.next("tradeUpdated");
    ann.ws.send("player:action", { action: "drop", slot });
    assert.equal((await ann.ws.next("error")).code, "PLAYER_BUSY");
    ann.ws.send("tradeAddItem", { tradeId, inventorySlot: slot, quantity: 1_000_000 });
    assert.equal((await ann.ws.next("tradeError")).code, "INVALID_QUANTITY");
    ann.ws.send("tradeAddItem", { tradeId: "x".repeat(10_000), inventorySlot: slot, quantity: 1 });
    assert.equal((await ann.ws.next("error")).code, "INVALID_PAYLOAD");

    // Complete, then replay every step of the finished trade.
    for (const p of [ann, ben]) p.ws.send("tradeAccept", { tradeId });
    await ann.ws.next("tradeConfirmScreen");
    for (const p of [ann, ben]) p.ws.send("tradeAccept", { tradeId });
    await ben.ws.next("tradeCompleted", 10_000);
    const after = liveItems(t, ids);
    for (const p of [ann, ben]) {
      p.ws.send("tradeAccept", { tradeId });
      p.ws.send("tradeAddItem", { tradeId, inventorySlot: slot, quantity: 1 });
      assert.equal((await p.ws.next("tradeError")).code, "NOT_IN_TRADE");
      assert.equal((await p.ws.next("tradeError")).code, "NOT_IN_TRADE");
    }
    await settle();
    assert.deepEqual(liveItems(t, ids), after);
    assert.equal(await t.server.db.em().count(TradeAudit, { tradeId }), 1);
    // Nothing was created or destroyed: the same multiset of items, moved between Ann and Ben.
    const strip = (l: string[]) => l.map((s) => s.slice(s.indexOf(":") + 1)).sort();
    assert.ok(after.length > 0);
    assert.deepEqual(totals(strip(after)), totals(strip(before)));
    for (const p of [ann, ben, eve]) p.ws.close();
  });
  it("refuses every malformed offer over /ws, and both accepting at once (10 times each) stores one swap", async function () {
    this.timeout(20_000);
    const ann = await join(t, `name=BadAnn${tag}`);
    const ben = await join(t, `name=BadBen${tag}`);
    const ids = [ann.id, ben.id];
    const before = liveItems(t, ids);
    const storedBefore = await storedItems(t, ids);
    const tradeId = await openTrade(ann, ben);
    const slot = ann.inventory[0]!.slot;
    const empty = [...Array(28).keys()].find((i) => !ann.inventory.some((s) => s.slot === i))!;
    const raw = (data: string) => `{"type":"tradeAddItem","data":{"tradeId":"${tradeId}",${data}}}`;
    const bad: [string, string, string][] = [
      ["quantity 0", raw(`"inventorySlot":${slot},"quantity":0`), "error"],
      ["quantity -1", raw(`"inventorySlot":${slot},"quantity":-1`), "error"],
      ["quantity NaN", raw(`"inventorySlot":${slot},"quantity":NaN`), "error"],
      ["quantity 1.5", raw(`"inventorySlot":${slot},"quantity":1.5`), "error"],
      ['quantity "10"', raw(`"inventorySlot":${slot},"quantity":"10"`), "error"],
      ["quantity 2^31", raw(`"inventorySlot":${slot},"quantity":${2 ** 31}`), "error"],
      ["quantity 2^53", raw(`"inventorySlot":${slot},"quantity":${2 ** 53}`), "error"],
      ["no quantity", raw(`"inventorySlot":${slot}`), "error"],
      ["slot -1", raw(`"inventorySlot":-1,"quantity":1`), "error"],
      ["slot 28", raw(`"inventorySlot":28,"quantity":1`), "error"],
      ["an empty slot", raw(`"inventorySlot":${empty},"quantity":1`), "tradeError"],
      ["more than the stack", raw(`"inventorySlot":${slot},"quantity":${ann.inventory[0]!.quantity + 1}`), "tradeError"],
    ];
    for (const [what, message, reply] of bad) {
      ann.ws.sendRaw(message);
      const got = await ann.ws.next(reply);
      assert.ok(typeof got.code === "string", what);
    }
    await settle();
    assert.deepEqual(eventsOf(ben.ws, "tradeUpdated"), [], "no malformed offer reached the trade");
    assert.deepEqual(eventsOf(ann.ws, "tradeUpdated"), []);

    ann.ws.send("tradeAddItem", { tradeId, inventorySlot: slot, quantity: 1 });
    await ben.ws.next("tradeUpdated");
    for (let i = 0; i < 10; i++) for (const p of [ann, ben]) p.ws.send("tradeAccept", { tradeId });
    await ann.ws.next("tradeConfirmScreen");
    for (let i = 0; i < 10; i++) for (const p of [ann, ben]) p.ws.send("tradeAccept", { tradeId });
    await ben.ws.next("tradeCompleted", 10_000);
    await settle(1_500); // one autosave after the swap
    assert.equal(
      eventsOf(ben.ws, "tradeCompleted").length + eventsOf(ann.ws, "tradeCompleted").length,
      1,
      "each player completed once (Ben's was taken above)",
    );
    assert.equal(await t.server.db.em().count(TradeAudit, { tradeId }), 1);
    const after = liveItems(t, ids);
    const strip = (l: string[]) => totals(l.map((s) => s.slice(s.indexOf(":") + 1)));
    assert.deepEqual(strip(after), strip(before), "live items conserved");
    assert.deepEqual(strip(await storedItems(t, ids)), strip(storedBefore), "stored items conserved");
    assert.deepEqual(await storedItems(t, ids), after, "stored equals live");
    ann.ws.close();
    ben.ws.close();
  });
});

function totals(stacks: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of stacks) {
    const i = s.lastIndexOf(":");
    const id = s.slice(0, i);
    out[id] = (out[id] ?? 0) + Number(s.slice(i + 1));
  }
  return out;
}
