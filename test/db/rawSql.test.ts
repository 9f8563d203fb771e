/**
 * The raw statements of a join (src/db/rawSql.ts) on both databases: what they read is what
 * MikroORM wrote through the entities (dates, nulls, numbers), what they write MikroORM reads back,
 * a failure is MikroORM's exception and changes nothing, and they run in the entity manager's
 * transaction.
 */
import assert from "node:assert/strict";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import { pino } from "pino";
import {
  BankSlot,
  Character,
  CharacterLease,
  EquipmentSlot,
  Friendship,
  InventorySlot,
  IgnoreEntry,
  PlayerSession,
  Sanction,
  User,
} from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { INVENTORY_SIZE, type ItemStack } from "../../src/game/world/Player.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { dateOf, runStatement, selectRow, selectRows, type Statements } from "../../src/db/rawSql.ts";
import { Authenticator } from "../../src/auth/Authenticator.ts";
import { TokenService, type Principal } from "../../src/auth/tokens.ts";
import { CharacterInUseError, CharacterLeases } from "../../src/persistence/leases.ts";
import { createCharacter, lastSession, loadOrCreatePlayer, recordLogin } from "../../src/persistence/players.ts";
import { sanctionInForce } from "../../src/persistence/sanctions.ts";
import { friendsOf, ignoredBy } from "../../src/persistence/social.ts";
import { bundledContent } from "../support/content.ts";
import { forEachDialect } from "../support/dialects.ts";

describe("raw statements: a datetime column's value as a Date", () => {
  /** What MikroORM's base platform parses with (a string no rule here reads). */
  const em = { getPlatform: () => ({ parseDate: (v: string) => new Date(v) }) } as unknown as Statements;
  it("reads a Date, milliseconds (number, BigInt, digits) and SQLite's current_timestamp text; null stays null", () => {
    const at = Date.UTC(2026, 10, 28, 5, 6, 7);
    assert.equal(dateOf(em, new Date(at))!.getTime(), at);
    assert.equal(dateOf(em, at)!.getTime(), at);
    assert.equal(dateOf(em, BigInt(at))!.getTime(), at);
    assert.equal(dateOf(em, String(at))!.getTime(), at);
    assert.equal(dateOf(em, "2026-11-28 05:06:07")!.getTime(), at, "current_timestamp's text is UTC");
    assert.equal(dateOf(em, "2026-11-28T05:06:07.000Z")!.getTime(), at);
    assert.equal(dateOf(em, null), null);
    assert.equal(dateOf(em, undefined), null);
  });

  it("refuses what is no date", () => {
    assert.throws(() => dateOf(em, "soon"), /not a datetime value: soon/);
    assert.throws(() => dateOf(em, true), /not a datetime value/);
  });
});

forEachDialect("raw statements of a join", (ctx) => {
  let db: Database;
  const tag = () => `${ctx.dialect}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  before(async () => {
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
  });
  after(() => db?.close());

  it("reads the dates, nulls and text MikroORM wrote, and the date a column's SQL default wrote", async () => {
    const id = `raw-${tag()}`;
    const endsAt = new Date(Date.now() + 3_600_000);
    const em = db.em();
    em.create(Sanction, { accountId: id, kind: "ban", endsAt, reason: null, byAccountId: "admin" });
    await em.flush();
    const row = await selectRow<{ endsAt: unknown; reason: unknown; createdAt: unknown }>(
      db.em(),
      `select "endsAt", "reason", "createdAt" from "sanctions" where "accountId" = ?`,
      [id],
    );
    assert.equal(dateOf(db.statements, row!.endsAt)!.getTime(), endsAt.getTime());
    assert.equal(row!.reason, null);
    // A row whose date only SQL's default wrote (text on SQLite).
    await runStatement(db.em(), `insert into "friendships" ("accountId", "friendAccountId") values (?, ?)`, [id, "someone"]);
    const friend = await selectRow<{ createdAt: unknown }>(db.em(), `select "createdAt" from "friendships" where "accountId" = ?`, [id]);
    const written = dateOf(db.statements, friend!.createdAt)!.getTime();
    assert.ok(Math.abs(written - Date.now()) < 120_000, `the default's date is now (${new Date(written).toISOString()})`);
    assert.equal(await selectRow(db.em(), `select "id" from "users" where "id" = ?`, [id]), undefined, "no row: undefined");
  });

  it("reads PostgreSQL's timestamp text as MikroORM does: offsets and fractions", () => {
    const at = Date.UTC(2026, 10, 28, 5, 6, 7, 500);
    assert.equal(dateOf(db.statements, "2026-11-28 05:06:07.5+00")!.getTime(), at);
    assert.equal(dateOf(db.statements, "2026-11-28 07:06:07.5+02")!.getTime(), at);
    assert.equal(dateOf(db.statements, "2026-11-28 10:36:07.5+05:30")!.getTime(), at);
    assert.equal(dateOf(db.statements, "2026-11-28 05:06:07.500123+00")!.getTime(), at);
  });

  it("writes dates MikroORM reads back as the same instant, and counts the rows a statement changed", async () => {
    const id = `raw-${tag()}`;
    const at = new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 678));
    await runStatement(db.em(), `insert into "users" ("id", "role", "anonymous", "createdAt") values (?, ?, ?, ?)`, [id, "player", true, at]);
    const user = await db.em().findOneOrFail(User, { id });
    assert.equal(user.createdAt.getTime(), at.getTime());
    assert.equal(user.anonymous, true);
    assert.equal(user.role, "player");
    assert.equal(await runStatement(db.em(), `update "users" set "name" = ? where "id" = ?`, ["Raw", id]), 1);
    assert.equal(await runStatement(db.em(), `update "users" set "name" = ? where "id" = ?`, ["Raw", `${id}-none`]), 0);
    // An undefined parameter is null on both (PostgreSQL's formatting would write the word).
    assert.equal(await runStatement(db.statements, `update "users" set "name" = ? where "id" = ?`, [undefined, id]), 1);
    assert.equal((await db.em().findOneOrFail(User, { id })).name ?? null, null);
  });

  it("a duplicate key is MikroORM's UniqueConstraintViolationException and writes nothing", async () => {
    const id = `raw-${tag()}`;
    await runStatement(db.em(), `insert into "users" ("id", "role", "anonymous", "createdAt") values (?, ?, ?, ?)`, [id, "player", false, new Date()]);
    await assert.rejects(
      runStatement(db.em(), `insert into "users" ("id", "role", "anonymous", "createdAt") values (?, ?, ?, ?)`, [id, "admin", true, new Date()]),
      UniqueConstraintViolationException,
    );
    const rows = await selectRows<{ role: string }>(db.em(), `select "role" from "users" where "id" = ?`, [id]);
    assert.deepEqual(
      rows.map((r) => r.role),
      ["player"],
    );
  });

  it("runs in the entity manager's transaction: rolled back with it", async () => {
    const id = `raw-${tag()}`;
    await assert.rejects(
      db.em().transactional(async (em) => {
        await runStatement(em, `insert into "users" ("id", "role", "anonymous", "createdAt") values (?, ?, ?, ?)`, [id, "player", false, new Date()]);
        assert.ok(await selectRow(em, `select "id" from "users" where "id" = ?`, [id]), "seen inside");
        throw new Error("roll back");
      }),
      /roll back/,
    );
    assert.equal(await db.em().findOne(User, { id }), null);
  });

  /** A character and its item rows as MikroORM's entities read them (what the load read before it was raw). */
  async function entityRead(characterId: string) {
    const em = db.em();
    const row = await em.findOneOrFail(Character, { id: characterId });
    const inventory: (ItemStack | null)[] = Array.from({ length: INVENTORY_SIZE }, () => null);
    for (const s of await em.find(InventorySlot, { characterId })) inventory[s.slot] = { itemId: s.itemId, quantity: s.quantity };
    const r = row as unknown as Record<string, number>;
    return {
      characterId,
      accountId: row.accountId,
      name: row.name,
      x: row.positionX,
      y: row.positionY,
      z: row.positionZ,
      health: row.health,
      coins: row.coins,
      combatLevel: row.combatLevel,
      combatStyle: row.combatStyle,
      runEnergy: row.runEnergy,
      runMode: row.runMode === 1,
      autoRetaliate: row.autoRetaliate !== 0,
      prayerPoints: row.prayerPoints,
      autocast: row.autocast ?? null,
      skills: Object.fromEntries(SKILLS.map((k) => [k, { level: r[`${k}Level`], xpTenths: r[`${k}XpTenths`] }])),
      inventory,
      equipment: Object.fromEntries((await em.find(EquipmentSlot, { characterId })).map((e) => [e.slotType, { itemId: e.itemId, quantity: e.quantity }])),
      bank: (await em.find(BankSlot, { characterId }, { orderBy: { slot: "asc" } })).map((b) => ({ itemId: b.itemId, quantity: b.quantity })),
      version: row.version,
    };
  }

  it("a login's reads: the character and its rows, its last session, friends, ignores and sanctions", async () => {
    const content = await bundledContent();
    const account = `raw-acc-${tag()}`;
    const made = await createCharacter(db, content, account, `R${Date.now().toString(36).slice(-6)}`);
    // A bank written out of display order, equipment, a moved character.
    const setup = db.em();
    setup.create(BankSlot, { characterId: made.characterId, slot: 1, itemId: "bronze_dagger", quantity: 1 });
    setup.create(BankSlot, { characterId: made.characterId, slot: 0, itemId: "logs", quantity: 250 });
    setup.create(EquipmentSlot, { characterId: made.characterId, slotType: "weapon", itemId: "bronze_dagger", quantity: 1 });
    await setup.flush();
    await db
      .em()
      .nativeUpdate(
        Character,
        { id: made.characterId },
        { positionX: 12.5, positionZ: -3.25, coins: 77, combatStyle: "aggressive", runEnergy: 2_550, prayerLevel: 5, prayerXpTenths: 3_880, prayerPoints: 2 },
      );
    const loaded = await loadOrCreatePlayer(db, content, { accountId: account });
    assert.deepEqual(
      loaded.bank,
      [
        { itemId: "logs", quantity: 250 },
        { itemId: "bronze_dagger", quantity: 1 },
      ],
      "in display order",
    );
    assert.deepEqual(loaded.equipment, { weapon: { itemId: "bronze_dagger", quantity: 1 } });
    assert.deepEqual([loaded.x, loaded.z, loaded.coins, loaded.combatStyle, loaded.runEnergy, loaded.prayerPoints], [12.5, -3.25, 77, "aggressive", 2_550, 2]);
    assert.deepEqual(loaded, await entityRead(made.characterId), "the raw load reads what MikroORM's entities read");
    const byId = await loadOrCreatePlayer(db, content, { accountId: account, characterId: made.characterId, claim: async () => {} });
    assert.deepEqual(byId, loaded);
    await assert.rejects(loadOrCreatePlayer(db, content, { accountId: "someone-else", characterId: made.characterId }), /belongs to another account/);
    await assert.rejects(loadOrCreatePlayer(db, content, { accountId: account, characterId: "no-such-character" }), /no such character/);

    assert.equal(await lastSession(db, made.characterId), undefined);
    const before = Date.now();
    const sessionId = await recordLogin(db, { characterId: made.characterId, accountId: account, transport: "ws", remoteAddress: "10.0.0.1", world: 3 });
    const session = await db.em().findOneOrFail(PlayerSession, { id: sessionId });
    assert.deepEqual(
      [session.characterId, session.accountId, session.transport, session.remoteAddress, session.world, session.logoutAt ?? null],
      [made.characterId, account, "ws", "10.0.0.1", 3, null],
    );
    const last = await lastSession(db, made.characterId);
    assert.equal(last!.world, 3);
    assert.equal(last!.loginAt.getTime(), session.loginAt.getTime());
    assert.ok(last!.loginAt.getTime() >= before - 1);
    const character = await db.em().findOneOrFail(Character, { id: made.characterId });
    assert.equal(character.lastLoginAt!.getTime(), session.loginAt.getTime(), "the last login is the session's start");
    assert.equal(character.version, loaded.version, "a login leaves the save version alone");

    const em = db.em();
    em.create(Friendship, { accountId: account, friendAccountId: "friend-1" });
    em.create(Friendship, { accountId: account, friendAccountId: "friend-2" });
    em.create(IgnoreEntry, { accountId: account, ignoredAccountId: "pest" });
    em.create(Sanction, { accountId: account, kind: "mute", endsAt: new Date(Date.now() - 1_000), reason: "over", byAccountId: "admin" });
    em.create(Sanction, { accountId: account, kind: "ban", endsAt: null, reason: "for good", byAccountId: "admin" });
    await em.flush();
    assert.deepEqual((await friendsOf(db, account)).sort(), ["friend-1", "friend-2"]);
    assert.deepEqual([...(await ignoredBy(db, account))], ["pest"]);
    assert.deepEqual(await sanctionInForce(db, account, "ban"), { endsAt: null, reason: "for good" }, "a permanent ban");
    assert.equal(await sanctionInForce(db, account, "mute"), undefined, "an ended mute is not in force");
    const until = new Date(Date.now() + 60_000);
    await db.em().nativeUpdate(Sanction, { accountId: account, kind: "mute" }, { endsAt: until });
    assert.deepEqual(await sanctionInForce(db, account, "mute"), { endsAt: until, reason: "over" });
    assert.equal(await sanctionInForce(db, account, "mute", until.getTime()), undefined, "ends at its end");
  });

  it("a lease: taken, renewed by its owner, refused to another until it expires, then taken over", async () => {
    const characterId = `raw-lease-${tag()}`;
    let now = Date.now();
    const a = new CharacterLeases(db, { leaseMs: 10_000, ownerId: `a-${tag()}`, now: () => now });
    const b = new CharacterLeases(db, { leaseMs: 10_000, ownerId: `b-${tag()}`, now: () => now });
    await a.acquire(characterId);
    const first = await db.em().findOneOrFail(CharacterLease, { characterId });
    assert.equal(first.ownerId, a.ownerId);
    assert.equal(first.expiresAt.getTime(), now + 10_000);
    now += 5_000;
    await a.acquire(characterId);
    assert.equal((await db.em().findOneOrFail(CharacterLease, { characterId })).expiresAt.getTime(), now + 10_000, "renewed");
    await assert.rejects(b.acquire(characterId), CharacterInUseError);
    assert.equal((await db.em().findOneOrFail(CharacterLease, { characterId })).ownerId, a.ownerId, "the refused take changed nothing");
    now += 10_001;
    await b.acquire(characterId);
    const taken = await db.em().findOneOrFail(CharacterLease, { characterId });
    assert.deepEqual([taken.ownerId, taken.expiresAt.getTime()], [b.ownerId, now + 10_000]);
  });
  it("the last session is the newest of several, on any world; a login without address or world writes null and world 1", async () => {
    const content = await bundledContent();
    const account = `raw-sess-${tag()}`;
    const made = await createCharacter(db, content, account, `S${Date.now().toString(36).slice(-6)}`);
    await recordLogin(db, { characterId: made.characterId, accountId: account, transport: "colyseus" });
    const first = await lastSession(db, made.characterId);
    assert.equal(first!.world, 1, "world 1 by default");
    const [row] = await selectRows<{ remoteAddress: unknown; world: unknown }>(
      db.statements,
      `select "remoteAddress", "world" from "playerSessions" where "characterId" = ?`,
      [made.characterId],
    );
    assert.deepEqual([row!.remoteAddress, Number(row!.world)], [null, 1]);
    await new Promise((r) => setTimeout(r, 5));
    await recordLogin(db, { characterId: made.characterId, accountId: account, transport: "ws", world: 7, remoteAddress: undefined });
    await new Promise((r) => setTimeout(r, 5));
    await recordLogin(db, { characterId: made.characterId, accountId: account, transport: "ws", world: 2 });
    const last = await lastSession(db, made.characterId);
    assert.equal(last!.world, 2, "the newest");
    assert.ok(last!.loginAt.getTime() > first!.loginAt.getTime());
  });

  it("an account's first character is its oldest; no sanction, friend or ignore reads as none", async () => {
    const content = await bundledContent();
    const account = `raw-two-${tag()}`;
    const older = await createCharacter(db, content, account, `O${Date.now().toString(36).slice(-6)}`);
    await new Promise((r) => setTimeout(r, 5));
    const newer = await createCharacter(db, content, account, `N${Date.now().toString(36).slice(-6)}`);
    assert.notEqual(older.characterId, newer.characterId);
    assert.equal((await loadOrCreatePlayer(db, content, { accountId: account })).characterId, older.characterId);
    assert.equal((await loadOrCreatePlayer(db, content, { accountId: account, characterId: newer.characterId })).characterId, newer.characterId);
    assert.equal(await sanctionInForce(db, account, "ban"), undefined);
    assert.equal(await sanctionInForce(db, account, "mute"), undefined);
    assert.deepEqual(await friendsOf(db, account), []);
    assert.equal((await ignoredBy(db, account)).size, 0);
  });

  it("an account's row: made on first use (anonymous or not), once when two processes race, an admin row read as admin", async () => {
    const tokens = new TokenService({ jwtSecret: "k".repeat(32), idp: { appId: "a", appSecret: "b" } });
    const { principal } = await new Authenticator(tokens, db).issueAnonymous();
    const anon = await db.em().findOneOrFail(User, { id: principal.accountId });
    assert.deepEqual([anon.anonymous, anon.role], [true, "player"]);
    const id = `raw-user-${tag()}`;
    const asPlayer: Principal = { accountId: id, role: "player", anonymous: false, source: "service" };
    // Two servers (no shared cache) resolve the same new account at once: one row, both answer.
    const both = await Promise.all([new Authenticator(tokens, db).resolve(asPlayer), new Authenticator(tokens, db).resolve(asPlayer)]);
    assert.deepEqual(
      both.map((p) => [p.accountId, p.role]),
      [
        [id, "player"],
        [id, "player"],
      ],
    );
    assert.equal((await db.em().find(User, { id })).length, 1);
    assert.equal((await db.em().findOneOrFail(User, { id })).anonymous, false);
    await db.em().nativeUpdate(User, { id }, { role: "admin" });
    assert.equal((await new Authenticator(tokens, db).resolve(asPlayer)).role, "admin", "the row's role");
  });
});
