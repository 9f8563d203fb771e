/**
 * Line of sight between two tiles (ranged attacks, and spells): the ray RuneScape's servers cast
 * for projectiles, as rsmod's routefinder implements it (`LineValidator.rayCast`, the projectile
 * path check that 2009scape's `ProjectilePathfinder` also follows): walk the longer axis one tile
 * at a time, carrying the other axis in 16.16 fixed point from the source tile's centre; each
 * tile the ray enters must not block it, and when the minor axis crosses into the next row (or
 * column) within a step, that tile must not block it either (a supercover of the line's corners).
 *
 * Here the collision map knows whole tiles only: a blocked tile (a wall, a tree, a rock, a
 * station, outside the world) blocks the ray; the source tile is never checked. The same tile
 * and orthogonal neighbours always see each other; a diagonal neighbour is seen past the corner
 * tile the ray enters first (rsmod's order: the minor axis last).
 */
import type { CollisionMap, Tile } from "./CollisionMap.ts";

const SCALE = 65_536;
const HALF_TILE = SCALE / 2;

export function hasLineOfSight(map: CollisionMap, from: Tile, to: Tile): boolean {
  const dx = to.x - from.x;
  const dz = to.z - from.z;
  if (dx === 0 && dz === 0) return true;
  const blocked = (x: number, z: number) => !map.isWalkable(x, z);
  const absX = Math.abs(dx);
  const absZ = Math.abs(dz);
  if (absX > absZ) {
    const stepX = dx > 0 ? 1 : -1;
    // Rounds a negative slope's fixed point toward the tile it starts in (rsmod's offset).
    let scaledZ = from.z * SCALE + HALF_TILE + (dz >= 0 ? 0 : -1);
    const slope = Math.trunc((dz * SCALE) / absX);
    for (let x = from.x; x !== to.x;) {
      x += stepX;
      const z = Math.floor(scaledZ / SCALE);
      if (blocked(x, z)) return false;
      scaledZ += slope;
      const nextZ = Math.floor(scaledZ / SCALE);
      if (nextZ !== z && blocked(x, nextZ)) return false;
    }
  } else {
    const stepZ = dz > 0 ? 1 : -1;
    let scaledX = from.x * SCALE + HALF_TILE + (dx >= 0 ? 0 : -1);
    const slope = Math.trunc((dx * SCALE) / absZ);
    for (let z = from.z; z !== to.z;) {
      z += stepZ;
      const x = Math.floor(scaledX / SCALE);
      if (blocked(x, z)) return false;
      scaledX += slope;
      const nextX = Math.floor(scaledX / SCALE);
      if (nextX !== x && blocked(nextX, z)) return false;
    }
  }
  return true;
}
