/**
 * Run energy and `player:setRun` on both transports (one event table): the toggle comes back in
 * `player:sync` as `runMode`, a run drains the `runEnergy` it carries (and, on Colyseus, the
 * owner's private `runEnergy` and `runMode` fields), and a bad payload is refused.
 */
import assert from "node:assert/strict";
import type { MapSchema } from "@colyseus/schema";
import type { PlayerState } from "../../schema/WorldState.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

describe("run energy on both transports", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(async () => {
    await t.close();
  });

  async function syncWhere(client: WorldTestClient | WsTestClient, ok: (s: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const sync = await client.next("player:sync");
      if (ok(sync)) return sync;
    }
  }

  for (const transport of ["colyseus", "ws"] as const) {
    it(`${transport}: the toggle and the energy a run drains reach the owner`, async () => {
      const name = `Runner${transport}`;
      const client = transport === "colyseus" ? await WorldTestClient.join(t.baseUrl, { name }) : await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
      const id = String((await client.next("welcome")).characterId);
      const player = t.server.world.world.players.get(id)!;
      const first = await client.next("player:sync");
      assert.deepEqual([first.runEnergy, first.runMode], [100, false], "a new character: full, walking");
      client.send("player:setRun", { run: true });
      await syncWhere(client, (s) => s.runMode === true);
      assert.equal(player.runMode, true);
      const spawn = t.server.world.world.content.world.spawn;
      client.send("player:move", { x: spawn.x + 12, z: spawn.z });
      const drained = await syncWhere(client, (s) => typeof s.runEnergy === "number" && s.runEnergy < 100);
      assert.ok((drained.runEnergy as number) >= 90, `a few ticks of running: ${String(drained.runEnergy)}`);
      if (client instanceof WorldTestClient) {
        const mine = await client.waitFor(() => {
          const s = (client.room.state as { players?: MapSchema<PlayerState> }).players?.get(id);
          return s !== undefined && s.runEnergy < 100 && s.runMode ? s : undefined;
        }, 5_000, "the owner's runEnergy and runMode fields");
        assert.ok(mine.runEnergy >= 90);
      }
      client.send("player:setRun", { run: "yes" });
      const error = await client.next("error");
      assert.deepEqual([error.code, error.event], ["INVALID_PAYLOAD", "player:setRun"]);
      assert.equal(player.runMode, true, "unchanged");
      if (client instanceof WorldTestClient) await client.room.leave();
      else client.close();
    });
  }
});
