import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { Character, InventorySlot, TradeAudit } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { forEachDialect } from "../support/dialects.ts";
import { spawnServer, type Running } from "../support/process.ts";
import { makeWorldDir } from "../support/world.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

/** Delays between the last accepts and the SIGKILL: before, during and after the commit. */
const KILL_AFTER_MS = [0, 3, 8, 15, 25, 40, 70, 120, 250, 500];
const PAIRS = 10;
/** Coins A offers besides its item (every new character carries the starter kit's 25). */
const COINS = 7;
/**
 * One more cycle kills inside a group commit by construction: half of the pairs confirm first and
 * are reported completed; then the other half confirm at once, and the server holds their batch's
 * transaction open just before its audit rows (test/support/holdTradeCommit.ts: the first insert of
 * two or more audit rows after the first wave's); the kill comes once that hold is announced.
 */
const FIRST_WAVE = PAIRS / 2;
const HOLD_AT = FIRST_WAVE + 1;
const HOOK = path.join(import.meta.dirname, "..", "support", "holdTradeCommit.ts");
const HOLD_CYCLE = { hold: HOLD_AT };
/** TEST_CRASH_HOLD_ONLY=1 runs that cycle alone (scripts/mutation-check.ts: a minute, not five). */
const CYCLES: ({ killAfterMs: number } | { hold: number })[] =
  process.env.TEST_CRASH_HOLD_ONLY === "1" ? [HOLD_CYCLE] : [...KILL_AFTER_MS.map((killAfterMs) => ({ killAfterMs })), HOLD_CYCLE];

type Bag = Record<string, number>;
const bagOf = (rows: { itemId: string; quantity: number }[]): Bag => {
  const out: Bag = {};
  for (const r of rows) out[r.itemId] = (out[r.itemId] ?? 0) + r.quantity;
  return out;
};
const move = (bag: Bag, itemId: string, q: number): Bag => {
  const out = { ...bag, [itemId]: (bag[itemId] ?? 0) + q };
  if (out[itemId] === 0) delete out[itemId];
  return out;
};
const same = (a: Bag, b: Bag) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

forEachDialect("trades survive SIGKILL", (ctx) => {
  it(`keeps every pair wholly before or wholly after its trade across ${CYCLES.length * PAIRS} trades, one kill inside an open group commit`, async function () {
    this.timeout(240_000);
    const world = makeWorldDir();
    const dbUrl = ctx.dialect === "sqlite" ? `sqlite:${path.join(world, "crash.sqlite")}` : ctx.url;
    const env = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      PORT: "0",
      WORLD: world,
      DATABASE_URL: dbUrl,
      JWT_SECRET: "crash-secret-0123456789abcdef",
      TICK_MS: "50",
      DISABLE_RATE_LIMIT: "true",
    };
    const outcomes = { before: 0, after: 0 };
    let server: Running | undefined;
    try {
      for (let cycle = 0; cycle < CYCLES.length; cycle++) {
        const plan = CYCLES[cycle]!;
        const when = "hold" in plan ? `inside the commit of trade #${plan.hold}` : `after ${plan.killAfterMs} ms`;
        server =
          "hold" in plan
            ? await spawnServer({ ...env, TEST_HOLD_TRADE_AUDIT: String(plan.hold) }, undefined, undefined, ["--import", HOOK])
            : await spawnServer(env);
        const url = `ws://127.0.0.1:${server.port}/ws`;
        const clients = await Promise.all(Array.from({ length: PAIRS * 2 }, (_, i) => WsTestClient.connect(`${url}?name=Crash${cycle}x${i}`)));
        const ids = await Promise.all(clients.map(async (c) => String((await c.next("welcome")).characterId)));
        const syncs = await Promise.all(clients.map((c) => c.next("player:sync")));
        const inventories = syncs.map((s) => s.inventory as { slot: number; itemId: string; quantity: number }[]);
        const coins = syncs.map((s) => Number(s.coins));
        assert.ok(
          coins.every((c) => c >= COINS),
          `every character carries ${COINS} coins to offer: ${coins.join(", ")}`,
        );
        const trades = await Promise.all(
          Array.from({ length: PAIRS }, async (_, p) => {
            const [a, b] = [clients[2 * p]!, clients[2 * p + 1]!];
            a.send("tradeRequest", { targetPlayerId: ids[2 * p + 1]! });
            const tradeId = String((await b.next("tradeIncoming")).tradeId);
            b.send("tradeRequestRespond", { tradeId, accept: true });
            await a.next("tradeStarted");
            const giveA = inventories[2 * p]![0]!;
            const giveB = inventories[2 * p + 1]![1]!;
            a.send("tradeAddItem", { tradeId, inventorySlot: giveA.slot, quantity: 1 });
            b.send("tradeAddItem", { tradeId, inventorySlot: giveB.slot, quantity: 1 });
            a.send("tradeSetCoins", { tradeId, amount: COINS });
            await a.next("tradeUpdated");
            await a.next("tradeUpdated");
            assert.equal(((await a.next("tradeUpdated")).myOffer as { coins: number }).coins, COINS);
            a.send("tradeAccept", { tradeId });
            b.send("tradeAccept", { tradeId });
            await a.next("tradeConfirmScreen");
            return { tradeId, a: ids[2 * p]!, b: ids[2 * p + 1]!, giveA, giveB, sockets: [a, b] as const };
          }),
        );
        const confirm = (list: typeof trades) => {
          for (const t of list) for (const s of t.sockets) s.send("tradeAccept", { tradeId: t.tradeId });
        };
        let held: string[] = [];
        let completed: string[] = [];
        if ("hold" in plan) {
          const running = server;
          confirm(trades.slice(0, FIRST_WAVE));
          completed = await Promise.all(trades.slice(0, FIRST_WAVE).map(async (t) => String((await t.sockets[0].next("tradeCompleted", 30_000)).tradeId)));
          confirm(trades.slice(FIRST_WAVE));
          held = await until(
            () => /test-hook: holding trades (\S+) inside their transaction/.exec(running.stdout())?.[1]?.split(","),
            "the hook to hold a commit open",
            30_000,
          ).catch((err: Error) => {
            throw new Error(`${err.message}; the server's last log lines:\n${running.stdout().split("\n").slice(-8).join("\n")}`);
          });
        } else {
          confirm(trades);
          await new Promise((r) => setTimeout(r, plan.killAfterMs));
        }
        server.child.kill("SIGKILL");
        await server.exited;
        for (const c of clients) c.close();

        // Restart on the same database: the server must come back, and the stored state be whole.
        server = await spawnServer(env);
        const db = await openDatabase(loadConfig({ NODE_ENV: "test", WORLD: world, DATABASE_URL: dbUrl }), pino({ level: "silent" }));
        try {
          for (const t of trades) {
            const beforeA = bagOf(inventories[ids.indexOf(t.a)]!);
            const beforeB = bagOf(inventories[ids.indexOf(t.b)]!);
            const afterA = move(move(beforeA, t.giveA.itemId, -1), t.giveB.itemId, 1);
            const afterB = move(move(beforeB, t.giveB.itemId, -1), t.giveA.itemId, 1);
            const storedA = bagOf(await db.em().find(InventorySlot, { characterId: t.a }));
            const storedB = bagOf(await db.em().find(InventorySlot, { characterId: t.b }));
            const [coinsA, coinsB] = [coins[ids.indexOf(t.a)]!, coins[ids.indexOf(t.b)]!];
            const stored = await db
              .em()
              .fork()
              .find(Character, { id: [t.a, t.b] });
            const storedCoinsA = stored.find((c) => c.id === t.a)!.coins;
            const storedCoinsB = stored.find((c) => c.id === t.b)!.coins;
            const audit = await db.em().fork().findOne(TradeAudit, { tradeId: t.tradeId });
            const wasBefore = same(storedA, beforeA) && same(storedB, beforeB) && storedCoinsA === coinsA && storedCoinsB === coinsB;
            const wasAfter = same(storedA, afterA) && same(storedB, afterB) && storedCoinsA === coinsA - COINS && storedCoinsB === coinsB + COINS;
            assert.ok(
              wasBefore || wasAfter,
              `trade ${t.tradeId} (kill ${when}) is half done: ${JSON.stringify({ storedA, storedB, beforeA, beforeB, storedCoinsA, storedCoinsB, coinsA, coinsB })}`,
            );
            assert.equal(audit !== null, wasAfter, `the audit log agrees for ${t.tradeId}`);
            if (audit !== null) assert.deepEqual([Number(audit.coinsAToB), Number(audit.coinsBToA)], [COINS, 0], "the audit row has the coins");
            if (held.includes(t.tradeId)) assert.ok(wasBefore && !wasAfter, "a trade killed inside its batch's open transaction is rolled back whole");
            if (completed.includes(t.tradeId)) assert.ok(wasAfter, "a trade reported completed before the kill stays stored");
            outcomes[wasAfter ? "after" : "before"]++;
          }
        } finally {
          await db.close();
        }
        if ("hold" in plan) {
          assert.ok(
            held.length >= 2 && held.every((id) => trades.some((t) => t.tradeId === id)),
            `the held batch is several of this cycle's trades: ${held.join(", ")}`,
          );
          assert.ok(
            completed.every((id) => !held.includes(id)),
            "the completed trades are not the held ones",
          );
        }
        server.child.kill("SIGTERM");
        assert.equal((await server.exited).code, 0);
        server = undefined;
      }
      assert.equal(outcomes.before + outcomes.after, CYCLES.length * PAIRS);
      assert.ok(outcomes.after > 0, "some trades completed before their kill");
      assert.ok(outcomes.before > 0, "some trades were interrupted by their kill");
      process.stdout.write(`      (${ctx.dialect}: ${outcomes.before} before, ${outcomes.after} after)\n`);
    } finally {
      server?.child.kill("SIGKILL");
      fs.rmSync(world, { recursive: true, force: true });
    }
  });
});
