import assert from "node:assert/strict";
import type { PlayerData } from "../../src/game/world/Player.ts";
import { World } from "../../src/game/world/World.ts";
import { bundledContent } from "../support/content.ts";
import { playerData } from "../support/players.ts";

const INTERVAL = 10;

/** A world saving every INTERVAL ticks, and the ticks at which each player was handed to the saver. */
async function savingWorld() {
  const savedAt = new Map<string, number[]>();
  const world: World = new World({
    content: await bundledContent(),
    handlers: new Map(),
    saveIntervalTicks: INTERVAL,
    onSave: (snapshots: PlayerData[]) => {
      for (const s of snapshots) savedAt.set(s.characterId, [...(savedAt.get(s.characterId) ?? []), world.tick]);
    },
  });
  return { world, savedAt };
}

describe("the persistence phase", () => {
  it("saves each dirty player once per save interval, in its own tick of it, and a player that left not at all", async () => {
    const { world, savedAt } = await savingWorld();
    const players = Array.from({ length: 60 }, () => world.addPlayer(playerData()));
    const leaver = players[7]!;
    for (let t = 0; t < 3 * INTERVAL; t++) {
      for (const p of world.players.values()) p.saveDue = true;
      if (t === INTERVAL) world.removePlayer(leaver.id);
      world.step();
    }
    for (const p of players) {
      const ticks = savedAt.get(p.id) ?? [];
      if (p === leaver) {
        assert.ok(ticks.length === 1 && ticks[0]! <= INTERVAL, `saved only before it left: ${ticks.join()}`);
        continue;
      }
      assert.equal(ticks.length, 3, `${p.id} saved at ${ticks.join()}`);
      assert.deepEqual([ticks[1]! - ticks[0]!, ticks[2]! - ticks[1]!], [INTERVAL, INTERVAL], `${p.id} saved at ${ticks.join()}`);
    }
    // Spread over the interval: not everyone in one tick.
    assert.ok(new Set(players.map((p) => (savedAt.get(p.id) ?? [0])[0]! % INTERVAL)).size > INTERVAL / 2);
  });

  it("saves an urgent player at once and once, and a clean player not at all", async () => {
    const { world, savedAt } = await savingWorld();
    const a = world.addPlayer(playerData());
    const clean = world.addPlayer(playerData());
    world.step();
    a.saveDue = true;
    world.requestSave(a);
    world.step();
    assert.deepEqual(savedAt.get(a.id), [world.tick]);
    for (let t = 0; t < 2 * INTERVAL; t++) world.step();
    assert.deepEqual(savedAt.get(a.id), [world.tick - 2 * INTERVAL], "nothing changed since: not saved again");
    assert.equal(savedAt.get(clean.id), undefined);
  });

  it("finds a tick's due players without walking every player", async () => {
    const { world, savedAt } = await savingWorld();
    for (let i = 0; i < 50; i++) world.addPlayer(playerData()).saveDue = true;
    // Only the persistence phase runs here (the other phases walk the players, rightly).
    const persistence = (world as unknown as { processPersistence(): void }).processPersistence.bind(world);
    const values = world.players.values.bind(world.players);
    let walks = 0;
    world.players.values = () => {
      walks++;
      return values();
    };
    for (let t = 0; t < INTERVAL; t++) {
      world.tick++;
      persistence();
    }
    assert.equal(walks, 0, "the players were walked");
    assert.equal(savedAt.size, 50, "and still every player was saved once in the interval");
  });
});
