/**
 * Xp kept in tenths (src/game/progression.ts addXp, skills.ts): a fractional award (copper's 17.5,
 * Constitution's 1⅓ a hitpoint) is kept, not rounded away; `skill:xp` keeps whole xp and gain and
 * adds the exact ones; levels still follow the OSRS table on whole xp.
 */
import assert from "node:assert/strict";
import { playerAttacksNpc } from "../../src/game/combat.ts";
import { addXp } from "../../src/game/progression.ts";
import { exactXp, levelForTenths, wholeXp, xpTenths } from "../../src/game/skills.ts";
import { playerSync } from "../../src/game/world/World.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";

const xpEvents = (g: GameHarness) =>
  g.world
    .drainOutbox()
    .filter((m) => m.type === "skill:xp")
    .map((m) => m.data as Record<string, unknown>);

/** The world's next random numbers: a hit roll, then a damage roll, and so on. */
function rolls(g: GameHarness, ...values: number[]): void {
  (g.world as { random: () => number }).random = () => values.shift() ?? 0.5;
}

function brute(g: GameHarness): NpcInstance {
  return [...g.world.npcs.values()].find((n) => n.def.id === "slag_brute")!;
}

describe("xp in tenths", () => {
  it("converts between tenths and xp: whole xp rounds down, levels follow the table on whole xp", () => {
    assert.equal(wholeXp(175), 17);
    assert.equal(wholeXp(179), 17);
    assert.equal(exactXp(175), 17.5);
    assert.equal(xpTenths(1154), 11540);
    assert.equal(levelForTenths(829), 1, "82.9 xp is still level 1");
    assert.equal(levelForTenths(830), 2, "83 xp is level 2");
  });

  it("keeps copper's 17.5 xp: twice is 35, announced with whole and exact xp", async () => {
    const g = await gameWorld();
    const p = g.add();
    addXp(g.world, p, "mining", 17.5);
    addXp(g.world, p, "mining", 17.5);
    assert.equal(p.data.skills.mining.xpTenths, 350);
    assert.deepEqual(xpEvents(g), [
      { skill: "mining", xp: 17, gained: 17, xpExact: 17.5, gainedExact: 17.5, level: 1, levelUp: false },
      { skill: "mining", xp: 35, gained: 18, xpExact: 35, gainedExact: 17.5, level: 1, levelUp: false },
    ]);
    assert.deepEqual(playerSync(p).skills.mining, { level: 1, xp: 35 }, "player:sync carries whole xp");
  });

  it("levels up when the tenths reach the table's whole xp, not before", async () => {
    const g = await gameWorld();
    const p = g.add();
    addXp(g.world, p, "attack", 82.9);
    assert.equal(p.data.skills.attack.level, 1);
    addXp(g.world, p, "attack", 0.1);
    assert.equal(p.data.skills.attack.level, 2);
    const events = xpEvents(g);
    assert.deepEqual(
      events.map((e) => [e.xp, e.gained, e.xpExact, e.levelUp]),
      [
        [82, 82, 82.9, false],
        [83, 1, 83, true],
      ],
    );
  });

  it("carries a part of a tenth to the next award: 0.05 xp twice is one tenth, announced once", async () => {
    const g = await gameWorld();
    const p = g.add();
    addXp(g.world, p, "fishing", 0.05);
    assert.equal(p.data.skills.fishing.xpTenths, 0);
    assert.deepEqual(xpEvents(g), [], "nothing credited, nothing announced");
    addXp(g.world, p, "fishing", 0.05);
    assert.equal(p.data.skills.fishing.xpTenths, 1);
    assert.deepEqual(xpEvents(g), [{ skill: "fishing", xp: 0, gained: 0, xpExact: 0.1, gainedExact: 0.1, level: 1, levelUp: false }]);
  });

  it("ignores an amount that is not a positive number, changing nothing", async () => {
    const g = await gameWorld();
    const p = g.add();
    for (const amount of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) addXp(g.world, p, "cooking", amount);
    assert.equal(p.data.skills.cooking.xpTenths, 0);
    assert.equal(p.saveDue, false);
    assert.deepEqual(xpEvents(g), []);
    addXp(g.world, p, "cooking", 1.5);
    assert.equal(p.data.skills.cooking.xpTenths, 15, "a bad amount left no remainder behind");
  });

  it("gives a 5-lifepoint melee hit its 0.667 Constitution xp, which adds up: three such hits are exactly 2 xp", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    // Level 1, a bronze sword: a max hit of 1 hitpoint (10 lifepoints); a damage roll of 0.47 is
    // ⌊0.47 × 11⌋ = 5 lifepoints, half a hitpoint: 2 Attack xp and ⅔ Constitution xp (OSRS: 4 and 1⅓ a hitpoint).
    const p = g.add({ x: npc.x + 1, z: npc.z, equipment: { weapon: { itemId: "bronze_sword", quantity: 1 } } });
    const before = p.data.skills.constitution.xpTenths;
    for (let i = 0; i < 3; i++) {
      rolls(g, 0, 0.47);
      const health = npc.health;
      assert.equal(playerAttacksNpc(g.world, p, npc), undefined);
      assert.equal(health - npc.health, 5, "a hit of 5 lifepoints");
    }
    assert.equal(p.data.skills.constitution.xpTenths - before, 20, "3 × ⅔ = 2 Constitution xp, nothing lost");
    assert.equal(p.data.skills.attack.xpTenths, 60, "3 × 2 = 6 Attack xp");
    const constitution = xpEvents(g).filter((e) => e.skill === "constitution");
    assert.deepEqual(
      constitution.map((e) => e.gainedExact),
      [0.6, 0.7, 0.7],
      "each hit credits its whole tenths, the rest carried",
    );
    assert.equal(constitution.at(-1)!.xpExact, 1156);
  });
});
