/**
 * Which tiles can be walked on: the world's bounds minus the content's blocked rectangles and the
 * tiles that objects stand on (trees, rocks, stations). A flat byte grid over the bounds, so a
 * lookup is one array read on the hot path.
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
  /** 1 = blocked. Index: (z - minZ) * width + (x - minX). */
  private readonly cells: Uint8Array;

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
    for (let z = Math.max(area.minZ, this.bounds.minZ); z <= Math.min(area.maxZ, this.bounds.maxZ); z++) {
      for (let x = Math.max(area.minX, this.bounds.minX); x <= Math.min(area.maxX, this.bounds.maxX); x++) {
        this.cells[(z - this.bounds.minZ) * this.width + (x - this.bounds.minX)] = 1;
      }
    }
  }

  blockTile(x: number, z: number): void {
    this.block({ minX: x, maxX: x, minZ: z, maxZ: z });
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
