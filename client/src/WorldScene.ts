/**
 * The world view (Phaser): the content's ground, blocked tiles, area names and stations, and the
 * synced players and entities, each drawn where the room's state puts it and slid between tiles
 * over one tick. The scene only reads the state the Colyseus SDK keeps in sync; it never changes
 * it. What a click means is the host's business: a click on a tile with something on it asks the
 * host for that tile's menu, a click on an empty walkable tile walks there; the walk's path is the
 * one the server's own pathfinding (src/game/map/pathfinding.ts) finds on the same collision map.
 *
 * Keyboard: the canvas takes focus; the arrow keys move a tile cursor (from your tile), Enter or
 * Space opens that tile's menu, Escape puts the cursor away.
 */
import * as Phaser from "phaser";
import { chebyshev, type Tile } from "../../src/game/map/CollisionMap.ts";
import { findPath } from "../../src/game/map/pathfinding.ts";
import { spawnStations } from "../../src/game/world/spawn.ts";
import type { Content } from "./content.ts";
import { visibleLabels } from "./labels.ts";

export type { Tile };

/** Pixels per tile. */
export const TILE = 32;
/** A change of tile farther than this (tiles) is a teleport (a respawn): drawn at once, not slid. */
const TELEPORT_TILES = 3;
/** How long a health bar stays after a hit on a healthy target (ms). */
const HEALTH_BAR_MS = 6_000;

/** Where a menu should open, in page pixels, and for what. */
export interface TileMenuRequest {
  tile: Tile;
  /** Ids of what is drawn on the tile (entities, players, stations), topmost first; never you. */
  ids: string[];
  pageX: number;
  pageY: number;
  /** True for a secondary click or the keyboard: the menu opens even on an empty tile. */
  always: boolean;
}

/** What the scene needs from the rest of the client. */
export interface SceneHost {
  content: Content;
  /** The local player's id, once known. */
  playerId(): string | undefined;
  tickMs(): number;
  walkTo(tile: Tile): void;
  openTileMenu(request: TileMenuRequest): void;
}

export type SpriteShape = "circle" | "square" | "triangle" | "diamond" | "ring";

export interface Sprite {
  kind: string;
  label: string;
  color: number;
  shape?: SpriteShape;
  depleted?: boolean;
  health?: number;
  maxHealth?: number;
}

interface Drawn {
  kind: string;
  shape: Phaser.GameObjects.Image;
  /** What it is called (the hover line shows it). */
  name: string;
  /** Players' names float above them; everything else is named by the hover line only. */
  label?: Phaser.GameObjects.Text;
  tile: Tile;
  from: { x: number; y: number };
  to: { x: number; y: number };
  start: number;
  health: number;
  maxHealth: number;
  /** Until when (scene time) the health bar shows although health is full. */
  barUntil: number;
  bar?: { bg: Phaser.GameObjects.Rectangle; fg: Phaser.GameObjects.Rectangle };
}

const center = (t: number) => (t + 0.5) * TILE;
/** The tile at a point of the world (pixels). */
const tileAt = (x: number, y: number): Tile => ({ x: Math.floor(x / TILE), z: Math.floor(y / TILE) });
/** The order of the things of a tile in its menu (unknown kinds last). */
const MENU_ORDER = ["player", "npc", "item", "object", "resource", "station", ""];
/**
 * Where on its tile each kind is drawn (pixels from the centre): ground items in a corner and fires
 * larger than a player, so that someone standing there does not hide them.
 */
const OFFSET: Record<string, { x: number; y: number }> = { item: { x: 10, y: 10 } };

/** Depths, bottom to top. */
const DEPTH = { ground: 0, areaName: 1, path: 2, station: 3, entity: 4, player: 5, playerLabel: 7, myLabel: 8, bar: 9, effect: 10, cursor: 11, hover: 12 } as const;
/** A player's name sits this far above the centre of its tile (over the health bar's place). */
const NAME_DY = -TILE * 0.5 - 7;
/** How often the name labels are decluttered and the hover line named again (ms): they follow what moves. */
const DECLUTTER_MS = 100;

export class WorldScene extends Phaser.Scene {
  private readonly drawn = new Map<string, Drawn>();
  private marker!: Phaser.GameObjects.Rectangle;
  private cursor!: Phaser.GameObjects.Rectangle;
  private cursorTile: Tile | undefined;
  private pathGraphics!: Phaser.GameObjects.Graphics;
  private grid!: Phaser.GameObjects.Graphics;
  /** The line at the view's top left naming what is under the pointer or the tile cursor. */
  private hover!: Phaser.GameObjects.Text;
  /** Where the grid was drawn for (the camera's scroll, in whole tiles). */
  private gridAt = "";
  /** The path being walked (tiles still ahead) and where it ends. */
  private path: { tiles: Tile[]; goal: Tile; reach: number } | undefined;
  private following: string | undefined;
  /** How many rising texts each thing has now (they stack). */
  private readonly floating = new Map<string, number>();
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
    // The ground, as few and as small fills as can be: a headless browser draws with a software GPU
    // (SwiftShader), where every pixel filled costs, so the world's land is the canvas' clear
    // colour (see main.ts), each area one rectangle over it (larger first, a safe town lighter) and
    // each of the content's blocked rectangles (buildings, walls, water) one more. (A Graphics of
    // the whole map tile by tile, then a tilemap, were full-view textured passes every frame.)
    const ground = this.add.graphics().setDepth(DEPTH.ground);
    const area = (r: { minX: number; maxX: number; minZ: number; maxZ: number }) => (r.maxX - r.minX + 1) * (r.maxZ - r.minZ + 1);
    for (const a of [...registry.areas].sort((p, q) => area(q.bounds) - area(p.bounds))) {
      const r = a.bounds;
      ground.fillStyle(a.safeZone ? 0x8a9a5b : 0x4f7d3f).fillRect(r.minX * TILE, r.minZ * TILE, (r.maxX - r.minX + 1) * TILE, (r.maxZ - r.minZ + 1) * TILE);
    }
    ground.fillStyle(0x5b5048);
    for (const r of registry.world.blocked) ground.fillRect(r.minX * TILE, r.minZ * TILE, (r.maxX - r.minX + 1) * TILE, (r.maxZ - r.minZ + 1) * TILE);
    // The tile grid: only the lines in view, drawn again when the camera moves (see update()).
    this.grid = this.add.graphics().setDepth(DEPTH.ground);
    for (const area of registry.areas) {
      const a = area.bounds;
      this.add
        .text(a.minX * TILE + 6, a.minZ * TILE + 4, area.name, { fontFamily: "sans-serif", fontSize: "16px", fontStyle: "bold", color: "#fff8e1", stroke: "#00000099", strokeThickness: 3 })
        .setDepth(DEPTH.areaName);
    }
    // Stations (ranges, furnaces, anvils, bank booths) are content, not synced state.
    const stationNames = new Map(registry.stations.map((s) => [s.type, s.name]));
    for (const s of spawnStations(registry)) {
      this.place(s.id, { kind: "station", label: stationNames.get(s.type) ?? s.type, color: 0x6d4c41, shape: "square" }, s.x, s.z);
    }

    this.pathGraphics = this.add.graphics().setDepth(DEPTH.path);
    this.marker = this.add.rectangle(0, 0, TILE, TILE).setStrokeStyle(2, 0xffff00).setVisible(false).setDepth(DEPTH.path);
    this.cursor = this.add.rectangle(0, 0, TILE, TILE).setStrokeStyle(3, 0x4fc3f7).setVisible(false).setDepth(DEPTH.cursor);
    this.cameras.main.setBounds(b.minX * TILE, b.minZ * TILE, (b.maxX - b.minX + 1) * TILE, (b.maxZ - b.minZ + 1) * TILE);

    this.hover = this.add
      .text(8, 8, "", { fontFamily: "sans-serif", fontSize: "13px", color: "#fff8e1", backgroundColor: "#000000c0", padding: { x: 5, y: 3 } })
      .setScrollFactor(0)
      .setDepth(DEPTH.hover)
      .setVisible(false);
    this.input.on("pointermove", (pointer: Phaser.Input.Pointer) => {
      this.hoverPointer = { x: pointer.x, y: pointer.y };
      this.showHover(tileAt(pointer.worldX, pointer.worldY));
    });
    this.input.on("gameout", () => {
      this.hoverPointer = undefined;
      this.showHover(undefined);
    });
    // A finger lifted rests nowhere (a touch end is no `gameout`): its tile stays named, but the
    // line does not follow the view from a spot nothing touches.
    this.input.on("pointerup", (pointer: Phaser.Input.Pointer) => {
      if (pointer.wasTouch) this.hoverPointer = undefined;
    });
    this.input.mouse?.disableContextMenu();
    this.input.on("pointerdown", (pointer: Phaser.Input.Pointer) => {
      const tile = tileAt(pointer.worldX, pointer.worldY);
      const ids = this.idsAt(tile);
      const always = pointer.rightButtonDown();
      const ev = pointer.event as MouseEvent;
      if (ids.length > 0 || always) {
        this.host.openTileMenu({ tile, ids, pageX: ev.pageX, pageY: ev.pageY, always });
        return;
      }
      if (collision.isWalkable(tile.x, tile.z)) this.host.walkTo(tile);
    });
    this.keyboardCursor();
    this.created();
  }

  /** The tile cursor: the canvas is focusable and its arrow keys move a cursor over the tiles. */
  private keyboardCursor(): void {
    const canvas = this.game.canvas;
    canvas.tabIndex = 0;
    canvas.setAttribute("aria-keyshortcuts", "ArrowUp ArrowDown ArrowLeft ArrowRight Enter Escape");
    canvas.addEventListener("keydown", (ev) => {
      const steps: Record<string, [number, number]> = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      const step = steps[ev.key];
      if (step !== undefined) {
        const me = this.drawn.get(this.host.playerId() ?? "");
        const from = this.cursorTile ?? me?.tile;
        if (from === undefined) return;
        this.cursorTile = { x: from.x + step[0], z: from.z + step[1] };
        this.cursor.setPosition(center(this.cursorTile.x), center(this.cursorTile.z)).setVisible(true);
        // The keyboard's cursor names its tile from now on, not the resting pointer's.
        this.hoverPointer = undefined;
        this.showHover(this.cursorTile);
      } else if ((ev.key === "Enter" || ev.key === " ") && this.cursorTile !== undefined) {
        const tile = this.cursorTile;
        const p = this.pagePoint(tile);
        this.host.openTileMenu({ tile, ids: this.idsAt(tile), pageX: p.x, pageY: p.y, always: true });
      } else if (ev.key === "Escape") {
        this.cursorTile = undefined;
        this.cursor.setVisible(false);
      } else return;
      ev.preventDefault();
    });
    canvas.addEventListener("blur", () => this.cursor.setVisible(false));
    canvas.addEventListener("focus", () => this.cursor.setVisible(this.cursorTile !== undefined));
  }

  /** The tile the hover line names (undefined: the pointer is off the view); named again as things come and go. */
  private hoverTile: Tile | undefined;
  /**
   * Where the pointer rests on the canvas (screen pixels), when it named the hover line last: the
   * view follows your walk, so the tile under a still pointer changes (undefined: the keyboard's
   * cursor names it, or the pointer is off the view).
   */
  private hoverPointer: { x: number; y: number } | undefined;

  /** Names what is on a tile (you too) in the hover line; nothing there, no line. */
  private showHover(tile: Tile | undefined): void {
    this.hoverTile = tile;
    const names: string[] = [];
    if (tile !== undefined) {
      for (const d of this.drawn.values()) if (d.tile.x === tile.x && d.tile.z === tile.z && !names.includes(d.name)) names.push(d.name);
    }
    const text = names.length > 3 ? `${names.slice(0, 3).join(" / ")} and ${names.length - 3} more` : names.join(" / ");
    if (this.hover.text !== text) {
      this.hover.setText(text);
      // For scripts and tests, as data-view-center.
      this.game.canvas.dataset.hover = text;
    }
    this.hover.setVisible(text !== "");
  }

  /** A tile's centre in page pixels. */
  pagePoint(tile: Tile): { x: number; y: number } {
    const cam = this.cameras.main;
    const rect = this.game.canvas.getBoundingClientRect();
    return {
      x: rect.left + window.scrollX + (center(tile.x) - cam.worldView.x) * cam.zoom,
      y: rect.top + window.scrollY + (center(tile.z) - cam.worldView.y) * cam.zoom,
    };
  }

  /**
   * What is on a tile (where it stands now, or is sliding to), never you: players first, then
   * NPCs, ground items, objects (fires), resources and stations, the order of a menu's options.
   */
  idsAt(tile: Tile): string[] {
    const me = this.host.playerId();
    const out: { id: string; rank: number }[] = [];
    for (const [id, d] of this.drawn) {
      if (id === me) continue;
      if (d.tile.x === tile.x && d.tile.z === tile.z) out.push({ id, rank: MENU_ORDER.indexOf(d.kind) });
    }
    return out.sort((a, b) => a.rank - b.rank).map((o) => o.id);
  }

  /** The tile something is drawn at (its synced tile), if it is drawn. */
  tileOf(id: string): Tile | undefined {
    return this.drawn.get(id)?.tile;
  }

  /**
   * The texture of a look (shape, colour, size), drawn once and shared: every NPC of a kind is one
   * more quad of the same texture, which the renderer batches, where a shape object was a path
   * filled and stroked again every frame (200 of them held a software GPU under 25 frames/s).
   */
  private textureFor(sprite: Sprite): string {
    const shape = sprite.shape ?? (sprite.kind === "item" ? "square" : "circle");
    const color = sprite.depleted ? 0x757575 : sprite.color;
    const key = `look-${sprite.kind === "player" ? "p" : sprite.kind === "item" ? "i" : "e"}-${shape}-${color.toString(16)}`;
    if (this.textures.exists(key)) return key;
    const r = sprite.kind === "player" ? TILE * 0.4 : TILE * 0.35;
    // As small as the look (every pixel of it is drawn each frame): a flame is wider than a tile.
    const size = shape === "triangle" ? Math.ceil(TILE * 1.4) : shape === "square" ? Math.ceil((sprite.kind === "item" ? TILE * 0.4 : TILE * 0.8) + 4) : Math.ceil(2 * r + 4);
    const c = size / 2;
    const g = this.make.graphics({}, false);
    g.fillStyle(color, shape === "ring" ? 0.55 : 1).lineStyle(2, 0x000000, 0.6);
    const polygon = (points: number, inner: number, outer: number) => {
      const pts: Phaser.Math.Vector2[] = [];
      for (let i = 0; i < points * 2; i++) {
        const a = (Math.PI * i) / points - Math.PI / 2;
        const rr = i % 2 === 0 ? outer : inner;
        pts.push(new Phaser.Math.Vector2(c + Math.cos(a) * rr, c + Math.sin(a) * rr));
      }
      g.fillPoints(pts, true).strokePoints(pts, true);
    };
    switch (shape) {
      case "square": {
        const w = sprite.kind === "item" ? TILE * 0.4 : TILE * 0.8;
        g.fillRect(c - w / 2, c - w / 2, w, w).strokeRect(c - w / 2, c - w / 2, w, w);
        break;
      }
      case "triangle":
        // A flame: a spiky star wider than a player, so that it shows around one standing in it.
        polygon(9, TILE * 0.36, TILE * 0.66);
        break;
      case "diamond":
        polygon(4, r * 0.55, r);
        break;
      default:
        g.fillCircle(c, c, r).strokeCircle(c, c, r);
    }
    g.generateTexture(key, size, size);
    g.destroy();
    return key;
  }

  /** Adds or updates something at a tile: a change of tile slides it there over one tick. */
  place(id: string, sprite: Sprite, x: number, z: number): void {
    const off = OFFSET[sprite.kind];
    const to = { x: center(x) + (off?.x ?? 0), y: center(z) + (off?.y ?? 0) };
    let d = this.drawn.get(id);
    const mine = id === this.host.playerId();
    if (d === undefined) {
      const shape = this.add.image(0, 0, this.textureFor(sprite));
      // Only players carry their names (yours topmost where players meet): a crowd of named rats
      // was unreadable, and every label is one more texture to draw each frame.
      const label =
        sprite.kind === "player"
          ? this.add
              .text(to.x, to.y + NAME_DY, sprite.label, { fontFamily: "sans-serif", fontSize: "12px", color: "#ffffff", backgroundColor: "#000000b0", padding: { x: 3, y: 1 } })
              .setOrigin(0.5, 1)
              .setDepth(mine ? DEPTH.myLabel : DEPTH.playerLabel)
          : undefined;
      shape.setPosition(to.x, to.y).setDepth(sprite.kind === "player" ? DEPTH.player : sprite.kind === "station" ? DEPTH.station : DEPTH.entity);
      d = { kind: sprite.kind, shape, name: sprite.label, label, tile: { x, z }, from: to, to, start: 0, health: 0, maxHealth: 0, barUntil: 0 };
      this.drawn.set(id, d);
    } else if (d.tile.x !== x || d.tile.z !== z) {
      const far = chebyshev(d.tile, { x, z }) > TELEPORT_TILES;
      d.from = far ? to : { x: d.shape.x, y: d.shape.y };
      d.to = to;
      d.start = this.time.now;
      d.tile = { x, z };
      if (mine) this.walked({ x, z });
    }
    // Depleted resources: greyed and faded, and their name says so.
    const look = this.textureFor(sprite);
    if (d.shape.texture.key !== look) d.shape.setTexture(look);
    d.shape.setAlpha(sprite.depleted ? 0.45 : 1);
    d.name = sprite.label;
    if (d.label !== undefined && d.label.text !== sprite.label) d.label.setText(sprite.label);
    if (sprite.maxHealth !== undefined && sprite.health !== undefined) {
      if (sprite.health < d.health) d.barUntil = this.time.now + HEALTH_BAR_MS;
      d.health = sprite.health;
      d.maxHealth = sprite.maxHealth;
    }
    if (mine && this.following !== id) {
      this.following = id;
      this.cameras.main.startFollow(d.shape, true);
    }
  }

  remove(id: string): void {
    const d = this.drawn.get(id);
    if (d === undefined) return;
    d.shape.destroy();
    d.label?.destroy();
    d.bar?.bg.destroy();
    d.bar?.fg.destroy();
    this.drawn.delete(id);
  }

  /**
   * Shows the way from your tile to `goal` (or as near as `reach` tiles of it): the path the
   * server's pathfinding finds there on the same map. Nothing is shown when there is no way.
   */
  showPath(goal: Tile, reach = 0): void {
    const me = this.drawn.get(this.host.playerId() ?? "");
    if (me === undefined) return;
    if (reach > 0 && chebyshev(me.tile, goal) <= reach) return this.clearPath();
    const r = findPath(this.host.content.collision, me.tile, goal);
    // The walk ends at the first tile within reach (next to a tree, not in it).
    const tiles = r.ok ? r.path.slice(0, r.path.findIndex((t) => chebyshev(t, goal) <= reach) + 1 || undefined) : [];
    this.path = tiles.length > 0 ? { tiles, goal, reach } : undefined;
    const end = this.path?.tiles.at(-1) ?? goal;
    this.marker.setPosition(center(end.x), center(end.z)).setVisible(this.path !== undefined || reach === 0);
    this.drawPath();
  }

  clearPath(): void {
    this.path = undefined;
    this.marker.setVisible(false);
    this.drawPath();
  }

  /** The tiles of the path still ahead (for tests and the accessible position line). */
  pathAhead(): Tile[] {
    return this.path?.tiles.slice() ?? [];
  }

  /** Your player arrived at a tile: the path drops what is behind, or is found again from here. */
  private walked(at: Tile): void {
    const p = this.path;
    if (p === undefined) return;
    const i = p.tiles.findIndex((t) => t.x === at.x && t.z === at.z);
    if (i === p.tiles.length - 1 || chebyshev(at, p.goal) <= p.reach) {
      this.clearPath();
      return;
    }
    if (i >= 0) p.tiles.splice(0, i + 1);
    else {
      // The server went its own way (a moving target, a new action): follow it from here.
      const r = findPath(this.host.content.collision, at, p.goal);
      if (!r.ok || r.path.length === 0) return this.clearPath();
      p.tiles = r.path;
    }
    this.drawPath();
  }

  private drawPath(): void {
    const g = this.pathGraphics.clear();
    const p = this.path;
    if (p === undefined) return;
    g.fillStyle(0xffff00, 0.85);
    for (const t of p.tiles.slice(0, -1)) g.fillCircle(center(t.x), center(t.z), 4);
  }

  /** A hit splat over something: red with the damage, blue for a miss (0). */
  hitSplat(id: string, damage: number): void {
    const d = this.drawn.get(id);
    if (d === undefined) return;
    d.barUntil = this.time.now + HEALTH_BAR_MS;
    const x = d.shape.x;
    const y = d.shape.y;
    const disc = this.add.circle(x, y, 10, damage > 0 ? 0xc62828 : 0x1565c0).setStrokeStyle(2, 0x000000, 0.7).setDepth(DEPTH.effect);
    const text = this.add.text(x, y, String(damage), { fontFamily: "sans-serif", fontSize: "12px", fontStyle: "bold", color: "#ffffff" }).setOrigin(0.5).setDepth(DEPTH.effect);
    this.tweens.add({ targets: [disc, text], y: y - 14, alpha: 0, delay: 500, duration: 600, onComplete: () => (disc.destroy(), text.destroy()) });
  }

  /** Text rising from something: xp drops, level-ups. */
  floatText(id: string, message: string, color = "#ffe082"): void {
    const d = this.drawn.get(id);
    if (d === undefined) return;
    // Drops that come together (attack and constitution xp of one hit) stack instead of overlapping.
    const rising = this.floating.get(id) ?? 0;
    this.floating.set(id, rising + 1);
    const y = d.shape.y - TILE - 8 - rising * 16;
    const text = this.add
      .text(d.shape.x, y, message, { fontFamily: "sans-serif", fontSize: "13px", fontStyle: "bold", color, stroke: "#000000", strokeThickness: 3 })
      .setOrigin(0.5, 1)
      .setDepth(DEPTH.effect);
    this.tweens.add({
      targets: text,
      y: y - 28,
      alpha: 0,
      duration: 1_800,
      onComplete: () => {
        text.destroy();
        const n = (this.floating.get(id) ?? 1) - 1;
        if (n > 0) this.floating.set(id, n);
        else this.floating.delete(id);
      },
    });
  }

  /** The grid lines of the tiles in view (a few dozen lines), redrawn when the view moves a tile. */
  private drawGrid(): void {
    const view = this.cameras.main.worldView;
    const b = this.host.content.collision.bounds;
    const x0 = Math.max(b.minX, Math.floor(view.x / TILE));
    const x1 = Math.min(b.maxX + 1, Math.ceil(view.right / TILE));
    const z0 = Math.max(b.minZ, Math.floor(view.y / TILE));
    const z1 = Math.min(b.maxZ + 1, Math.ceil(view.bottom / TILE));
    const key = `${x0},${x1},${z0},${z1}`;
    if (key === this.gridAt) return;
    this.gridAt = key;
    const g = this.grid.clear().lineStyle(1, 0x000000, 0.1);
    // On the half pixel: a one-pixel line, not two half-covered ones.
    for (let x = x0; x <= x1; x++) g.lineBetween(x * TILE + 0.5, z0 * TILE, x * TILE + 0.5, z1 * TILE);
    for (let z = z0; z <= z1; z++) g.lineBetween(x0 * TILE, z * TILE + 0.5, x1 * TILE, z * TILE + 0.5);
  }

  /**
   * The tile at the view's centre, on the canvas as `data-view-center` ("x,z"), or "moving" while
   * the view is between tiles: what a click at an offset from the centre lands on (scripts that
   * drive the page, the browser tests, wait for it before clicking).
   */
  private markViewCenter(): void {
    const view = this.cameras.main.worldView;
    const fx = view.centerX / TILE;
    const fz = view.centerY / TILE;
    const centred = Math.abs(fx - Math.floor(fx) - 0.5) < 0.1 && Math.abs(fz - Math.floor(fz) - 0.5) < 0.1;
    const at = centred ? `${Math.floor(fx)},${Math.floor(fz)}` : "moving";
    if (this.game.canvas.dataset.viewCenter !== at) this.game.canvas.dataset.viewCenter = at;
  }

  override update(time: number): void {
    this.drawGrid();
    this.markViewCenter();
    const span = this.host.tickMs();
    for (const d of this.drawn.values()) {
      const t = Math.min(1, (time - d.start) / span);
      const x = d.from.x + (d.to.x - d.from.x) * t;
      const y = d.from.y + (d.to.y - d.from.y) * t;
      d.shape.setPosition(x, y);
      d.label?.setPosition(x, y + NAME_DY);
      this.drawBar(d, x, y, time);
    }
    if (time >= this.declutterAt) {
      this.declutterAt = time + DECLUTTER_MS;
      this.declutterLabels();
      // What walked onto or off the tile under a still pointer, and the tile it is over now that
      // the view may have followed your walk.
      if (this.hoverPointer !== undefined) {
        const at = this.cameras.main.getWorldPoint(this.hoverPointer.x, this.hoverPointer.y);
        this.showHover(tileAt(at.x, at.y));
      } else this.showHover(this.hoverTile);
    }
  }

  /** Scene time of the next declutterLabels. */
  private declutterAt = 0;

  /**
   * Hides the players' name labels that would overlap one nearer to you (yours first; see
   * labels.ts), and says how many are hidden on the canvas (`data-hidden-labels`, for the tests).
   */
  private declutterLabels(): void {
    const me = this.drawn.get(this.host.playerId() ?? "");
    const ax = me?.shape.x ?? this.cameras.main.worldView.centerX;
    const ay = me?.shape.y ?? this.cameras.main.worldView.centerY;
    const labelled = [...this.drawn.values()].flatMap((d) => (d.label === undefined ? [] : [{ label: d.label, dist: d === me ? -1 : Math.max(Math.abs(d.shape.x - ax), Math.abs(d.shape.y - ay)) }]));
    labelled.sort((a, b) => a.dist - b.dist);
    const shown = visibleLabels(labelled.map(({ label }) => ({ x: label.x, bottom: label.y, width: label.width, height: label.height })));
    let hidden = 0;
    labelled.forEach(({ label }, i) => {
      if (label.visible !== shown[i]) label.setVisible(shown[i]!);
      if (!shown[i]) hidden++;
    });
    const said = String(hidden);
    if (this.game.canvas.dataset.hiddenLabels !== said) this.game.canvas.dataset.hiddenLabels = said;
  }

  /** A health bar over a hurt (or lately hit) player or NPC: green over red. */
  private drawBar(d: Drawn, x: number, y: number, time: number): void {
    const show = d.maxHealth > 0 && (d.health < d.maxHealth || time < d.barUntil);
    if (!show) {
      d.bar?.bg.setVisible(false);
      d.bar?.fg.setVisible(false);
      return;
    }
    const w = TILE * 0.8;
    if (d.bar === undefined) {
      const bg = this.add.rectangle(0, 0, w, 4, 0xc62828).setOrigin(0, 0.5).setDepth(DEPTH.bar);
      const fg = this.add.rectangle(0, 0, w, 4, 0x43a047).setOrigin(0, 0.5).setDepth(DEPTH.bar);
      d.bar = { bg, fg };
    }
    const top = y - TILE * 0.5 - 3;
    d.bar.bg.setPosition(x - w / 2, top).setVisible(true);
    d.bar.fg.setPosition(x - w / 2, top).setVisible(true).setSize(Math.max(0, (w * d.health) / d.maxHealth), 4);
  }
}
