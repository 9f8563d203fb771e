/**
 * A quest in progress survives a SIGKILL of its server after its last save: a real server process
 * on SQLite and on PostgreSQL, a new character that starts A Settler's Charter over `/ws` (Warden
 * Tamsin's offer), the row of `character_quests` seen in the database, the process killed; the
 * restarted server's `quest:list` at login (once the dead process's lease on the character has run
 * out) shows the quest at the stage it was saved at.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { CharacterQuest } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { forEachDialect } from "../support/dialects.ts";
import { spawnServer, type Running } from "../support/process.ts";
import { entryOf, startQuestOverWs } from "../support/questProtocol.ts";
import { makeWorldDir } from "../support/world.ts";
import { WsTestClient } from "../support/wsClient.ts";

const QUEST = "settlers_charter";

forEachDialect("a quest survives SIGKILL", (ctx) => {
  it("keeps A Settler's Charter in progress, at its saved stage, across a SIGKILL of the server", async function () {
    this.timeout(120_000);
    const world = makeWorldDir();
    const dbUrl = ctx.dialect === "sqlite" ? `sqlite:${path.join(world, "quests.sqlite")}` : ctx.url;
    const env = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      PORT: "0",
      WORLD: world,
      DATABASE_URL: dbUrl,
      JWT_SECRET: "quest-crash-secret-0123456789abcdef",
      TICK_MS: "50",
      SAVE_INTERVAL: "1",
      DISABLE_RATE_LIMIT: "true",
      CHARACTER_LEASE_MS: "1500",
    };
    let server: Running | undefined;
    try {
      server = await spawnServer(env);
      const client = await WsTestClient.connect(`ws://127.0.0.1:${server.port}/ws?name=Crashquest${ctx.dialect === "sqlite" ? "S" : "P"}`);
      const welcome = await client.next("welcome");
      const id = String(welcome.characterId);
      const progress = await startQuestOverWs(client, "warden_tamsin", "A Settler's Charter: I'd like to help.");
      assert.deepEqual([progress.questId, progress.status, progress.stage], [QUEST, "in_progress", "cull_rats"]);

      // Its last save: the row in the database; then the kill, with no shutdown save after it.
      const db = await openDatabase(loadConfig({ NODE_ENV: "test", WORLD: world, DATABASE_URL: dbUrl }), pino({ level: "silent" }));
      try {
        let row: { status: string; stage: number } | null = null;
        for (let i = 0; i < 100 && row === null; i++) {
          row = await db.em().fork().findOne(CharacterQuest, { characterId: id, questId: QUEST });
          if (row === null) await new Promise((r) => setTimeout(r, 100));
        }
        assert.ok(row, "the quest's row saved");
        assert.deepEqual([row.status, row.stage], ["in_progress", 1]);
      } finally {
        await db.close();
      }
      server.child.kill("SIGKILL");
      await server.exited;
      client.close();

      server = await spawnServer(env);
      // The killed process's lease on the character runs out first (CHARACTER_IN_USE, close 1013, until then).
      let again: WsTestClient | undefined;
      for (let i = 0; i < 40 && again === undefined; i++) {
        const c = await WsTestClient.connect(`ws://127.0.0.1:${server.port}/ws?token=${welcome.token}`);
        const first = await c.next("welcome").catch(() => undefined);
        if (first !== undefined) {
          assert.equal(first.characterId, id);
          again = c;
        } else await new Promise((r) => setTimeout(r, 250));
      }
      assert.ok(again, "logged in again once the lease ran out");
      const list = await again.next("quest:list", 10_000);
      assert.deepEqual(entryOf(list, QUEST), {
        id: QUEST,
        name: "A Settler's Charter",
        status: "in_progress",
        stage: "cull_rats",
        stageText: "Kill 5 meadow rats",
        progress: { count: 0, required: 5 },
      });
      again.close();
      server.child.kill("SIGTERM");
      assert.equal((await server.exited).code, 0);
      server = undefined;
    } finally {
      server?.child.kill("SIGKILL");
      fs.rmSync(world, { recursive: true, force: true });
    }
  });
});
