/**
 * A hop between two real server processes (worlds 1 and 2 on one Redis and one PostgreSQL
 * database, as cluster.test.ts starts them) carries the combat state a player of the genre expects
 * to keep: prayer points (spent in world 1, the same number in world 2), run energy (drained by a
 * run in world 1, at most a few ticks' restore more in world 2) and the autocast spell (kept with
 * the staff); the active prayers switch off, as at any logout (Old School RuneScape turns prayers
 * off when you log out or hop).
 */
import assert from "node:assert/strict";
import type { Database } from "../../src/db/orm.ts";
import { startHopWorlds, type HopWorlds } from "../support/hopWorlds.ts";
import { runStatement } from "../../src/db/rawSql.ts";
import { XP_FOR_LEVEL } from "../../src/game/skills.ts";
import type { WsTestClient } from "../support/wsClient.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOP_COOLDOWN_S = 2;
const TICK_MS = 50;

describe("a hop between two processes carries prayer points, run energy and autocast (Redis, PostgreSQL)", function () {
  this.timeout(120_000);
  let worlds: HopWorlds | undefined;
  let db: Database | undefined;

  before(async function () {
    if (!process.env.TEST_PG_URL || !process.env.TEST_REDIS_URL) this.skip();
    worlds = await startHopWorlds("hop-state", { tickMs: TICK_MS, hopCooldownS: HOP_COOLDOWN_S });
    db = worlds.db;
  });

  after(async () => {
    await worlds?.close();
  });

  const post = (path: string, token?: string, body?: object) => worlds!.post(path, token, body);
  const login = (world: number, query: string) => worlds!.login(world, query);

  /** The player:syncs of a client until one satisfies `ok` (the last one returned). */
  async function syncUntil(client: WsTestClient, ok: (s: Json) => boolean, what: string, timeoutMs = 20_000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await client.next("player:sync", Math.max(1, deadline - Date.now())).catch((err: Error) => {
        throw new Error(`${what}: ${err.message}`);
      });
      if (ok(s)) return s;
    }
  }

  it("prayer points and run energy as world 1 left them, the autocast spell kept, the prayers off", async () => {
    // A character with Prayer 10 and 7 points, 40 % run energy and a staff of air wielded, written
    // before its first login (no process holds it yet).
    const { token } = await post("/api/auth/anonymous");
    const created = await post("/api/v1/player", String(token), { name: "Devotee" });
    const characterId = String(created.player.characterId);
    await runStatement(
      db!.statements,
      `update "characters" set "prayerLevel" = 10, "prayerXpTenths" = ?, "prayerPoints" = 7, "runEnergy" = 4000 where "id" = ?`,
      [XP_FOR_LEVEL[10]! * 10, characterId],
    );
    await runStatement(db!.statements, `delete from "equipment" where "characterId" = ? and "slotType" = 'weapon'`, [characterId]);
    await runStatement(db!.statements, `insert into "equipment" ("characterId", "slotType", "itemId", "quantity") values (?, 'weapon', 'staff_of_air', 1)`, [
      characterId,
    ]);

    const first = await login(1, `token=${token}&characterId=${characterId}`);
    assert.ok(first.sync, JSON.stringify(first.refused));
    const synced = first.sync;
    assert.deepEqual(
      [synced.prayerPoints, synced.runEnergy, synced.autocast, synced.equipment.weapon?.itemId],
      [7, 40, null, "staff_of_air"],
      "world 1 loaded the stored state",
    );

    // In world 1: Hearthward on, Wind Strike autocast, and a run of a few tiles.
    first.client.send("prayer:toggle", { prayerId: "hearthward", active: true });
    first.client.send("player:setAutocast", { spellId: "wind_strike" });
    const at = synced.position as Json;
    first.client.send("player:move", { x: Number(at.x) + 6, z: Number(at.z), run: true });
    await syncUntil(
      first.client,
      (s) => s.activePrayers.includes("hearthward") && s.autocast === "wind_strike" && s.runEnergy < 40,
      "praying, autocasting, and run energy spent",
    );
    // Hearthward costs a point every 60 ticks (3 s here): wait for one to go.
    const drained = await syncUntil(first.client, (s) => s.prayerPoints < 7, "a prayer point drained");

    // The hop (after the cooldown): world 1's copy ends, world 2 loads what it saved.
    let hop = await login(2, `token=${token}&characterId=${characterId}`);
    if (hop.refused?.code === "HOP_COOLDOWN") {
      await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(String(hop.refused!.until)) - Date.now()) + 100));
      hop = await login(2, `token=${token}&characterId=${characterId}`);
    }
    assert.ok(hop.sync, JSON.stringify(hop.refused));
    await first.client.waitClosed(10_000);
    // The last state world 1 told its player (it syncs every change of points and energy).
    const last = first.client.events.filter((e) => e.type === "player:sync").at(-1)?.data ?? drained;
    assert.ok(last.prayerPoints < 7 && last.activePrayers.includes("hearthward"), JSON.stringify(last));

    const after = hop.sync;
    assert.equal(after.prayerPoints, last.prayerPoints, "the prayer points world 1 left");
    assert.deepEqual(after.activePrayers, [], "prayers switch off at a hop, as at any logout");
    assert.equal(after.autocast, "wind_strike", "the autocast spell stays with the staff");
    assert.equal(after.equipment.weapon?.itemId, "staff_of_air");
    // Energy restores while standing (0.08 % a tick; full, 100, is what a lost value would read):
    // world 2's first sync comes within a few ticks of the load.
    assert.ok(
      after.runEnergy >= last.runEnergy && after.runEnergy <= last.runEnergy + 1 && last.runEnergy < 100,
      `run energy ${after.runEnergy}, world 1 left ${last.runEnergy}`,
    );
    hop.client.socket.close(1000);
  });
});
