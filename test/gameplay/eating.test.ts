/**
 * Eating and burying, tick by tick: a bite adds 3 ticks to the attack timer (OSRS wiki "Food":
 * eating most food adds 3 ticks to the attack delay), bites are 3 ticks apart (one a tick at the
 * very most), and at most one bone is buried a tick.
 */
import assert from "node:assert/strict";
import { BURY_DELAY_TICKS, EAT_ATTACK_DELAY_TICKS, EAT_DELAY_TICKS } from "../../src/game/items.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";
import { holdStill } from "../support/placing.ts";

const food = (n: number) => Array.from({ length: n }, () => ({ itemId: "shrimp", quantity: 1 }));

/** A rat moved next to (east of) a tile, staying put. */
function ratAt(g: GameHarness, x: number, z: number): NpcInstance {
  const rat = [...g.world.npcs.values()].find((n) => n.def.id === "meadow_rat")!;
  return holdStill(rat, { at: { x, z }, health: 10_000, maxHealth: 10_000 });
}

/** The ticks at which the player's hits land, over `ticks` ticks; `during` runs before each tick. */
function hitTicks(g: GameHarness, p: Player, ticks: number, during: (tick: number) => void = () => {}): number[] {
  const out: number[] = [];
  for (let i = 0; i < ticks; i++) {
    during(g.world.tick + 1);
    const before = g.events(p, "combat:hit").filter((h) => h.attackerId === p.id).length;
    g.tick();
    if (g.events(p, "combat:hit").filter((h) => h.attackerId === p.id).length > before) out.push(g.world.tick);
  }
  return out;
}

describe("eating and burying, tick by tick", () => {
  it("uses the genre's delays: 3 ticks between bites, 3 added to the attack timer", () => {
    assert.equal(EAT_DELAY_TICKS, 3);
    assert.equal(EAT_ATTACK_DELAY_TICKS, 3);
    assert.equal(BURY_DELAY_TICKS, 1);
  });

  it("a bite mid-fight delays the next attack by 3 ticks", async () => {
    const g = await gameWorld();
    const rat = ratAt(g, 6, 0);
    const p = g.add({ x: 5, z: 0, health: 50, equipment: { weapon: { itemId: "bronze_sword", quantity: 1 } } }, food(3));
    g.send(p, "player:action", { action: "attack", targetId: rat.id });
    const plain = hitTicks(g, p, 12);
    assert.ok(plain.length >= 3, JSON.stringify(plain));
    const speed = plain[1]! - plain[0]!;
    assert.equal(plain[2]! - plain[1]!, speed, "a steady attack speed");

    const g2 = await gameWorld();
    const rat2 = ratAt(g2, 6, 0);
    const q = g2.add({ x: 5, z: 0, health: 50, equipment: { weapon: { itemId: "bronze_sword", quantity: 1 } } }, food(3));
    g2.send(q, "player:action", { action: "attack", targetId: rat2.id });
    let ateAt = -1;
    const eaten = hitTicks(g2, q, 16, (tick) => {
      // One bite the tick after the first hit (its input runs before that tick's attack).
      if (ateAt < 0 && g2.events(q, "combat:hit").some((h) => h.attackerId === q.id)) {
        g2.send(q, "inventory:use", { slot: 0 });
        ateAt = tick;
      }
    });
    assert.ok(ateAt > 0);
    assert.equal(eaten[0], plain[0], "the same first hit");
    assert.equal(eaten[1]! - eaten[0]!, speed + EAT_ATTACK_DELAY_TICKS, `the second hit ${EAT_ATTACK_DELAY_TICKS} ticks late`);
    assert.equal(eaten[2]! - eaten[1]!, speed, "then the usual speed");
    assert.equal(q.data.inventory.filter((s) => s?.itemId === "shrimp").length, 2, "one shrimp eaten");
  });

  it("eats at most one food a tick, then one every 3 ticks (TOO_SOON in between)", async () => {
    const g = await gameWorld();
    const p = g.add({ health: 10 }, food(4));
    g.send(p, "inventory:use", { slot: 0 });
    g.send(p, "inventory:use", { slot: 1 });
    g.tick();
    assert.equal(p.data.health, 40, "one shrimp: 3 hitpoints");
    assert.deepEqual(
      g.errors(p).map((e) => [e.code, e.event]),
      [["TOO_SOON", "inventory:use"]],
    );
    assert.ok(p.data.inventory[1] !== null, "the second shrimp is still there");
    g.send(p, "inventory:use", { slot: 1 });
    g.tick();
    assert.equal(p.data.health, 40, "too soon again");
    g.tick(1);
    g.send(p, "inventory:use", { slot: 1 });
    g.tick();
    assert.equal(p.data.health, 70, "three ticks after the first bite");
  });

  it("buries at most one bone a tick: the rest are refused (TOO_SOON) and kept", async () => {
    const g = await gameWorld();
    const bones = Array.from({ length: 5 }, () => ({ itemId: "bones", quantity: 1 }));
    const p = g.add({}, bones);
    for (let slot = 0; slot < 5; slot++) g.send(p, "inventory:use", { slot });
    g.tick();
    assert.equal(p.data.inventory.filter((s) => s?.itemId === "bones").length, 4, "one buried");
    assert.ok(p.data.skills.prayer.xpTenths / 10 > 0, "its prayer xp given");
    // Of the tick's five commands the action cap (5) lets all run: the last four are refused.
    assert.deepEqual(
      g.errors(p).map((e) => e.code),
      ["TOO_SOON", "TOO_SOON", "TOO_SOON", "TOO_SOON"],
    );
    g.send(p, "inventory:use", { slot: 1 });
    g.tick();
    assert.equal(p.data.inventory.filter((s) => s?.itemId === "bones").length, 3, "another the next tick");
  });
});
