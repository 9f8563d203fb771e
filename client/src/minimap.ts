/**
 * The minimap: an HTML canvas over the world view's top right corner, named **Minimap**, with the
 * map around you as the genre draws it: the collision map (walkable ground by area, a safe town
 * lighter, blocked tiles dark, below ground the rock and dark floor the world view draws), icons for the content's banks, stores, stations, altars and quest
 * starts, and dots for NPCs (yellow), other players (white), ground items (red) and you (the white
 * square in the middle). A click on it walks there: the same `player:move` a click on the world
 * view sends (to a blocked tile, the server walks to the nearest reachable one). The icons are
 * explained by a key under it (**Minimap key**), so the map's meaning is not in colour alone.
 *
 * The ground is drawn once, one pixel a tile, into an offscreen canvas; each redraw (five a second)
 * copies the part around you, scaled, and puts the dots and icons over it: a few hundred fills.
 */
import type { EntityState, PlayerState } from "../../schema/WorldState.ts";
import { spawnStations } from "../../src/game/world/spawn.ts";
import type { Content } from "./content.ts";
import type { Tile } from "./WorldScene.ts";
import { ROCK, UNDERGROUND_FLOOR } from "./places.ts";

/** A colour of the world view's (a number) as a canvas fill. */
const css = (color: number) => `#${color.toString(16).padStart(6, "0")}`;

/** Canvas pixels per tile. */
export const MINIMAP_SCALE = 4;
/** The canvas' side (CSS pixels): 40 tiles across, more than the 16-tile radius the server syncs. */
export const MINIMAP_SIZE = 160;
/** How often the dots are drawn again (ms). */
const REDRAW_MS = 200;

/** A kind of icon, its colour, the letter in it and what the key calls it. */
const ICONS = {
  bank: { color: "#f9a825", letter: "$", name: "Bank" },
  store: { color: "#ce93d8", letter: "S", name: "Store" },
  station: { color: "#bcaaa4", letter: "F", name: "Furnace, anvil or range" },
  altar: { color: "#e0e0e0", letter: "+", name: "Altar" },
  quest: { color: "#29b6f6", letter: "!", name: "Quest start" },
} as const;
type IconKind = keyof typeof ICONS;

export interface MinimapIcon {
  kind: IconKind;
  x: number;
  z: number;
  /** What it is (its NPC's or station's name), for the key and tests. */
  name: string;
}

/** The content's icons: bankers, keepers and quest givers of the areas, and their stations. */
export function minimapIcons(content: Content): MinimapIcon[] {
  const { registry } = content;
  const out: MinimapIcon[] = [];
  for (const area of registry.areas) {
    for (const n of area.npcs) {
      const kind: IconKind | undefined =
        n.type === "bank" ? "bank" : n.storeId !== undefined || /store/.test(n.type) ? "store" : n.type === "quest" ? "quest" : undefined;
      if (kind !== undefined)
        out.push({ kind, x: Math.round(n.position.x), z: Math.round(n.position.z), name: registry.npcs.get(n.id)?.name ?? n.name ?? n.id });
    }
  }
  const names = new Map(registry.stations.map((s) => [s.type, s.name]));
  for (const s of spawnStations(registry)) {
    const kind: IconKind = s.type === "bank" ? "bank" : s.type === "altar" ? "altar" : "station";
    out.push({ kind, x: s.x, z: s.z, name: names.get(s.type) ?? s.type });
  }
  return out;
}

export interface MinimapHost {
  content: Content;
  /** Where the map is put (the world view's box). */
  parent: HTMLElement;
  me(): PlayerState | undefined;
  players(): Iterable<[string, PlayerState]>;
  entities(): Iterable<EntityState>;
  playerId: string;
  walkTo(tile: Tile): void;
}

/** The colour of a blocked tile on the map (walls, water, rock). */
export const BLOCKED_COLOR = "#3a332e";

const grounds = new WeakMap<Content, HTMLCanvasElement>();
/** The ground, one pixel a tile: walkable by area (safe towns lighter), blocked dark; drawn once a content. */
export function groundImage(content: Content): HTMLCanvasElement {
  let ground = grounds.get(content);
  if (ground === undefined) {
    ground = drawGround(content);
    grounds.set(content, ground);
  }
  return ground;
}

/** An icon of the map (a bank's $, a store's S…) centred at `x, y` of `ctx`. */
export function drawMapIcon(ctx: CanvasRenderingContext2D, kind: MinimapIcon["kind"], x: number, y: number): void {
  const look = ICONS[kind];
  ctx.font = "bold 8px sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.beginPath();
  ctx.arc(x, y, 5, 0, Math.PI * 2);
  ctx.fillStyle = look.color;
  ctx.fill();
  ctx.strokeStyle = "#000000";
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.fillStyle = "#000000";
  ctx.fillText(look.letter, x, y + 0.5);
}

function drawGround(content: Content): HTMLCanvasElement {
  const { collision, registry } = content;
  const b = collision.bounds;
  const w = b.maxX - b.minX + 1;
  const h = b.maxZ - b.minZ + 1;
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext("2d")!;
  // Larger areas first, so that a town inside a wider region is drawn over it (as the world view).
  const size = (r: { minX: number; maxX: number; minZ: number; maxZ: number }) => (r.maxX - r.minX + 1) * (r.maxZ - r.minZ + 1);
  // Below ground as the world view draws it (places.ts): rock around the underground areas, and
  // their floor dark, not grass.
  ctx.fillStyle = css(ROCK);
  ctx.fillRect(0, 0, w, h);
  const s = registry.world.surface;
  ctx.fillStyle = "#3f6b35";
  ctx.fillRect(s.minX - b.minX, s.minZ - b.minZ, s.maxX - s.minX + 1, s.maxZ - s.minZ + 1);
  for (const a of [...registry.areas].sort((p, q) => size(q.bounds) - size(p.bounds))) {
    const r = a.bounds;
    ctx.fillStyle = a.underground ? css(UNDERGROUND_FLOOR) : a.safeZone ? "#8a9a5b" : "#4f7d3f";
    ctx.fillRect(r.minX - b.minX, r.minZ - b.minZ, r.maxX - r.minX + 1, r.maxZ - r.minZ + 1);
  }
  const img = ctx.getImageData(0, 0, w, h);
  for (let z = 0; z < h; z++) {
    for (let x = 0; x < w; x++) {
      if (collision.isWalkable(b.minX + x, b.minZ + z)) continue;
      const i = (z * w + x) * 4;
      img.data[i] = parseInt(BLOCKED_COLOR.slice(1, 3), 16);
      img.data[i + 1] = parseInt(BLOCKED_COLOR.slice(3, 5), 16);
      img.data[i + 2] = parseInt(BLOCKED_COLOR.slice(5, 7), 16);
      img.data[i + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
  return canvas;
}

export class Minimap {
  readonly canvas: HTMLCanvasElement;
  private readonly box: HTMLElement;
  private readonly host: MinimapHost;
  private readonly ground: HTMLCanvasElement;
  private readonly icons: MinimapIcon[];
  private readonly timer: ReturnType<typeof setInterval>;
  /** The tile the map is centred on (you), once known. */
  private center: Tile | undefined;

  constructor(host: MinimapHost) {
    this.host = host;
    this.ground = groundImage(host.content);
    this.icons = minimapIcons(host.content);
    this.box = document.createElement("section");
    this.box.id = "minimap";
    this.box.setAttribute("aria-label", "Map");
    this.canvas = document.createElement("canvas");
    const dpr = Math.min(2, Math.max(1, Math.round(window.devicePixelRatio || 1)));
    this.canvas.width = MINIMAP_SIZE * dpr;
    this.canvas.height = MINIMAP_SIZE * dpr;
    this.canvas.style.width = `${MINIMAP_SIZE}px`;
    this.canvas.style.height = `${MINIMAP_SIZE}px`;
    this.canvas.setAttribute("role", "img");
    this.canvas.setAttribute("aria-label", "Minimap");
    this.canvas.dataset.scale = String(MINIMAP_SCALE);
    this.canvas.addEventListener("click", (ev) => this.clicked(ev));
    const key = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = "Key";
    const list = document.createElement("ul");
    list.setAttribute("aria-label", "Minimap key");
    const entries: [string, string, string][] = [
      ...Object.values(ICONS).map((i) => [i.color, i.letter, i.name] as [string, string, string]),
      ["#ffeb3b", "•", "NPC"],
      ["#ffffff", "•", "Other player"],
      ["#ef5350", "•", "Ground item"],
    ];
    for (const [color, letter, name] of entries) {
      const li = document.createElement("li");
      const sign = document.createElement("span");
      sign.className = "minimap-sign";
      sign.style.background = color;
      sign.textContent = letter;
      sign.setAttribute("aria-hidden", "true");
      const what = document.createElement("span");
      what.textContent = name;
      li.append(sign, " ", what);
      list.append(li);
    }
    key.append(summary, list);
    this.box.append(this.canvas, key);
    host.parent.append(this.box);
    this.draw();
    this.timer = setInterval(() => this.draw(), REDRAW_MS);
  }

  dispose(): void {
    clearInterval(this.timer);
    this.box.remove();
  }

  /** The tile under a point of the canvas (CSS pixels from its top left), around the centre tile. */
  tileAt(px: number, py: number): Tile | undefined {
    const c = this.center;
    if (c === undefined) return undefined;
    const half = MINIMAP_SIZE / 2;
    return { x: c.x + Math.floor((px - half) / MINIMAP_SCALE + 0.5), z: c.z + Math.floor((py - half) / MINIMAP_SCALE + 0.5) };
  }

  private clicked(ev: MouseEvent): void {
    const r = this.canvas.getBoundingClientRect();
    const tile = this.tileAt(((ev.clientX - r.left) * MINIMAP_SIZE) / r.width, ((ev.clientY - r.top) * MINIMAP_SIZE) / r.height);
    if (tile !== undefined) this.host.walkTo(tile);
  }

  /** Draws the map around you again. */
  draw(): void {
    const me = this.host.me();
    if (me === undefined) return;
    this.center = { x: me.x, z: me.z };
    const at = `${me.x},${me.z}`;
    if (this.canvas.dataset.center !== at) this.canvas.dataset.center = at;
    const ctx = this.canvas.getContext("2d")!;
    const dpr = this.canvas.width / MINIMAP_SIZE;
    const s = MINIMAP_SCALE;
    const half = MINIMAP_SIZE / 2;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#1b1410";
    ctx.fillRect(0, 0, MINIMAP_SIZE, MINIMAP_SIZE);
    // The tile (x, z) has its centre at px(x), py(z): you are at the canvas' centre.
    const px = (x: number) => half + (x - me.x) * s;
    const py = (z: number) => half + (z - me.z) * s;
    const b = this.host.content.collision.bounds;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.ground, px(b.minX) - s / 2, py(b.minZ) - s / 2, this.ground.width * s, this.ground.height * s);
    const dot = (x: number, z: number, color: string, r = 1.6) => {
      ctx.fillStyle = color;
      ctx.fillRect(px(x) - r, py(z) - r, 2 * r, 2 * r);
    };
    for (const e of this.host.entities()) {
      if (e.kind === "npc") dot(e.x, e.z, "#ffeb3b");
      else if (e.kind === "item") dot(e.x, e.z, "#ef5350", 1.2);
    }
    for (const [id, p] of this.host.players()) if (id !== this.host.playerId) dot(p.x, p.z, "#ffffff");
    const reach = half / s + 3;
    for (const icon of this.icons) {
      if (Math.abs(icon.x - me.x) > reach || Math.abs(icon.z - me.z) > reach) continue;
      drawMapIcon(ctx, icon.kind, px(icon.x), py(icon.z));
    }
    // You: a white square with a dark edge, over everything.
    ctx.fillStyle = "#000000";
    ctx.fillRect(half - 3, half - 3, 6, 6);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(half - 2, half - 2, 4, 4);
  }
}
