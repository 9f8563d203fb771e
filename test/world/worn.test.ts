/**
 * Other players' worn gear (src/game/worn.ts) on both transports: a player who wields a weapon is
 * seen wielding it by a Colyseus client (the public `PlayerState.worn`, JSON text) and by a `/ws`
 * client (`worn` on its `world:update` entity), and a walk afterwards carries no gear again.
 */
import assert from "node:assert/strict";
import type { MapSchema } from "@colyseus/schema";
import type { PlayerState } from "../../schema/WorldState.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { parseWorn } from "../../src/game/worn.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

type Entity = { id: string; kind: string; worn?: Record<string, string> };

describe("worn gear: what other players see on both transports", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(async () => {
    await t.close();
  });

  /** The inventory slot of the first item of `player` worn in `where`. */
  const slotFor = (player: Player, where: string): number => {
    const content = t.server.world.world.content;
    const slot = player.data.inventory.findIndex((s) => s !== null && content.item(s.itemId)?.equipSlot === where);
    assert.ok(slot >= 0, `${player.data.name} carries something worn in ${where}`);
    return slot;
  };
  /** The `/ws` entities of `id` in the updates received so far (taken off the queue). */
  const wsEntries = (w: WsTestClient, id: string): Entity[] => {
    const out: Entity[] = [];
    for (const e of w.events.splice(0)) if (e.type === "world:update") for (const x of e.data.entities as Entity[]) if (x.id === id) out.push(x);
    return out;
  };

  it("shows a Colyseus player's weapon to a /ws viewer, and a /ws player's to a Colyseus viewer", async () => {
    const c = await WorldTestClient.join(t.baseUrl, { name: "Gwen" });
    const gwenId = String((await c.next("welcome")).playerId);
    const w = await WsTestClient.connect(`${t.wsUrl}?name=Wade`);
    const wadeId = String((await w.next("welcome")).characterId);
    const world = t.server.world.world;
    const gwen = world.players.get(gwenId)!;
    const wade = world.players.get(wadeId)!;

    // Each sees the other, in no gear yet (a starter carries its tools, wears nothing).
    const first = await until(() => wsEntries(w, gwenId).find((e) => e.kind === "player"), "Gwen in Wade's view");
    assert.equal(first.worn, undefined, "nothing worn: no `worn` in the entity");
    const wadeSeen = () => (c.room.state as { players: MapSchema<PlayerState> }).players.get(wadeId);
    await c.waitFor(() => (wadeSeen()?.name === "Wade" ? true : undefined), 5_000, "Wade in Gwen's state");
    assert.equal(wadeSeen()!.worn, "");

    // Gwen (Colyseus) wields: Wade's next update of her carries it.
    const gwenSlot = slotFor(gwen, "weapon");
    const gwenWeapon = gwen.data.inventory[gwenSlot]!.itemId;
    c.send("inventory:use", { slot: gwenSlot });
    const seen = await until(() => wsEntries(w, gwenId).find((e) => e.worn !== undefined), "Gwen's weapon in Wade's view");
    assert.deepEqual(seen.worn, { weapon: gwenWeapon });

    // Wade (/ws) wields: Gwen's decoded state has it, as JSON text of the same object.
    const wadeSlot = slotFor(wade, "weapon");
    const wadeWeapon = wade.data.inventory[wadeSlot]!.itemId;
    w.send("inventory:use", { slot: wadeSlot });
    const text = await c.waitFor(() => (wadeSeen()!.worn !== "" ? wadeSeen()!.worn : undefined), 5_000, "Wade's weapon in Gwen's state");
    assert.deepEqual(parseWorn(text), { weapon: wadeWeapon });
    assert.deepEqual(JSON.parse(text), { weapon: wadeWeapon });

    // Gwen walks: the updates that follow move her, and say nothing of her gear again.
    w.events.length = 0;
    c.send("player:move", { x: gwen.x + 2, z: gwen.z });
    await until(() => (gwen.path.length === 0 && gwen.moveTarget === undefined && gwen.walkVersion > 0 ? true : undefined), "Gwen's walk done");
    const tick = world.tick;
    await until(() => (world.tick >= tick + 3 ? true : undefined), "three ticks");
    const after = wsEntries(w, gwenId);
    assert.ok(after.length > 0, "her moves reached Wade");
    assert.ok(after.every((e) => e.worn === undefined), `no gear with her moves: ${JSON.stringify(after)}`);

    // She takes it off: Wade sees her in nothing again (a whole entry without `worn`).
    c.send("equipment:remove", { slot: "weapon" });
    await until(() => (gwen.data.equipment.weapon === undefined ? true : undefined), "Gwen's weapon off");
    const bare = await until(() => wsEntries(w, gwenId).find((e) => "name" in e), "Gwen's whole entry again");
    assert.equal(bare.worn, undefined);
    w.close();
    await c.room.leave();
  });
});
