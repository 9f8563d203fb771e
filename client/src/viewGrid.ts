/**
 * The world view's frame of reference (WorldScene.ts): the grid lines of the tiles in view, and the
 * tile at the view's centre, said on the canvas for the scripts that drive the page.
 */
import type * as Phaser from "phaser";

/** The world's bounds in tiles (the collision map's). */
interface Bounds {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

/**
 * The grid lines of the tiles in view (a few dozen lines), redrawn when the view moves a tile.
 * `drawnFor`: where it was last drawn for; returns where it is drawn for now.
 */
export function drawGrid(grid: Phaser.GameObjects.Graphics, view: Phaser.Geom.Rectangle, b: Bounds, tile: number, drawnFor: string): string {
  const x0 = Math.max(b.minX, Math.floor(view.x / tile));
  const x1 = Math.min(b.maxX + 1, Math.ceil(view.right / tile));
  const z0 = Math.max(b.minZ, Math.floor(view.y / tile));
  const z1 = Math.min(b.maxZ + 1, Math.ceil(view.bottom / tile));
  const key = `${x0},${x1},${z0},${z1}`;
  if (key === drawnFor) return key;
  const g = grid.clear().lineStyle(1, 0x000000, 0.07);
  // On the half pixel: a one-pixel line, not two half-covered ones.
  for (let x = x0; x <= x1; x++) g.lineBetween(x * tile + 0.5, z0 * tile, x * tile + 0.5, z1 * tile);
  for (let z = z0; z <= z1; z++) g.lineBetween(x0 * tile, z * tile + 0.5, x1 * tile, z * tile + 0.5);
  return key;
}

/**
 * The tile at the view's centre, on the canvas as `data-view-center` ("x,z"), or "moving" while
 * the view is between tiles: what a click at an offset from the centre lands on (scripts that
 * drive the page, the browser tests, wait for it before clicking).
 */
export function markViewCenter(canvas: HTMLCanvasElement, view: Phaser.Geom.Rectangle, tile: number): void {
  const fx = view.centerX / tile;
  const fz = view.centerY / tile;
  const centred = Math.abs(fx - Math.floor(fx) - 0.5) < 0.1 && Math.abs(fz - Math.floor(fz) - 0.5) < 0.1;
  const at = centred ? `${Math.floor(fx)},${Math.floor(fz)}` : "moving";
  if (canvas.dataset.viewCenter !== at) canvas.dataset.viewCenter = at;
}
