/**
 * NPC AI (tick phase 4) and respawns (phase 5).
 * - A mob with a target walks toward it (one tile a tick) and attacks in range at its attack
 *   speed: a melee mob (range 1) from an orthogonal neighbour only (as in RuneScape: diagonal to
 *   its target, or under it, it first steps to a side), a farther one in line of sight; it gives
 *   up past its leash range from its spawn point and walks home.
 * - Aggressive mobs pick the nearest player within their aggression range whose combat level is
 *   at most twice theirs (as in RuneScape), never inside a safe zone (where mobs still fight
 *   back when attacked).
 * - Single-way combat (singleCombat.ts): a mob neither sets on nor keeps after a player who fights
 *   another mob now (outside multi-combat areas).
 * - Otherwise mobs wander within their radius now and then.
 */
import { chebyshev, type Tile } from "./map/CollisionMap.ts";
import { hasLineOfSight } from "./map/lineOfSight.ts";
import { npcAttacksPlayer } from "./combat.ts";
import { despawnGroundItems } from "./groundItems.ts";
import { npcMayAttack } from "./singleCombat.ts";
import type { NpcInstance } from "./world/entities.ts";
import type { World } from "./world/World.ts";

/** Chance per tick that an idle mob takes a wandering step. */
export const WANDER_CHANCE = 0.1;

function inSafeZone(world: World, at: { x: number; z: number }): boolean {
  return world.content.areas.some((a) => a.safeZone && at.x >= a.bounds.minX && at.x <= a.bounds.maxX && at.z >= a.bounds.minZ && at.z <= a.bounds.maxZ);
}

function stepToward(world: World, npc: NpcInstance, to: { x: number; z: number }): void {
  const dx = Math.sign(to.x - npc.x);
  const dz = Math.sign(to.z - npc.z);
  for (const [sx, sz] of [
    [dx, dz],
    [dx, 0],
    [0, dz],
  ] as const) {
    if ((sx !== 0 || sz !== 0) && world.collision.canStep(npc.x, npc.z, sx, sz)) {
      npc.x += sx;
      npc.z += sz;
      npc.version++;
      return;
    }
  }
}

/** Whether the NPC can hit the target from where it stands (see the rules above). */
function npcInReach(world: World, npc: NpcInstance, target: Tile, range: number): boolean {
  if (range <= 1) return Math.abs(target.x - npc.x) + Math.abs(target.z - npc.z) === 1;
  return chebyshev(target, npc) <= range && hasLineOfSight(world.collision, npc, target);
}

/** A melee NPC diagonal to its target, or under it, steps to a side of it. */
function stepToSide(world: World, npc: NpcInstance, target: Tile): void {
  const dx = Math.sign(target.x - npc.x);
  const dz = Math.sign(target.z - npc.z);
  const steps: (readonly [number, number])[] =
    dx === 0 && dz === 0
      ? [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ]
      : [
          [dx, 0],
          [0, dz],
        ];
  for (const [sx, sz] of steps) {
    if ((sx !== 0 || sz !== 0) && world.collision.canStep(npc.x, npc.z, sx, sz)) {
      npc.x += sx;
      npc.z += sz;
      npc.version++;
      return;
    }
  }
}

export function processNpcs(world: World): void {
  // One NPC's fault stops that NPC's turn only (World.contain).
  for (const npc of world.npcs.values()) world.contain("npcs", npc, npcTurn);
}

/** One NPC's turn: fight its target, pick one (aggressive mobs), go home, or wander. */
function npcTurn(world: World, npc: NpcInstance): void {
  if (npc.deadUntil !== 0 || npc.def.combat?.attackable !== true) return;
  const combat = npc.def.combat;
  const leash = combat.leashRange;
  let target = npc.targetId !== undefined ? world.players.get(npc.targetId) : undefined;
  // Safe zones stop aggression, not retaliation: a mob attacked in town fights back.
  if (target !== undefined && chebyshev(target, { x: npc.spawnX, z: npc.spawnZ }) > leash) target = undefined;
  // Single-way combat: a player who fights another monster now is left alone (singleCombat.ts).
  if (target !== undefined && !npcMayAttack(world, npc, target)) target = undefined;
  if (target === undefined && npc.targetId !== undefined) npc.targetId = undefined;

  if (target === undefined && combat.aggressive && !inSafeZone(world, npc)) {
    const level = npc.def.stats?.level ?? 1;
    let best: number = Infinity;
    for (const p of world.playersNear(npc, combat.aggroRange)) {
      const d = chebyshev(p, npc);
      if (p.data.combatLevel <= level * 2 && !inSafeZone(world, p) && d < best && npcMayAttack(world, npc, p)) {
        best = d;
        target = p;
      }
    }
    if (target !== undefined) npc.targetId = target.id;
  }

  if (target !== undefined) {
    if (npcInReach(world, npc, target, combat.combatRange)) {
      if (world.tick >= npc.nextAttackTick) npcAttacksPlayer(world, npc, target);
    } else if (combat.combatRange <= 1 && chebyshev(target, npc) <= 1) {
      stepToSide(world, npc, target);
    } else {
      stepToward(world, npc, target);
    }
    return;
  }
  if (npc.x !== npc.spawnX || npc.z !== npc.spawnZ) {
    if (chebyshev(npc, { x: npc.spawnX, z: npc.spawnZ }) > npc.wanderRadius) {
      stepToward(world, npc, { x: npc.spawnX, z: npc.spawnZ });
      return;
    }
  }
  if (npc.wanderRadius > 0 && world.random() < WANDER_CHANCE) {
    const to = { x: npc.x + Math.floor(world.random() * 3) - 1, z: npc.z + Math.floor(world.random() * 3) - 1 };
    if (chebyshev(to, { x: npc.spawnX, z: npc.spawnZ }) <= npc.wanderRadius) stepToward(world, npc, to);
  }
}

export function processRespawns(world: World): void {
  for (const r of world.resources.values()) {
    if (r.depletedUntil !== 0 && world.tick >= r.depletedUntil) {
      r.depletedUntil = 0;
      r.version++;
    }
  }
  for (const npc of world.npcs.values()) {
    if (npc.deadUntil !== 0 && world.tick >= npc.deadUntil) {
      npc.deadUntil = 0;
      npc.health = npc.maxHealth;
      npc.x = npc.spawnX;
      npc.z = npc.spawnZ;
      npc.version++;
    }
  }
  for (const [id, o] of world.objects) {
    if (world.tick >= o.expiresAtTick) {
      world.objects.delete(id);
      o.gone = true;
    }
  }
  despawnGroundItems(world);
}
