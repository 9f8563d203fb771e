/**
 * What a world is built from before its first tick: the collision map from the content, and the
 * seedable random source every roll uses.
 */
import type { ContentRegistry } from "../../manifests/registry.ts";
import { CollisionMap } from "../map/CollisionMap.ts";

/** Positions are synchronised as int16. */
export const MAX_COORDINATE = 32_767;

/** A small, fast, seedable PRNG (mulberry32), so that a world can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Builds the collision map: bounds, blocked rectangles, and the tiles objects stand on. */
export function buildCollision(content: ContentRegistry): CollisionMap {
  const b = content.world.bounds;
  if (Math.max(Math.abs(b.minX), Math.abs(b.maxX), Math.abs(b.minZ), Math.abs(b.maxZ)) > MAX_COORDINATE) {
    throw new Error(`world bounds ${JSON.stringify(b)} exceed ±${MAX_COORDINATE} tiles (positions are synchronised as int16)`);
  }
  const map = new CollisionMap(b);
  for (const b of content.world.blocked) map.block(b);
  for (const area of content.areas) {
    for (const r of area.resources) map.blockTile(Math.round(r.position.x), Math.round(r.position.z));
    for (const s of area.stations) map.blockTile(Math.round(s.position.x), Math.round(s.position.z));
  }
  return map;
}
