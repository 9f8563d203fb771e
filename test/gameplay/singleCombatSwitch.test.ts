/**
 * Single-way combat (src/game/singleCombat.ts) when a player turns from one monster to another:
 * "I'm already under attack." (`UNDER_ATTACK`) only while another monster is attacking the player,
 * as the genre has it: it hit the player in the last SINGLE_COMBAT_TICKS and is still after it. The
 * player's own hits on a monster that does not hit back (not yet, or not at all: it cannot reach,
 * a safespot) make no attacker of it, and an attacker that died is none either. docs/playtest.md
 * session 30: a player at 75 / 100 was refused its first attack on a cow.
 */
import assert from "node:assert/strict";
import { SINGLE_COMBAT_TICKS } from "../../src/game/singleCombat.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";
import { holdStill } from "../support/placing.ts";

/** Never again (a tick far ahead): the monster is after the player but does not swing. */
const NEVER = 1_000_000;

/**
 * A player at 75 / 100 with a meadow rat on its east and a cow on its west, both held still, many
 * hits each; the rat fights back (its attack held off when `swings` is false), the cow does not.
 */
function stage(g: GameHarness, swings = true): { p: Player; rat: NpcInstance; cow: NpcInstance } {
  const walk = (x: number, z: number) => g.world.collision.isWalkable(x, z);
  const rat = [...g.world.npcs.values()].find((n) => n.def.id === "meadow_rat" && walk(n.x - 1, n.z) && walk(n.x - 2, n.z))!;
  assert.ok(rat !== undefined, "a rat with two free tiles west of it");
  holdStill(rat, { health: 10_000, maxHealth: 10_000, combat: { retaliates: true, aggressive: false } });
  if (!swings) rat.nextAttackTick = NEVER;
  const cow = [...g.world.npcs.values()].find((n) => n.def.id === "brindle_cow")!;
  holdStill(cow, { at: { x: rat.x - 2, z: rat.z }, health: 10_000, maxHealth: 10_000, combat: { retaliates: false, aggressive: false } });
  const p = g.add({ x: rat.x - 1, z: rat.z, health: 75 });
  return { p, rat, cow };
}

const hitsOn = (g: GameHarness, p: Player, by: string, on: string) => g.events(p, "combat:hit").filter((h) => h.attackerId === by && h.targetId === on).length;

/** Ticks until `by` has hit `on` (a miss counts) `n` times in all, as `p` is told. */
function untilHits(g: GameHarness, p: Player, by: string, on: string, n = 1): void {
  for (let i = 0; i < 40; i++) {
    if (hitsOn(g, p, by, on) >= n) return;
    g.tick();
  }
  assert.fail(`${by} never hit ${on} ${n} times`);
}

describe("single-way combat: turning to another monster", () => {
  it("lets a player that hit a monster, which never hit back, attack another at once", async () => {
    const g = await gameWorld(21);
    const { p, rat, cow } = stage(g, false);
    g.send(p, "player:action", { action: "attack", targetId: rat.id });
    untilHits(g, p, p.id, rat.id);
    assert.equal(rat.targetId, p.id, "the rat is after the player");
    // At once, well within SINGLE_COMBAT_TICKS of the player's hit: the cow.
    g.send(p, "player:action", { action: "attack", targetId: cow.id });
    g.tick();
    assert.deepEqual(g.errors(p), [], "not under attack: the rat never hit");
    untilHits(g, p, p.id, cow.id);
    assert.equal(hitsOn(g, p, rat.id, p.id), 0);
  });

  it("refuses while a monster that hit the player is after it, and lets it SINGLE_COMBAT_TICKS after that monster's last hit though it still is", async () => {
    const g = await gameWorld(22);
    const { p, rat, cow } = stage(g);
    g.send(p, "player:action", { action: "attack", targetId: rat.id });
    untilHits(g, p, rat.id, p.id);
    // The rat's last hit; it stays after the player without swinging again (it cannot reach, say).
    rat.nextAttackTick = NEVER;
    const hitAt = g.world.tick;
    const before = hitsOn(g, p, p.id, rat.id);
    g.send(p, "player:action", { action: "attack", targetId: cow.id });
    g.tick();
    assert.deepEqual(
      g.errors(p).map((e) => [e.code, e.message]),
      [["UNDER_ATTACK", "I'm already under attack."]],
    );
    // The player fights the rat on (its own hits), the rat swinging no more.
    g.send(p, "player:action", { action: "attack", targetId: rat.id });
    while (g.world.tick < hitAt + SINGLE_COMBAT_TICKS - 2) g.tick();
    g.send(p, "player:action", { action: "attack", targetId: cow.id });
    g.tick();
    assert.equal(g.errors(p).at(-1)?.code, "UNDER_ATTACK", "refused near the rat's timer's end");
    assert.equal(g.errors(p).length, 2);
    g.send(p, "player:action", { action: "attack", targetId: rat.id });
    while (g.world.tick < hitAt + SINGLE_COMBAT_TICKS + 1) g.tick();
    assert.ok(hitsOn(g, p, p.id, rat.id) > before, "the player hit the rat meanwhile");
    assert.equal(rat.targetId, p.id, "the rat still after the player");
    g.send(p, "player:action", { action: "attack", targetId: cow.id });
    untilHits(g, p, p.id, cow.id);
    assert.equal(g.errors(p).length, 2, "the cow, once the rat had not hit for SINGLE_COMBAT_TICKS");
  });

  it("lets a player whose attacker died attack another at once", async () => {
    const g = await gameWorld(23);
    const { p, rat, cow } = stage(g);
    g.send(p, "player:action", { action: "attack", targetId: rat.id });
    untilHits(g, p, rat.id, p.id);
    rat.health = 1;
    for (let i = 0; i < 40 && rat.deadUntil === 0; i++) g.tick();
    assert.ok(rat.deadUntil > 0, "the rat died");
    g.send(p, "player:action", { action: "attack", targetId: cow.id });
    untilHits(g, p, p.id, cow.id);
    assert.deepEqual(g.errors(p), []);
  });
});
