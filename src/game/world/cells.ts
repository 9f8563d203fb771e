/**
 * The spatial index of the world: things on the map listed by square cells of CELL × CELL tiles,
 * so "what is within r tiles of here" walks a few cells instead of the whole world (LostCity keeps
 * its zone grid apart from the world the same way). Used for players, resource nodes and the
 * `/ws` replica of what each client sees.
 */
import type { Tile } from "../map/CollisionMap.ts";

/** Spatial-index cell size in tiles: a view (33 × 33 tiles) spans 5 × 5 or 6 × 6 cells. */
export const CELL = 8;

/** Something kept in a spatial index: its cell's key and its place in that cell's list (-1: none). */
export interface Celled {
  x: number;
  z: number;
  cellKey: number;
  cellSlot: number;
}

/** Puts `e` in the list of the cell it stands in (moving it out of its old one). */
export function indexInCell<T extends Celled>(cells: Map<number, T[]>, e: T): void {
  const key = cellKey(Math.floor(e.x / CELL), Math.floor(e.z / CELL));
  if (e.cellKey === key) return;
  unindexFromCell(cells, e);
  let list = cells.get(key);
  if (list === undefined) cells.set(key, (list = []));
  e.cellKey = key;
  e.cellSlot = list.length;
  list.push(e);
}

/** Takes `e` out of its cell's list (the last of the list takes its place). */
export function unindexFromCell<T extends Celled>(cells: Map<number, T[]>, e: T): void {
  if (e.cellKey < 0) return;
  const list = cells.get(e.cellKey)!;
  const last = list.pop()!;
  if (last !== e) {
    list[e.cellSlot] = last;
    last.cellSlot = e.cellSlot;
  }
  e.cellKey = -1;
  e.cellSlot = -1;
}

/** Calls `fn` for everything in `cells` within `radius` tiles (Chebyshev) of a tile. */
export function forEachInCells<T extends { x: number; z: number }>(cells: Map<number, T[]>, at: Tile, radius: number, fn: (e: T) => void): void {
  const x = at.x;
  const z = at.z;
  const cx1 = Math.floor((x + radius) / CELL);
  const cz1 = Math.floor((z + radius) / CELL);
  for (let cx = Math.floor((x - radius) / CELL); cx <= cx1; cx++) {
    for (let cz = Math.floor((z - radius) / CELL); cz <= cz1; cz++) {
      const list = cells.get(cellKey(cx, cz));
      if (list === undefined) continue;
      for (let i = 0; i < list.length; i++) {
        const e = list[i]!;
        if (Math.abs(e.x - x) <= radius && Math.abs(e.z - z) <= radius) fn(e);
      }
    }
  }
}

/** The spatial-index key of a cell (cell coordinates, not tiles). */
export function cellKey(cx: number, cz: number): number {
  // Cells fit in 16 bits each way for worlds up to ±500k tiles.
  return (cx + 32768) * 65536 + (cz + 32768);
}

/**
 * A spatial index of things that never move (resource nodes): built at the first look, and again
 * only if the number of things changes.
 */
export class FixedCells<T extends { x: number; z: number }> {
  private built: { size: number; cells: Map<number, T[]> } | undefined;

  /** The things of `all` by spatial cell. */
  of(all: ReadonlyMap<string, T>): Map<number, T[]> {
    if (this.built?.size === all.size) return this.built.cells;
    const cells = new Map<number, T[]>();
    for (const r of all.values()) {
      const key = cellKey(Math.floor(r.x / CELL), Math.floor(r.z / CELL));
      const list = cells.get(key);
      if (list === undefined) cells.set(key, [r]);
      else list.push(r);
    }
    this.built = { size: all.size, cells };
    return cells;
  }
}
