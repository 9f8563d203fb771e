/**
 * The migration that makes names unique as players read them (`Migration…_name_keys`, both
 * dialects): on a database of the schema before it, holding look-alike names, every character is
 * kept, the oldest of each look-alike keeps its name, the later ones are renamed, and their
 * players are told once, at their next login, on either transport.
 */
import assert from "node:assert/strict";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { runStatement, selectRows } from "../../src/db/rawSql.ts";
import { nameKey, renameNotice } from "../../src/game/names.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

const ENV = { TICK_MS: "50", DISABLE_RATE_LIMIT: "true" };
const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, s));

/** Characters as an older database could hold them: id, account, name, created (seconds). */
const STORED: [string, string, string, number][] = [
  ["c-1", "acc-a", "Zezima", 1],
  ["c-2", "acc-b", "zezima", 2],
  ["c-3", "acc-c", "Zez_ima", 3],
  ["c-4", "acc-d", "Zezima2", 4],
  ["c-5", "acc-e", "Abcdefghijklmnop", 5],
  ["c-6", "acc-e", "ABCDEFGHIJKLMNOP", 6],
  // Created in the same instant: the lower id is the older.
  ["c-tie-b", "acc-f", "TIE", 7],
  ["c-tie-a", "acc-g", "Tie", 7],
  ["c-7", "acc-h", "Bob", 8],
];

/** After the migration: id -> [name, renamedFrom]. */
const MIGRATED: Record<string, [string, string | null]> = {
  "c-1": ["Zezima", null],
  // zezima2 would read as Zezima2, which a younger character has and keeps.
  "c-2": ["zezima3", "zezima"],
  "c-3": ["Zez_ima4", "Zez_ima"],
  "c-4": ["Zezima2", null],
  "c-5": ["Abcdefghijklmnop", null],
  "c-6": ["ABCDEFGHIJKLMNO2", "ABCDEFGHIJKLMNOP"],
  "c-tie-a": ["Tie", null],
  "c-tie-b": ["TIE2", "TIE"],
  "c-7": ["Bob", null],
};

type Row = { id: string; name: string; nameKey: string; renamedFrom: string | null };
const rows = async (db: Database) => selectRows<Row>(db.statements, `select "id", "name", "nameKey", "renamedFrom" from "characters" order by "id"`, []);

/** True once a local chat line of the player's own has come back: every line sent to it before is in. */
const isOwnChat = (name: string) => (e: { type: string; data: Record<string, unknown> }) =>
  e.type === "chat:message" && e.data.channel === "local" && e.data.fromName === name;
const systemLines = (events: { type: string; data: Record<string, unknown> }[]) =>
  events.filter((e) => e.type === "chat:message" && e.data.channel === "system").map((e) => String(e.data.message));

forEachDialect("the name key migration", (ctx) => {
  it("keeps every character, renames the later of look-alike names to free ones, and keys them all", async function () {
    this.timeout(60_000);
    const db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
    try {
      // Back to the migration before the keys' (and, once there are any, those after it).
      const executed = await db.orm.migrator.getExecuted();
      const index = executed.findIndex((m) => /_name_keys$/.test(m.name));
      assert.ok(index > 0, "the keys' migration was applied");
      await db.orm.migrator.down({ to: executed[index - 1]!.name });
      for (const [id, accountId, name, s] of STORED) {
        await runStatement(db.statements, `insert into "characters" ("id", "accountId", "name", "createdAt", "updatedAt") values (?, ?, ?, ?, ?)`, [
          id,
          accountId,
          name,
          at(s),
          at(s),
        ]);
      }
      await db.orm.migrator.up();
      assert.equal((await db.orm.migrator.getPending()).length, 0);

      const after = await rows(db);
      assert.deepEqual(Object.fromEntries(after.map((r) => [r.id, [r.name, r.renamedFrom]])), MIGRATED);
      for (const r of after) assert.equal(r.nameKey, nameKey(r.name), r.name);
      assert.equal(new Set(after.map((r) => r.nameKey)).size, after.length);
    } finally {
      await db.close();
    }
  });

  describe("the renamed characters' players", () => {
    let t: TestServer;
    const restart = async () => {
      await t?.close();
      t = await startTestServer({ ...ENV, DATABASE_URL: ctx.url });
    };
    const token = (accountId: string) => t.server.tokens.signServiceToken({ accountId }, 600);
    after(() => t?.close());

    it("are told at their next login, once, on /ws and on the Colyseus room", async function () {
      this.timeout(60_000);
      await restart();
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${await token("acc-b")}`);
      await ws.next("welcome");
      const wsLine = await ws.next("chat:message", 10_000);
      assert.deepEqual([wsLine.channel, wsLine.fromName, wsLine.message], ["system", "System", renameNotice("zezima", "zezima3")]);
      const room = await WorldTestClient.join(t.baseUrl, { token: await token("acc-c") });
      const roomLine = await room.next("chat:message", 10_000);
      assert.deepEqual([roomLine.channel, roomLine.message], ["system", renameNotice("Zez_ima", "Zez_ima4")]);
      await eventually(
        async () =>
          (await rows(t.server.db))
            .filter((r) => r.renamedFrom !== null)
            .map((r) => r.id)
            .join() === "c-6,c-tie-b"
            ? true
            : undefined,
        "the told players' notices cleared",
      );
      ws.socket.close();
      await room.room.leave();

      // Loaded again from the database, each on the other transport: no notice.
      await restart();
      const again = await WorldTestClient.join(t.baseUrl, { token: await token("acc-b") });
      again.send("player:chat", { message: "still me" });
      await again.waitFor(() => (again.events.some(isOwnChat("zezima3")) ? true : undefined), 10_000, "its own chat line");
      assert.deepEqual(systemLines(again.events), []);
      const wsAgain = await WsTestClient.connect(`${t.wsUrl}?token=${await token("acc-c")}`);
      await wsAgain.next("welcome");
      wsAgain.send("player:chat", { message: "still me" });
      await eventually(() => (wsAgain.events.some(isOwnChat("Zez_ima4")) ? true : undefined), "its own chat line");
      assert.deepEqual(systemLines(wsAgain.events), []);
      wsAgain.socket.close();
      await again.room.leave();
    });

    it("are not told when their character kept its name", async function () {
      this.timeout(60_000);
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${await token("acc-a")}`);
      await ws.next("welcome");
      ws.send("player:chat", { message: "the one and only" });
      await eventually(() => (ws.events.some(isOwnChat("Zezima")) ? true : undefined), "its own chat line");
      assert.deepEqual(systemLines(ws.events), []);
      ws.socket.close();
    });
  });
});
