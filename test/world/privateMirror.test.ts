/**
 * The schema holds a player's private fields (inventory, skills, equipment, bank, coins) only while
 * its owner is a Colyseus client (rooms/WorldRoom.ts, mirror): only that owner's view can see them,
 * and a `/ws` owner reads none of the schema. A `/ws` player taken over by a Colyseus login gets
 * them before its first state.
 */
import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import type { MapSchema } from "@colyseus/schema";
import { WORLD_ROOM, type WorldRoom } from "../../rooms/WorldRoom.ts";
import type { PlayerState } from "../../schema/WorldState.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

describe("the schema's private fields: only for an owner on Colyseus", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(async () => {
    await t.close();
  });

  const worldRoom = async (): Promise<WorldRoom> => {
    const room = (await matchMaker.query({ name: WORLD_ROOM }))[0]!;
    return matchMaker.getLocalRoomById(room.roomId) as WorldRoom;
  };
  const privateFields = (s: PlayerState) => ({ inventory: s.inventory.length, skills: s.skills.size, coins: s.coins });

  it("mirrors a Colyseus player's, not a /ws player's; a takeover by Colyseus brings them before the first state", async () => {
    const c = await WorldTestClient.join(t.baseUrl, { name: "Colm" });
    const cId = String((await c.next("welcome")).playerId);
    const w = await WsTestClient.connect(`${t.wsUrl}?name=Wren`);
    const welcome = await w.next("welcome");
    const wId = String(welcome.characterId);
    const player = t.server.world.world.players.get(wId)!;
    assert.ok(player.data.inventory.some((s) => s !== null), "the starter kit is in the game's inventory");

    const world = await worldRoom();
    const schemaOf = (id: string) => (world.state.players as MapSchema<PlayerState>).get(id);
    const colm = await until(() => schemaOf(cId), "Colm's schema");
    await until(() => (colm.inventory.length > 0 ? true : undefined), "Colm's inventory mirrored");
    assert.ok(colm.skills.size > 0);
    const wren = await until(() => schemaOf(wId), "Wren's schema");
    // Public fields are there (the Colyseus client sees Wren), private ones are not.
    await until(() => (wren.name === "Wren" ? true : undefined), "Wren's public fields");
    // Ticks pass: still nothing private.
    const tick = t.server.world.world.tick;
    await until(() => (t.server.world.world.tick >= tick + 3 ? true : undefined), "three ticks");
    assert.deepEqual(privateFields(wren), { inventory: 0, skills: 0, coins: 0 });

    // Wren's character logs in on Colyseus: the /ws session is replaced, and the new client's
    // first decoded state already has its inventory.
    const taken = await WorldTestClient.join(t.baseUrl, { token: String(welcome.token), characterId: wId });
    // Checked in the first patch that has its own player (its full state).
    const mine = await taken.waitFor(() => (taken.room.state as { players?: MapSchema<PlayerState> }).players?.get(wId), 5_000, "its own player");
    assert.equal(mine.inventory.length, player.data.inventory.filter((s) => s !== null).length, "its inventory in the first state");
    assert.equal(mine.skills.size, Object.keys(player.data.skills).length);
    assert.ok(schemaOf(wId)!.inventory.length > 0, "mirrored on the server");
    // And it stays current: a later change reaches the new owner.
    const before = mine.inventory.length;
    const slot = player.data.inventory.findIndex((s) => s !== null);
    taken.room.send("player:action", { action: "drop", slot });
    await taken.waitFor(() => ((taken.room.state as { players: MapSchema<PlayerState> }).players.get(wId)!.inventory.length === before - 1 ? true : undefined), 5_000, "the drop in its inventory");
    await taken.room.leave();
    await c.room.leave();
  });
});
