import assert from "node:assert/strict";
import { pino } from "pino";
import { Character, InventorySlot, TradeAudit } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import type { ItemStack } from "../../src/game/world/Player.ts";
import { createCharacter, loadOrCreatePlayer } from "../../src/persistence/players.ts";
import { storeSwap, storeSwaps, TRADE_BATCH_MAX, TradeCommitError, type StoredSwap } from "../../src/persistence/trades.ts";
import { bundledContent } from "../support/content.ts";
import { countQueries } from "../support/queries.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

const inv = (items: ItemStack[]): (ItemStack | null)[] => Array.from({ length: 28 }, (_, i) => items[i] ?? null);

forEachDialect("storing a trade", (ctx) => {
  let db: Database;
  before(async () => {
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
  });
  after(() => db?.close());

  async function twoCharacters(tag: string) {
    const content = await bundledContent();
    const a = await createCharacter(db, content, `acc-a-${tag}`, undefined, [{ itemId: "logs", quantity: 1 }]);
    const b = await createCharacter(db, content, `acc-b-${tag}`, undefined, [{ itemId: "feathers", quantity: 5 }]);
    // Each character's row version as the storing process knows it (as the Saver tracks it).
    const versions = new Map([
      [a.characterId, a.version],
      [b.characterId, b.version],
    ]);
    return { a, b, content, versions };
  }

  /** A's 1 log for B's 5 feathers, computed from the inventories the two were created with. */
  function logForFeathers(tradeId: string, a: Awaited<ReturnType<typeof twoCharacters>>["a"], b: Awaited<ReturnType<typeof twoCharacters>>["b"]): StoredSwap {
    return {
      tradeId,
      aId: a.characterId,
      bId: b.characterId,
      before: new Map([
        [a.characterId, a.inventory],
        [b.characterId, b.inventory],
      ]),
      after: new Map([
        [a.characterId, inv([{ itemId: "feathers", quantity: 5 }])],
        [b.characterId, inv([{ itemId: "logs", quantity: 1 }])],
      ]),
      aGives: [{ itemId: "logs", quantity: 1 }],
      bGives: [{ itemId: "feathers", quantity: 5 }],
      valueAToB: 4,
      valueBToA: 10,
    };
  }

  it("swaps both inventories and writes the audit row in one transaction, exactly once", async () => {
    const { a, b, content, versions } = await twoCharacters(`ok-${ctx.dialect}`);
    const swap = logForFeathers(`trade-ok-${ctx.dialect}`, a, b);
    await storeSwap(db, swap, versions);
    assert.deepEqual([versions.get(a.characterId), versions.get(b.characterId)], [a.version + 1, b.version + 1], "both versions advance");
    const ra = await loadOrCreatePlayer(db, content, { accountId: a.accountId });
    const rb = await loadOrCreatePlayer(db, content, { accountId: b.accountId });
    assert.deepEqual(ra.inventory[0], { itemId: "feathers", quantity: 5 });
    assert.deepEqual(rb.inventory[0], { itemId: "logs", quantity: 1 });
    const audit = await db.em().findOneOrFail(TradeAudit, { tradeId: swap.tradeId });
    assert.deepEqual(audit.itemsAToB, [{ itemId: "logs", quantity: 1 }]);
    assert.equal(Number(audit.valueBToA), 10);
    // A replay (a second commit of the same trade) changes nothing.
    const replay = { ...swap, before: swap.after, after: swap.before };
    await assert.rejects(storeSwap(db, replay, versions), (e: unknown) => e instanceof TradeCommitError && e.code === "ALREADY_COMPLETED");
    assert.deepEqual((await loadOrCreatePlayer(db, content, { accountId: a.accountId })).inventory[0], { itemId: "feathers", quantity: 5 });
    assert.equal(await db.em().count(TradeAudit, { tradeId: swap.tradeId }), 1);
  });

  it("rolls back when a stored inventory is not what the swap was computed from", async () => {
    const { a, b, content, versions } = await twoCharacters(`changed-${ctx.dialect}`);
    const stale = inv([{ itemId: "logs", quantity: 2 }]);
    await assert.rejects(
      storeSwap(
        db,
        {
          tradeId: `trade-changed-${ctx.dialect}`,
          aId: a.characterId,
          bId: b.characterId,
          before: new Map([
            [a.characterId, stale],
            [b.characterId, b.inventory],
          ]),
          after: new Map([
            [a.characterId, inv([])],
            [b.characterId, inv([{ itemId: "logs", quantity: 2 }])],
          ]),
          aGives: [{ itemId: "logs", quantity: 2 }],
          bGives: [],
          valueAToB: 0,
          valueBToA: 0,
        },
        versions,
      ),
      (e: unknown) => e instanceof TradeCommitError && e.code === "ITEMS_CHANGED",
    );
    assert.deepEqual((await loadOrCreatePlayer(db, content, { accountId: a.accountId })).inventory[0], { itemId: "logs", quantity: 1 });
    assert.equal(await db.em().count(InventorySlot, { characterId: b.characterId }), 1);
    assert.equal(await db.em().count(TradeAudit, { tradeId: `trade-changed-${ctx.dialect}` }), 0);
  });

  /** A's log and 120 of its 300 coins for B's feathers, B carrying 40 coins (both stored so). */
  async function coinTrade(tag: string) {
    const two = await twoCharacters(tag);
    const { a, b } = two;
    for (const [c, coins] of [
      [a, 300],
      [b, 40],
    ] as const)
      await db.em().nativeUpdate(Character, { id: c.characterId }, { coins, version: c.version });
    const swap: StoredSwap = {
      ...logForFeathers(`trade-${tag}`, a, b),
      aGivesCoins: 120,
      bGivesCoins: 0,
      coinsBefore: new Map([
        [a.characterId, 300],
        [b.characterId, 40],
      ]),
      coinsAfter: new Map([
        [a.characterId, 180],
        [b.characterId, 160],
      ]),
    };
    return { ...two, swap };
  }
  const storedCoins = async (...ids: string[]) => Promise.all(ids.map(async (id) => (await db.em().fork().findOneOrFail(Character, { id })).coins));

  it("moves the offered coins in the swap's transaction and audits them with the items", async () => {
    const { a, b, swap, versions } = await coinTrade(`coins-${ctx.dialect}`);
    await storeSwap(db, swap, versions);
    assert.deepEqual(await storedCoins(a.characterId, b.characterId), [180, 160]);
    const audit = await db.em().fork().findOneOrFail(TradeAudit, { tradeId: swap.tradeId });
    assert.deepEqual([Number(audit.coinsAToB), Number(audit.coinsBToA)], [120, 0]);
    assert.deepEqual(audit.itemsAToB, [{ itemId: "logs", quantity: 1 }], "the items beside them");
  });

  it("rolls back a coin trade whose stored coins are not what it was computed from", async () => {
    const { a, b, swap, versions } = await coinTrade(`coins-changed-${ctx.dialect}`);
    const changed = {
      ...swap,
      coinsBefore: new Map([
        [a.characterId, 250],
        [b.characterId, 40],
      ]),
    };
    await assert.rejects(
      storeSwap(db, changed, versions),
      (e: unknown) => e instanceof TradeCommitError && e.code === "ITEMS_CHANGED" && /coins/.test(e.message),
    );
    assert.deepEqual(await storedCoins(a.characterId, b.characterId), [300, 40]);
    assert.equal(await db.em().count(InventorySlot, { characterId: b.characterId, itemId: "logs" }), 0, "no item moved either");
    assert.equal(await db.em().count(TradeAudit, { tradeId: swap.tradeId }), 0);
  });

  it("stores nothing when a character's row has another version (written by another process)", async () => {
    const { a, b, content, versions } = await twoCharacters(`stale-${ctx.dialect}`);
    await db.em().nativeUpdate(Character, { id: b.characterId }, { version: b.version + 5 });
    await assert.rejects(
      storeSwap(db, logForFeathers(`trade-stale-${ctx.dialect}`, a, b), versions),
      (e: unknown) => e instanceof TradeCommitError && e.code === "STALE_CHARACTER" && e.staleIds.join() === b.characterId,
    );
    assert.deepEqual((await loadOrCreatePlayer(db, content, { accountId: a.accountId })).inventory[0], { itemId: "logs", quantity: 1 });
    assert.deepEqual((await loadOrCreatePlayer(db, content, { accountId: b.accountId })).inventory[0], { itemId: "feathers", quantity: 5 });
    assert.equal(await db.em().count(TradeAudit, { tradeId: `trade-stale-${ctx.dialect}` }), 0);
    assert.equal((await db.em().findOneOrFail(Character, { id: a.characterId })).version, a.version, "neither version advanced");
  });

  /** N pairs, each A holding 1 log and B 5 feathers, and the swap of one for the other. */
  async function batch(tag: string, n: number): Promise<{ swaps: StoredSwap[]; versions: Map<string, number> }> {
    const swaps: StoredSwap[] = [];
    const versions = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const { a, b, versions: v } = await twoCharacters(`${tag}-${i}-${ctx.dialect}`);
      for (const [id, version] of v) versions.set(id, version);
      swaps.push(logForFeathers(`trade-${tag}-${i}-${ctx.dialect}`, a, b));
    }
    return { swaps, versions };
  }

  /** Each character's stored inventory, as `itemId:quantity` in slot order. */
  async function inventories(ids: string[]): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const id of ids) out[id] = [];
    for (const r of await db.em().find(InventorySlot, { characterId: { $in: ids } }, { orderBy: { characterId: "asc", slot: "asc" } }))
      out[r.characterId]!.push(`${r.itemId}:${r.quantity}`);
    return out;
  }

  const counting = <T>(fn: () => Promise<T>) => countQueries(db, fn);

  it("stores a batch of trades in one transaction: one audit row each, both inventories swapped, with as many statements as a batch of two", async () => {
    const small = await batch("pair", 2);
    const large = await batch("many", 24);
    const two = await counting(() => storeSwaps(db, small.swaps, small.versions));
    const many = await counting(() => storeSwaps(db, large.swaps, large.versions));
    assert.deepEqual(many.queries, two.queries, "the statements do not grow with the batch");
    assert.deepEqual(two.queries, { select: 2, insert: 2, update: 1, delete: 1, other: 0 });
    assert.deepEqual([...many.result.values()], Array(24).fill(undefined), "every trade stored");
    const ids = large.swaps.flatMap((s) => [s.aId, s.bId]);
    assert.equal(await db.em().count(TradeAudit, { tradeId: { $in: large.swaps.map((s) => s.tradeId) } }), 24);
    const stored = await inventories(ids);
    for (const s of large.swaps) {
      assert.deepEqual([stored[s.aId], stored[s.bId]], [["feathers:5"], ["logs:1"]]);
      for (const id of [s.aId, s.bId]) {
        assert.equal((await db.em().findOneOrFail(Character, { id })).version, large.versions.get(id), "the stored version is the one this process now holds");
      }
    }
    // Replayed as a batch, every trade is refused and nothing changes.
    const replay = large.swaps.map((s) => ({ ...s, before: s.after, after: s.before }));
    const again = await storeSwaps(db, replay, large.versions);
    assert.deepEqual(
      [...again.values()].map((e) => e?.code),
      Array(24).fill("ALREADY_COMPLETED"),
    );
    assert.deepEqual(await inventories(ids), stored);
    assert.equal(await db.em().count(TradeAudit, { tradeId: { $in: large.swaps.map((s) => s.tradeId) } }), 24);
  });

  it("leaves out of a batch each trade that fails its checks, and stores the others", async () => {
    const { swaps, versions } = await batch("mixed", 5);
    const [ok1, changed, done, stale, ok2] = swaps as [StoredSwap, StoredSwap, StoredSwap, StoredSwap, StoredSwap];
    await storeSwap(db, done, versions);
    changed.before = new Map([
      [changed.aId, inv([{ itemId: "logs", quantity: 2 }])],
      [changed.bId, changed.before.get(changed.bId)!],
    ]);
    await db.em().nativeUpdate(Character, { id: stale.bId }, { version: versions.get(stale.bId)! + 7 });
    const untouched = [changed, stale].flatMap((s) => [s.aId, s.bId]);
    const before = await inventories(untouched);
    const versionsBefore = new Map(untouched.map((id) => [id, versions.get(id)]));
    const outcomes = await storeSwaps(db, swaps, versions);
    assert.deepEqual(
      swaps.map((s) => outcomes.get(s.tradeId)?.code),
      [undefined, "ITEMS_CHANGED", "ALREADY_COMPLETED", "STALE_CHARACTER", undefined],
    );
    assert.deepEqual(outcomes.get(stale.tradeId)?.staleIds, [stale.bId]);
    assert.deepEqual(await inventories(untouched), before, "the refused trades' rows are untouched");
    for (const id of untouched) assert.equal(versions.get(id), versionsBefore.get(id), "and their versions");
    for (const s of [ok1, ok2]) assert.deepEqual(Object.values(await inventories([s.aId, s.bId])), [["feathers:5"], ["logs:1"]]);
    assert.equal(await db.em().count(TradeAudit, { tradeId: { $in: swaps.map((s) => s.tradeId) } }), 3, "the two stored now and the one stored before");
  });

  it("stores nothing of a batch whose transaction fails, and keeps the versions it had", async () => {
    const { swaps, versions } = await batch("refused", 4);
    // A row the database refuses (its check constraint: a quantity of at least 1).
    swaps[3]!.after.set(swaps[3]!.aId, inv([{ itemId: "feathers", quantity: 0 }]));
    const ids = swaps.flatMap((s) => [s.aId, s.bId]);
    const before = await inventories(ids);
    const versionsBefore = new Map(versions);
    await assert.rejects(storeSwaps(db, swaps, versions));
    assert.deepEqual(await inventories(ids), before);
    assert.equal(await db.em().count(TradeAudit, { tradeId: { $in: swaps.map((s) => s.tradeId) } }), 0);
    assert.deepEqual(versions, versionsBefore);
    for (const id of ids) assert.equal((await db.em().findOneOrFail(Character, { id })).version, versions.get(id));
  });

  it("refuses a batch that names a character twice or is over the limit, before touching the database", async () => {
    const { swaps, versions } = await batch("twice", 2);
    const twice = [swaps[0]!, { ...swaps[1]!, bId: swaps[0]!.aId }];
    const { queries } = await counting(() => assert.rejects(storeSwaps(db, twice, versions), /twice/));
    assert.deepEqual(queries, { select: 0, insert: 0, update: 0, delete: 0, other: 0 });
    await assert.rejects(storeSwaps(db, Array(TRADE_BATCH_MAX + 1).fill(swaps[0]!), versions), /limit/);
  });

  it("completes a trade right after an unsaved inventory change (no autosave in between), storing both", async function () {
    this.timeout(20_000);
    const t = await startTestServer({ DATABASE_URL: ctx.url, TICK_MS: "50", DISABLE_RATE_LIMIT: "true" }); // autosave every 60 s
    try {
      const ann = await WsTestClient.connect(`${t.wsUrl}?name=FreshAnn${ctx.dialect.slice(0, 2)}`);
      const ben = await WsTestClient.connect(`${t.wsUrl}?name=FreshBen${ctx.dialect.slice(0, 2)}`);
      const annId = String((await ann.next("welcome")).playerId);
      const b = String((await ben.next("welcome")).playerId);
      const annInv = (await ann.next("player:sync")).inventory as { slot: number; itemId: string }[];
      assert.ok(annInv.length >= 2, "the starter kit has two stacks");
      // Drop one stack: the live inventory now differs from the stored one until the next autosave.
      ann.send("player:action", { action: "drop", slot: annInv[0]!.slot });
      await ann.next("player:sync");
      ann.send("tradeRequest", { targetPlayerId: b });
      const tradeId = String((await ben.next("tradeIncoming")).tradeId);
      ben.send("tradeRequestRespond", { tradeId, accept: true });
      await ann.next("tradeStarted");
      ann.send("tradeAddItem", { tradeId, inventorySlot: annInv[1]!.slot, quantity: 1 });
      await ben.next("tradeUpdated");
      for (const c of [ann, ben]) c.send("tradeAccept", { tradeId });
      await ann.next("tradeConfirmScreen");
      for (const c of [ann, ben]) c.send("tradeAccept", { tradeId });
      const done = await ben.next("tradeCompleted", 10_000);
      assert.deepEqual(done.receivedItems, [{ itemId: annInv[1]!.itemId, quantity: 1 }]);
      assert.equal(await t.server.db.em().count(TradeAudit, { tradeId }), 1);
      const stored = await t.server.db.em().count(InventorySlot, { characterId: annId });
      const live = t.server.world.world.players.get(annId)!.data.inventory.filter((s) => s !== null).length;
      assert.equal(stored, live, "Ann's stored inventory is her live one: the drop and the trade");
      ann.close();
      ben.close();
    } finally {
      await t.close();
    }
  });

  it("completes a trade end to end over /ws: the stored inventories and the audit log agree with the live ones", async function () {
    this.timeout(20_000);
    const t = await startTestServer({ DATABASE_URL: ctx.url, TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
    try {
      const ann = await WsTestClient.connect(`${t.wsUrl}?name=TraderAnn${ctx.dialect.slice(0, 2)}`);
      const ben = await WsTestClient.connect(`${t.wsUrl}?name=TraderBen${ctx.dialect.slice(0, 2)}`);
      const a = String((await ann.next("welcome")).playerId);
      const b = String((await ben.next("welcome")).playerId);
      const annInv = (await ann.next("player:sync")).inventory as { slot: number; itemId: string }[];
      ann.send("tradeRequest", { targetPlayerId: b });
      const tradeId = String((await ben.next("tradeIncoming")).tradeId);
      ben.send("tradeRequestRespond", { tradeId, accept: true });
      await ann.next("tradeStarted");
      ann.send("tradeAddItem", { tradeId, inventorySlot: annInv[0]!.slot, quantity: 1 });
      await ben.next("tradeUpdated");
      ann.send("tradeAccept", { tradeId });
      ben.send("tradeAccept", { tradeId });
      await ann.next("tradeConfirmScreen");
      ann.send("tradeAccept", { tradeId });
      ben.send("tradeAccept", { tradeId });
      const done = await ben.next("tradeCompleted", 10_000);
      assert.deepEqual(done.receivedItems, [{ itemId: annInv[0]!.itemId, quantity: 1 }]);
      const audit = await t.server.db.em().findOneOrFail(TradeAudit, { tradeId });
      assert.deepEqual([audit.playerAId, audit.playerBId], [a, b]);
      assert.deepEqual([audit.itemsAToB, audit.itemsBToA], [[{ itemId: annInv[0]!.itemId, quantity: 1 }], []]);
      // Both players, every slot: the stored rows are the live inventories the swap left.
      for (const [who, id] of [
        ["Ann", a],
        ["Ben", b],
      ] as const) {
        const rows = await t.server.db.em().find(InventorySlot, { characterId: id }, { orderBy: { slot: "asc" } });
        const stored = rows.map((r) => ({ slot: r.slot, itemId: r.itemId, quantity: r.quantity }));
        const live = t.server.world.world.players
          .get(id)!
          .data.inventory.flatMap((s, slot) => (s === null ? [] : [{ slot, itemId: s.itemId, quantity: s.quantity }]));
        assert.deepEqual(stored, live, `${who}'s stored inventory`);
      }
      const given = annInv[0]!;
      assert.ok(
        !t.server.world.world.players.get(a)!.data.inventory.some((s, slot) => slot === given.slot && s?.itemId === given.itemId),
        "Ann no longer has the item in its slot",
      );
      assert.ok(
        t.server.world.world.players.get(b)!.data.inventory.some((s) => s?.itemId === given.itemId),
        "Ben has it",
      );
      ann.close();
      ben.close();
    } finally {
      await t.close();
    }
  });
});
