/**
 * Server-side pathfinding on the tile grid: A* over 8-directional steps (no corner cutting), each
 * step costing 1, with the Chebyshev distance as an exact-on-open-ground heuristic. Ties are broken
 * by straight-line distance to the target, so paths on open ground look natural (straight, then
 * diagonal) instead of zig-zagging among the many equally short ones.
 *
 * A target that cannot be reached (blocked, or walled off) yields a path to the reachable tile
 * closest to it, as RuneScape's walking does. Paths are limited to {@link MAX_PATH_LENGTH} steps
 * (spec: "server movement limit of 200 tiles"), and the search to {@link MAX_EXPANSIONS} nodes so
 * one request can never stall a tick.
 */
import { chebyshev, type CollisionMap, type Tile } from "./CollisionMap.ts";

export const MAX_PATH_LENGTH = 200;
/** How far beyond the start/target box a path may detour (tiles). */
export const DETOUR_MARGIN = 32;
/** About a 64×64 open area's worth of nodes; enough for any 200-step path in practice. */
export const MAX_EXPANSIONS = 40_000;

/** Squared Euclidean distance, the tie-breaker (below 2^20 for any search window). */
function euclid2(ax: number, az: number, b: Tile): number {
  return (ax - b.x) ** 2 + (az - b.z) ** 2;
}
const TIE = 2 ** 20;

const STEPS: readonly [number, number][] = [
  [1, 0], [-1, 0], [0, 1], [0, -1],
  [1, 1], [1, -1], [-1, 1], [-1, -1],
];

export type PathResult =
  | { ok: true; path: Tile[]; reachesTarget: boolean }
  | { ok: false; reason: "TOO_FAR" | "NO_PATH" };

/** A binary min-heap of node indices keyed by f-score. */
class Heap {
  private readonly items: number[] = [];
  private readonly keys: number[] = [];
  get size(): number {
    return this.items.length;
  }
  push(item: number, key: number): void {
    this.items.push(item);
    this.keys.push(key);
    let i = this.items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.keys[p]! <= this.keys[i]!) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): number {
    const top = this.items[0]!;
    const lastItem = this.items.pop()!;
    const lastKey = this.keys.pop()!;
    if (this.items.length > 0) {
      this.items[0] = lastItem;
      this.keys[0] = lastKey;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.items.length && this.keys[l]! < this.keys[m]!) m = l;
        if (r < this.items.length && this.keys[r]! < this.keys[m]!) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
  private swap(a: number, b: number): void {
    [this.items[a], this.items[b]] = [this.items[b]!, this.items[a]!];
    [this.keys[a], this.keys[b]] = [this.keys[b]!, this.keys[a]!];
  }
}

/**
 * Finds a path from `from` to `to` (both excluded/included: the path lists the tiles to step
 * onto, ending at the target or the closest reachable tile to it; empty when already there).
 */
export function findPath(map: CollisionMap, from: Tile, to: Tile, maxLength = MAX_PATH_LENGTH): PathResult {
  if (chebyshev(from, to) > maxLength) return { ok: false, reason: "TOO_FAR" };
  if (from.x === to.x && from.z === to.z) return { ok: true, path: [], reachesTarget: true };

  // Search the box around start and target plus a detour margin, within reach of the start and
  // the world: small searches for the common short walk, bounded memory for the long ones.
  const { bounds } = map;
  const minX = Math.max(bounds.minX, from.x - maxLength, Math.min(from.x, to.x) - DETOUR_MARGIN);
  const maxX = Math.min(bounds.maxX, from.x + maxLength, Math.max(from.x, to.x) + DETOUR_MARGIN);
  const minZ = Math.max(bounds.minZ, from.z - maxLength, Math.min(from.z, to.z) - DETOUR_MARGIN);
  const maxZ = Math.min(bounds.maxZ, from.z + maxLength, Math.max(from.z, to.z) + DETOUR_MARGIN);
  if (!map.inBounds(from.x, from.z)) return { ok: false, reason: "NO_PATH" };
  const w = maxX - minX + 1;
  const size = w * (maxZ - minZ + 1);
  const index = (x: number, z: number) => (z - minZ) * w + (x - minX);
  const g = new Int32Array(size).fill(-1);
  const parent = new Int32Array(size).fill(-1);
  const closed = new Uint8Array(size);

  const start = index(from.x, from.z);
  g[start] = 0;
  const open = new Heap();
  open.push(start, chebyshev(from, to) * TIE);
  let best = start;
  let bestH = chebyshev(from, to);
  let bestE = euclid2(from.x, from.z, to);
  let expansions = 0;
  let found = -1;

  while (open.size > 0 && expansions < MAX_EXPANSIONS) {
    const cur = open.pop();
    if (closed[cur]) continue;
    closed[cur] = 1;
    expansions++;
    const cx = (cur % w) + minX;
    const cz = Math.floor(cur / w) + minZ;
    if (cx === to.x && cz === to.z) {
      found = cur;
      break;
    }
    // The closest tile to an unreachable target: by Chebyshev, then straight-line distance.
    const h = chebyshev({ x: cx, z: cz }, to);
    const e = euclid2(cx, cz, to);
    if (h < bestH || (h === bestH && (e < bestE || (e === bestE && g[cur]! < g[best]!)))) {
      best = cur;
      bestH = h;
      bestE = e;
    }
    const gc = g[cur]!;
    if (gc >= maxLength) continue;
    for (const [dx, dz] of STEPS) {
      const nx = cx + dx;
      const nz = cz + dz;
      if (nx < minX || nx > maxX || nz < minZ || nz > maxZ) continue;
      if (!map.canStep(cx, cz, dx, dz)) continue;
      const ni = index(nx, nz);
      if (closed[ni]) continue;
      if (g[ni] === -1 || gc + 1 < g[ni]!) {
        g[ni] = gc + 1;
        parent[ni] = cur;
        open.push(ni, (gc + 1 + chebyshev({ x: nx, z: nz }, to)) * TIE + euclid2(nx, nz, to));
      }
    }
  }

  const end = found >= 0 ? found : best;
  if (end === start) return found >= 0 ? { ok: true, path: [], reachesTarget: true } : { ok: false, reason: "NO_PATH" };
  const path: Tile[] = [];
  for (let i = end; i !== start; i = parent[i]!) path.push({ x: (i % w) + minX, z: Math.floor(i / w) + minZ });
  path.reverse();
  return { ok: true, path, reachesTarget: found >= 0 };
}
