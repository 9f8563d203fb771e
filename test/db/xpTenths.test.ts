/**
 * The migration that keeps xp in tenths (`Migration…_xp_tenths`, both dialects): on a database of
 * the schema before it, each stored xp becomes exactly ten times as many tenths (a stored 1,234 is
 * 12,340 tenths, the 200,000,000 cap 2,000,000,000) and loads back as the same whole xp; its down
 * migration gives whole xp back, a fraction rounded down.
 */
import assert from "node:assert/strict";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { runStatement, selectRow } from "../../src/db/rawSql.ts";
import { wholeXp } from "../../src/game/skills.ts";
import { loadOrCreatePlayer } from "../../src/persistence/players.ts";
import { bundledContent } from "../support/content.ts";
import { forEachDialect } from "../support/dialects.ts";

const at = new Date(Date.UTC(2026, 10, 1, 12, 0, 0));

forEachDialect("the xp tenths migration", (ctx) => {
  let db: Database;
  let previous: string;
  before(async function () {
    this.timeout(60_000);
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
    const executed = await db.orm.migrator.getExecuted();
    const index = executed.findIndex((m) => /_xp_tenths$/.test(m.name));
    assert.ok(index > 0, "the tenths' migration was applied");
    previous = executed[index - 1]!.name;
  });
  after(() => db?.close());

  it("multiplies each stored xp by 10, exactly, and the character loads with the same whole xp", async function () {
    this.timeout(60_000);
    // Back to the migration before the tenths' (and, once there are any, those after it).
    await db.orm.migrator.down({ to: previous });
    await runStatement(
      db.statements,
      `insert into "characters" ("id", "accountId", "name", "nameKey", "attackLevel", "attackXp", "miningLevel", "miningXp", "createdAt", "updatedAt") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ["c-xp", "acc-xp", "Old Timer", "oldtimer", 11, 1234, 99, 200_000_000, at, at],
    );
    await db.orm.migrator.up();
    assert.equal((await db.orm.migrator.getPending()).length, 0);

    const row = await selectRow<Record<string, unknown>>(db.statements, `select * from "characters" where "id" = ?`, ["c-xp"]);
    assert.equal(Number(row!.attackXpTenths), 12_340);
    assert.equal(Number(row!.miningXpTenths), 2_000_000_000, "the cap fits");
    assert.equal(Number(row!.constitutionXpTenths), 11_540, "an untouched default: 1,154 xp");
    assert.equal(Number(row!.woodcuttingXpTenths), 0);
    assert.ok(!("attackXp" in row!), "the whole-xp columns are gone");

    const loaded = await loadOrCreatePlayer(db, await bundledContent(), { accountId: "acc-xp", characterId: "c-xp" });
    assert.deepEqual(loaded.skills.attack, { level: 11, xpTenths: 12_340 });
    assert.equal(wholeXp(loaded.skills.attack.xpTenths), 1234, "reads back as 1,234 whole xp");
    assert.equal(wholeXp(loaded.skills.mining.xpTenths), 200_000_000);
  });

  it("refuses tenths past the cap, and migrates down to whole xp (a fraction rounded down)", async function () {
    this.timeout(60_000);
    await assert.rejects(runStatement(db.statements, `update "characters" set "attackXpTenths" = ? where "id" = ?`, [2_000_000_001, "c-xp"]));
    await runStatement(db.statements, `update "characters" set "attackXpTenths" = ? where "id" = ?`, [12_349, "c-xp"]);
    await db.orm.migrator.down({ to: previous });
    const row = await selectRow<Record<string, unknown>>(db.statements, `select * from "characters" where "id" = ?`, ["c-xp"]);
    assert.equal(Number(row!.attackXp), 1234);
    assert.equal(Number(row!.miningXp), 200_000_000);
    assert.equal(Number(row!.constitutionXp), 1154);
    assert.ok(!("attackXpTenths" in row!));
    await db.orm.migrator.up();
    assert.equal((await db.orm.migrator.getPending()).length, 0);
  });
});
