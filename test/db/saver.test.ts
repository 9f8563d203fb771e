import assert from "node:assert/strict";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { loadOrCreatePlayer, createCharacter, savePlayers, SAVE_CHUNK, type StoredPlayer } from "../../src/persistence/players.ts";
import { BankSlot, Character, InventorySlot, NpcKill } from "../../entities/index.ts";
import type { ItemStack, PlayerData } from "../../src/game/world/Player.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import { Saver } from "../../src/sessions/Saver.ts";
import { bundledContent } from "../support/content.ts";
import { forEachDialect } from "../support/dialects.ts";
import { until } from "../support/until.ts";

/** A deep copy of a player's data with changes: what the world hands the saver (snapshots are never changed afterwards). */
function changed(p: PlayerData, over: Partial<PlayerData>): PlayerData {
  return structuredClone({ ...p, ...over });
}

/** What a player's stored rows load back as, for comparison with what was saved. */
async function storedState(db: Database, content: ContentRegistry, p: PlayerData) {
  const s = await loadOrCreatePlayer(db, content, { accountId: p.accountId, characterId: p.characterId });
  return { x: s.x, z: s.z, coins: s.coins, skills: s.skills, inventory: s.inventory, equipment: s.equipment, bank: s.bank };
}
const stateOf = (p: PlayerData) => ({ x: p.x, z: p.z, coins: p.coins, skills: p.skills, inventory: p.inventory, equipment: p.equipment, bank: p.bank });

/** Some bank stacks of the content's items (one per item id). */
function bankOf(content: ContentRegistry, n: number, seed: number): ItemStack[] {
  const ids = [...content.items.keys()].filter((id) => id !== "coins");
  return Array.from({ length: Math.min(n, ids.length) }, (_, k) => ({ itemId: ids[(seed + k) % ids.length]!, quantity: 1 + ((seed * 7 + k) % 90) }));
}

forEachDialect("background saving", (ctx) => {
  let db: Database;
  /** `n` new characters, named `saver-<label>-<i>-<dialect>-<time>`, created one after another. */
  async function characters(n: number, label: string): Promise<StoredPlayer[]> {
    const content = await bundledContent();
    const tag = `${ctx.dialect}-${Date.now()}`;
    const out: StoredPlayer[] = [];
    for (let i = 0; i < n; i++) out.push(await createCharacter(db, content, `saver-${label}-${i}-${tag}`));
    return out;
  }
  before(async () => {
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
  });
  after(() => db?.close());

  it("settles one character after its own batch while others keep joining the queue", async function () {
    this.timeout(15_000);
    const content = await bundledContent();
    const tag = `${ctx.dialect}-${Date.now()}`;
    const a = await createCharacter(db, content, `saver-a-${tag}`);
    const b = await createCharacter(db, content, `saver-b-${tag}`);
    const saver = new Saver(db, pino({ level: "silent" }));
    saver.track(a.characterId, a.version);
    saver.track(b.characterId, b.version);
    // B is saved again and again, as a busy world queues players every tick: the queue never empties.
    let x = 0;
    let stop = false;
    const busy = (async () => {
      while (!stop) {
        saver.enqueue([{ ...b, x: ++x % 50 }]);
        void saver.flush();
        await new Promise((r) => setImmediate(r));
      }
    })();
    try {
      await new Promise((r) => setTimeout(r, 50));
      saver.enqueue([{ ...a, x: 7, z: 9 }]);
      const settled = saver.settled(a.characterId).then(() => "settled" as const);
      const outcome = await Promise.race([settled, new Promise((r) => setTimeout(() => r("still waiting"), 3_000))]);
      assert.equal(outcome, "settled", "a's save is not held up by b's");
      const stored = await loadOrCreatePlayer(db, content, { accountId: a.accountId, characterId: a.characterId });
      assert.deepEqual([stored.x, stored.z], [7, 9]);
      // A login that knows only the account waits for that account's saves the same way.
      saver.enqueue([{ ...a, x: 11, z: 12 }]);
      const byAccount = saver.settledAccount(a.accountId).then(() => "settled" as const);
      assert.equal(await Promise.race([byAccount, new Promise((r) => setTimeout(() => r("still waiting"), 3_000))]), "settled");
      const reloaded = await loadOrCreatePlayer(db, content, { accountId: a.accountId });
      assert.deepEqual([reloaded.characterId, reloaded.x, reloaded.z], [a.characterId, 11, 12], "the login reads the saved state, never the older rows");
    } finally {
      stop = true;
      await busy;
      await saver.settled(b.characterId);
    }
  });

  it("retries a failing database with a growing pause, not in a tight loop, and stores the save once it is back", async function () {
    this.timeout(15_000);
    const content = await bundledContent();
    const c = await createCharacter(db, content, `saver-flaky-${ctx.dialect}-${Date.now()}`);
    let down = true;
    const attempts: number[] = [];
    const flaky = Object.create(db) as Database;
    flaky.em = () => {
      if (down) {
        attempts.push(performance.now());
        throw new Error("the database is down");
      }
      return db.em();
    };
    const saver = new Saver(flaky, pino({ level: "silent" }));
    saver.track(c.characterId, c.version);
    saver.enqueue([{ ...c, x: 3, z: 4 }]);
    const settled = saver.settled(c.characterId);
    // Counted in attempts, not in a window of time (a busy machine only lengthens the pauses):
    // the pauses between them grow, 100, 200, 400 ms; a tight loop would have none.
    await until(() => (attempts.length >= 4 ? true : undefined), "four attempts", 10_000);
    const pauses = attempts.slice(1, 4).map((at, i) => at - attempts[i]!);
    pauses.forEach((pause, i) => assert.ok(pause >= 100 * 2 ** i - 2, `pause ${i + 1} of ${pauses.map(Math.round).join(", ")} ms`));
    down = false;
    await settled;
    const stored = await loadOrCreatePlayer(db, content, { accountId: c.accountId, characterId: c.characterId });
    assert.deepEqual([stored.x, stored.z], [3, 4]);
  });

  it("after a batch fails part-way, stores the rest once and never adds a committed chunk's kills twice", async function () {
    this.timeout(60_000);
    const content = await bundledContent();
    // One batch of more rows than a chunk holds (each player's bank is new): the second transaction fails once.
    const players = await characters(50, "part");
    const first = players[0]!;
    const last = players.at(-1)!;
    let transactions = 0;
    let failed = 0;
    const flaky = Object.create(db) as Database;
    flaky.em = () => {
      transactions++;
      if (transactions === 2) {
        failed++;
        throw new Error("the database went away between chunks");
      }
      return db.em();
    };
    const saver = new Saver(flaky, pino({ level: "silent" }));
    for (const p of players) saver.track(p.characterId, p.version);
    saver.enqueue(players.map((p, i) => ({ ...p, bank: bankOf(content, 60, i), kills: { goblin: 1 } })));
    await saver.settled(last.characterId);
    await saver.settled(first.characterId);
    assert.equal(failed, 1, "the second chunk failed once");
    const kills = async (characterId: string) => (await db.em().findOne(NpcKill, { characterId, npcId: "goblin" }))?.killCount;
    assert.equal(await kills(first.characterId), 1, "the committed chunk's kill is counted once");
    assert.equal(await kills(last.characterId), 1, "the failed chunk's kill is stored on the retry");
    assert.equal(saver.queued, 0);
  });

  it("refuses a stale save (the row has another version): logged with the character id, reported lost, nothing written, not retried", async function () {
    this.timeout(15_000);
    const content = await bundledContent();
    const tag = `${ctx.dialect}-${Date.now()}`;
    const d = await createCharacter(db, content, `saver-stale-${tag}`);
    const e = await createCharacter(db, content, `saver-fresh-${tag}`);
    const logged: { characterId?: string; msg: string; level: number }[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void logged.push(JSON.parse(line) as never) });
    const saver = new Saver(db, logger);
    const lost: string[] = [];
    saver.onLost = (id) => lost.push(id);
    saver.track(d.characterId, d.version);
    saver.track(e.characterId, e.version);
    // Another process saved D meanwhile.
    await db.em().nativeUpdate(Character, { id: d.characterId }, { version: d.version + 1, positionX: 42 });
    saver.enqueue([
      { ...d, x: 1, z: 1, kills: { goblin: 1 } },
      { ...e, x: 5, z: 6 },
    ]);
    await saver.settled(d.characterId);
    await saver.settled(e.characterId);
    assert.deepEqual(lost, [d.characterId]);
    const errors = logged.filter((l) => l.level === 50);
    assert.deepEqual(
      errors.map((l) => l.characterId),
      [d.characterId],
      "one error line, with the character id",
    );
    const storedD = await db.em().findOneOrFail(Character, { id: d.characterId });
    assert.deepEqual([storedD.positionX, storedD.version], [42, d.version + 1], "the other process's write stands");
    assert.equal(await db.em().count(NpcKill, { characterId: d.characterId }), 0);
    const storedE = await db.em().findOneOrFail(Character, { id: e.characterId });
    assert.deepEqual([storedE.positionX, storedE.positionZ, storedE.version], [5, 6, e.version + 1], "the rest of the batch is stored");
    assert.equal(saver.queued, 0, "not queued again");
    assert.equal(saver.versions.has(d.characterId), false);
  });

  it("two writers saving one character at once with the same version: exactly one is written, every time", async function () {
    this.timeout(30_000);
    const content = await bundledContent();
    const c = await createCharacter(db, content, `saver-race-${ctx.dialect}-${Date.now()}`);
    // Two processes' views of the character (each its own version map), racing round after round.
    const mine = new Map([[c.characterId, c.version]]);
    const theirs = new Map([[c.characterId, c.version]]);
    const ROUNDS = 20;
    for (let round = 0; round < ROUNDS; round++) {
      const outcome = { stored: 0, stale: 0 };
      const count = (stored: readonly unknown[], stale: readonly unknown[]) => {
        outcome.stored += stored.length;
        outcome.stale += stale.length;
      };
      await Promise.all([savePlayers(db, [{ ...c, x: round, z: 1 }], mine, count), savePlayers(db, [{ ...c, x: round, z: 2 }], theirs, count)]);
      assert.deepEqual(outcome, { stored: 1, stale: 1 }, `round ${round}`);
      // The loser catches up (as a process that reloads would), so the next round races again.
      const winner = Math.max(mine.get(c.characterId)!, theirs.get(c.characterId)!);
      mine.set(c.characterId, winner);
      theirs.set(c.characterId, winner);
    }
    const row = await db.em().findOneOrFail(Character, { id: c.characterId });
    assert.equal(row.version, c.version + ROUNDS, "one write per round");
  });
  it("saves a batch of many players in chunks, lets the event loop run before and between them, and stores every one exactly", async function () {
    this.timeout(120_000);
    const content = await bundledContent();
    const players = await characters(200, "many");
    const versions = new Map(players.map((p) => [p.characterId, p.version]));
    // Every player's bank is new (40 rows each): more rows than a few chunks hold, on either database.
    assert.ok(200 * 40 > 3 * SAVE_CHUNK[ctx.dialect].rows);
    const saved = players.map((p, i) => changed(p, { x: i % 50, z: 3, coins: i, bank: bankOf(content, 40, i) }));
    // Counts the turns of the event loop, as the tick's timer would see them.
    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const atChunk: number[] = [];
    let stored = 0;
    const atStart = turns;
    await savePlayers(db, saved, versions, (chunk, stale) => {
      assert.equal(stale.length, 0);
      stored += chunk.length;
      atChunk.push(turns);
    });
    spinning = false;
    assert.equal(stored, 200);
    assert.ok(atChunk.length >= 3, `stored in ${atChunk.length} chunks`);
    assert.ok(atChunk[0]! > atStart, "the event loop ran before the first chunk");
    for (let k = 1; k < atChunk.length; k++) assert.ok(atChunk[k]! > atChunk[k - 1]!, `the event loop ran between chunks: turns ${atChunk.join()}`);
    for (const p of saved) assert.deepEqual(await storedState(db, content, p), stateOf(p), p.name);
    assert.deepEqual(new Set(versions.values()), new Set([players[0]!.version + 1]));
  });

  it("writes only the rows that changed since the character's last save, and all of them once another writer has advanced its version", async function () {
    this.timeout(15_000);
    const content = await bundledContent();
    const c = await createCharacter(db, content, `saver-rows-${ctx.dialect}-${Date.now()}`);
    const saver = new Saver(db, pino({ level: "silent" }));
    saver.track(c.characterId, c.version, c);
    const bank = bankOf(content, 4, 3);
    const first = changed(c, { bank });
    saver.enqueue([first]);
    await saver.settled(c.characterId);
    // Rows changed behind the saver's back: a save that rewrote them would put them back.
    const em = db.em();
    await em.nativeUpdate(BankSlot, { characterId: c.characterId, itemId: bank[1]!.itemId }, { quantity: 999 });
    await em.nativeUpdate(InventorySlot, { characterId: c.characterId, slot: 1 }, { quantity: 999 });
    // The next save moves the player, changes one stack, empties slot 0 and takes the last stack out.
    const second = changed(first, { x: 5, z: 6, bank: [{ ...bank[0]!, quantity: bank[0]!.quantity + 1 }, bank[1]!, bank[2]!] });
    second.inventory[0] = null;
    saver.enqueue([second]);
    await saver.settled(c.characterId);
    let stored = await storedState(db, content, c);
    assert.deepEqual([stored.x, stored.z], [5, 6]);
    assert.deepEqual(
      stored.bank,
      [second.bank[0], { ...bank[1]!, quantity: 999 }, bank[2]],
      "the changed stack written, the unchanged one not, the removed one deleted",
    );
    assert.equal(stored.inventory[0], null, "the emptied slot's row deleted");
    assert.equal(stored.inventory[1]!.quantity, 999, "the unchanged slot not written");
    // Another writer in this process (a trade's swap) advances the version: the saver no longer
    // knows the rows, and writes them all.
    await db.em().nativeUpdate(Character, { id: c.characterId }, { version: saver.versions.get(c.characterId)! + 1 });
    saver.versions.set(c.characterId, saver.versions.get(c.characterId)! + 1);
    saver.enqueue([changed(second, { x: 7 })]);
    await saver.settled(c.characterId);
    stored = await storedState(db, content, c);
    assert.deepEqual(stored, { ...stateOf(second), x: 7 }, "every row written again");
  });

  it("settles a character once its chunk has committed, not when the rest of its batch has", async function () {
    this.timeout(60_000);
    const content = await bundledContent();
    const players = await characters(50, "chunk");
    const saver = new Saver(db, pino({ level: "silent" }));
    for (const p of players) saver.track(p.characterId, p.version, p);
    // Every bank is new: 60 rows each, more than one chunk holds on either database.
    assert.ok(50 * 60 > SAVE_CHUNK[ctx.dialect].rows);
    saver.enqueue(players.map((p, i) => changed(p, { x: 9, bank: bankOf(content, 60, i) })));
    await saver.settled(players[0]!.characterId);
    assert.ok(saver.busy(players.at(-1)!.characterId), "the batch's last chunk is still being written");
    await saver.settled(players.at(-1)!.characterId);
    assert.deepEqual((await storedState(db, content, players.at(-1)!)).x, 9);
  });

  it("stores two saves of one character in one call one after the other, the later last", async () => {
    const content = await bundledContent();
    const c = await createCharacter(db, content, `saver-twice-${ctx.dialect}-${Date.now()}`);
    const versions = new Map([[c.characterId, c.version]]);
    const outcome = { stored: 0, stale: 0 };
    await savePlayers(db, [changed(c, { x: 1 }), changed(c, { x: 2, coins: 5 })], versions, (stored, stale) => {
      outcome.stored += stored.length;
      outcome.stale += stale.length;
    });
    assert.deepEqual(outcome, { stored: 2, stale: 0 });
    assert.equal(versions.get(c.characterId), c.version + 2);
    const stored = await storedState(db, content, c);
    assert.deepEqual([stored.x, stored.coins], [2, 5]);
  });
});
