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
    const schemaOf = (id: string) => (world.state.players).get(id);
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

  it("keeps an owner's decoded inventory, bank, equipment and coins equal to the game's through random changes, changing only what differs", async () => {
    const c = await WorldTestClient.join(t.baseUrl, { name: "Mira" });
    const id = String((await c.next("welcome")).playerId);
    const player = t.server.world.world.players.get(id)!;
    const world = await worldRoom();
    const schema = await until(() => (world.state.players).get(id), "Mira's schema");
    const items = [...t.server.world.world.content.items.keys()].filter((i) => i !== "coins");
    const stacks = (list: Iterable<{ slot: number; itemId: string; quantity: number }>) => [...list].map((e) => `${e.slot}:${e.itemId}x${e.quantity}`);
    const want = () => ({
      inventory: player.data.inventory.flatMap((s, slot) => (s === null ? [] : [`${slot}:${s.itemId}x${s.quantity}`])),
      bank: player.data.bank.map((s, slot) => `${slot}:${s.itemId}x${s.quantity}`),
      equipment: Object.entries(player.data.equipment)
        .map(([slot, s]) => `${slot}:${s.itemId}x${s.quantity}`)
        .sort(),
      coins: player.data.coins,
    });
    const decoded = () => {
      const me = (c.room.state as { players: MapSchema<PlayerState> }).players.get(id);
      if (me === undefined) return undefined;
      return {
        inventory: stacks(me.inventory),
        bank: stacks(me.bank),
        equipment: [...me.equipment.entries()].map(([slot, s]) => `${slot}:${s.itemId}x${s.quantity}`).sort(),
        coins: me.coins,
      };
    };
    const synced = async (what: string) => {
      // Mirrored in the tick that publishes the change (World.publish bumps privateVersion).
      const version = player.privateVersion;
      player.syncDue = true;
      await until(() => (player.privateVersion > version ? true : undefined), `the sync after ${what}`);
      const expected = want();
      await c.waitFor(() => (JSON.stringify(decoded()) === JSON.stringify(expected) ? true : undefined), 5_000, `the owner's copy after ${what}`);
      assert.deepEqual(decoded(), expected);
    };

    // A bank of 60 stacks: the changes below must not remake it.
    player.data.bank = Array.from({ length: 60 }, (_, k) => ({ itemId: items[k % items.length]!, quantity: k + 1 }));
    await synced("a bank of 60");
    const bankEntries = () => Array.from({ length: schema.bank.length }, (_, k) => schema.bank.at(k));
    const firstBank = bankEntries();

    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const slots = ["weapon", "shield", "head", "body"];
    for (let step = 0; step < 30; step++) {
      const d = player.data;
      const kind = step === 0 ? 0 : rand(5);
      if (kind === 0) {
        // One inventory slot set or emptied (a cut log, an item dropped from the middle).
        const slot = rand(28);
        d.inventory[slot] = rand(3) === 0 ? null : { itemId: items[rand(items.length)]!, quantity: 1 + rand(5) };
        if (step === 0) {
          d.inventory[slot] = { itemId: items[0]!, quantity: (d.inventory[slot]?.quantity ?? 0) + 1 };
          await synced("one inventory slot");
          const after = bankEntries();
          assert.equal(after.length, firstBank.length);
          assert.ok(
            after.every((e, k) => e === firstBank[k]),
            "the bank's entries are the same objects: an inventory change leaves the bank alone",
          );
          continue;
        }
      } else if (kind === 1) d.bank.splice(rand(d.bank.length + 1), rand(2), ...(rand(2) === 0 ? [{ itemId: items[rand(items.length)]!, quantity: 1 + rand(9) }] : []));
      else if (kind === 2) {
        const slot = slots[rand(slots.length)]!;
        if (slot in d.equipment && rand(2) === 0) delete d.equipment[slot];
        else d.equipment[slot] = { itemId: items[rand(items.length)]!, quantity: 1 };
      } else if (kind === 3) d.coins = rand(10_000);
      else if (step === 20) d.bank = [];
      else d.inventory = d.inventory.map((s) => (s === null || rand(2) === 0 ? s : { ...s, quantity: s.quantity + 1 }));
      await synced(`step ${step} (kind ${kind})`);
    }
    await c.room.leave();
  });
});
