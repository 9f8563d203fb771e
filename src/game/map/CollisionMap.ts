/**
 * Which tiles can be walked on: the world's bounds minus the content's blocked rectangles, the
 * tiles that objects stand on (trees, rocks, stations, ladders, obstacles) and shut doors. A flat byte grid over the bounds, so a
 * lookup is one array read on the hot path.
 *
 * It also knows the map's connected regions (the walkable tiles one can walk between), labelled
 * once after the last change, so "is there any path from here to there" is two array reads
 * instead of a search that floods a whole region (an attack on the tick: see pathfinding.ts).
 */
import type { Bounds } from "../../manifests/registry.ts";

export interface Tile {
  x: number;
  z: number;
}

export class CollisionMap {
  readonly bounds: Readonly<Bounds>;
  readonly width: number;
  readonly depth: number;
  /** 1 = blocked. Index: (z - minZ) * width + (x - minX). Read-only outside this class (the path search reads it directly). */
  readonly cells: Uint8Array;
  /** Region label per tile (0: blocked), same index; computed on first use after a change. */
  private regions: Int32Array | undefined;

  constructor(bounds: Bounds) {
    this.bounds = { ...bounds };
    this.width = bounds.maxX - bounds.minX + 1;
    this.depth = bounds.maxZ - bounds.minZ + 1;
    if (!Number.isInteger(this.width) || !Number.isInteger(this.depth) || this.width <= 0 || this.depth <= 0) {
      throw new Error(`invalid world bounds ${JSON.stringify(bounds)}`);
    }
    this.cells = new Uint8Array(this.width * this.depth);
  }

  inBounds(x: number, z: number): boolean {
    return x >= this.bounds.minX && x <= this.bounds.maxX && z >= this.bounds.minZ && z <= this.bounds.maxZ;
  }

  isWalkable(x: number, z: number): boolean {
    return this.inBounds(x, z) && this.cells[(z - this.bounds.minZ) * this.width + (x - this.bounds.minX)] === 0;
  }

  block(area: Bounds): void {
    this.regions = undefined;
    for (let z = Math.max(area.minZ, this.bounds.minZ); z <= Math.min(area.maxZ, this.bounds.maxZ); z++) {
      for (let x = Math.max(area.minX, this.bounds.minX); x <= Math.min(area.maxX, this.bounds.maxX); x++) {
        this.cells[(z - this.bounds.minZ) * this.width + (x - this.bounds.minX)] = 1;
      }
    }
  }

  blockTile(x: number, z: number): void {
    this.block({ minX: x, maxX: x, minZ: z, maxZ: z });
  }

  /** Opens one tile again (a door swung open); outside the bounds, nothing. */
  unblockTile(x: number, z: number): void {
    if (!this.inBounds(x, z)) return;
    this.regions = undefined;
    this.cells[(z - this.bounds.minZ) * this.width + (x - this.bounds.minX)] = 0;
  }

  /**
   * The connected region of a tile: walkable tiles share a label exactly when a path joins them;
   * 0 for a blocked or out-of-bounds tile.
   */
  regionOf(x: number, z: number): number {
    if (!this.inBounds(x, z)) return 0;
    this.regions ??= this.labelRegions();
    return this.regions[(z - this.bounds.minZ) * this.width + (x - this.bounds.minX)]!;
  }

  /**
   * Labels the regions with a flood fill over orthogonal neighbours. That is the same
   * connectivity as walking's: a diagonal step needs both orthogonal tiles walkable
   * ({@link canStep}), so it can always be replaced by two orthogonal steps.
   */
  private labelRegions(): Int32Array {
    const { width, depth, cells } = this;
    const labels = new Int32Array(width * depth);
    const stack = new Int32Array(width * depth);
    let next = 0;
    for (let start = 0; start < labels.length; start++) {
      if (cells[start] !== 0 || labels[start] !== 0) continue;
      const label = ++next;
      let top = 0;
      stack[top++] = start;
      labels[start] = label;
      while (top > 0) {
        const i = stack[--top]!;
        const x = i % width;
        const visit = (j: number) => {
          if (cells[j] === 0 && labels[j] === 0) {
            labels[j] = label;
            stack[top++] = j;
          }
        };
        if (x > 0) visit(i - 1);
        if (x < width - 1) visit(i + 1);
        if (i >= width) visit(i - width);
        if (i < width * (depth - 1)) visit(i + width);
      }
    }
    return labels;
  }

  /**
   * A single step from (x, z) by (dx, dz) in -1..1: the target must be walkable, and a diagonal
   * step may not cut a corner (both orthogonal neighbours must be walkable too), as in RuneScape.
   */
  canStep(x: number, z: number, dx: number, dz: number): boolean {
    if (!this.isWalkable(x + dx, z + dz)) return false;
    if (dx !== 0 && dz !== 0) return this.isWalkable(x + dx, z) && this.isWalkable(x, z + dz);
    return true;
  }
}

/** Chebyshev distance: the number of 8-directional steps between two tiles on open ground. */
export function chebyshev(a: Tile, b: Tile): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));
}
