/**
 * Server-side pathfinding on the tile grid: A* over 8-directional steps (no corner cutting), each
 * step costing 1, with the Chebyshev distance as an exact-on-open-ground heuristic. Ties are broken
 * by straight-line distance to the target, so paths on open ground look natural (straight, then
 * diagonal) instead of zig-zagging among the many equally short ones.
 *
 * A target that cannot be reached (blocked, walled off, outside the world) yields a path to the
 * reachable tile closest to it, as RuneScape's walking does. That tile is chosen before any search,
 * from the collision map's connected regions: the closest tile (within
 * {@link TARGET_SEARCH_RADIUS}) in the walker's own region, so the search always aims at a tile it
 * can reach. Without that, an unreachable target made A* flood the walker's whole region: an
 * attack run stalled the tick for seconds with a few clients sending such moves.
 *
 * Paths are limited to {@link MAX_PATH_LENGTH} steps (spec: "server movement limit of 200 tiles"),
 * and each search to {@link MAX_EXPANSIONS} nodes; the World also caps the searches of a tick.
 */
import { chebyshev, type CollisionMap, type Tile } from "./CollisionMap.ts";

export const MAX_PATH_LENGTH = 200;
/** How far beyond the start/target box a path may detour (tiles). */
export const DETOUR_MARGIN = 32;
/**
 * Node budget of one search. A* to a reachable tile on open ground expands about as many nodes as
 * the path is long; this leaves room for detours around buildings and walls (a 100×100 area).
 */
export const MAX_EXPANSIONS = 10_000;
/** How far (tiles, Chebyshev) around an unreachable target its closest reachable tile is looked for. */
export const TARGET_SEARCH_RADIUS = 32;

/** Work done by searches, for a caller that budgets it (node expansions). */
export interface SearchWork {
  expansions: number;
}

/** Squared Euclidean distance, the tie-breaker (below 2^20 for any search window). */
function euclid2(ax: number, az: number, b: Tile): number {
  return (ax - b.x) ** 2 + (az - b.z) ** 2;
}
const TIE = 2 ** 20;

/** The eight steps, orthogonal first: (STEP_X[k], STEP_Z[k]). */
const STEP_X = Int8Array.of(1, -1, 0, 0, 1, 1, -1, -1);
const STEP_Z = Int8Array.of(0, 0, 1, -1, 1, -1, 1, -1);

export type PathResult = { ok: true; path: Tile[]; reachesTarget: boolean } | { ok: false; reason: "TOO_FAR" | "NO_PATH" };

/** A binary min-heap of node indices keyed by f-score, on typed arrays reused across searches. */
class Heap {
  items = new Int32Array(1024);
  keys = new Float64Array(1024);
  size = 0;
  push(item: number, key: number): void {
    if (this.size === this.items.length) {
      const items = new Int32Array(this.size * 2);
      items.set(this.items);
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      this.items = items;
      this.keys = keys;
    }
    const { items, keys } = this;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p]! <= key) break;
      items[i] = items[p]!;
      keys[i] = keys[p]!;
      i = p;
    }
    items[i] = item;
    keys[i] = key;
  }
  pop(): number {
    const { items, keys } = this;
    const top = items[0]!;
    const n = --this.size;
    if (n > 0) {
      const item = items[n]!;
      const key = keys[n]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const m = r < n && keys[r]! < keys[l]! ? r : l;
        if (keys[m]! >= key) break;
        items[i] = items[m]!;
        keys[i] = keys[m]!;
        i = m;
      }
      items[i] = item;
      keys[i] = key;
    }
    return top;
  }
}

/**
 * Scratch memory of the searches, reused (one search runs at a time): a search stamps the nodes
 * it touches instead of clearing arrays of the box's size, so a short walk costs what it explores.
 */
const scratch = {
  heap: new Heap(),
  generation: 0,
  /** Per node of the search box: the generation that last reached it (g and parent valid), and that closed it. */
  seen: new Uint32Array(0),
  closed: new Uint32Array(0),
  g: new Int32Array(0),
  parent: new Int32Array(0),
};

function scratchFor(size: number): typeof scratch {
  if (scratch.seen.length < size) {
    scratch.seen = new Uint32Array(size);
    scratch.closed = new Uint32Array(size);
    scratch.g = new Int32Array(size);
    scratch.parent = new Int32Array(size);
    scratch.generation = 0;
  }
  if (++scratch.generation === 0xffffffff) {
    scratch.seen.fill(0);
    scratch.closed.fill(0);
    scratch.generation = 1;
  }
  scratch.heap.size = 0;
  return scratch;
}

/**
 * The tile a walker in `region` heads for when asked to go to `to`: `to` itself when it is in the
 * region, else the region's tile closest to it (by Chebyshev distance, then straight-line
 * distance, then closeness to the walker) within {@link TARGET_SEARCH_RADIUS} of `to` clamped
 * into the world. Costs at most (2R+1)² array reads, never a search.
 */
export function reachableGoal(map: CollisionMap, from: Tile, to: Tile, maxLength = MAX_PATH_LENGTH): Tile | undefined {
  const region = map.regionOf(from.x, from.z);
  if (region === 0) return undefined;
  const { bounds } = map;
  const cx = Math.min(Math.max(to.x, bounds.minX), bounds.maxX);
  const cz = Math.min(Math.max(to.z, bounds.minZ), bounds.maxZ);
  for (let r = 0; r <= TARGET_SEARCH_RADIUS; r++) {
    let best: Tile | undefined;
    let bestE = Infinity;
    let bestFrom = Infinity;
    const consider = (x: number, z: number) => {
      if (map.regionOf(x, z) !== region) return;
      const d = chebyshev(from, { x, z });
      if (d > maxLength) return;
      const e = euclid2(x, z, to);
      if (e < bestE || (e === bestE && d < bestFrom)) {
        best = { x, z };
        bestE = e;
        bestFrom = d;
      }
    };
    if (r === 0) consider(cx, cz);
    for (let i = -r; i <= r && r > 0; i++) {
      consider(cx + i, cz - r);
      consider(cx + i, cz + r);
      if (i > -r && i < r) {
        consider(cx - r, cz + i);
        consider(cx + r, cz + i);
      }
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

/**
 * Finds a path from `from` to `to` (both excluded/included: the path lists the tiles to step
 * onto, ending at the target or the closest reachable tile to it; empty when already there).
 * `work`, when given, is charged with the nodes expanded.
 */
export function findPath(map: CollisionMap, from: Tile, to: Tile, maxLength = MAX_PATH_LENGTH, work?: SearchWork): PathResult {
  if (chebyshev(from, to) > maxLength) return { ok: false, reason: "TOO_FAR" };
  if (from.x === to.x && from.z === to.z) return { ok: true, path: [], reachesTarget: true };
  const goal = reachableGoal(map, from, to, maxLength);
  if (goal === undefined || (goal.x === from.x && goal.z === from.z)) return { ok: false, reason: "NO_PATH" };
  const r = search(map, from, goal, maxLength, work);
  if (r.ok) r.reachesTarget &&= goal.x === to.x && goal.z === to.z;
  return r;
}

/** A* from `from` to `to`, a tile of the same region (or, past the node budget, the closest explored tile to it). */
function search(map: CollisionMap, from: Tile, to: Tile, maxLength: number, work: SearchWork | undefined): PathResult {
  // Search the box around start and target plus a detour margin, within reach of the start and
  // the world: small searches for the common short walk, bounded memory for the long ones.
  const { bounds, cells, width: mapWidth } = map;
  const minX = Math.max(bounds.minX, from.x - maxLength, Math.min(from.x, to.x) - DETOUR_MARGIN);
  const maxX = Math.min(bounds.maxX, from.x + maxLength, Math.max(from.x, to.x) + DETOUR_MARGIN);
  const minZ = Math.max(bounds.minZ, from.z - maxLength, Math.min(from.z, to.z) - DETOUR_MARGIN);
  const maxZ = Math.min(bounds.maxZ, from.z + maxLength, Math.max(from.z, to.z) + DETOUR_MARGIN);
  const w = maxX - minX + 1;
  const { heap: open, generation: gen, seen, closed, g, parent } = scratchFor(w * (maxZ - minZ + 1));
  // Box coordinates (bx, bz) to the map's cell index: (bz + oz) * mapWidth + bx + ox.
  const ox = minX - bounds.minX;
  const oz = minZ - bounds.minZ;
  const tx = to.x - minX;
  const tz = to.z - minZ;
  const heuristic = (bx: number, bz: number) => Math.max(Math.abs(bx - tx), Math.abs(bz - tz));
  const straight = (bx: number, bz: number) => (bx - tx) ** 2 + (bz - tz) ** 2;
  const bw = w - 1;
  const bd = maxZ - minZ;

  const start = (from.z - minZ) * w + (from.x - minX);
  seen[start] = gen;
  g[start] = 0;
  open.push(start, heuristic(from.x - minX, from.z - minZ) * TIE);
  let best = start;
  let bestH = heuristic(from.x - minX, from.z - minZ);
  let bestE = straight(from.x - minX, from.z - minZ);
  let expansions = 0;
  let found = -1;

  while (open.size > 0 && expansions < MAX_EXPANSIONS) {
    const cur = open.pop();
    if (closed[cur] === gen) continue;
    closed[cur] = gen;
    expansions++;
    const cx = cur % w;
    const cz = (cur - cx) / w;
    if (cx === tx && cz === tz) {
      found = cur;
      break;
    }
    // Past the node budget or the box, the walk ends at the closest tile explored: by Chebyshev,
    // then straight-line distance.
    const h = heuristic(cx, cz);
    const e = straight(cx, cz);
    if (h < bestH || (h === bestH && (e < bestE || (e === bestE && g[cur]! < g[best]!)))) {
      best = cur;
      bestH = h;
      bestE = e;
    }
    const gc = g[cur]!;
    if (gc >= maxLength) continue;
    for (let k = 0; k < 8; k++) {
      const dx = STEP_X[k]!;
      const dz = STEP_Z[k]!;
      const nx = cx + dx;
      const nz = cz + dz;
      if (nx < 0 || nx > bw || nz < 0 || nz > bd || cells[(nz + oz) * mapWidth + nx + ox] !== 0) continue;
      // A diagonal step may not cut a corner (CollisionMap.canStep).
      if (dx !== 0 && dz !== 0 && (cells[(cz + oz) * mapWidth + nx + ox] !== 0 || cells[(nz + oz) * mapWidth + cx + ox] !== 0)) continue;
      const ni = nz * w + nx;
      if (closed[ni] === gen) continue;
      if (seen[ni] !== gen || gc + 1 < g[ni]!) {
        seen[ni] = gen;
        g[ni] = gc + 1;
        parent[ni] = cur;
        open.push(ni, (gc + 1 + heuristic(nx, nz)) * TIE + straight(nx, nz));
      }
    }
  }
  if (work !== undefined) work.expansions += expansions;

  const end = found >= 0 ? found : best;
  if (end === start) return { ok: false, reason: "NO_PATH" };
  const path: Tile[] = [];
  for (let i = end; i !== start; i = parent[i]!) path.push({ x: (i % w) + minX, z: Math.floor(i / w) + minZ });
  path.reverse();
  return { ok: true, path, reachesTarget: found >= 0 };
}
