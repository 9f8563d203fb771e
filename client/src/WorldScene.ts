/**
 * The world view (Phaser): the content's ground and blocked tiles, and the synced players and
 * entities, each drawn where the room's state puts it and slid between tiles over one tick. The
 * scene only reads the state the Colyseus SDK keeps in sync; it never changes it. A click on a
 * walkable tile asks the server to walk there (`player:move`).
 */
import * as Phaser from "phaser";
import type { Content } from "./content.ts";

/** Pixels per tile. */
export const TILE = 32;

export interface Tile {
  x: number;
  z: number;
}

/** What the scene needs from the rest of the client. */
export interface SceneHost {
  content: Content;
  /** The local player's id, once known. */
  playerId(): string | undefined;
  tickMs(): number;
  walkTo(tile: Tile): void;
}

export interface Sprite {
  kind: string;
  label: string;
  color: number;
  depleted?: boolean;
}

interface Drawn {
  shape: Phaser.GameObjects.Arc | Phaser.GameObjects.Rectangle;
  label: Phaser.GameObjects.Text;
  /** The label's offset from the shape: players' names above them, everything else's below. */
  labelDy: number;
  from: { x: number; y: number };
  to: { x: number; y: number };
  start: number;
}

const center = (t: number) => (t + 0.5) * TILE;

export class WorldScene extends Phaser.Scene {
  private readonly drawn = new Map<string, Drawn>();
  private marker!: Phaser.GameObjects.Rectangle;
  private following: string | undefined;
  private readonly host: SceneHost;
  /** Resolves once create() has run: objects can be placed from then on. */
  readonly ready: Promise<void>;
  private created!: () => void;

  constructor(host: SceneHost) {
    super({ key: "world" });
    this.host = host;
    this.ready = new Promise((resolve) => (this.created = resolve));
  }

  create(): void {
    const { registry, collision } = this.host.content;
    const b = collision.bounds;
    const g = this.add.graphics();
    // Ground: the world's extent, then each area over it (safe towns lighter), then blocked tiles.
    g.fillStyle(0x3f6b35).fillRect(b.minX * TILE, b.minZ * TILE, (b.maxX - b.minX + 1) * TILE, (b.maxZ - b.minZ + 1) * TILE);
    for (const area of registry.areas) {
      const a = area.bounds;
      g.fillStyle(area.safeZone ? 0x8a9a5b : 0x4f7d3f).fillRect(a.minX * TILE, a.minZ * TILE, (a.maxX - a.minX + 1) * TILE, (a.maxZ - a.minZ + 1) * TILE);
    }
    g.lineStyle(1, 0x000000, 0.08);
    for (let x = b.minX; x <= b.maxX + 1; x++) g.lineBetween(x * TILE, b.minZ * TILE, x * TILE, (b.maxZ + 1) * TILE);
    for (let z = b.minZ; z <= b.maxZ + 1; z++) g.lineBetween(b.minX * TILE, z * TILE, (b.maxX + 1) * TILE, z * TILE);
    g.fillStyle(0x5b5048);
    for (let z = b.minZ; z <= b.maxZ; z++) {
      for (let x = b.minX; x <= b.maxX; x++) if (!collision.isWalkable(x, z)) g.fillRect(x * TILE, z * TILE, TILE, TILE);
    }
    for (const area of registry.areas) {
      const a = area.bounds;
      this.add.text(a.minX * TILE + 6, a.minZ * TILE + 4, area.name, { fontFamily: "sans-serif", fontSize: "14px", color: "#ffffffcc" }).setDepth(1);
    }

    this.marker = this.add.rectangle(0, 0, TILE, TILE).setStrokeStyle(2, 0xffff00).setVisible(false).setDepth(2);
    this.cameras.main.setBounds(b.minX * TILE, b.minZ * TILE, (b.maxX - b.minX + 1) * TILE, (b.maxZ - b.minZ + 1) * TILE);
    this.cameras.main.setBackgroundColor(0x1d2b3a);

    this.input.on("pointerdown", (pointer: Phaser.Input.Pointer) => {
      const tile = { x: Math.floor(pointer.worldX / TILE), z: Math.floor(pointer.worldY / TILE) };
      if (!collision.isWalkable(tile.x, tile.z)) return;
      this.marker.setPosition(center(tile.x), center(tile.z)).setVisible(true);
      this.host.walkTo(tile);
    });
    this.created();
  }

  /** Adds or updates something at a tile: a change of tile slides it there over one tick. */
  place(id: string, sprite: Sprite, x: number, z: number): void {
    const to = { x: center(x), y: center(z) };
    let d = this.drawn.get(id);
    if (d === undefined) {
      const shape = sprite.kind === "item" ? this.add.rectangle(0, 0, TILE * 0.4, TILE * 0.4, sprite.color) : this.add.circle(0, 0, sprite.kind === "player" ? TILE * 0.4 : TILE * 0.35, sprite.color);
      shape.setStrokeStyle(2, 0x000000, 0.6);
      const above = sprite.kind === "player";
      const labelDy = above ? -TILE * 0.5 : TILE * 0.45;
      const label = this.add.text(to.x, to.y + labelDy, sprite.label, { fontFamily: "sans-serif", fontSize: "12px", color: "#ffffff", backgroundColor: "#000000b0", padding: { x: 3, y: 1 } }).setOrigin(0.5, above ? 1 : 0)
        // Things can share a tile: players' names stay on top (yours topmost), each on its own box.
        .setDepth(id === this.host.playerId() ? 8 : sprite.kind === "player" ? 7 : 6);
      shape.setPosition(to.x, to.y).setDepth(sprite.kind === "player" ? 5 : 4);
      d = { shape, label, labelDy, from: to, to, start: 0 };
      this.drawn.set(id, d);
    } else if (d.to.x !== to.x || d.to.y !== to.y) {
      d.from = { x: d.shape.x, y: d.shape.y };
      d.to = to;
      d.start = this.time.now;
    }
    d.shape.setFillStyle(sprite.depleted ? 0x6d6d6d : sprite.color);
    d.label.setText(sprite.label);
    if (id === this.host.playerId() && this.following !== id) {
      this.following = id;
      this.cameras.main.startFollow(d.shape, true);
    }
  }

  remove(id: string): void {
    const d = this.drawn.get(id);
    d?.shape.destroy();
    d?.label.destroy();
    this.drawn.delete(id);
  }

  override update(time: number): void {
    const span = this.host.tickMs();
    for (const d of this.drawn.values()) {
      const t = Math.min(1, (time - d.start) / span);
      const x = d.from.x + (d.to.x - d.from.x) * t;
      const y = d.from.y + (d.to.y - d.from.y) * t;
      d.shape.setPosition(x, y);
      d.label.setPosition(x, y + d.labelDy);
    }
    const me = this.host.playerId();
    if (me !== undefined && this.marker.visible) {
      const d = this.drawn.get(me);
      if (d !== undefined && d.to.x === this.marker.x && d.to.y === this.marker.y && time - d.start >= span) this.marker.setVisible(false);
    }
  }
}
