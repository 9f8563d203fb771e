/**
 * Two real server processes on one database (one SQLite file, one PostgreSQL database): a
 * character is live in one of them at a time (its lease), a dead process's characters come free
 * when their leases expire, and a save that finds another version of the character is refused.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { Character, CharacterLease, InventorySlot } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { forEachDialect } from "../support/dialects.ts";
import { spawnServer, type Running } from "../support/process.ts";
import { makeWorldDir } from "../support/world.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";

/** Short leases, so that a killed process's characters come free within the test. */
const LEASE_MS = 1_500;

forEachDialect("character leases across two server processes", (ctx) => {
  let worlds: string[] = [];
  let servers: Running[] = [];
  let db: Database | undefined;
  let dbUrl = "";
  let env: Record<string, string> = {};

  beforeEach(async () => {
    worlds = [makeWorldDir(), makeWorldDir()];
    dbUrl = ctx.dialect === "sqlite" ? `sqlite:${path.join(worlds[0]!, "shared.sqlite")}` : await ctx.newUrl();
    env = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      PORT: "0",
      DATABASE_URL: dbUrl,
      JWT_SECRET: "lease-secret-0123456789abcdef",
      TICK_MS: "50",
      DISABLE_RATE_LIMIT: "true",
      CHARACTER_LEASE_MS: String(LEASE_MS),
    };
  });
  afterEach(async () => {
    for (const s of servers) s.child.kill("SIGKILL");
    await Promise.all(servers.map((s) => s.exited));
    servers = [];
    await db?.close();
    db = undefined;
    for (const w of worlds) fs.rmSync(w, { recursive: true, force: true });
  });

  const start = async (i: number) => {
    const s = await spawnServer({ ...env, WORLD: worlds[i]! });
    servers.push(s);
    return s;
  };
  const wsUrl = (s: Running, query: string) => `ws://127.0.0.1:${s.port}/ws?${query}`;
  const openDb = async () => (db ??= await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: dbUrl }), pino({ level: "silent" })));

  /** Logs in on `s` with the token; the welcome, or the refusal (error event and close code). */
  async function login(
    s: Running,
    token: string,
  ): Promise<{ client: WsTestClient; welcome?: Record<string, unknown>; refused?: { code: unknown; close: number } }> {
    const client = await WsTestClient.connect(wsUrl(s, `token=${token}`));
    const first = await client.nextOf(["welcome", "error"], 10_000);
    if (first.type === "welcome") return { client, welcome: first.data };
    const closed = await client.waitClosed();
    return { client, refused: { code: first.data.code, close: closed.code } };
  }

  it("refuses a login of a character live in the other process, and lets it in once that process is killed and its lease expires", async function () {
    this.timeout(60_000);
    const [a, b] = [await start(0), await start(1)];
    const first = await WsTestClient.connect(wsUrl(a, "name=Leaseholder"));
    const welcome = await first.next("welcome");
    const characterId = String(welcome.characterId);
    const token = String(welcome.token);
    const store = await openDb();
    const lease = await store.em().findOneOrFail(CharacterLease, { characterId });

    const second = await login(b, token);
    assert.deepEqual(second.refused, { code: "CHARACTER_IN_USE", close: 1013 }, "refused while the first process holds it");
    const after = await store.em().findOneOrFail(CharacterLease, { characterId });
    assert.equal(after.ownerId, lease.ownerId, "the lease stays with the first process");
    // A Colyseus join is refused the same way (409).
    await assert.rejects(
      WorldTestClient.join(`http://127.0.0.1:${b.port}`, { token }),
      (e: { code?: unknown; message?: string }) => e.code === 409 && /in use on another server/.test(e.message ?? ""),
    );
    // Nothing was loaded into the other world.
    const worldOfB = (await (await fetch(`http://127.0.0.1:${b.port}/api/v1/world`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      players: unknown[];
    };
    assert.equal(worldOfB.players.length, 0);

    // The first process dies without a word: its lease stops being renewed and expires.
    a.child.kill("SIGKILL");
    await a.exited;
    let refusals = 0;
    let taken: Awaited<ReturnType<typeof login>>;
    for (;;) {
      // Each retry is a real login; what is awaited is the lease's own expiry.
      taken = await login(b, token);
      if (taken.welcome !== undefined) break;
      assert.equal(taken.refused?.code, "CHARACTER_IN_USE");
      assert.ok(++refusals < 50, "the dead process's lease never expired");
      await new Promise((r) => setTimeout(r, LEASE_MS / 5));
    }
    assert.equal(taken.welcome.characterId, characterId);
    const owner = await store.em().findOneOrFail(CharacterLease, { characterId });
    assert.notEqual(owner.ownerId, lease.ownerId, "the other process holds it now");
    process.stdout.write(`      (${ctx.dialect}: ${refusals} refusals before the lease expired)\n`);
    taken.client.close();
  });

  it("releases the leases at a graceful shutdown, so the other process takes the character at once", async function () {
    this.timeout(60_000);
    const [a, b] = [await start(0), await start(1)];
    const first = await WsTestClient.connect(wsUrl(a, "name=Leaver"));
    const welcome = await first.next("welcome");
    const store = await openDb();
    assert.equal(await store.em().count(CharacterLease, { characterId: String(welcome.characterId) }), 1);
    a.child.kill("SIGTERM");
    assert.equal((await a.exited).code, 0);
    assert.equal(await store.em().count(CharacterLease, { characterId: String(welcome.characterId) }), 0, "released at shutdown");
    const again = await login(b, String(welcome.token));
    assert.equal(again.welcome?.characterId, welcome.characterId);
    again.client.close();
  });

  it("refuses a stale save (another writer bumped the version): nothing written, error logged, the player disconnected", async function () {
    this.timeout(60_000);
    const a = await start(0);
    const client = await WsTestClient.connect(wsUrl(a, "name=Staleman"));
    const welcome = await client.next("welcome");
    const characterId = String(welcome.characterId);
    const inventory = (await client.next("player:sync")).inventory as { slot: number; itemId: string }[];
    const store = await openDb();
    const row = await store.em().findOneOrFail(Character, { id: characterId });
    const storedSlots = await store.em().count(InventorySlot, { characterId });
    // Another writer: a newer version, and a position only it wrote.
    await store.em().nativeUpdate(Character, { id: characterId }, { version: row.version + 1, positionX: 7 });

    client.send("player:action", { action: "drop", slot: inventory[0]!.slot }); // saved at once
    const error = await client.next("error", 10_000);
    assert.equal(error.code, "CHARACTER_IN_USE");
    assert.equal((await client.waitClosed()).code, 4010);

    const now = await store.em().findOneOrFail(Character, { id: characterId }, { refresh: true });
    assert.deepEqual([now.version, now.positionX], [row.version + 1, 7], "the other writer's row stands");
    assert.equal(await store.em().count(InventorySlot, { characterId }), storedSlots, "the drop was not written");
    const logged = await until(
      () =>
        a
          .stdout()
          .split("\n")
          .find((l) => l.includes("refused a stale save") && l.includes(characterId)),
      "the refusal in the log",
    );
    assert.equal((JSON.parse(logged) as { level: number }).level, 50, "logged as an error");
    // Lost, not retried: no second refusal, and the player is out of the world.
    const token = String(welcome.token);
    const worldNow = (await (await fetch(`http://127.0.0.1:${a.port}/api/v1/world`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      players: unknown[];
    };
    assert.equal(worldNow.players.length, 0);
    assert.equal(
      a
        .stdout()
        .split("\n")
        .filter((l) => l.includes("refused a stale save")).length,
      1,
    );
  });
});
