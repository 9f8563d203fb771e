/**
 * The places of the content's `world-objects.json` in the browser: doors drawn open or shut (and the
 * client's collision map kept as the server's, so a path shown goes where the server walks),
 * ladders and stairs, agility obstacles, their menu options ("Open", "Close", "Climb-down",
 * "Climb-up", an obstacle's verb), and the ground of underground areas: solid rock around them,
 * a darker floor, their own walls. The server's rules: src/game/places/.
 */
import type * as Phaser from "phaser";
import type { EntityState } from "../../schema/WorldState.ts";
import type { Bounds, ContentRegistry } from "../../src/manifests/registry.ts";
import type { MenuItem } from "./contextMenu.ts";
import type { Content } from "./content.ts";
import type { Sprite } from "./art/sprite.ts";
import { obstacleKind } from "./art/obstacles.ts";

type Place =
  | { place: "door"; id: string; name: string }
  | { place: "ladder"; id: string; name: string; direction: "up" | "down"; kind: "ladder" | "stairs" }
  | { place: "obstacle"; id: string; name: string; verb: string; level: number; x: number; z: number; from?: { x: number; z: number } | undefined };

/** The content's place of an `object` entity (its id is the place's), if it is one. */
export function placeOf(content: Content, id: string): Place | undefined {
  const { doors, ladders, obstacles } = content.registry.places;
  const door = doors.find((d) => d.id === id);
  if (door !== undefined) return { place: "door", id, name: door.name };
  const ladder = ladders.find((l) => l.id === id);
  if (ladder !== undefined) return { place: "ladder", id, name: ladder.name, direction: ladder.direction, kind: ladder.kind };
  const o = obstacles.find((d) => d.id === id);
  if (o !== undefined) return { place: "obstacle", id, name: o.name, verb: o.verb, level: o.level, x: o.x, z: o.z, from: o.from };
  return undefined;
}

/** How a place looks: a door a lettered tile, dark while shut; ladders and stairs arrows; obstacles drawn as what they are. */
export function placeSprite(content: Content, e: Pick<EntityState, "id" | "open">): Sprite | undefined {
  const p = placeOf(content, e.id);
  if (p === undefined) return undefined;
  switch (p.place) {
    case "door":
      // A letter tile in the art's fallback style (art/looks.ts): a door light when open, dark when shut.
      return e.open
        ? { kind: "object", label: `${p.name} (open)`, look: { type: "letter", letter: "D", color: "#a1887f" } }
        : { kind: "object", label: `${p.name} (shut)`, look: { type: "letter", letter: "D", color: "#4e342e" } };
    case "ladder":
      return {
        kind: "object",
        label: `${p.name} (${p.kind}, ${p.direction})`,
        look: { type: "letter", letter: p.direction === "down" ? "\u2193" : "\u2191", color: p.direction === "down" ? "#3e2723" : "#8d6e63" },
      };
    case "obstacle":
      // A log, a net, a rope swing, a wall as they are (art/obstacles.ts); an amber A tile for one no word names.
      return { kind: "object", label: `${p.name} (agility ${p.level})`, look: { type: "obstacle", kind: obstacleKind(p.id, p.name, p.verb) } };
  }
}

/** The name a menu gives a place. */
export function placeName(content: Content, id: string): string | undefined {
  return placeOf(content, id)?.name;
}

/**
 * A place's menu options: Open or Close a door, Climb-down or Climb-up a ladder, an obstacle's verb
 * (with its level), and Examine (the server's text). `interact` walks there and does it.
 */
export function placeOptions(
  content: Content,
  e: EntityState,
  act: (at: { x: number; z: number }, reach: number) => () => void,
  examine: MenuItem,
): MenuItem[] | undefined {
  const p = placeOf(content, e.id);
  if (p === undefined) return undefined;
  const at = { x: e.x, z: e.z };
  switch (p.place) {
    case "door":
      return [{ label: `${e.open ? "Close" : "Open"} ${p.name}`, run: act(at, 1) }, examine];
    case "ladder":
      return [{ label: `Climb-${p.direction} ${p.name}`, run: act(at, 1) }, examine];
    case "obstacle":
      return [{ label: `${p.verb} ${p.name} (level ${p.level})`, run: act(p.from ?? at, p.from !== undefined ? 0 : 1) }, examine];
  }
}

/** Keeps the client's collision map as the server's: a door's tile is walkable exactly while it is open. */
export function syncDoor(content: Content, e: EntityState): void {
  if (e.kind !== "object" || e.ref !== "door") return;
  if (e.open) content.collision.unblockTile(e.x, e.z);
  else content.collision.blockTile(e.x, e.z);
}

/** Colours of the ground below: rock between the regions, the underground floor, its walls. */
export const ROCK = 0x1b1a1f;
export const UNDERGROUND_FLOOR = 0x3a3742;
const UNDERGROUND_WALL = 0x121115;
const AREA_BLOCKED = 0x5b5048;

/**
 * Draws what the areas' fills do not: the rock of the map outside the surface (before the areas),
 * then, after them, each underground area's darker floor and every area's own blocked rectangles.
 */
export function drawRock(ground: Phaser.GameObjects.Graphics, registry: ContentRegistry, tile: number): void {
  const { bounds: b, surface: s } = registry.world;
  const fill = (r: Bounds) => ground.fillRect(r.minX * tile, r.minZ * tile, (r.maxX - r.minX + 1) * tile, (r.maxZ - r.minZ + 1) * tile);
  ground.fillStyle(ROCK);
  // The map's bounds minus the surface: up to four bands around it.
  if (s.minZ > b.minZ) fill({ minX: b.minX, maxX: b.maxX, minZ: b.minZ, maxZ: s.minZ - 1 });
  if (s.maxZ < b.maxZ) fill({ minX: b.minX, maxX: b.maxX, minZ: s.maxZ + 1, maxZ: b.maxZ });
  if (s.minX > b.minX) fill({ minX: b.minX, maxX: s.minX - 1, minZ: s.minZ, maxZ: s.maxZ });
  if (s.maxX < b.maxX) fill({ minX: s.maxX + 1, maxX: b.maxX, minZ: s.minZ, maxZ: s.maxZ });
}

export function drawUnderground(ground: Phaser.GameObjects.Graphics, registry: ContentRegistry, tile: number): void {
  const fill = (r: Bounds) => ground.fillRect(r.minX * tile, r.minZ * tile, (r.maxX - r.minX + 1) * tile, (r.maxZ - r.minZ + 1) * tile);
  for (const a of registry.areas) {
    if (a.underground) {
      ground.fillStyle(UNDERGROUND_FLOOR);
      fill(a.bounds);
    }
    ground.fillStyle(a.underground ? UNDERGROUND_WALL : AREA_BLOCKED);
    for (const r of a.blocked) fill(r);
  }
}
