import assert from "node:assert/strict";
import { CheckConstraintViolationException, UniqueConstraintViolationException } from "@mikro-orm/core";
import { pino } from "pino";
import { AgentMapping, Character, ENTITIES, InventorySlot, BankSlot, EquipmentSlot, User } from "../../entities/index.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { forEachDialect } from "../support/dialects.ts";
import { applyGroundOps, loadGroundItems } from "../../src/persistence/ground.ts";

const logger = pino({ level: "silent" });
const SPEC_TABLES = [
  "users",
  "characters",
  "inventory",
  "equipment",
  "items",
  "worldChunks",
  "playerSessions",
  "playerDeaths",
  "npcKills",
  "friendships",
  "friend_requests",
  "ignore_lists",
];
const OUR_TABLES = [
  "bank",
  "trade_audit",
  "agent_mappings",
  "character_leases",
  "ground_items",
  "sanctions",
  "admin_audit",
  "character_quests",
  "hiscoreCounts",
];

async function open(url: string): Promise<Database> {
  return openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: url }), logger);
}

async function tableNames(db: Database): Promise<string[]> {
  const sql =
    db.dialect === "sqlite"
      ? "select name from sqlite_master where type = 'table'"
      : "select table_name as name from information_schema.tables where table_schema = current_schema()";
  const rows = await db.em().getConnection().execute<{ name: string }[]>(sql);
  return rows.map((r) => r.name);
}

forEachDialect("database", (ctx) => {
  let db: Database;
  before(async () => {
    db = await open(ctx.url);
  });
  after(() => db?.close());

  it("creates every table of the spec, plus bank, trade audit, agent mappings, character leases, ground items, sanctions, the admin audit and the hiscores' counts, at startup", async () => {
    const tables = await tableNames(db);
    for (const t of [...SPEC_TABLES, ...OUR_TABLES]) assert.ok(tables.includes(t), `table ${t} exists`);
    assert.equal(ENTITIES.length, SPEC_TABLES.length + OUR_TABLES.length);
  });

  it("gives a new character every default of the spec's character record", async () => {
    const em = db.em();
    em.create(Character, { id: "c-defaults", accountId: "acc-1", name: "Defaults" });
    await em.flush();
    const rows = await db.em().getConnection().execute<Record<string, unknown>[]>(`select * from characters where id = 'c-defaults'`);
    const row = rows[0]!;
    const expected: Record<string, number> = {
      combatLevel: 3,
      attackLevel: 1,
      strengthLevel: 1,
      defenseLevel: 1,
      constitutionLevel: 10,
      rangedLevel: 1,
      woodcuttingLevel: 1,
      fishingLevel: 1,
      firemakingLevel: 1,
      cookingLevel: 1,
      health: 100,
      coins: 0,
      positionX: 0,
      positionY: 10,
      positionZ: 0,
    };
    for (const [col, value] of Object.entries(expected)) assert.equal(Number(row[col]), value, col);
    assert.equal(row.accountId, "acc-1");
    assert.equal(row.name, "Defaults");
    for (const skill of SKILLS) {
      assert.ok(`${skill}Level` in row, `${skill}Level column`);
      assert.ok(`${skill}XpTenths` in row, `${skill}XpTenths column`);
    }
    assert.equal(Number(row.constitutionXpTenths), 11540, "level 10 constitution starts at its xp (1,154, in tenths)");
  });

  describe("inventory", () => {
    before(async () => {
      const em = db.em();
      em.create(Character, { id: "c-inv", accountId: "acc-2", name: "Inventory" });
      await em.flush();
    });

    it("holds one row per character and slot", async () => {
      const em = db.em();
      em.create(InventorySlot, { characterId: "c-inv", slot: 0, itemId: "logs", quantity: 1 });
      await em.flush();
      const dup = db.em();
      dup.create(InventorySlot, { characterId: "c-inv", slot: 0, itemId: "coins", quantity: 5 });
      await assert.rejects(dup.flush(), UniqueConstraintViolationException);
    });

    for (const [what, slot, quantity] of [
      ["slot -1", -1, 1],
      ["slot 28", 28, 1],
      ["quantity 0", 3, 0],
      ["quantity -5", 4, -5],
      ["quantity 2^31", 5, 2 ** 31],
    ] as const) {
      it(`refuses ${what} with a check constraint`, async () => {
        const em = db.em();
        em.create(InventorySlot, { characterId: "c-inv", slot, itemId: "logs", quantity });
        await assert.rejects(em.flush(), (err: Error) => err instanceof CheckConstraintViolationException || /out of range|check/i.test(err.message));
      });
    }

    it("stores the largest stack, 2,147,483,647", async () => {
      const em = db.em();
      em.create(InventorySlot, { characterId: "c-inv", slot: 27, itemId: "coins", quantity: 2_147_483_647 });
      await em.flush();
      const row = await db.em().findOneOrFail(InventorySlot, { characterId: "c-inv", slot: 27 });
      assert.equal(row.quantity, 2_147_483_647);
    });
  });

  it("keeps equipment unique per slot type and refuses unknown slot types", async () => {
    const em = db.em();
    em.create(EquipmentSlot, { characterId: "c-eq", slotType: "weapon", itemId: "bronze_sword" });
    await em.flush();
    const dup = db.em();
    dup.create(EquipmentSlot, { characterId: "c-eq", slotType: "weapon", itemId: "iron_sword" });
    await assert.rejects(dup.flush(), UniqueConstraintViolationException);
    const bad = db.em();
    bad.create(EquipmentSlot, { characterId: "c-eq", slotType: "tail", itemId: "x" });
    await assert.rejects(bad.flush(), CheckConstraintViolationException);
  });

  it("keeps one bank stack per character and item", async () => {
    const em = db.em();
    em.create(BankSlot, { characterId: "c-bank", itemId: "logs", slot: 0, quantity: 10 });
    await em.flush();
    const dup = db.em();
    dup.create(BankSlot, { characterId: "c-bank", itemId: "logs", slot: 1, quantity: 1 });
    await assert.rejects(dup.flush(), UniqueConstraintViolationException);
  });

  it("keeps one agent a character, and the migration that says so keeps the first of an older database's several", async () => {
    const em = db.em();
    em.create(AgentMapping, { agentId: "agent-one", accountId: "acc-agents", characterId: "c-agent" });
    await em.flush();
    const dup = db.em();
    dup.create(AgentMapping, { agentId: "agent-two", accountId: "acc-agents", characterId: "c-agent" });
    await assert.rejects(dup.flush(), UniqueConstraintViolationException);

    // As a cluster could leave it before the index: three agents on one character (two registered
    // in the same instant), one on another.
    // Back to the migration before the index's (and, once there are any, those after it).
    const executed = await db.orm.migrator.getExecuted();
    const index = executed.findIndex((m) => /_agent_one_per_character$/.test(m.name));
    assert.ok(index > 0, "the index's migration was applied");
    await db.orm.migrator.down({ to: executed[index - 1]!.name });
    assert.ok(!(await db.orm.migrator.getExecuted()).some((m) => m.name === executed[index]!.name));
    const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, s));
    await db.em().insertMany(AgentMapping, [
      { agentId: "agent-late", accountId: "acc-agents", characterId: "c-twice", createdAt: at(9) },
      { agentId: "agent-b-first", accountId: "acc-agents", characterId: "c-twice", createdAt: at(1) },
      { agentId: "agent-a-first", accountId: "acc-agents", characterId: "c-twice", createdAt: at(1) },
      { agentId: "agent-alone", accountId: "acc-agents", characterId: "c-once", createdAt: at(5) },
    ]);
    await db.orm.migrator.up();
    assert.equal((await db.orm.migrator.getPending()).length, 0);
    const left = (await db.em().find(AgentMapping, { accountId: "acc-agents" })).map((a) => `${a.characterId} ${a.agentId}`).sort();
    assert.deepEqual(left, ["c-agent agent-one", "c-once agent-alone", "c-twice agent-a-first"]);
  });

  it("refuses a user role other than player or admin", async () => {
    const em = db.em();
    em.create(User, { id: "u-bad", role: "root" });
    await assert.rejects(em.flush(), CheckConstraintViolationException);
  });

  it("applies no migration twice and keeps data across a restart", async () => {
    const em = db.em();
    em.create(Character, { id: "c-persist", accountId: "acc-3", name: "Persistent", coins: 1234, positionX: 12 });
    await em.flush();
    await db.close();
    db = await open(ctx.url);
    const executed = await db.orm.migrator.getExecuted();
    const pending = await db.orm.migrator.getPending();
    assert.equal(pending.length, 0);
    assert.ok(executed.length >= 1);
    const c = await db.em().findOneOrFail(Character, "c-persist");
    assert.equal(c.coins, 1234);
    assert.equal(c.positionX, 12);
  });

  it("gives each world its own ground: a drop stored on world 1 comes back on world 1 only", async () => {
    const drop = (id: string) => ({
      op: "drop" as const,
      id,
      itemId: "logs",
      quantity: 3,
      x: 1,
      z: 2,
      ownerId: null,
      publicAt: Date.now(),
      expiresAt: Date.now() + 60_000,
    });
    await db.em().transactional((em) => applyGroundOps(em, [drop("g-world-1")], 1));
    await db.em().transactional((em) => applyGroundOps(em, [drop("g-world-2")], 2));
    assert.deepEqual(
      (await loadGroundItems(db, Date.now(), 1)).map((g) => g.id).filter((id) => id.startsWith("g-world")),
      ["g-world-1"],
    );
    assert.deepEqual(
      (await loadGroundItems(db, Date.now(), 2)).map((g) => g.id).filter((id) => id.startsWith("g-world")),
      ["g-world-2"],
    );
    assert.deepEqual(
      (await loadGroundItems(db, Date.now(), 3)).filter((g) => g.id.startsWith("g-world")),
      [],
    );
  });

  it("has no drift between the entities and the migrated schema", async () => {
    assert.equal((await db.orm.schema.getUpdateSchemaSQL({ wrap: false })).trim(), "");
  });

  if (ctx.dialect === "sqlite") {
    it("runs SQLite in WAL mode, in a file under the world directory by default", async () => {
      const rows = await db.em().getConnection().execute<{ journal_mode: string }[]>("pragma journal_mode");
      assert.equal(rows[0]!.journal_mode, "wal");
    });
  }
});
