/**
 * The way your walk takes, shown on the world view (WorldScene.ts): a dot on each tile ahead and a
 * marker where it ends. It is the path the server's own pathfinding (src/game/map/pathfinding.ts)
 * finds on the same collision map; the tiles behind you drop off as you walk, and where the server
 * went its own way (a moving target, a new action) it is found again from where you are.
 */
import type * as Phaser from "phaser";
import { chebyshev, type CollisionMap, type Tile } from "../../src/game/map/CollisionMap.ts";
import { findPath } from "../../src/game/map/pathfinding.ts";

export class WalkPath {
  private readonly collision: CollisionMap;
  /** Pixels per tile. */
  private readonly tile: number;
  private readonly dots: Phaser.GameObjects.Graphics;
  private readonly marker: Phaser.GameObjects.Rectangle;
  /** The path being walked (tiles still ahead) and where it ends. */
  private path: { tiles: Tile[]; goal: Tile; reach: number } | undefined;

  /** Drawn in `scene` at `depth`, over `collision`, at `tile` pixels a tile. */
  constructor(scene: Phaser.Scene, collision: CollisionMap, tile: number, depth: number) {
    this.collision = collision;
    this.tile = tile;
    this.dots = scene.add.graphics().setDepth(depth);
    this.marker = scene.add.rectangle(0, 0, tile, tile).setStrokeStyle(2, 0xffff00).setVisible(false).setDepth(depth);
  }

  /**
   * Shows the way from `from` (your tile) to `goal` (or as near as `reach` tiles of it). Nothing is
   * shown when there is no way.
   */
  show(from: Tile, goal: Tile, reach = 0): void {
    if (reach > 0 && chebyshev(from, goal) <= reach) return this.clear();
    const r = findPath(this.collision, from, goal);
    // The walk ends at the first tile within reach (next to a tree, not in it).
    const tiles = r.ok ? r.path.slice(0, r.path.findIndex((t) => chebyshev(t, goal) <= reach) + 1 || undefined) : [];
    this.path = tiles.length > 0 ? { tiles, goal, reach } : undefined;
    const end = this.path?.tiles.at(-1) ?? goal;
    this.marker.setPosition(this.center(end.x), this.center(end.z)).setVisible(this.path !== undefined || reach === 0);
    this.draw();
  }

  clear(): void {
    this.path = undefined;
    this.marker.setVisible(false);
    this.draw();
  }

  /** The tiles of the path still ahead. */
  ahead(): Tile[] {
    return this.path?.tiles.slice() ?? [];
  }

  /** You arrived at a tile: the path drops what is behind, or is found again from here. */
  walked(at: Tile): void {
    const p = this.path;
    if (p === undefined) return;
    const i = p.tiles.findIndex((t) => t.x === at.x && t.z === at.z);
    if (i === p.tiles.length - 1 || chebyshev(at, p.goal) <= p.reach) {
      this.clear();
      return;
    }
    if (i >= 0) p.tiles.splice(0, i + 1);
    else {
      // The server went its own way (a moving target, a new action): follow it from here.
      const r = findPath(this.collision, at, p.goal);
      if (!r.ok || r.path.length === 0) return this.clear();
      p.tiles = r.path;
    }
    this.draw();
  }

  private center(t: number): number {
    return (t + 0.5) * this.tile;
  }

  private draw(): void {
    const g = this.dots.clear();
    const p = this.path;
    if (p === undefined) return;
    g.fillStyle(0xffff00, 0.85);
    for (const t of p.tiles.slice(0, -1)) g.fillCircle(this.center(t.x), this.center(t.z), 4);
  }
}
