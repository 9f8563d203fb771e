import assert from "node:assert/strict";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { loadOrCreatePlayer, createCharacter, SAVE_CHUNK } from "../../src/persistence/players.ts";
import { NpcKill } from "../../entities/index.ts";
import { Saver } from "../../src/sessions/Saver.ts";
import { bundledContent } from "../support/content.ts";
import { forEachDialect } from "../support/dialects.ts";
import { until } from "../support/until.ts";

forEachDialect("background saving", (ctx) => {
  let db: Database;
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
    const tag = `${ctx.dialect}-${Date.now()}`;
    // One batch of SAVE_CHUNK + 1 players: two transactions; the second fails once.
    const players = [];
    for (let i = 0; i <= SAVE_CHUNK; i++) players.push(await createCharacter(db, content, `saver-part-${i}-${tag}`));
    const first = players[0]!;
    const last = players[SAVE_CHUNK]!;
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
    saver.enqueue(players.map((p) => ({ ...p, kills: { goblin: 1 } })));
    await saver.settled(last.characterId);
    await saver.settled(first.characterId);
    assert.equal(failed, 1, "the second chunk failed once");
    const kills = async (characterId: string) => (await db.em().findOne(NpcKill, { characterId, npcId: "goblin" }))?.killCount;
    assert.equal(await kills(first.characterId), 1, "the committed chunk's kill is counted once");
    assert.equal(await kills(last.characterId), 1, "the failed chunk's kill is stored on the retry");
    assert.equal(saver.queued, 0);
  });
});
