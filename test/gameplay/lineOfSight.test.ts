/**
 * Line of sight (src/game/map/lineOfSight.ts: rsmod's projectile ray, whole tiles) and where
 * attacks may be made from: ranged only in line of sight (without it the attacker walks closer, as
 * in RuneScape), melee only from an orthogonal neighbour (never diagonally), for players and NPCs.
 */
import assert from "node:assert/strict";
import { CollisionMap } from "../../src/game/map/CollisionMap.ts";
import { hasLineOfSight } from "../../src/game/map/lineOfSight.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";
import { holdStill } from "../support/placing.ts";

const open = () => new CollisionMap({ minX: -20, maxX: 20, minZ: -20, maxZ: 20 });
const sees = (map: CollisionMap, a: [number, number], b: [number, number]) => hasLineOfSight(map, { x: a[0], z: a[1] }, { x: b[0], z: b[1] });
const orthogonal = (a: { x: number; z: number }, b: { x: number; z: number }) => Math.abs(a.x - b.x) + Math.abs(a.z - b.z) === 1;

describe("hasLineOfSight", () => {
  it("sees everything on open ground, the same tile, and neighbours", () => {
    const map = open();
    for (const to of [
      [0, 0],
      [1, 0],
      [0, -1],
      [1, 1],
      [7, 3],
      [-7, 5],
      [-3, -7],
      [10, 10],
      [0, 15],
    ] as [number, number][]) {
      assert.ok(sees(map, [0, 0], to), `0,0 → ${to}`);
      assert.ok(sees(map, to, [0, 0]), `${to} → 0,0`);
    }
  });

  it("is blocked by a wall between, whichever way the shot goes", () => {
    const map = open();
    map.block({ minX: 3, maxX: 3, minZ: -5, maxZ: 5 });
    for (const [from, to] of [
      [
        [0, 0],
        [6, 0],
      ],
      [
        [0, 0],
        [6, 2],
      ],
      [
        [0, -4],
        [6, 4],
      ],
      [
        [6, 1],
        [0, -1],
      ],
    ] as [number, number][][]) {
      assert.equal(sees(map, from as [number, number], to as [number, number]), false, `${from} → ${to}`);
    }
    assert.ok(sees(map, [0, 6], [6, 6]), "past the wall's end");
    assert.ok(sees(map, [0, 0], [2, 7]), "on this side of it");
  });

  it("checks every tile the ray crosses: the one a corner of the line cuts too", () => {
    const map = open();
    // (0,0) → (6,3): the ray enters (1,0), crosses into (1,1), then (2,1), …
    map.blockTile(2, 1);
    assert.equal(sees(map, [0, 0], [6, 3]), false);
    const other = open();
    other.blockTile(2, 2);
    assert.equal(sees(other, [0, 0], [4, 4]), false, "a diagonal through a blocked tile");
    assert.ok(sees(other, [0, 0], [4, 1]), "a line that misses it");
    assert.ok(sees(other, [0, 0], [1, 4]), "another");
  });

  it("sees nothing through the world's edge", () => {
    const map = new CollisionMap({ minX: 0, maxX: 10, minZ: 0, maxZ: 10 });
    assert.ok(sees(map, [0, 0], [10, 10]));
    assert.equal(hasLineOfSight(map, { x: 0, z: 0 }, { x: 11, z: 0 }), false);
  });
});

/** A passive NPC moved to a tile, staying there unless it fights. */
function placeNpc(g: GameHarness, x: number, z: number): NpcInstance {
  const npc = [...g.world.npcs.values()].find((n) => n.def.id === "meadow_rat")!;
  return holdStill(npc, { at: { x, z } });
}

/** Ticks until the attacker's first hit on the target; where both stood then. */
function untilFirstHit(g: GameHarness, watcher: Player, attackerId: string, max = 60): { tick: number } {
  for (let t = 1; t <= max; t++) {
    g.tick();
    if (g.events(watcher, "combat:hit").some((h) => h.attackerId === attackerId)) return { tick: t };
  }
  assert.fail(`no hit by ${attackerId} in ${max} ticks`);
}

describe("ranged attacks need line of sight", () => {
  // The bundled town: a building with walls at x = -8 and x = -2 (z -8..-2), its door at (-5, -2).
  it("does not shoot through a wall: the archer walks until it sees the target, then shoots", async () => {
    const g = await gameWorld();
    const npc = placeNpc(g, -5, -5);
    const p = g.add({ x: 0, z: -5, equipment: { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 10 } } });
    assert.equal(hasLineOfSight(g.world.collision, p, npc), false, "the wall is between them");
    g.send(p, "player:action", { action: "attack", targetId: npc.id });
    // The action's path is searched in the tick's action phase, and walked from the next.
    g.tick(2);
    assert.equal(g.events(p, "combat:hit").length, 0, "no shot through the wall");
    assert.equal(p.data.equipment.arrows!.quantity, 10, "no arrow spent");
    assert.notDeepEqual([p.x, p.z], [0, -5], "it walks closer");
    let shotFrom: { x: number; z: number } | undefined;
    for (let t = 0; t < 40 && shotFrom === undefined; t++) {
      const at = { x: p.x, z: p.z };
      g.tick();
      if (g.events(p, "combat:hit").length > 0) shotFrom = at.x === p.x && at.z === p.z ? at : { x: p.x, z: p.z };
    }
    assert.ok(shotFrom !== undefined, "it shot once it could see");
    assert.ok(hasLineOfSight(g.world.collision, shotFrom, npc), `in line of sight from ${JSON.stringify(shotFrom)}`);
    assert.equal(p.data.equipment.arrows!.quantity, 9);
  });

  it("shoots at once from where it stands when it sees the target", async () => {
    const g = await gameWorld();
    const npc = placeNpc(g, -5, 5);
    const p = g.add({ x: 0, z: 5, equipment: { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 10 } } });
    assert.ok(hasLineOfSight(g.world.collision, p, npc));
    g.send(p, "player:action", { action: "attack", targetId: npc.id });
    g.tick();
    assert.deepEqual(
      g.events(p, "combat:hit").map((h) => h.style),
      ["ranged"],
      "one arrow's hit (or miss)",
    );
    assert.deepEqual([p.x, p.z], [0, 5], "did not move");
  });
});

describe("melee only from an orthogonal neighbour", () => {
  for (const [label, dx, dz] of [
    ["diagonal to it", 1, 1],
    ["under it", 0, 0],
  ] as const) {
    it(`a player ${label} steps to a side first, then hits`, async () => {
      const g = await gameWorld();
      const npc = placeNpc(g, 5, 0);
      const p = g.add({ x: 5 + dx, z: dz, equipment: { weapon: { itemId: "bronze_sword", quantity: 1 } } });
      g.send(p, "player:action", { action: "attack", targetId: npc.id });
      g.tick();
      assert.equal(g.events(p, "combat:hit").length, 0, "no hit from there");
      assert.deepEqual([p.x, p.z], [5 + dx, dz], "the path is searched in the action phase, after this tick's movement");
      g.tick();
      assert.ok(orthogonal(p, npc), `stepped to a side: ${p.x},${p.z}`);
      // (The rat, hit, fights back from its side: its hits are not counted here.)
      assert.equal(g.events(p, "combat:hit").filter((h) => h.attackerId === p.id).length, 1, "and hits in the same tick, from there");
    });
  }

  it("a melee NPC diagonal to its target steps to a side before it attacks", async () => {
    const g = await gameWorld();
    const npc = placeNpc(g, 5, 0);
    const p = g.add({ x: 6, z: 1 });
    npc.targetId = p.id;
    npc.nextAttackTick = 0;
    g.tick();
    assert.equal(g.events(p, "combat:hit").length, 0, "no attack diagonally");
    assert.ok(orthogonal(p, npc), `the NPC stepped to a side: ${npc.x},${npc.z}`);
    const { tick } = untilFirstHit(g, p, npc.id, 5);
    assert.equal(tick, 1, "then attacks");
    assert.ok(orthogonal(p, npc));
  });
});
