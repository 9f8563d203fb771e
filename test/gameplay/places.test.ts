/**
 * Places (src/game/places/, world-objects.json) in the default world: a door shut blocks walking
 * and line of sight and an opened one lets both through, for every player; ladders and stairs are
 * the only way between the surface and the Sunken Cistern (no walk joins them); agility obstacles
 * give Agility xp, need their level, and fail with damage at the genre's skilling success rate.
 * Refusals change nothing.
 */
import assert from "node:assert/strict";
import { hasLineOfSight } from "../../src/game/map/lineOfSight.ts";
import { obstacleChance } from "../../src/game/places/agility.ts";
import type { DoorInstance } from "../../src/game/places/PlaceState.ts";
import { XP_FOR_LEVEL } from "../../src/game/skills.ts";
import { describe as view } from "../../src/game/world/views.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";

const GATE = "cistern_gate";
const WEST = { x: 17, z: 145 };
const EAST = { x: 23, z: 145 };

/** A world whose cistern monsters are gone, so nothing wanders into a doorway or attacks. */
async function quietWorld(): Promise<GameHarness> {
  const g = await gameWorld();
  for (const [id, npc] of g.world.npcs) if (npc.z >= 130) g.world.npcs.delete(id);
  return g;
}

function at(g: GameHarness, tile: { x: number; z: number }): Player {
  const p = g.add();
  assert.ok(g.world.teleport(p, tile), `${tile.x},${tile.z} is walkable`);
  return p;
}

function walk(g: GameHarness, p: Player, to: { x: number; z: number }, ticks = 20): void {
  g.send(p, "player:move", to);
  g.tick(ticks);
}

function interact(g: GameHarness, p: Player, targetId: string, ticks = 8): void {
  g.send(p, "player:action", { action: "interact", targetId });
  g.tick(ticks);
}

const gate = (g: GameHarness) => g.world.places.get(GATE) as DoorInstance;
const pos = (p: Player) => ({ x: p.x, z: p.z });

describe("doors", () => {
  it("a shut gate stops a walk; opened by one player, another walks through it", async () => {
    const g = await quietWorld();
    const walker = at(g, WEST);
    walk(g, walker, EAST);
    assert.notDeepEqual(pos(walker), EAST, "no path through a shut gate");
    assert.ok(walker.x < 20, "still on the west side");

    const opener = at(g, { x: 19, z: 146 });
    const before = gate(g).version;
    interact(g, opener, GATE, 2);
    assert.equal(gate(g).open, true);
    assert.ok(gate(g).version > before, "what clients see of the gate changed");
    assert.deepEqual(view(gate(g)), { id: GATE, kind: "object", x: 20, z: 145, ref: "door", open: true });
    assert.ok(g.events(opener, "chat:message").some((m) => m.message === "You open the iron gate."));

    walk(g, walker, EAST);
    assert.deepEqual(pos(walker), EAST, "through the opened gate");
  });

  it("a walk whose path was searched through the open gate stops where the gate has shut", async () => {
    const g = await quietWorld();
    const closer = at(g, { x: 21, z: 146 });
    interact(g, closer, GATE, 2);
    assert.equal(gate(g).open, true);
    const walker = at(g, { x: 14, z: 145 });
    g.send(walker, "player:move", { x: 30, z: 145 });
    g.tick(1);
    assert.ok(
      walker.path.some((t) => t.x === 20 && t.z === 145),
      "the path goes through the gateway",
    );
    g.send(closer, "player:action", { action: "interact", targetId: GATE });
    g.tick(1);
    assert.equal(gate(g).open, false, "shut again");
    g.tick(20);
    assert.deepEqual(pos(walker), { x: 19, z: 145 }, "stopped at the shut gate");
  });

  it("will not shut on someone standing in the doorway, nor move twice in one tick", async () => {
    const g = await quietWorld();
    const a = at(g, { x: 19, z: 145 });
    const b = at(g, { x: 21, z: 145 });
    interact(g, a, GATE, 2);
    assert.equal(gate(g).open, true);
    const c = at(g, { x: 20, z: 145 });
    g.clearSent();
    interact(g, a, GATE, 2);
    assert.equal(gate(g).open, true, "still open");
    assert.deepEqual(
      g.errors(a).map((e) => e.code),
      ["DOORWAY_BLOCKED"],
    );
    assert.ok(g.world.teleport(c, { x: 19, z: 146 }));
    // Both players ask in the same tick: the first shuts it, the second is refused.
    g.clearSent();
    g.send(a, "player:action", { action: "interact", targetId: GATE });
    g.send(b, "player:action", { action: "interact", targetId: GATE });
    g.tick(2);
    assert.equal(gate(g).open, false);
    assert.deepEqual(
      [...g.errors(a), ...g.errors(b)].map((e) => e.code),
      ["DOOR_BUSY"],
    );
  });

  it("line of sight stops at a shut gate and passes an open one", async () => {
    const g = await quietWorld();
    const map = g.world.collision;
    assert.equal(hasLineOfSight(map, WEST, EAST), false);
    assert.equal(hasLineOfSight(map, EAST, WEST), false);
    g.world.places.setOpen(gate(g), true, g.world.tick);
    assert.equal(hasLineOfSight(map, WEST, EAST), true);
    assert.equal(hasLineOfSight(map, EAST, WEST), true);
  });

  it("the doors on the town's buildings start open, as the content says", async () => {
    const g = await gameWorld();
    for (const id of ["kettle_door", "smithy_door", "chapel_door"]) {
      const door = g.world.places.get(id) as DoorInstance;
      assert.equal(door.open, true, id);
      assert.ok(g.world.collision.isWalkable(door.x, door.z), id);
    }
    assert.equal(g.world.collision.isWalkable(20, 145), false, "the iron gate starts shut");
  });
});

describe("ladders and stairs", () => {
  it("climbs down the old well into the cistern and up again; no walk joins the two", async () => {
    const g = await quietWorld();
    const p = at(g, { x: 30, z: 50 });
    interact(g, p, "hollowbrook_well_ladder");
    assert.deepEqual(pos(p), { x: 4, z: 134 });
    assert.ok(g.events(p, "chat:message").some((m) => m.message === "You climb down the ladder."));
    assert.equal(p.saveDue, true, "the new position is saved");

    walk(g, p, { x: 32, z: 50 }, 30);
    assert.ok(p.z >= 130, `a walk to the surface stays below: ${p.x},${p.z}`);
    interact(g, p, "cistern_ladder", 15);
    assert.deepEqual(pos(p), { x: 32, z: 49 });
    walk(g, p, { x: 4, z: 135 }, 30);
    assert.ok(p.z <= 90, "and a walk to the cistern stays above");
  });

  it("takes the cellar stairs from the agility yard and back", async () => {
    const g = await quietWorld();
    const p = at(g, { x: 72, z: 37 });
    interact(g, p, "thornwick_cellar_stairs");
    assert.deepEqual(pos(p), { x: 4, z: 156 });
    assert.ok(g.events(p, "chat:message").some((m) => m.message === "You climb down the stairs."));
    interact(g, p, "cistern_stairs");
    assert.deepEqual(pos(p), { x: 75, z: 37 });
  });

  it("a character saved below ground enters the world below ground (positions keep their shape: x and z)", async () => {
    const g = await gameWorld();
    const p = g.add({ x: 4, z: 134 });
    assert.deepEqual(pos(p), { x: 4, z: 134 });
    const rock = g.add({ x: 10, z: 110 });
    assert.deepEqual(pos(rock), { x: 0, z: 0 }, "one saved in the rock between (no such walk) goes to the spawn");
  });

  it("the two regions are apart in the collision map: rock between, none of it walkable", async () => {
    const g = await gameWorld();
    const map = g.world.collision;
    assert.notEqual(map.regionOf(32, 49), map.regionOf(4, 134));
    for (let z = 91; z < 130; z++) assert.equal(map.isWalkable(10, z), false, `rock at 10,${z}`);
    assert.equal(g.world.content.world.surface.maxZ, 90);
    assert.equal(g.world.content.world.bounds.maxZ, 160);
  });

  it("examines a ladder", async () => {
    const g = await gameWorld();
    const p = g.add();
    g.send(p, "player:action", { action: "examine", targetId: "hollowbrook_well_ladder" });
    g.tick();
    assert.ok(g.events(p, "chat:message").some((m) => m.message === "A dry well with iron rungs going down into the dark."));
  });

  it("refuses an unknown place and changes nothing", async () => {
    const g = await quietWorld();
    const p = at(g, { x: 30, z: 50 });
    g.send(p, "player:action", { action: "interact", targetId: "no_such_ladder" });
    g.tick(3);
    assert.deepEqual(
      g.errors(p).map((e) => e.code),
      ["INVALID_TARGET"],
    );
    assert.deepEqual(pos(p), { x: 30, z: 50 });
  });
});

describe("agility", () => {
  const agility = (p: Player) => p.data.skills.agility;
  const setLevel = (p: Player, level: number) => (p.data.skills.agility = { level, xpTenths: XP_FOR_LEVEL[level]! * 10 });
  const rolls = (g: GameHarness, ...values: number[]) => ((g.world as { random: () => number }).random = () => values.shift() ?? 0.5);

  it("follows the skilling success rate (OSRS wiki): (1 + ⌊low·(99−L)/98 + high·(L−1)/98 + 0.5⌋) / 256", async () => {
    const g = await gameWorld();
    const def = (id: string) => g.world.content.places.obstacles.find((o) => o.id === id)!;
    // The wall: low 80, high 245. Level 20: 80·79/98 + 245·19/98 = 64.49 + 47.5 = 111.99 → 112, +1: 113/256.
    assert.equal(obstacleChance(def("yard_wall"), 20), 113 / 256);
    // Level 50: 40 + 122.5 = 162.5, +0.5 → 163, +1: 164/256; level 99: 245 + 1 = 246/256.
    assert.equal(obstacleChance(def("yard_wall"), 50), 164 / 256);
    assert.equal(obstacleChance(def("yard_wall"), 99), 246 / 256);
    assert.equal(obstacleChance(def("yard_net"), 1), 181 / 256);
    assert.equal(obstacleChance(def("yard_net"), 99), 1, "capped at certain");
    assert.equal(obstacleChance(def("yard_log"), 1), 1, "an obstacle without a rate never fails");
  });

  it("every obstacle's level is an Agility unlock of skill-unlocks.json", async () => {
    const g = await gameWorld();
    const unlocks = new Set(g.world.content.skillUnlocks.agility?.map((u) => u.level));
    for (const o of g.world.content.places.obstacles) assert.ok(unlocks.has(o.level), `${o.id} (level ${o.level})`);
  });

  it("the yard is reached from Hollowbrook Woods through the gap in the cliffs by its south-west corner (docs/playtest.md 2026-11-29)", async () => {
    const g = await gameWorld();
    // The woods' north-east corner, where the playtest stood; the yard's south-west corner tile.
    const p = at(g, { x: 40, z: 41 });
    const yard = g.world.content.areas.find((a) => a.id === "thornwick_yard")!.bounds;
    const inside = { x: yard.minX + 1, z: yard.maxZ - 1 };
    assert.ok(g.world.collision.isWalkable(inside.x, inside.z));
    walk(g, p, inside, 10);
    assert.deepEqual(g.errors(p), [], 'not "No way there from here."');
    assert.deepEqual([p.x, p.z], [inside.x, inside.z], "in the yard within 10 ticks' walk, not 107 tiles round by the town");
  });

  it("walks to the log's start, crosses it and gains Agility xp", async () => {
    const g = await gameWorld();
    const p = at(g, { x: 46, z: 33 });
    interact(g, p, "yard_log", 10);
    assert.deepEqual(pos(p), { x: 52, z: 35 });
    assert.equal(agility(p).xpTenths, 80, "8 xp");
    const xp = g.events(p, "skill:xp");
    assert.deepEqual(
      xp.map((e) => [e.skill, e.gained]),
      [["agility", 8]],
    );
    assert.ok(g.events(p, "chat:message").some((m) => m.message === "You walk carefully across the mossy log."));
  });

  it("a failed attempt at a seeded roll hurts, lands where the obstacle says, and gives no xp", async () => {
    const g = await gameWorld();
    const p = at(g, { x: 60, z: 35 });
    setLevel(p, 10);
    const before = agility(p).xpTenths;
    // First roll: 0.99 is above the rope's chance at level 10; second: the damage, 2 + ⌊0.5 × 3⌋ = 3 hitpoints.
    rolls(g, 0.99, 0.5);
    interact(g, p, "yard_rope", 2);
    assert.deepEqual(pos(p), { x: 60, z: 37 }, "in the ditch's failTo tile");
    assert.equal(p.data.health, 70, "3 hitpoints: 30 lifepoints");
    assert.equal(agility(p).xpTenths, before);
    const hit = g.events(p, "combat:hit");
    assert.deepEqual(
      hit.map((h) => [h.attackerId, h.damage, h.targetHealth]),
      [["yard_rope", 30, 70]],
    );
    assert.ok(g.events(p, "chat:message").some((m) => m.message === "You lose your grip and drop into the ditch."));
    // The same obstacle, a low roll: across.
    rolls(g, 0.01);
    interact(g, p, "yard_rope", 4);
    assert.deepEqual(pos(p), { x: 64, z: 35 });
    assert.equal(agility(p).xpTenths, before + 220);
  });

  it("a fall at the last hitpoints kills, and the player respawns", async () => {
    const g = await gameWorld();
    const p = at(g, { x: 55, z: 35 });
    p.data.health = 10;
    rolls(g, 0.999, 0.999);
    interact(g, p, "yard_net", 2);
    assert.equal(g.events(p, "player:death").length, 1);
    assert.equal(g.events(p, "player:death")[0]!.killedBy, "yard_net");
    assert.equal(p.data.health, p.maxHealth);
  });

  it("refuses an obstacle above the player's level and changes nothing", async () => {
    const g = await gameWorld();
    const p = at(g, { x: 67, z: 35 });
    setLevel(p, 19);
    g.send(p, "player:action", { action: "interact", targetId: "yard_wall" });
    g.tick(3);
    assert.deepEqual(
      g.errors(p).map((e) => [e.code, e.event]),
      [["LEVEL_TOO_LOW", "player:action"]],
    );
    assert.deepEqual(pos(p), { x: 67, z: 35 });
    assert.equal(p.action, undefined);
    setLevel(p, 20);
    rolls(g, 0);
    interact(g, p, "yard_wall", 2);
    assert.deepEqual(pos(p), { x: 69, z: 35 });
    assert.equal(agility(p).xpTenths, XP_FOR_LEVEL[20]! * 10 + 350);
  });
});
