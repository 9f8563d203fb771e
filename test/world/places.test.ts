/**
 * Places on a real server, on both transports (one event table): a player climbs down the old
 * well into the Sunken Cistern and its `player:sync` carries the new position; it opens the iron
 * gate and sees it open (the Colyseus state's entity `open`, a `/ws` `world:update` entry), and
 * another player near the gate sees the same; it climbs back up. A bad payload is refused.
 */
import assert from "node:assert/strict";
import type { MapSchema } from "@colyseus/schema";
import type { EntityState } from "../../schema/WorldState.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

const GATE = "cistern_gate";

describe("places on both transports", function () {
  this.timeout(30_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
    // The cistern's monsters would attack the climbers; these tests are about the places.
    const world = t.server.world.world;
    for (const [id, npc] of world.npcs) if (npc.z >= 130) world.npcs.delete(id);
  });
  after(async () => {
    await t.close();
  });

  type Client = WorldTestClient | WsTestClient;

  /** Waits until the client sees its player at (x, z): the state's player, or a `/ws` `world:update` entry. */
  async function seesSelfAt(client: Client, id: string, x: number, z: number): Promise<void> {
    if (client instanceof WorldTestClient) {
      await client.waitFor(() => {
        const me = client.state().players[id];
        return me?.x === x && me.z === z ? true : undefined;
      }, 10_000, `the player at ${x},${z} in the state`);
      return;
    }
    for (;;) {
      const update = await client.next("world:update", 10_000);
      if ((update.entities as { id: string; x: number; z: number }[]).some((e) => e.id === id && e.x === x && e.z === z)) return;
    }
  }

  /** Waits until the client sees the gate open (or shut). */
  async function seesGate(client: Client, open: boolean): Promise<void> {
    if (client instanceof WorldTestClient) {
      await client.waitFor(() => {
        const s = (client.room.state as { entities?: MapSchema<EntityState> }).entities?.get(GATE);
        return s !== undefined && s.ref === "door" && s.open === open ? true : undefined;
      }, 10_000, `the gate ${open ? "open" : "shut"} in the state`);
      return;
    }
    for (;;) {
      const update = await client.next("world:update", 10_000);
      const entry = (update.entities as { id: string; open?: boolean }[]).find((e) => e.id === GATE);
      if (entry?.open === open) return;
    }
  }

  const join = (transport: "colyseus" | "ws", name: string): Promise<Client> =>
    transport === "colyseus" ? WorldTestClient.join(t.baseUrl, { name }) : WsTestClient.connect(`${t.wsUrl}?name=${name}`);

  for (const transport of ["colyseus", "ws"] as const) {
    it(`${transport}: climbs down, opens the gate for everyone, climbs back up`, async () => {
      const world = t.server.world.world;
      const client = await join(transport, `Climb${transport}`);
      const id = String((await client.next("welcome")).characterId);
      await client.next("player:sync");
      const player = world.players.get(id)!;
      assert.ok(world.teleport(player, { x: 30, z: 50 }));
      client.send("player:action", { action: "interact", targetId: "hollowbrook_well_ladder" });
      await seesSelfAt(client, id, 4, 134);

      // Someone else already in the cistern, on the gate's far side, on the other transport.
      const other = await join(transport === "ws" ? "colyseus" : "ws", `Watch${transport}`);
      const otherId = String((await other.next("welcome")).characterId);
      assert.ok(world.teleport(world.players.get(otherId)!, { x: 23, z: 147 }));
      await seesGate(other, false);

      client.send("player:action", { action: "interact", targetId: GATE });
      await seesGate(client, true);
      await seesGate(other, true);
      assert.equal(world.collision.isWalkable(20, 145), true);

      client.send("player:action", { action: "interact", targetId: 7 });
      const error = await client.next("error");
      assert.deepEqual([error.code, error.event], ["INVALID_PAYLOAD", "player:action"]);

      // Shut it again (the next test starts from the content's state), then back up the ladder.
      client.send("player:action", { action: "interact", targetId: GATE });
      await seesGate(client, false);
      client.send("player:action", { action: "interact", targetId: "cistern_ladder" });
      await seesSelfAt(client, id, 32, 49);
      for (const c of [client, other]) {
        if (c instanceof WorldTestClient) await c.room.leave();
        else c.close();
      }
    });
  }
});
