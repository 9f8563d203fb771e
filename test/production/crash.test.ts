/**
 * A make loop killed with SIGKILL loses and duplicates nothing: real server processes on SQLite and
 * PostgreSQL, characters smelting bronze bars at the default world's furnace (their starter kit is
 * ore, their spawn beside it), the server killed at a different moment of the loops each cycle; after
 * the restart, each stored character has used as much copper as tin, exactly one of each per bar,
 * and has Smithing xp for exactly its bars (the recipe's xp a bar, in tenths).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { Character, InventorySlot } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { forEachDialect } from "../support/dialects.ts";
import { spawnServer, type Running } from "../support/process.ts";
import { BAR_XP_TENTHS, ORE, smeltingWorld } from "../support/smeltingWorld.ts";
import { WsTestClient } from "../support/wsClient.ts";

/** At 50 ms ticks a bar takes 200 ms: the loops run for 2.6 s from the first bar; kills inside and after them. */
const KILL_AFTER_MS = [200, 800, 1500, 3500];
const PLAYERS = 8;

forEachDialect("make loops survive SIGKILL", (ctx) => {
  it(`keeps inputs used equal to bars made, and the xp with them, across ${KILL_AFTER_MS.length} kills`, async function () {
    this.timeout(240_000);
    const world = smeltingWorld();
    const dbUrl = ctx.dialect === "sqlite" ? `sqlite:${path.join(world, "make.sqlite")}` : ctx.url;
    const env = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      PORT: "0",
      WORLD: world,
      DATABASE_URL: dbUrl,
      JWT_SECRET: "crash-secret-0123456789abcdef",
      TICK_MS: "50",
      SAVE_INTERVAL: "1",
      DISABLE_RATE_LIMIT: "true",
    };
    let server: Running | undefined;
    const seen = { none: 0, some: 0, all: 0 };
    try {
      for (let cycle = 0; cycle < KILL_AFTER_MS.length; cycle++) {
        server = await spawnServer(env);
        const url = `ws://127.0.0.1:${server.port}/ws`;
        const clients = await Promise.all(Array.from({ length: PLAYERS }, (_, i) => WsTestClient.connect(`${url}?name=Smelt${cycle}x${i}`)));
        const ids = await Promise.all(clients.map(async (c) => String((await c.next("welcome")).characterId)));
        const syncs = await Promise.all(clients.map((c) => c.next("player:sync")));
        for (const s of syncs) {
          const inv = s.inventory as { itemId: string; quantity: number }[];
          assert.equal(inv.filter((x) => x.itemId === "copper_ore").length, ORE, "the starter kit is the ore");
        }
        for (const c of clients) c.send("skill:make", { recipeId: "smelting:bronze_bar", quantity: "all" });
        await clients[0]!.next("skill:makeProgress", 10_000);
        await new Promise((r) => setTimeout(r, KILL_AFTER_MS[cycle]));
        server.child.kill("SIGKILL");
        await server.exited;
        for (const c of clients) c.close();
        server = undefined;

        // The stored state as the next start (the next cycle's, or the last one below) finds it.
        const db = await openDatabase(loadConfig({ NODE_ENV: "test", WORLD: world, DATABASE_URL: dbUrl }), pino({ level: "silent" }));
        try {
          for (const id of ids) {
            const rows = await db.em().fork().find(InventorySlot, { characterId: id });
            const bag = (itemId: string) => rows.filter((r) => r.itemId === itemId).reduce((n, r) => n + Number(r.quantity), 0);
            const [copper, tin, bars] = [bag("copper_ore"), bag("tin_ore"), bag("bronze_bar")];
            const character = await db.em().fork().findOneOrFail(Character, { id });
            const state = JSON.stringify({ cycle, copper, tin, bars, xp: character.smithingXpTenths });
            assert.equal(copper, tin, `copper and tin go together: ${state}`);
            assert.equal(ORE - copper, bars, `one ore of each per bar, no more, no less: ${state}`);
            assert.equal(Number(character.smithingXpTenths), bars * BAR_XP_TENTHS, `Smithing xp for exactly the bars: ${state}`);
            seen[bars === 0 ? "none" : bars === ORE ? "all" : "some"]++;
          }
        } finally {
          await db.close();
        }
      }
      // The server comes back on the state the last kill left.
      server = await spawnServer(env);
      server.child.kill("SIGTERM");
      assert.equal((await server.exited).code, 0);
      server = undefined;
      assert.ok(seen.some > 0, `some characters were stored mid loop: ${JSON.stringify(seen)}`);
      process.stdout.write(`      (${ctx.dialect}: stored with no bar ${seen.none}, mid loop ${seen.some}, all bars ${seen.all})\n`);
    } finally {
      server?.child.kill("SIGKILL");
      fs.rmSync(world, { recursive: true, force: true });
    }
  });
});
