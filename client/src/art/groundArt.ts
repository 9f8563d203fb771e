/**
 * The ground's pixel art on plain canvases, from the content: grass in each area's biome colour
 * (`biomes.json` colorScheme), packed-earth paths from each building's door to the spawn square,
 * sand along the water, water, wooden floors inside buildings, stone walls, fences and rock faces,
 * each from why the content blocks the tile (`world-config.json` `blocked[].reason`:
 * `wall:<building>`, `water:…`, `rocks:…`, `fence:…`), and the roofs over the buildings
 * (`buildings.json`, else the extent of each building's walls) with their signs.
 *
 * No Phaser here: the world view (ground.ts) makes its textures of these canvases, and the
 * dashboard's Watch view (dashboard/watchArt.ts) draws them on its own canvas, one code path.
 */
import type { Bounds } from "../../../src/manifests/registry.ts";
import type { Content } from "../content.ts";
import { canvas, hash, icon, rgb, shade } from "./pixels.ts";

/** Ground pixels per tile (the world view shows them at twice that, the dashboard's Watch view at 1.5 times). */
export const GP = 16;

type Surface = "grass" | "path" | "sand" | "water" | "floor" | "wall" | "rock" | "fence";

export interface Blocked extends Bounds {
  reason: string;
}

export interface Building {
  id: string;
  name: string;
  type: string;
  bounds: Bounds;
}

export const inside = (b: Bounds, x: number, z: number) => x >= b.minX && x <= b.maxX && z >= b.minZ && z <= b.maxZ;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const isBounds = (v: unknown): v is Bounds => isRecord(v) && ["minX", "maxX", "minZ", "maxZ"].every((k) => typeof v[k] === "number");

/** The blocked rectangles with their reasons (world-config.json `game.blocked`). */
export function blockedOf(content: Content): Blocked[] {
  const config = content.files?.get("world-config.json");
  const game = isRecord(config) ? config.game : undefined;
  const list = isRecord(game) && Array.isArray(game.blocked) ? game.blocked : [];
  return list.filter(isBounds).map((b) => ({
    minX: b.minX,
    maxX: b.maxX,
    minZ: b.minZ,
    maxZ: b.maxZ,
    reason: typeof (b as unknown as Blocked).reason === "string" ? (b as unknown as Blocked).reason : "",
  }));
}

/** The buildings: `buildings.json`, else one per `wall:<id>` group of blocked tiles (its extent). */
export function buildingsOf(content: Content): Building[] {
  const file = content.files?.get("buildings.json");
  if (Array.isArray(file)) {
    return file
      .filter((b): b is Record<string, unknown> => isRecord(b) && isBounds(b.bounds))
      .map((b) => ({
        id: String(b.id),
        name: typeof b.name === "string" ? b.name : "",
        type: typeof b.type === "string" ? b.type : "",
        bounds: b.bounds as Bounds,
      }));
  }
  const walls = new Map<string, Bounds>();
  for (const r of blockedOf(content)) {
    if (!r.reason.startsWith("wall:")) continue;
    const id = r.reason.slice(5);
    const w = walls.get(id);
    walls.set(
      id,
      w === undefined
        ? { minX: r.minX, maxX: r.maxX, minZ: r.minZ, maxZ: r.maxZ }
        : { minX: Math.min(w.minX, r.minX), maxX: Math.max(w.maxX, r.maxX), minZ: Math.min(w.minZ, r.minZ), maxZ: Math.max(w.maxZ, r.maxZ) },
    );
  }
  return [...walls].map(([id, bounds]) => ({ id, name: "", type: "", bounds }));
}

/** Grass colour of each biome (its colour scheme's primary, darkened to sit under the sprites). */
function biomeColors(content: Content): Map<string, string> {
  const out = new Map<string, string>();
  const file = content.files?.get("biomes.json");
  if (!Array.isArray(file)) return out;
  for (const b of file) {
    if (!isRecord(b) || typeof b.id !== "string") continue;
    const scheme = isRecord(b.colorScheme) ? b.colorScheme : undefined;
    const primary = typeof scheme?.primary === "string" ? scheme.primary : undefined;
    if (primary !== undefined) out.set(b.id, shade(primary, -0.4));
  }
  return out;
}

interface Surfaces {
  surface: Surface[];
  grass: string[];
  w: number;
  h: number;
  at: (x: number, z: number) => number;
}

/** The surfaces of a content's map, worked out once (the world view and the Watch view both draw from them). */
const surfacesOf = new WeakMap<Content, Surfaces>();

/** The surface of every tile of the map. */
function surfaces(content: Content, buildings: Building[]): Surfaces {
  const { registry, collision } = content;
  const b = collision.bounds;
  const w = b.maxX - b.minX + 1;
  const h = b.maxZ - b.minZ + 1;
  const at = (x: number, z: number) => (z - b.minZ) * w + (x - b.minX);
  const surface = new Array<Surface>(w * h).fill("grass");
  const colors = biomeColors(content);
  const areas = [...registry.areas].sort(
    (p, q) => (p.bounds.maxX - p.bounds.minX) * (p.bounds.maxZ - p.bounds.minZ) - (q.bounds.maxX - q.bounds.minX) * (q.bounds.maxZ - q.bounds.minZ),
  );
  const grass = new Array<string>(w * h);
  for (let z = b.minZ; z <= b.maxZ; z++) {
    for (let x = b.minX; x <= b.maxX; x++) {
      const a = areas.find((r) => inside(r.bounds, x, z));
      grass[at(x, z)] = (a?.biomeType !== undefined ? colors.get(a.biomeType) : undefined) ?? (a?.safeZone === true ? "#5d8a3a" : "#4a7a34");
    }
  }
  const set = (r: Bounds, s: Surface) => {
    for (let z = Math.max(r.minZ, b.minZ); z <= Math.min(r.maxZ, b.maxZ); z++)
      for (let x = Math.max(r.minX, b.minX); x <= Math.min(r.maxX, b.maxX); x++) surface[at(x, z)] = s;
  };
  for (const bl of buildings) set(bl.bounds, "floor");
  // Paths: from outside each door to the spawn, along x then z, two tiles wide; a square at the spawn.
  const spawn = registry.world.spawn;
  const sx = Math.round(spawn.x);
  const sz = Math.round(spawn.z);
  const path = (x: number, z: number) => {
    for (const [dx, dz] of [
      [0, 0],
      [1, 0],
      [0, 1],
    ] as const) {
      const tx = x + dx;
      const tz = z + dz;
      if (tx >= b.minX && tx <= b.maxX && tz >= b.minZ && tz <= b.maxZ && surface[at(tx, tz)] === "grass" && collision.isWalkable(tx, tz))
        surface[at(tx, tz)] = "path";
    }
  };
  for (let z = sz - 2; z <= sz + 2; z++) for (let x = sx - 2; x <= sx + 2; x++) path(x, z);
  const file = content.files?.get("buildings.json");
  for (const bl of Array.isArray(file) ? file : []) {
    if (!isRecord(bl) || !isBounds(bl.bounds) || !Array.isArray(bl.doors)) continue;
    for (const d of bl.doors as unknown[]) {
      if (!isRecord(d) || typeof d.x !== "number" || typeof d.z !== "number") continue;
      const r = bl.bounds;
      // One step out of the door, then along x to the spawn's column, then along z.
      let x = d.x + (d.x === r.minX ? -1 : d.x === r.maxX ? 1 : 0);
      let z = d.z + (d.z === r.minZ ? -1 : d.z === r.maxZ ? 1 : 0);
      path(x, z);
      while (x !== sx) path((x += Math.sign(sx - x)), z);
      while (z !== sz) path(x, (z += Math.sign(sz - z)));
    }
  }
  for (const r of blockedOf(content)) {
    const kind = r.reason.split(":")[0];
    set(r, kind === "water" ? "water" : kind === "wall" ? "wall" : kind === "fence" ? "fence" : kind === "rocks" ? "rock" : "rock");
  }
  // Reasonless blocked tiles (content without reasons): walls.
  for (const r of registry.world.blocked)
    for (let z = r.minZ; z <= r.maxZ; z++)
      for (let x = r.minX; x <= r.maxX; x++)
        if (x >= b.minX && x <= b.maxX && z >= b.minZ && z <= b.maxZ && surface[at(x, z)] === "grass") surface[at(x, z)] = "wall";
  // Sand along the water.
  for (let z = b.minZ; z <= b.maxZ; z++) {
    for (let x = b.minX; x <= b.maxX; x++) {
      if (surface[at(x, z)] !== "grass" && surface[at(x, z)] !== "path") continue;
      let shore = false;
      for (let dz = -1; dz <= 1 && !shore; dz++)
        for (let dx = -1; dx <= 1; dx++)
          if (x + dx >= b.minX && x + dx <= b.maxX && z + dz >= b.minZ && z + dz <= b.maxZ && surface[at(x + dx, z + dz)] === "water") shore = true;
      if (shore) surface[at(x, z)] = "sand";
    }
  }
  return { surface, grass, w, h, at };
}

const greens = new Map<string, boolean>();
/** Whether a ground colour is green (grass that flowers). */
function green(color: string): boolean {
  let g = greens.get(color);
  if (g === undefined) {
    const [r, gg, b] = rgb(color);
    greens.set(color, (g = gg > r && gg > b));
  }
  return g;
}

/**
 * What drawTile draws with: a canvas' fillStyle and fillRect, on a pixel buffer (a canvas' fillRect
 * per speck of a whole map took seconds of the first frame on a software-rendered canvas; writing
 * the pixels and putting them once takes a few dozen milliseconds).
 */
class Pen {
  fillStyle = "#000";
  private readonly rgba = new Map<string, [number, number, number, number]>();
  private readonly data: Uint8ClampedArray;
  private readonly width: number;
  constructor(data: Uint8ClampedArray, width: number) {
    this.data = data;
    this.width = width;
  }

  private parse(color: string): [number, number, number, number] {
    let c = this.rgba.get(color);
    if (c === undefined) {
      const hex = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(color);
      if (hex !== null)
        c = [
          parseInt(hex[1]!.slice(0, 2), 16),
          parseInt(hex[1]!.slice(2, 4), 16),
          parseInt(hex[1]!.slice(4, 6), 16),
          hex[2] === undefined ? 255 : parseInt(hex[2], 16),
        ];
      else c = [...rgb(color), 255];
      this.rgba.set(color, c);
    }
    return c;
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    const [r, g, b, a] = this.parse(this.fillStyle);
    const k = a / 255;
    for (let yy = y; yy < y + h; yy++) {
      for (let xx = x; xx < x + w; xx++) {
        const i = (yy * this.width + xx) * 4;
        if (a === 255) {
          this.data[i] = r;
          this.data[i + 1] = g;
          this.data[i + 2] = b;
        } else {
          this.data[i] = this.data[i]! * (1 - k) + r * k;
          this.data[i + 1] = this.data[i + 1]! * (1 - k) + g * k;
          this.data[i + 2] = this.data[i + 2]! * (1 - k) + b * k;
        }
        this.data[i + 3] = 255;
      }
    }
  }
}

/** One tile's pixels (GP × GP at ox, oy), varied by a hash of its place so that the ground does not repeat. */
function drawTile(g: Pen, s: Surface, grass: string, ox: number, oy: number, seed: number, n: (dx: number, dz: number) => Surface | undefined): void {
  const speck = (count: number, color: string, size = 1) => {
    let h = seed;
    for (let i = 0; i < count; i++) {
      h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) >>> 0;
      g.fillStyle = color;
      g.fillRect(ox + (h % (GP - size + 1)), oy + ((h >>> 8) % (GP - size + 1)), size, size);
    }
  };
  const fill = (color: string) => {
    g.fillStyle = color;
    g.fillRect(ox, oy, GP, GP);
  };
  switch (s) {
    case "grass":
    case "fence": {
      fill(grass);
      speck(9, shade(grass, -0.14));
      speck(4, shade(grass, -0.28));
      speck(5, shade(grass, 0.14));
      // Flowers on green land only (not on scorched hills).
      if (seed % 11 === 0 && green(grass)) speck(2, "#e8e07a");
      if (s === "fence") {
        const horizontal = n(-1, 0) === "fence" || n(1, 0) === "fence";
        g.fillStyle = "#6b4a2a";
        if (horizontal) {
          g.fillRect(ox, oy + 5, GP, 2);
          g.fillRect(ox, oy + 10, GP, 2);
          g.fillRect(ox + 6, oy + 3, 3, 11);
        } else {
          g.fillRect(ox + 5, oy, 2, GP);
          g.fillRect(ox + 10, oy, 2, GP);
          g.fillRect(ox + 4, oy + 6, 9, 3);
        }
      }
      return;
    }
    case "path":
      fill("#9a7a52");
      speck(4, "#7a5e3c");
      speck(3, "#b8986a");
      // Grass creeping onto the edges.
      g.fillStyle = shade(grass, -0.05);
      if (n(0, -1) === "grass") g.fillRect(ox + (seed % 8), oy, 4, 1);
      if (n(0, 1) === "grass") g.fillRect(ox + ((seed >>> 4) % 8), oy + GP - 1, 5, 1);
      return;
    case "sand":
      fill("#d6c08a");
      speck(5, "#b8a06a");
      speck(3, "#ece0b0");
      return;
    case "water":
      fill("#2f6ea8");
      speck(3, "#3a7cb8", 2);
      g.fillStyle = "#ffffff40";
      if (n(0, -1) !== "water") g.fillRect(ox, oy, GP, 2);
      if (n(-1, 0) !== "water") g.fillRect(ox, oy, 2, GP);
      return;
    case "floor":
      fill("#8a6440");
      g.fillStyle = "#6e4e30";
      for (let y = 3; y < GP; y += 4) g.fillRect(ox, oy + y, GP, 1);
      g.fillRect(ox + (((seed % 4) * 4 + 2) % GP), oy, 1, 4);
      g.fillRect(ox + ((seed >>> 3) % 4) * 4, oy + 8, 1, 4);
      speck(2, "#9e7650");
      return;
    case "wall": {
      fill("#6f6a64");
      g.fillStyle = "#56524d";
      for (let y = 0; y < GP; y += 4) {
        g.fillRect(ox, oy + y + 3, GP, 1);
        const off = (y / 4) % 2 === 0 ? 0 : 4;
        for (let x = off; x < GP; x += 8) g.fillRect(ox + x, oy + y, 1, 3);
      }
      g.fillStyle = "#8a857e";
      g.fillRect(ox, oy, GP, 1);
      return;
    }
    case "rock":
      fill("#5e5852");
      speck(6, "#4a4540", 2);
      speck(5, "#7a746c", 2);
      speck(3, "#8e877e");
      return;
  }
}

/**
 * The ground of the tiles from (x0, z0), `w` × `h` of them (world tiles), as a canvas of GP pixels a
 * tile; tiles outside the map stay transparent.
 */
export function groundCanvas(content: Content, x0: number, z0: number, w: number, h: number): HTMLCanvasElement {
  const b = content.collision.bounds;
  let s = surfacesOf.get(content);
  if (s === undefined) surfacesOf.set(content, (s = surfaces(content, buildingsOf(content))));
  const { surface, grass, at } = s;
  const n = (x: number, z: number) => (dx: number, dz: number) =>
    x + dx < b.minX || x + dx > b.maxX || z + dz < b.minZ || z + dz > b.maxZ ? undefined : surface[at(x + dx, z + dz)];
  const { c, g: ctx } = canvas(w * GP, h * GP);
  const image = ctx.createImageData(c.width, c.height);
  const g = new Pen(image.data, c.width);
  for (let z = 0; z < h; z++) {
    for (let x = 0; x < w; x++) {
      const tx = x0 + x;
      const tz = z0 + z;
      if (tx < b.minX || tx > b.maxX || tz < b.minZ || tz > b.maxZ) continue;
      const i = at(tx, tz);
      drawTile(g, surface[i]!, grass[i]!, x * GP, z * GP, hash(`${tx},${tz}`), n(tx, tz));
    }
  }
  ctx.putImageData(image, 0, 0);
  return c;
}

/** The sign a building's roof carries, by a word of its type, id or name: a game-icon and its colour. */
const SIGNS: [RegExp, string, string][] = [
  [/bank/, "bank", "#f2c744"],
  [/smith|forge/, "anvil", "#cfd6dc"],
  [/store|shop|market|provision/, "swap-bag", "#e6c080"],
  [/chapel|church|temple|shrine|altar/, "star-altar", "#fff3c4"],
  [/inn|tavern|kettle|pub/, "cooking-pot", "#ffcc80"],
];

/** A building's roof, GP pixels a tile: shingles, the ridge, and its sign. */
export function roofCanvas(bl: Building): HTMLCanvasElement {
  const r = bl.bounds;
  const said = `${bl.type} ${bl.id} ${bl.name}`.toLowerCase();
  const sign = SIGNS.find(([re]) => re.test(said));
  const { c, g } = canvas((r.maxX - r.minX + 1) * GP, (r.maxZ - r.minZ + 1) * GP);
  const hue = hash(bl.id) % 3;
  const base = said.includes("bank")
    ? "#4f5f7a"
    : said.includes("chapel")
      ? "#6a5a7a"
      : said.includes("smith")
        ? "#4a4644"
        : ["#8a3a2a", "#7a4a2a", "#6a3a3a"][hue]!;
  g.fillStyle = shade(base, -0.4);
  g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = base;
  g.fillRect(1, 1, c.width - 2, c.height - 2);
  // Shingle rows, lighter toward the top of the roof's slope, and the ridge across the middle.
  for (let y = 2; y < c.height - 2; y += 4) {
    g.fillStyle = shade(base, y < c.height / 2 ? 0.12 : -0.12);
    for (let x = 1 + ((y / 4) % 2) * 3; x < c.width - 2; x += 6) g.fillRect(x, y, 5, 3);
  }
  g.fillStyle = shade(base, -0.3);
  g.fillRect(1, Math.floor(c.height / 2) - 1, c.width - 2, 2);
  if (sign !== undefined) {
    const s = Math.min(c.width, c.height) * 0.36;
    g.fillStyle = "#00000055";
    g.beginPath();
    g.arc(c.width / 2, c.height / 2, s * 0.62, 0, Math.PI * 2);
    g.fill();
    icon(g, sign[1], Math.round(c.width / 2 - s / 2), Math.round(c.height / 2 - s / 2), Math.round(s), sign[2]);
  }
  return c;
}

/** How a building's name is lettered under its roof (bold sans-serif, `size` pixels at 32 pixels a tile). */
export const ROOF_LABEL = { size: 12, color: "#fff8e1", stroke: "#000000", strokeWidth: 3 } as const;
/** A roof's shadow on the ground to its lower right (a quarter of a tile down and across), and how dark. */
export const ROOF_SHADOW = { offset: 0.25, alpha: 0.28 } as const;
