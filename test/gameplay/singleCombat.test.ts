/**
 * Single-way combat (src/game/singleCombat.ts, OSRS wiki "Single-way combat"): a monster another
 * player fights is refused to everyone else ("Someone else is fighting that.", `IN_COMBAT`), melee,
 * ranged and magic alike, changing nothing; the fight lasts SINGLE_COMBAT_TICKS after the last hit,
 * and ends at once with the monster's death or the fighter's; an aggressive monster leaves a player
 * fighting another alone; a content area flagged `multiCombat` lets everyone fight.
 */
import assert from "node:assert/strict";
import { killPlayer } from "../../src/game/death.ts";
import { SINGLE_COMBAT_TICKS } from "../../src/game/singleCombat.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { count, gameWorld, type GameHarness } from "../support/game.ts";
import { holdStill } from "../support/placing.ts";

/** A meadow rat held still that takes many hits and, unless asked, does not fight back (its own hits would keep the fight alive). */
function rat(g: GameHarness, retaliates = false): NpcInstance {
  const r = [...g.world.npcs.values()].find((n) => n.def.id === "meadow_rat")!;
  return holdStill(r, { health: 10_000, maxHealth: 10_000, combat: { retaliates, aggressive: false } });
}

/** Walkable orthogonal neighbours of the NPC (melee attackers stand there). */
function sidesOf(g: GameHarness, npc: NpcInstance): { x: number; z: number }[] {
  const out = [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ]
    .map(([dx, dz]) => ({ x: npc.x + dx!, z: npc.z + dz! }))
    .filter((t) => g.world.collision.isWalkable(t.x, t.z));
  assert.ok(out.length >= 2, "two sides to fight from");
  return out;
}

/** Ticks until the player has hit the NPC (a miss counts). */
function untilHit(g: GameHarness, p: Player, npc: NpcInstance): void {
  for (let i = 0; i < 20; i++) {
    if (g.events(p, "combat:hit").some((h) => h.attackerId === p.id && h.targetId === npc.id)) return;
    g.tick();
  }
  assert.fail(`${p.id} never hit ${npc.id}`);
}

const hitsBy = (g: GameHarness, p: Player, npc: NpcInstance) => g.events(p, "combat:hit").filter((h) => h.attackerId === p.id && h.targetId === npc.id).length;

describe("single-way combat", () => {
  it("refuses a second player's attack on a monster another fights, changing nothing", async () => {
    const g = await gameWorld(3);
    const r = rat(g, true);
    const [a, b] = sidesOf(g, r);
    const first = g.add(a);
    const second = g.add(b);
    g.send(first, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, first, r);
    assert.equal(r.targetId, first.id, "the rat fights back at the first");
    const before = { health: r.health, damage: [...r.damageBy.keys()], target: r.targetId };
    g.send(second, "player:action", { action: "attack", targetId: r.id });
    g.tick();
    const refusal = g.errors(second).at(-1);
    assert.deepEqual([refusal?.code, refusal?.message, refusal?.event], ["IN_COMBAT", "Someone else is fighting that.", "player:action"]);
    assert.equal(second.action, undefined, "no attack under way");
    g.tick(6);
    assert.equal(hitsBy(g, second, r), 0, "never hit");
    assert.ok(!r.damageBy.has(second.id));
    assert.deepEqual(before.damage, [first.id]);
    assert.equal(r.targetId, before.target, "the rat still fights the first");
    assert.ok(hitsBy(g, first, r) >= 2, "the first fights on");
  });

  it("lets only the first to hit fight when two set out at once", async () => {
    const g = await gameWorld(4);
    const r = rat(g);
    const [a, b] = sidesOf(g, r);
    const one = g.add(a);
    const two = g.add(b);
    g.send(one, "player:action", { action: "attack", targetId: r.id });
    g.send(two, "player:action", { action: "attack", targetId: r.id });
    g.tick(12);
    // Both set out (the rat was free then); the first hit of the tick is one's, two's is refused.
    const fighters = [one, two].filter((p) => hitsBy(g, p, r) > 0);
    assert.equal(fighters.length, 1, "one fights");
    const other = fighters[0] === one ? two : one;
    assert.deepEqual(
      g.errors(other).map((e) => e.code),
      ["IN_COMBAT"],
    );
    assert.equal(other.action, undefined);
  });

  it("lets anyone attack once the fight's timer has lapsed", async () => {
    const g = await gameWorld(5);
    const r = rat(g);
    const [a, b] = sidesOf(g, r);
    const first = g.add(a);
    const second = g.add(b);
    g.send(first, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, first, r);
    g.send(first, "player:action", { action: "stop" });
    g.tick();
    const until = r.foe!.until;
    assert.ok(until >= g.world.tick + SINGLE_COMBAT_TICKS - 2, "the fight lasts SINGLE_COMBAT_TICKS after the last hit");
    // Still fighting until the timer runs out: refused near its end.
    while (g.world.tick < until - 2) g.tick();
    g.send(second, "player:action", { action: "attack", targetId: r.id });
    g.tick();
    assert.equal(g.errors(second).at(-1)?.code, "IN_COMBAT", "refused near the timer's end");
    while (g.world.tick < until) g.tick();
    g.send(second, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, second, r);
    assert.equal(g.errors(second).length, 1, "accepted once it lapsed");
    assert.equal(r.foe?.id, second.id);
    // Now the first is the one refused.
    g.send(first, "player:action", { action: "attack", targetId: r.id });
    g.tick();
    assert.equal(g.errors(first).at(-1)?.code, "IN_COMBAT");
  });

  it("a fighting monster that fights back turns on the next attacker once its fight lapsed", async () => {
    const g = await gameWorld(6);
    const r = rat(g, true);
    const [a, b] = sidesOf(g, r);
    const first = g.add(a);
    const second = g.add(b);
    g.send(first, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, first, r);
    // The first leaves the world: the fight is over at once, and the rat takes on the second.
    g.world.removePlayer(first.id);
    g.send(second, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, second, r);
    assert.deepEqual(g.errors(second), []);
    assert.equal(r.targetId, second.id);
  });

  it("lets anyone attack after the monster's death, and after the fighter's", async () => {
    const g = await gameWorld(7);
    const r = rat(g);
    const [a, b] = sidesOf(g, r);
    const first = g.add(a);
    const second = g.add(b);
    g.send(first, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, first, r);
    g.send(first, "player:action", { action: "stop" });
    // The fighter dies: the rat is free at once.
    killPlayer(g.world, first, r.def.id);
    g.send(second, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, second, r);
    assert.deepEqual(g.errors(second), []);
    // The second kills it; after its respawn the first, back, may attack it at once.
    r.health = 1;
    for (let i = 0; i < 60 && r.deadUntil === 0; i++) g.tick();
    assert.ok(r.deadUntil > 0, "the rat died");
    assert.equal(r.foe, undefined, "its fight ended with it");
    assert.equal(second.foe, undefined, "and the player's with it");
    for (let i = 0; i < 100 && r.deadUntil !== 0; i++) g.tick();
    assert.equal(r.deadUntil, 0, "respawned");
    const back = g.add({ ...sidesOf(g, r)[0]!, name: "Back" });
    g.send(back, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, back, r);
    assert.deepEqual(g.errors(back), []);
  });

  it("refuses ranged and magic alike, no arrow or rune used", async () => {
    const g = await gameWorld(8);
    const r = rat(g);
    const [a] = sidesOf(g, r);
    const first = g.add(a);
    g.send(first, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, first, r);
    const near = { x: r.x + (a!.x === r.x + 3 ? -3 : 3), z: r.z };
    const spot = g.world.collision.isWalkable(near.x, near.z) ? near : { x: r.x, z: r.z + 2 };
    const archer = g.add({ ...spot, equipment: { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 5 } } });
    const mage = g.add({ ...spot }, [
      { itemId: "air_rune", quantity: 5 },
      { itemId: "mind_rune", quantity: 5 },
    ]);
    const autocaster = g.add({ ...spot, autocast: "wind_strike", equipment: { weapon: { itemId: "staff_of_air", quantity: 1 } } }, [
      { itemId: "mind_rune", quantity: 5 },
    ]);
    g.send(archer, "player:action", { action: "attack", targetId: r.id });
    g.send(mage, "player:action", { action: "cast", spellId: "wind_strike", targetId: r.id });
    g.send(autocaster, "player:action", { action: "attack", targetId: r.id });
    g.tick(4);
    for (const p of [archer, mage, autocaster]) {
      assert.deepEqual(
        g.errors(p).map((e) => e.code),
        ["IN_COMBAT"],
        p.id,
      );
      assert.equal(hitsBy(g, p, r), 0);
      assert.equal(p.action, undefined);
    }
    assert.equal(archer.data.equipment.arrows?.quantity, 5, "no arrow shot");
    assert.deepEqual([count(mage, "air_rune"), count(mage, "mind_rune"), count(autocaster, "mind_rune")], [5, 5, 5], "no rune used");
    assert.equal(mage.data.skills.magic.xpTenths, autocaster.data.skills.magic.xpTenths, "no magic xp");
  });

  it("keeps an aggressive monster off a player who fights another, until that fight is over", async () => {
    const g = await gameWorld(9);
    const hound = [...g.world.npcs.values()].find((n) => n.def.id === "cinder_hound")!;
    holdStill(hound, { health: 10_000, maxHealth: 10_000 }).targetId = undefined;
    // A rat beside a tile 2 from the hound (within its aggression range, outside any safe zone).
    const walk = (x: number, z: number) => g.world.collision.isWalkable(x, z);
    const spots = [
      [2, 0, 1, 0],
      [-2, 0, -1, 0],
      [0, 2, 0, 1],
      [0, -2, 0, -1],
    ].filter(([px, pz, rx, rz]) => walk(hound.x + px!, hound.z + pz!) && walk(hound.x + px! + rx!, hound.z + pz! + rz!));
    assert.ok(spots.length > 0, "room beside the hound");
    const [px, pz, rx, rz] = spots[0]!;
    const r = rat(g);
    holdStill(r, { at: { x: hound.x + px! + rx!, z: hound.z + pz! + rz! } });
    const p = g.add({ x: hound.x + px!, z: hound.z + pz! });
    // The rat first: hit in the same tick the player joined, before the hound's turn.
    g.send(p, "player:action", { action: "attack", targetId: r.id });
    g.tick();
    assert.equal(hitsBy(g, p, r), 1, "the player hit the rat first");
    for (let i = 0; i < 20; i++) {
      g.tick();
      assert.equal(hound.targetId, undefined, `tick ${i}: the hound leaves the fighter alone`);
    }
    assert.ok(!g.events(p, "combat:hit").some((h) => h.attackerId === hound.id), "never hit by the hound");
    // A hound that was already after the player gives up too.
    hound.targetId = p.id;
    g.tick();
    assert.equal(hound.targetId, undefined, "a second monster drops the fighter");
    // The fight over (the player stops, the rat does not fight back), the hound sets on the player.
    g.send(p, "player:action", { action: "stop" });
    g.tick(SINGLE_COMBAT_TICKS + 1);
    assert.equal(hound.targetId, p.id, "free again, the player is the hound's");
  });

  it('refuses a player a monster is attacking another monster ("I\'m already under attack."), not the one attacking it', async () => {
    const g = await gameWorld(11);
    const hound = [...g.world.npcs.values()].find((n) => n.def.id === "cinder_hound")!;
    holdStill(hound, { health: 10_000, maxHealth: 10_000 }).targetId = undefined;
    const walk = (x: number, z: number) => g.world.collision.isWalkable(x, z);
    const spots = [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ].filter(([dx, dz]) => walk(hound.x + dx!, hound.z + dz!) && walk(hound.x + 2 * dx!, hound.z + 2 * dz!));
    assert.ok(spots.length > 0, "room beside the hound");
    const [dx, dz] = spots[0]!;
    const p = g.add({ x: hound.x + dx!, z: hound.z + dz! });
    const r = rat(g);
    holdStill(r, { at: { x: hound.x + 2 * dx!, z: hound.z + 2 * dz! } });
    for (let i = 0; i < 20 && !g.events(p, "combat:hit").some((h) => h.attackerId === hound.id); i++) g.tick();
    assert.equal(hound.targetId, p.id, "the hound set on the player");
    g.send(p, "player:action", { action: "attack", targetId: r.id });
    g.tick();
    assert.deepEqual(
      g.errors(p).map((e) => [e.code, e.message]),
      [["UNDER_ATTACK", "I'm already under attack."]],
    );
    assert.equal(hitsBy(g, p, r), 0);
    g.send(p, "player:action", { action: "attack", targetId: hound.id });
    untilHit(g, p, hound);
    assert.equal(g.errors(p).length, 1, "the hound itself may be fought");
    // The hound gone after someone else (it stops chasing): the player is free to choose.
    g.send(p, "player:action", { action: "stop" });
    hound.def = { ...hound.def, combat: { ...hound.def.combat!, aggressive: false, retaliates: false } };
    hound.targetId = undefined;
    g.tick();
    g.send(p, "player:action", { action: "attack", targetId: r.id });
    untilHit(g, p, r);
    assert.equal(g.errors(p).length, 1, "the rat, once the hound is after no one");
  });

  it("lets many fight one monster in an area the content marks multi-combat", async () => {
    const g = await gameWorld(10);
    const r = rat(g);
    const area = g.world.content.areas.find((x) => r.x >= x.bounds.minX && r.x <= x.bounds.maxX && r.z >= x.bounds.minZ && r.z <= x.bounds.maxZ)!;
    assert.ok(area !== undefined, "the rat's area");
    const flagged = area as { multiCombat: boolean };
    flagged.multiCombat = true;
    try {
      const [a, b] = sidesOf(g, r);
      const one = g.add(a);
      const two = g.add(b);
      g.send(one, "player:action", { action: "attack", targetId: r.id });
      untilHit(g, one, r);
      g.send(two, "player:action", { action: "attack", targetId: r.id });
      untilHit(g, two, r);
      assert.deepEqual(g.errors(two), []);
    } finally {
      flagged.multiCombat = false;
    }
  });
});
