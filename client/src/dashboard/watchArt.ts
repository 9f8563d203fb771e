/**
 * What the dashboard's Watch view (WatchView.ts) draws: the world around the watched character as
 * the game's world view (WorldScene.ts) draws it, on a plain canvas: the ground's pixel art
 * (art/groundArt.ts, the same canvases the world view makes its textures of), its faint tile grid,
 * the areas' names, the stations, each synced thing in the game's look for it (sprites.ts and
 * art/looks.ts choose it, art/draw.ts draws it), the roofs over the buildings (lifted off the one the
 * character is in), players' and NPCs' names (labels.ts keeps them apart), and the watched
 * character in your blue, ringed in gold.
 *
 * The art is drawn for the world view's 32 pixels a tile; here it is scaled to WATCH_TILE with no
 * smoothing (hard pixels, as in the game).
 */
import { spawnStations } from "../../../src/game/world/spawn.ts";
import { lookCanvas } from "../art/draw.ts";
import { buildingsOf, GP, groundCanvas, inside, ROOF_LABEL, ROOF_SHADOW, roofCanvas, type Building } from "../art/groundArt.ts";
import type { Look } from "../art/looks.ts";
import type { Content } from "../content.ts";
import { NPC_LABELS, visibleLabels } from "../labels.ts";
import { entitySprite, stationSprite, wornLook } from "../sprites.ts";

/** Screen pixels a tile in the Watch view. */
export const WATCH_TILE = 24;
/** Screen pixels a tile in the world view: what the looks are drawn for. */
const WORLD_TILE = 32;
/** Tiles a cached piece of the ground covers, each way. */
const CHUNK = 32;
/** The watched character's ring. */
export const WATCHED_RING = "#ffd54a";

/** One thing of the spectator stream (a `world:update` entry, merged by id). */
export interface WatchEntity {
  id: string;
  kind: "player" | "npc" | "item" | "resource" | "object";
  x: number;
  z: number;
  name?: string;
  ref?: string;
  level?: number;
  quantity?: number;
  depleted?: boolean;
  dead?: boolean;
  open?: boolean;
  health?: number;
  maxHealth?: number;
  /** A player's gear that shows: slot → item id (src/game/worn.ts). */
  worn?: Record<string, string>;
}

/** Where on its tile each kind is drawn, in world-view pixels from the centre (WorldScene's OFFSET). */
const OFFSET: Record<string, { x: number; y: number }> = { item: { x: 10, y: 10 } };
/** Bottom to top, as the world view's depths: stations, things, players, the watched one. */
const LAYER: Record<string, number> = { station: 0, object: 1, resource: 1, item: 1, npc: 1, player: 2 };

/** A look for a thing before the content is in: its name's first letter on a tile. */
function letterLook(e: WatchEntity): Look {
  return { type: "letter", letter: ((e.name ?? e.ref ?? e.kind)[0] ?? "?").toUpperCase(), color: "#6d4c41" };
}

/** The world around one character, drawn as the game draws it; keeps what it drew once (ground pieces, looks, roofs). */
export class WatchArt {
  private content: Content | undefined;
  private readonly ground = new Map<string, HTMLCanvasElement>();
  private readonly looks = new Map<string, HTMLCanvasElement & { frameW: number; frameH: number }>();
  private readonly roofs = new Map<string, HTMLCanvasElement>();
  private buildings: Building[] = [];
  private stations: { id: string; x: number; z: number; look: Look }[] = [];

  /** Forgets what was drawn for another content. */
  private use(content: Content): void {
    if (this.content === content) return;
    this.content = content;
    this.ground.clear();
    this.roofs.clear();
    this.buildings = buildingsOf(content);
    const names = new Map(content.registry.stations.map((s) => [s.type, s.name]));
    this.stations = spawnStations(content.registry).map((s) => ({ ...s, look: stationSprite(s.type, names.get(s.type) ?? s.type).look }));
  }

  private lookImage(look: Look): HTMLCanvasElement & { frameW: number; frameH: number } {
    const key = JSON.stringify(look);
    let image = this.looks.get(key);
    if (image === undefined) {
      if (this.looks.size > 300) this.looks.clear();
      const { c, w, h } = lookCanvas(look);
      image = Object.assign(c, { frameW: w, frameH: h });
      this.looks.set(key, image);
    }
    return image;
  }

  /**
   * Draws the `radius` tiles around `me` (the watched character, named `name`) with `entities` on
   * `g`, a canvas of (2 × radius + 1) × WATCH_TILE pixels each way.
   */
  draw(g: CanvasRenderingContext2D, content: Content | undefined, me: WatchEntity, entities: Iterable<WatchEntity>, name: string, radius: number): void {
    const T = WATCH_TILE;
    const size = (2 * radius + 1) * T;
    const sx = (x: number) => (x - me.x + radius) * T;
    const sz = (z: number) => (z - me.z + radius) * T;
    const near = (x: number, z: number, by = 1) => Math.abs(x - me.x) <= radius + by && Math.abs(z - me.z) <= radius + by;
    g.imageSmoothingEnabled = false;
    g.fillStyle = content === undefined ? "#3f6b2f" : "#1b1410";
    g.fillRect(0, 0, size, size);
    if (content !== undefined) {
      this.use(content);
      this.drawGround(g, content, me, radius);
    }
    this.drawGrid(g, size);
    if (content !== undefined) {
      // The areas' names at their top left corners, as the world view letters them.
      g.font = `bold ${Math.round((16 * T) / WORLD_TILE)}px sans-serif`;
      g.textAlign = "left";
      g.textBaseline = "top";
      for (const a of content.registry.areas) {
        if (!near(a.bounds.minX, a.bounds.minZ, 0)) continue;
        this.text(g, a.name, sx(a.bounds.minX) + 5, sz(a.bounds.minZ) + 3, "#fff8e1", "#00000099");
      }
    }
    const drawn: { x: number; z: number; layer: number; look: Look; kind: string; watched: boolean; label: string }[] = [];
    for (const s of this.stations)
      if (near(s.x, s.z)) drawn.push({ x: s.x, z: s.z, layer: LAYER.station!, look: s.look, kind: "station", watched: false, label: "" });
    for (const e of entities) {
      if (!near(e.x, e.z)) continue;
      const watched = e.id === me.id;
      const sprite =
        e.kind === "player"
          ? { label: e.name ?? "", look: wornLook(content, e.name ?? "", e.worn === undefined ? "" : JSON.stringify(e.worn), watched) }
          : content === undefined
            ? { label: e.name ?? "", look: letterLook(e) }
            : entitySprite(content, {
                id: e.id,
                kind: e.kind,
                ref: e.ref ?? "",
                name: e.name ?? "",
                level: e.level ?? 0,
                quantity: e.quantity ?? 0,
                depleted: e.depleted === true,
                open: e.open === true,
                health: e.health ?? 0,
                maxHealth: e.maxHealth ?? 0,
              });
      const label = watched ? name : e.kind === "player" || e.kind === "npc" ? sprite.label : "";
      drawn.push({ x: e.x, z: e.z, layer: watched ? 3 : (LAYER[e.kind] ?? 1), look: sprite.look, kind: e.kind, watched, label });
    }
    // Bottom to top, then back to front: what stands lower on the screen overlaps what is behind it.
    drawn.sort((a, b) => a.layer - b.layer || a.z - b.z);
    for (const d of drawn) {
      const off = OFFSET[d.kind];
      const cx = sx(d.x) + T / 2 + ((off?.x ?? 0) * T) / WORLD_TILE;
      const cy = sz(d.z) + T / 2 + ((off?.y ?? 0) * T) / WORLD_TILE;
      if (d.watched) this.ring(g, cx, cy);
      const image = this.lookImage(d.look);
      const w = (image.frameW * T) / WORLD_TILE;
      const h = (image.frameH * T) / WORLD_TILE;
      g.drawImage(image, 0, 0, image.frameW, image.frameH, Math.round(cx - w / 2), Math.round(cy - h / 2), Math.round(w), Math.round(h));
    }
    if (content !== undefined) this.drawRoofs(g, me, radius);
    // Players' and NPCs' names over them (over the roofs too), as the world view's labels: the
    // watched character's first, then the nearest; one that would overlap a name shown is left out.
    const labelled = drawn
      .filter((d) => d.label !== "")
      .map((d) => ({ ...d, dist: d.watched ? -1 : Math.max(Math.abs(d.x - me.x), Math.abs(d.z - me.z)) }))
      .sort((a, b) => a.dist - b.dist);
    g.font = "11px sans-serif";
    const boxes = labelled.map((d) => ({
      // The bottom edge over the head, where the world view hangs it (half a tile and 7 pixels above the centre at 32 a tile).
      x: sx(d.x) + T / 2,
      bottom: Math.round(sz(d.z) + T / 2 - ((WORLD_TILE / 2 + 7) * T) / WORLD_TILE),
      width: Math.round(g.measureText(d.label).width + 6),
      height: 14,
    }));
    const shown = visibleLabels(boxes);
    let npcs = 0;
    g.textAlign = "center";
    g.textBaseline = "bottom";
    labelled.forEach((d, i) => {
      if (!shown[i] || (d.kind === "npc" && ++npcs > NPC_LABELS)) return;
      const box = boxes[i]!;
      g.fillStyle = "#000000b0";
      g.fillRect(Math.round(box.x - box.width / 2), box.bottom - box.height, box.width, box.height);
      g.fillStyle = d.kind === "npc" ? "#ffff66" : "#ffffff";
      g.fillText(d.label, box.x, box.bottom - 1);
    });
  }

  /** The ground under the view, from pieces of CHUNK tiles drawn once each. */
  private drawGround(g: CanvasRenderingContext2D, content: Content, me: WatchEntity, radius: number): void {
    const b = content.collision.bounds;
    const T = WATCH_TILE;
    const first = (v: number, min: number) => Math.floor((v - radius - min) / CHUNK);
    const last = (v: number, min: number) => Math.floor((v + radius - min) / CHUNK);
    for (let cz = first(me.z, b.minZ); cz <= last(me.z, b.minZ); cz++) {
      for (let cx = first(me.x, b.minX); cx <= last(me.x, b.minX); cx++) {
        const x0 = b.minX + cx * CHUNK;
        const z0 = b.minZ + cz * CHUNK;
        if (x0 > b.maxX || z0 > b.maxZ || x0 + CHUNK <= b.minX || z0 + CHUNK <= b.minZ) continue;
        const key = `${cx},${cz}`;
        let piece = this.ground.get(key);
        if (piece === undefined) this.ground.set(key, (piece = groundCanvas(content, x0, z0, CHUNK, CHUNK)));
        g.drawImage(piece, (x0 - me.x + radius) * T, (z0 - me.z + radius) * T, (piece.width / GP) * T, (piece.height / GP) * T);
      }
    }
  }

  /** The world view's faint tile grid. */
  private drawGrid(g: CanvasRenderingContext2D, size: number): void {
    g.lineWidth = 1;
    g.strokeStyle = "rgba(0,0,0,0.07)";
    g.beginPath();
    for (let i = 0; i <= size; i += WATCH_TILE) {
      g.moveTo(i + 0.5, 0);
      g.lineTo(i + 0.5, size);
      g.moveTo(0, i + 0.5);
      g.lineTo(size, i + 0.5);
    }
    g.stroke();
  }

  /** The roofs over the buildings in view, with their shadows and names; none over the one the character is in. */
  private drawRoofs(g: CanvasRenderingContext2D, me: WatchEntity, radius: number): void {
    const T = WATCH_TILE;
    const sx = (x: number) => (x - me.x + radius) * T;
    const sz = (z: number) => (z - me.z + radius) * T;
    const inView = (r: Building["bounds"]) =>
      r.maxX >= me.x - radius - 1 && r.minX <= me.x + radius + 1 && r.maxZ >= me.z - radius - 1 && r.minZ <= me.z + radius + 1;
    const shown = this.buildings.filter((bl) => inView(bl.bounds) && !inside(bl.bounds, me.x, me.z));
    for (const bl of shown) {
      const r = bl.bounds;
      const w = (r.maxX - r.minX + 1) * T;
      const h = (r.maxZ - r.minZ + 1) * T;
      g.fillStyle = `rgba(0,0,0,${ROOF_SHADOW.alpha})`;
      g.fillRect(sx(r.minX) + ROOF_SHADOW.offset * T, sz(r.minZ) + ROOF_SHADOW.offset * T, w, h);
      let roof = this.roofs.get(bl.id);
      if (roof === undefined) this.roofs.set(bl.id, (roof = roofCanvas(bl)));
      g.drawImage(roof, sx(r.minX), sz(r.minZ), w, h);
    }
    g.font = `bold ${Math.round((ROOF_LABEL.size * T) / WORLD_TILE) + 1}px sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "bottom";
    for (const bl of shown) {
      if (bl.name === "") continue;
      const r = bl.bounds;
      this.text(g, bl.name, (sx(r.minX) + sx(r.maxX + 1)) / 2, sz(r.maxZ + 1) - 3, ROOF_LABEL.color, ROOF_LABEL.stroke);
    }
  }

  /** A gold ring on the ground under the watched character. */
  private ring(g: CanvasRenderingContext2D, cx: number, cy: number): void {
    g.save();
    g.imageSmoothingEnabled = false;
    g.strokeStyle = WATCHED_RING;
    g.lineWidth = 2;
    g.beginPath();
    g.ellipse(cx, cy + WATCH_TILE * 0.28, WATCH_TILE * 0.46, WATCH_TILE * 0.18, 0, 0, Math.PI * 2);
    g.stroke();
    g.restore();
  }

  /** Text with a dark outline (as the world view's stroked texts). */
  private text(g: CanvasRenderingContext2D, text: string, x: number, y: number, color: string, stroke: string): void {
    g.lineWidth = 3;
    g.lineJoin = "round";
    g.strokeStyle = stroke;
    g.strokeText(text, x, y);
    g.fillStyle = color;
    g.fillText(text, x, y);
  }
}
