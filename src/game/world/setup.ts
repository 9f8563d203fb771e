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
  blockRock(map, content);
  for (const b of content.world.blocked) map.block(b);
  for (const area of content.areas) {
    for (const b of area.blocked) map.block(b);
    for (const r of area.resources) map.blockTile(Math.round(r.position.x), Math.round(r.position.z));
    for (const s of area.stations) map.blockTile(Math.round(s.position.x), Math.round(s.position.z));
  }
  // Ladders and obstacles stand on their tiles; a door blocks its tile while shut (as the content
  // starts it: the world opens and shuts it later, src/game/places/PlaceState.ts).
  const { doors, ladders, obstacles } = content.places;
  for (const p of [...ladders, ...obstacles]) map.blockTile(p.x, p.z);
  for (const d of doors) if (!d.open) map.blockTile(d.x, d.z);
  return map;
}

/**
 * Underground areas lie outside the surface's bounds, in the same map (as RuneScape's dungeons lie
 * 6,400 tiles north of the ground above them): every tile of the map that is neither surface nor
 * inside an underground area is solid rock, so no walk joins them and only a ladder or stairs do.
 */
function blockRock(map: CollisionMap, content: ContentRegistry): void {
  const { bounds, surface } = content.world;
  const open = [surface, ...content.areas.filter((a) => a.underground).map((a) => a.bounds)];
  if (open.length === 1) return;
  for (let z = bounds.minZ; z <= bounds.maxZ; z++) {
    for (let x = bounds.minX; x <= bounds.maxX; x++) {
      if (!open.some((o) => x >= o.minX && x <= o.maxX && z >= o.minZ && z <= o.maxZ)) map.blockTile(x, z);
    }
  }
}
