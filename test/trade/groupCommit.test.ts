/**
 * The TradeCommitter's group commit against a real database (both dialects): a game world with the
 * real gameplay phases, characters created in the database and loaded into it, the server's Saver,
 * and trades driven tick by tick, as the server runs them.
 */
import assert from "node:assert/strict";
import { pino } from "pino";
import { Character, InventorySlot, TradeAudit } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import type { QueryKind } from "../../src/db/queryTiming.ts";
import { countQueries } from "../support/queries.ts";
import type { ItemStack, Player } from "../../src/game/world/Player.ts";
import { createCharacter } from "../../src/persistence/players.ts";
import { Saver } from "../../src/sessions/Saver.ts";
import { COMMIT_WRITERS, TradeCommitter } from "../../src/sessions/TradeCommitter.ts";
import { forEachDialect } from "../support/dialects.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";

const KIT: ItemStack[] = [
  { itemId: "logs", quantity: 1 },
  { itemId: "feathers", quantity: 50 },
];

interface Pair {
  a: Player;
  b: Player;
  tradeId: string;
}

forEachDialect("group commit of trades", (ctx) => {
  let db: Database;
  let run = 0;
  before(async () => {
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
  });
  after(() => db?.close());

  /** A world whose trades go through a TradeCommitter on the database, with `pairs` pairs side by side. */
  async function setup(pairs: number) {
    run++;
    const g = await gameWorld();
    const saver = new Saver(db, pino({ level: "silent" }));
    const lost: string[] = [];
    saver.onLost = (id) => lost.push(id);
    const outcomes: ("completed" | "failed")[] = [];
    const committer = new TradeCommitter({ db, world: g.world, saver, logger: pino({ level: "silent" }), onStored: (outcome) => outcomes.push(outcome) });
    g.world.trades.commit = (req) => committer.commit(req);
    const players: Player[] = [];
    for (let i = 0; i < 2 * pairs; i++) {
      const stored = await createCharacter(db, g.world.content, `group-${ctx.dialect}-${run}-${i}`, undefined, KIT);
      saver.track(stored.characterId, stored.version);
      const { version: _version, ...data } = stored;
      // Side by side (pairs may share tiles: a request names its target).
      players.push(g.world.addPlayer({ ...data, x: 0, z: 1 + (i % 2) }));
    }
    return { g, saver, committer, players, lost, outcomes };
  }

  /** Opens a trade per pair (A gives its log, B 10 feathers) up to both confirmation screens. */
  function openTrades(g: GameHarness, players: Player[]): Pair[] {
    const pairs: Pair[] = [];
    for (let i = 0; i < players.length; i += 2) g.send(players[i]!, "tradeRequest", { targetPlayerId: players[i + 1]!.id });
    g.tick();
    for (let i = 0; i < players.length; i += 2) {
      const [a, b] = [players[i]!, players[i + 1]!];
      const tradeId = String(g.events(b, "tradeIncoming").at(-1)!.tradeId);
      g.send(b, "tradeRequestRespond", { tradeId, accept: true });
      pairs.push({ a, b, tradeId });
    }
    g.tick();
    for (const { a, b, tradeId } of pairs) {
      g.send(a, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 1 });
      g.send(b, "tradeAddItem", { tradeId, inventorySlot: 1, quantity: 10 });
    }
    g.tick();
    for (const { a, b, tradeId } of pairs) for (const p of [a, b]) g.send(p, "tradeAccept", { tradeId });
    g.tick();
    for (const { a, b } of pairs) assert.equal(g.events(a, "tradeConfirmScreen").length + g.events(b, "tradeConfirmScreen").length, 2);
    return pairs;
  }

  /** Both players of every pair accept the confirmation screen in one tick; the committer stores them; the next tick applies them. */
  async function confirmAll(g: GameHarness, committer: TradeCommitter, pairs: Pair[]): Promise<Record<QueryKind, number>> {
    const { queries } = await countQueries(db, async () => {
      for (const { a, b, tradeId } of pairs) for (const p of [a, b]) g.send(p, "tradeAccept", { tradeId });
      g.tick();
      for (const { a } of pairs) assert.ok(a.tradeCommitting, "frozen while being stored");
      await committer.idle();
    });
    g.tick();
    return queries;
  }

  const stored = async (id: string) =>
    (await db.em().find(InventorySlot, { characterId: id }, { orderBy: { slot: "asc" } })).map((r) => `${r.slot}:${r.itemId}:${r.quantity}`);
  const live = (p: Player) => p.data.inventory.flatMap((s, slot) => (s === null ? [] : [`${slot}:${s.itemId}:${s.quantity}`]));
  const audits = (pairs: Pair[]) => db.em().count(TradeAudit, { tradeId: { $in: pairs.map((p) => p.tradeId) } });
  const holds = (p: Player, itemId: string) => p.data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);

  it("stores the trades confirmed in one tick in a transaction per writer: one audit row each, every item accounted for", async function () {
    this.timeout(20_000);
    const { g, committer, players, outcomes } = await setup(8);
    const pairs = openTrades(g, players);
    const queries = await confirmAll(g, committer, pairs);
    // The tick's trades are shared among the writers: a transaction each, not one a trade (8).
    assert.equal(queries.update, COMMIT_WRITERS, "one version update a batch");
    assert.equal(queries.insert, 2 * COMMIT_WRITERS, "one insert of inventory rows and one of audit rows a batch");
    assert.deepEqual(outcomes, Array(8).fill("completed"));
    assert.equal(await audits(pairs), 8);
    for (const { a, b, tradeId } of pairs) {
      for (const p of [a, b])
        assert.deepEqual(
          g.events(p, "tradeCompleted").map((e) => e.tradeId),
          [tradeId],
          "completed once",
        );
      assert.deepEqual([holds(a, "logs"), holds(a, "feathers"), holds(b, "logs"), holds(b, "feathers")], [0, 60, 2, 40]);
      for (const p of [a, b]) assert.deepEqual(await stored(p.id), live(p), "stored as live");
    }
  });

  it("stores the others one at a time when the database refuses one trade's rows, rolling back only that one", async function () {
    this.timeout(20_000);
    const { g, saver, committer, players, outcomes } = await setup(6);
    const pairs = openTrades(g, players);
    const rigged = pairs[2]!;
    const storedBefore = await Promise.all([rigged.a, rigged.b].map((p) => stored(p.id)));
    const liveBefore = [rigged.a, rigged.b].map(live);
    // The database refuses any inventory row of the rigged pair's A (as a conflicting row would).
    const conn = db.em().getConnection();
    if (ctx.dialect === "postgresql") {
      await conn.execute(
        `create or replace function refuse_rigged() returns trigger as $$ begin if new."characterId" = '${rigged.a.id}' then raise exception 'rigged'; end if; return new; end $$ language plpgsql`,
      );
      await conn.execute(`create trigger refuse_rigged before insert on "inventory" for each row execute function refuse_rigged()`);
    } else {
      await conn.execute(
        `create trigger refuse_rigged before insert on inventory when new.characterId = '${rigged.a.id}' begin select raise(abort, 'rigged'); end`,
      );
    }
    try {
      await confirmAll(g, committer, pairs);
    } finally {
      await conn.execute(`drop trigger refuse_rigged${ctx.dialect === "postgresql" ? ` on "inventory"` : ""}`);
      if (ctx.dialect === "postgresql") await conn.execute("drop function refuse_rigged()");
    }
    assert.deepEqual([...outcomes].sort(), [...Array(5).fill("completed"), "failed"]);
    assert.equal(await audits(pairs), 5, "the five others are stored");
    assert.equal(await db.em().count(TradeAudit, { tradeId: rigged.tradeId }), 0);
    for (const p of [rigged.a, rigged.b]) {
      assert.deepEqual(g.events(p, "tradeCompleted"), []);
      assert.deepEqual(
        g.events(p, "tradeError").map((e) => e.code),
        ["SERVER_ERROR"],
      );
      assert.deepEqual(
        g.events(p, "tradeCancelled").map((e) => e.reason),
        ["server_error"],
      );
      assert.ok(!p.inTrade && !p.tradeCommitting);
    }
    assert.deepEqual(await Promise.all([rigged.a, rigged.b].map((p) => stored(p.id))), storedBefore, "the rigged pair's rows are untouched");
    assert.deepEqual([rigged.a, rigged.b].map(live), liveBefore, "and so are its live inventories");
    for (const { a, b, tradeId } of pairs.filter((p) => p !== rigged)) {
      for (const p of [a, b]) {
        assert.deepEqual(
          g.events(p, "tradeCompleted").map((e) => e.tradeId),
          [tradeId],
        );
        assert.deepEqual(await stored(p.id), live(p));
      }
    }
    // The versions this process holds are the stored ones: the players' next saves go through.
    const rows = await db.em().find(Character, { id: { $in: players.map((p) => p.id) } }, { fields: ["id", "version"] });
    for (const row of rows) assert.equal(saver.versions.get(row.id), row.version, `version of ${row.id}`);
  });

  it("saves first, then stores, a trade whose player has changes not saved yet, without holding up the rest of its batch", async function () {
    this.timeout(20_000);
    const { g, committer, players, outcomes } = await setup(3);
    // Ann of the first pair got 5 more feathers (a purchase, say) since her last save.
    const ann = players[0]!;
    const extra = ann.data.inventory.findIndex((s) => s === null);
    ann.data.inventory[extra] = { itemId: "feathers", quantity: 5 };
    const pairs = openTrades(g, players);
    await confirmAll(g, committer, pairs);
    assert.deepEqual(outcomes, ["completed", "completed", "completed"]);
    assert.equal(await audits(pairs), 3);
    for (const { a, b, tradeId } of pairs) {
      for (const p of [a, b]) {
        assert.deepEqual(
          g.events(p, "tradeCompleted").map((e) => e.tradeId),
          [tradeId],
        );
        assert.deepEqual(await stored(p.id), live(p), "stored as live, the unsaved feathers too");
      }
    }
    assert.equal(holds(ann, "feathers"), 65);
  });

  it("rolls back only the trade of a character another process wrote, and gives that character up", async function () {
    this.timeout(20_000);
    const { g, committer, players, lost, outcomes } = await setup(4);
    const pairs = openTrades(g, players);
    const stale = pairs[1]!.b;
    await db.em().nativeUpdate(Character, { id: stale.id }, { version: 99 });
    await confirmAll(g, committer, pairs);
    assert.deepEqual([...outcomes].sort(), ["completed", "completed", "completed", "failed"]);
    assert.deepEqual(lost, [stale.id]);
    assert.deepEqual(
      g.events(stale, "tradeError").map((e) => e.code),
      ["STALE_CHARACTER"],
    );
    assert.equal(await db.em().count(TradeAudit, { tradeId: pairs[1]!.tradeId }), 0);
    assert.equal(await audits(pairs), 3);
  });
});
