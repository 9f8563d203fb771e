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
import { spawnStations } from "../../src/game/world/spawn.ts";
import { Ground } from "./art/ground.ts";
import { fadeOut, flash, lunge, pose, wear } from "./art/motion.ts";
import type { Content } from "./content.ts";
import type { HitStyle } from "./hitSplats.ts";
import { Overlays, type Overlaid } from "./overlays.ts";
import { drawRock, drawUnderground } from "./places.ts";
import { drawGrid, markViewCenter } from "./viewGrid.ts";
import { stationSprite } from "./sprites.ts";
import { TouchPress } from "./touchPress.ts";
import type { Sprite } from "./art/sprite.ts";
import { WalkPath } from "./walkPath.ts";

export type { Tile };

/** Pixels per tile. */
export const TILE = 32;
/** A change of tile farther than this (tiles) is a teleport (a respawn): drawn at once, not slid. */
const TELEPORT_TILES = 3;

/** Where a menu should open, in page pixels, and for what. */
export interface TileMenuRequest {
  tile: Tile;
  /** Ids of what is drawn on the tile (entities, players, stations), topmost first; never you. */
  ids: string[];
  pageX: number;
  pageY: number;
  /** True for a secondary click or the keyboard: the menu opens (even on an empty tile); false: a primary click, which does the top action. */
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

/** Something drawn: its name, bar and splats (overlays.ts), and its slide from one tile to the next. */
interface Drawn extends Overlaid {
  /** What it is called (the hover line shows it). */
  name: string;
  tile: Tile;
  from: { x: number; y: number };
  to: { x: number; y: number };
  start: number;
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
const DEPTH = {
  ground: 0,
  areaName: 1,
  path: 2,
  station: 3,
  entity: 4,
  player: 5,
  me: 6,
  roof: 7,
  playerLabel: 8,
  bar: 10,
  effect: 11,
  cursor: 12,
  hover: 13,
} as const;
/** How often the name labels are decluttered and the hover line named again (ms): they follow what moves. */
const DECLUTTER_MS = 100;

export class WorldScene extends Phaser.Scene {
  private readonly drawn = new Map<string, Drawn>();
  private cursor!: Phaser.GameObjects.Rectangle;
  private cursorTile: Tile | undefined;
  private grid!: Phaser.GameObjects.Graphics;
  /** The ground, the water's surface and the roofs (client/src/art/ground.ts). */
  private ground!: Ground;
  /** The line at the view's top left naming what is under the pointer or the tile cursor. */
  private hover!: Phaser.GameObjects.Text;
  /** Where the grid was drawn for (the camera's scroll, in whole tiles). */
  private gridAt = "";
  /** The way your walk takes (walkPath.ts). */
  private walk!: WalkPath;
  private following: string | undefined;
  /** The names, health bars, hit splats and xp drops on what is drawn (overlays.ts). */
  private readonly overlays: Overlays;
  private readonly host: SceneHost;
  /** Resolves once create() has run: objects can be placed from then on. */
  readonly ready: Promise<void>;
  private created!: () => void;

  constructor(host: SceneHost) {
    super({ key: "world" });
    this.host = host;
    this.overlays = new Overlays(this, TILE, { label: DEPTH.playerLabel, bar: DEPTH.bar, effect: DEPTH.effect }, () => host.tickMs());
    this.ready = new Promise((resolve) => (this.created = resolve));
  }

  create(): void {
    const { registry, collision } = this.host.content;
    const b = collision.bounds;
    // The ground as pixel art by biome and surface, the water's moving surface and the roofs
    // (client/src/art/ground.ts: a few large textures, one quad each, for the software GPU's sake).
    this.ground = new Ground(this, this.host.content, TILE, { ground: DEPTH.ground, water: DEPTH.ground, roof: DEPTH.roof });
    // The underground regions (places.ts): rock between them and the surface, their darker floor.
    const under = this.add.graphics().setDepth(DEPTH.ground);
    drawRock(under, registry, TILE);
    drawUnderground(under, registry, TILE);
    // The tile grid: only the lines in view, drawn again when the camera moves (see update()).
    this.grid = this.add.graphics().setDepth(DEPTH.ground);
    for (const area of registry.areas) {
      const a = area.bounds;
      this.add
        .text(a.minX * TILE + 6, a.minZ * TILE + 4, area.name, {
          fontFamily: "sans-serif",
          fontSize: "16px",
          fontStyle: "bold",
          color: "#fff8e1",
          stroke: "#00000099",
          strokeThickness: 3,
        })
        .setDepth(DEPTH.areaName);
    }
    // Stations (ranges, furnaces, anvils, bank booths) are content, not synced state.
    const stationNames = new Map(registry.stations.map((s) => [s.type, s.name]));
    for (const s of spawnStations(registry)) {
      this.place(s.id, stationSprite(s.type, stationNames.get(s.type) ?? s.type), s.x, s.z);
    }

    this.walk = new WalkPath(this, collision, TILE, DEPTH.path);
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
      if (!pointer.wasTouch) return;
      this.hoverPointer = undefined;
      touch.up();
    });
    const touch = new TouchPress(this.game.canvas);
    this.input.on("pointermove", (pointer: Phaser.Input.Pointer) => {
      if (pointer.wasTouch) touch.move(pointer.x, pointer.y);
    });
    this.input.mouse?.disableContextMenu();
    this.input.on("pointerdown", (pointer: Phaser.Input.Pointer) => {
      const tile = tileAt(pointer.worldX, pointer.worldY);
      const act = (always: boolean, pageX: number, pageY: number) => {
        const ids = this.idsAt(tile);
        if (ids.length > 0 || always) {
          this.host.openTileMenu({ tile, ids, pageX, pageY, always });
          return;
        }
        // A wall or water too: the server walks to the nearest reachable tile (pathfinding.ts).
        this.host.walkTo(tile);
      };
      if (pointer.wasTouch) {
        // A touch has no right button: a long press opens the menu, a tap is a left click (touchPress.ts).
        const rect = this.game.canvas.getBoundingClientRect();
        const at = { x: rect.left + window.scrollX + pointer.x, y: rect.top + window.scrollY + pointer.y };
        touch.down(pointer.x, pointer.y, (always) => act(always, at.x, at.y));
        return;
      }
      const ev = pointer.event as MouseEvent;
      act(pointer.rightButtonDown(), ev.pageX, ev.pageY);
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

  /** Where something is drawn now (world pixels, sliding between tiles), if it is drawn. */
  positionOf(id: string): { x: number; y: number } | undefined {
    const d = this.drawn.get(id);
    return d === undefined ? undefined : { x: d.shape.x, y: d.shape.y };
  }

  /** The tile something is drawn at (its synced tile), if it is drawn. */
  tileOf(id: string): Tile | undefined {
    return this.drawn.get(id)?.tile;
  }

  /** Adds or updates something at a tile: a change of tile slides it there over one tick. */
  place(id: string, sprite: Sprite, x: number, z: number): void {
    const off = OFFSET[sprite.kind];
    const to = { x: center(x) + (off?.x ?? 0), y: center(z) + (off?.y ?? 0) };
    let d = this.drawn.get(id);
    const mine = id === this.host.playerId();
    if (d === undefined) {
      // Each look is a texture drawn once and shared (client/src/art/draw.ts): a kind of NPC is one
      // more quad of the same texture, which the renderer batches.
      const shape = this.add.image(0, 0, "__DEFAULT");
      const label = this.overlays.label(sprite, mine, to);
      // You are drawn over another player on your tile, not under.
      shape
        .setPosition(to.x, to.y)
        .setDepth(mine ? DEPTH.me : sprite.kind === "player" ? DEPTH.player : sprite.kind === "station" ? DEPTH.station : DEPTH.entity);
      d = {
        kind: sprite.kind,
        shape,
        name: sprite.label,
        label,
        tile: { x, z },
        from: to,
        to,
        start: 0,
        health: 0,
        maxHealth: 0,
        barUntil: 0,
        at: { ...to },
        splats: [],
      };
      this.drawn.set(id, d);
    } else if (d.tile.x !== x || d.tile.z !== z) {
      const far = chebyshev(d.tile, { x, z }) > TELEPORT_TILES;
      d.from = far ? to : { ...d.at };
      d.to = to;
      d.start = this.time.now;
      d.tile = { x, z };
      if (mine) this.walk.walked({ x, z });
    }
    // Depleted resources are drawn so (a stump, a bare rock), and their name says so.
    wear(this, d.shape, sprite.look);
    d.name = sprite.label;
    this.overlays.synced(d, sprite);
    if (mine && this.following !== id) {
      this.following = id;
      this.cameras.main.startFollow(d.shape, true);
    }
  }

  remove(id: string): void {
    const d = this.drawn.get(id);
    if (d === undefined) return;
    this.drawn.delete(id);
    // What died fades out where it fell; anything else (out of view, picked up) goes at once.
    if (d.maxHealth > 0 && d.health === 0) {
      this.overlays.remove(d);
      fadeOut(this, d.shape, () => {});
    } else {
      d.shape.destroy();
      this.overlays.remove(d);
    }
  }

  /**
   * Shows the way from your tile to `goal` (or as near as `reach` tiles of it): the path the
   * server's pathfinding finds there on the same map (walkPath.ts). Nothing is shown when there is no way.
   */
  showPath(goal: Tile, reach = 0): void {
    const me = this.drawn.get(this.host.playerId() ?? "");
    if (me !== undefined) this.walk.show(me.tile, goal, reach);
  }

  clearPath(): void {
    this.walk.clear();
  }

  /** The tiles of the path still ahead (for tests and the accessible position line). */
  pathAhead(): Tile[] {
    return this.walk.ahead();
  }

  /**
   * A hit splat on something's body (overlays.ts, hitSplats.ts): the damage on red, a miss on
   * blue, and a badge for the style. It flashes, and shows its health bar for the next ticks.
   */
  hitSplat(id: string, damage: number, style: HitStyle): void {
    const d = this.drawn.get(id);
    if (d === undefined) return;
    flash(this, d.shape);
    this.overlays.splat(d, damage, style);
  }

  /** The attacker leans toward its target (a hit or a miss). */
  lunge(attackerId: string, targetId: string): void {
    const a = this.drawn.get(attackerId);
    const t = this.drawn.get(targetId);
    if (a !== undefined && t !== undefined) lunge(a.shape, t.to, this.time.now);
  }

  /** Text rising from something: xp drops, level-ups. */
  floatText(id: string, message: string, color = "#ffe082"): void {
    const d = this.drawn.get(id);
    if (d !== undefined) this.overlays.rise(id, d, message, color);
  }

  override update(time: number): void {
    this.gridAt = drawGrid(this.grid, this.cameras.main.worldView, this.host.content.collision.bounds, TILE, this.gridAt);
    markViewCenter(this.game.canvas, this.cameras.main.worldView, TILE);
    this.ground.update(this, time, this.drawn.get(this.host.playerId() ?? "")?.tile);
    const span = this.host.tickMs();
    for (const d of this.drawn.values()) {
      const t = Math.min(1, (time - d.start) / span);
      const [x, y] = [d.from.x + (d.to.x - d.from.x) * t, d.from.y + (d.to.y - d.from.y) * t];
      const posed = pose(d.shape, x, y, t, time);
      d.shape.setPosition(posed.x, posed.y);
      // Its name, bar and splats stay over its tile while it leans into a hit (overlays.ts).
      this.overlays.follow(d, x, y, time);
    }
    const you = this.drawn.get(this.host.playerId() ?? "");
    this.overlays.keepOffYou(this.drawn.values(), you);
    if (time >= this.declutterAt) {
      this.declutterAt = time + DECLUTTER_MS;
      this.overlays.tidy(this.drawn, you);
      // What walked onto or off the tile under a still pointer, and the tile it is over now that
      // the view may have followed your walk.
      if (this.hoverPointer !== undefined) {
        const at = this.cameras.main.getWorldPoint(this.hoverPointer.x, this.hoverPointer.y);
        this.showHover(tileAt(at.x, at.y));
      } else this.showHover(this.hoverTile);
    }
  }

  /** Scene time of the next tidying of the names and the hover line. */
  private declutterAt = 0;
}
