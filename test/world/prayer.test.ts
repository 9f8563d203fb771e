/**
 * `prayer:toggle` on both transports (one event table): an allowed prayer comes back in
 * `player:sync` (and, on Colyseus, in the owner's private `prayerPoints` and `activePrayers`
 * fields); one above the Prayer level is a `PRAYER_LEVEL_TOO_LOW` error naming the event and
 * changes nothing; the last point drained switches the prayer off.
 */
import assert from "node:assert/strict";
import type { MapSchema } from "@colyseus/schema";
import type { PlayerState } from "../../schema/WorldState.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

describe("prayer:toggle on both transports", function () {
  this.timeout(30_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(async () => {
    await t.close();
  });

  /** The next `player:sync` that passes `probe` (earlier ones are skipped). */
  async function syncWhere(client: WorldTestClient | WsTestClient, probe: (s: Record<string, unknown>) => boolean, timeoutMs = 5_000): Promise<Record<string, unknown>> {
    for (;;) {
      const sync = await client.next("player:sync", timeoutMs);
      if (probe(sync)) return sync;
    }
  }

  for (const transport of ["colyseus", "ws"] as const) {
    it(`${transport}: prays, refuses a prayer above the level, runs out of points`, async () => {
      const name = `Pray${transport}`;
      const client = transport === "colyseus" ? await WorldTestClient.join(t.baseUrl, { name }) : await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
      const id = String((await client.next("welcome")).characterId);
      const player = t.server.world.world.players.get(id)!;
      const first = await client.next("player:sync");
      assert.deepEqual([first.prayerPoints, first.activePrayers], [1, []], "a new character: Prayer 1, one point, nothing on");
      client.send("prayer:toggle", { prayerId: "hearthward", active: true });
      await syncWhere(client, (s) => JSON.stringify(s.activePrayers) === '["hearthward"]');
      if (client instanceof WorldTestClient) {
        const mine = await client.waitFor(() => {
          const s = (client.room.state as { players?: MapSchema<PlayerState> }).players?.get(id);
          return s !== undefined && s.activePrayers.length === 1 ? s : undefined;
        }, 5_000, "the owner's activePrayers field");
        assert.deepEqual([mine.prayerPoints, [...mine.activePrayers]], [1, ["hearthward"]]);
      }
      client.send("prayer:toggle", { prayerId: "stoneward", active: true });
      const error = await client.next("error");
      assert.deepEqual([error.code, error.event], ["PRAYER_LEVEL_TOO_LOW", "prayer:toggle"]);
      assert.deepEqual(player.activePrayers, ["hearthward"], "unchanged");
      client.send("prayer:toggle", { prayerId: "hearthward", active: "yes" });
      assert.equal((await client.next("error")).code, "INVALID_PAYLOAD");
      // Hearthward drains its one point in 60 ticks (3 s at 50 ms a tick), then switches off.
      const out = await syncWhere(client, (s) => s.prayerPoints === 0, 10_000);
      assert.deepEqual(out.activePrayers, []);
      if (client instanceof WorldTestClient) await client.room.leave();
      else client.close();
    });
  }

  it("colyseus: a logout switches prayers off and saves the points; the next login has them", async () => {
    const first = await WorldTestClient.join(t.baseUrl, { name: "PrayLogout" });
    const welcome = await first.next("welcome");
    const id = String(welcome.characterId);
    const world = t.server.world.world;
    const player = world.players.get(id)!;
    await first.next("player:sync");
    // Prayer 10 with 7 points (set between two ticks), then Stoneward on.
    player.data.skills.prayer = { level: 10, xpTenths: 11_540 };
    player.data.prayerPoints = 7;
    first.send("prayer:toggle", { prayerId: "stoneward", active: true });
    for (;;) if (JSON.stringify((await first.next("player:sync")).activePrayers) === '["stoneward"]') break;
    await first.room.leave();
    // A consented leave is a logout: the player leaves the world, saved.
    await until(() => (world.players.has(id) ? undefined : true), "the player out of the world", 10_000);
    const saved = player.data.prayerPoints;
    assert.ok(saved >= 1 && saved <= 7, `points at logout: ${saved}`);
    const again = await WorldTestClient.join(t.baseUrl, { token: String(welcome.token), characterId: id });
    await again.next("welcome");
    const sync = await again.next("player:sync");
    assert.deepEqual([sync.prayerPoints, sync.activePrayers], [saved, []], "the saved points, nothing on");
    assert.deepEqual(world.players.get(id)!.activePrayers, []);
    await again.room.leave();
  });
});
