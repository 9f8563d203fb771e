/**
 * Run energy (src/game/world/runEnergy.ts, src/game/running.ts) against OSRS's published rates
 * (OSRS wiki "Energy", oldschool.runescape.wiki/w/Energy): a tick running costs
 * 67 + ⌊67 × clamp(weight, 0, 64) / 64⌋ of 10,000 units (150 ticks from full to empty at 0 kg, 75
 * at 64 kg or more); a tick walking or standing restores ⌊agility / 6⌋ + 8 (at Agility 1 "1 energy
 * every 7.5 seconds", at 50 about "1 energy per 4 seconds"); at 0 the player walks.
 */
import assert from "node:assert/strict";
import { carriedWeight, MAX_RUN_ENERGY, runDrain, runRestore } from "../../src/game/world/runEnergy.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { TICK_MS } from "../../src/game/world/World.ts";
import { XP_FOR_LEVEL } from "../../src/game/skills.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";

/** Ticks until `total` units are spent (or gained) at `perTick` a tick. */
const ticksFor = (total: number, perTick: number) => Math.ceil(total / perTick);
const lastSync = (g: GameHarness, p: Player) => g.events(p, "player:sync").at(-1)!;
const messages = (g: GameHarness, p: Player) => g.events(p, "chat:message").map((m) => m.message as string);

describe("run energy: the genre's rates", () => {
  it("drains 0.67 % a tick running at 0 kg (150 ticks to empty) and 1.34 % at 64 kg or more (75 ticks)", () => {
    assert.equal(runDrain(0), 67);
    assert.equal(runDrain(-41.5), 67, "negative weight counts as 0 kg");
    assert.equal(runDrain(32), 100);
    assert.equal(runDrain(64), 134);
    assert.equal(runDrain(1024.2), 134, "above 64 kg counts as 64 kg");
    assert.equal(ticksFor(MAX_RUN_ENERGY, runDrain(0)), 150);
    assert.equal(ticksFor(MAX_RUN_ENERGY, runDrain(64)), 75);
  });

  it("restores 1 % every 7.5 s at Agility 1 (12.5 minutes from empty), faster with Agility", () => {
    assert.equal(runRestore(1), 8);
    assert.equal((100 / runRestore(1)) * TICK_MS, 7_500, "one percent in 7.5 s");
    assert.equal(ticksFor(MAX_RUN_ENERGY, runRestore(1)) * TICK_MS, 750_000, "12.5 minutes from 0 to 100 %");
    assert.equal(runRestore(50), 16, "at 50: one percent in 3.75 s (the wiki's 'about 4 seconds')");
    assert.equal(runRestore(99), 24);
  });

  it("weighs what is carried and worn, each item's weight times its quantity", async () => {
    const g = await gameWorld();
    const p = g.add({ equipment: { weapon: { itemId: "bronze_sword", quantity: 1 } } }, [
      { itemId: "logs", quantity: 1 },
      { itemId: "copper_ore", quantity: 1 },
      { itemId: "coins", quantity: 500 },
    ]);
    const w = (id: string) => g.world.content.item(id)!.weight ?? 0;
    assert.equal(carriedWeight(g.world.content, p.data), w("bronze_sword") + w("logs") + w("copper_ore") + 500 * w("coins"));
  });
});

describe("run energy in the world", () => {
  it("drains per tick run, then restores while standing; player:sync shows the percentage", async () => {
    const g = await gameWorld();
    const p = g.add({ x: -20, z: 0 });
    g.send(p, "player:move", { x: 0, z: 0, run: true });
    g.tick(10);
    assert.deepEqual([p.x, p.z], [0, 0], "20 tiles in 10 ticks: ran");
    assert.equal(p.data.runEnergy, MAX_RUN_ENERGY - 10 * runDrain(0));
    assert.equal(lastSync(g, p).runEnergy, 93);
    g.tick(5);
    assert.equal(p.data.runEnergy, MAX_RUN_ENERGY - 10 * runDrain(0) + 5 * runRestore(1), "standing restores");
    assert.equal(p.running, false);
  });

  it("drains faster carrying more (20 ores: their weight in the formula)", async () => {
    const g = await gameWorld();
    const ore = Array.from({ length: 20 }, () => ({ itemId: "copper_ore", quantity: 1 }));
    const p = g.add({ x: -20, z: 0 }, ore);
    const kg = carriedWeight(g.world.content, p.data);
    assert.ok(kg >= 20, `${kg} kg`);
    g.send(p, "player:move", { x: 0, z: 0, run: true });
    g.tick(4);
    assert.equal(p.data.runEnergy, MAX_RUN_ENERGY - 4 * runDrain(kg));
    assert.ok(runDrain(kg) > runDrain(0));
  });

  it("restores while walking, faster with a higher Agility level", async () => {
    const g = await gameWorld();
    const p = g.add({ x: -20, z: 0, runEnergy: 5_000 });
    const q = g.add({ x: -20, z: 1, runEnergy: 5_000 });
    q.data.skills.agility = { level: 50, xpTenths: XP_FOR_LEVEL[50]! * 10 };
    g.send(p, "player:move", { x: 0, z: 0 });
    g.tick(10);
    assert.deepEqual([p.x, p.z], [-10, 0], "walked one tile a tick");
    assert.equal(p.data.runEnergy, 5_000 + 10 * runRestore(1));
    assert.equal(q.data.runEnergy, 5_000 + 10 * runRestore(50));
  });

  it("at 0 the runner walks on, its run mode off, and is told", async () => {
    const g = await gameWorld();
    const p = g.add({ x: -20, z: 0, runEnergy: 150 });
    g.send(p, "player:move", { x: 0, z: 0, run: true });
    g.tick(2);
    assert.deepEqual([p.x, p.data.runEnergy], [-16, 16], "two ticks run: 150 − 2 × 67");
    g.tick(1);
    assert.equal(p.data.runEnergy, 0, "the third tick runs on the last units");
    assert.equal(p.x, -14);
    assert.equal(p.running, false);
    assert.ok(messages(g, p).some((m) => /run out of energy/.test(m)));
    g.tick(2);
    assert.equal(p.x, -12, "then walks, one tile a tick");
    assert.equal(p.data.runEnergy, 2 * runRestore(1), "and restores while walking");
    assert.equal(lastSync(g, p).runEnergy, 0);
  });

  it("walks a run asked for below 1 %, saying so", async () => {
    const g = await gameWorld();
    const p = g.add({ x: -20, z: 0, runEnergy: 99 });
    g.send(p, "player:move", { x: 0, z: 0, run: true });
    g.tick(3);
    assert.equal(p.x, -17, "walked");
    assert.ok(messages(g, p).some((m) => /too tired to run/.test(m)));
  });

  it("a full player standing still is not looked at, nor synced", async () => {
    const g = await gameWorld();
    const p = g.add({ x: -20, z: 0 });
    g.tick(1);
    g.clearSent();
    g.tick(20);
    assert.equal(p.data.runEnergy, undefined, "never written");
    assert.equal(g.events(p, "player:sync").length, 0);
  });
});

describe("player:setRun", () => {
  it("makes walks without `run` run, and shows the toggle in player:sync", async () => {
    const g = await gameWorld();
    const p = g.add({ x: -20, z: 0 });
    g.send(p, "player:setRun", { run: true });
    g.send(p, "player:move", { x: 0, z: 0 });
    g.tick(2);
    assert.equal(p.x, -16, "ran two tiles a tick");
    assert.equal(lastSync(g, p).runMode, true);
    g.send(p, "player:move", { x: 0, z: 0, run: false });
    g.tick(1);
    assert.equal(p.x, -15, "an explicit run: false walks");
    g.send(p, "player:setRun", { run: false });
    g.send(p, "player:move", { x: 0, z: 0 });
    g.tick(1);
    assert.equal(p.x, -14);
    assert.equal(lastSync(g, p).runMode, false);
  });

  it("switches a walk under way to running", async () => {
    const g = await gameWorld();
    const p = g.add({ x: -20, z: 0 });
    g.send(p, "player:move", { x: 0, z: 0 });
    g.tick(1);
    g.send(p, "player:setRun", { run: true });
    g.tick(1);
    assert.equal(p.x, -17, "one tile walked, then two run");
  });

  it("refuses the toggle below 1 % (TOO_TIRED), changing nothing", async () => {
    const g = await gameWorld();
    const p = g.add({ x: -20, z: 0, runEnergy: 99 });
    g.send(p, "player:setRun", { run: true });
    g.tick(1);
    assert.deepEqual(
      g.errors(p).map((e) => [e.code, e.event]),
      [["TOO_TIRED", "player:setRun"]],
    );
    assert.match(g.errors(p)[0]!.message, /too tired to run \(0% energy\)/);
    assert.equal(p.runMode, false);
  });

  it("refuses a payload that is not {run: boolean}", async () => {
    const g = await gameWorld();
    for (const data of [{}, { run: "yes" }, { run: 1 }, null]) {
      const v = g.validate("player:setRun", data);
      assert.ok(!v.ok && v.code === "INVALID_PAYLOAD", JSON.stringify(data));
    }
  });
});
