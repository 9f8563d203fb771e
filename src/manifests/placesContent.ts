/**
 * The places of the content registry (`world-objects.json`, optional): doors, ladders and stairs,
 * agility obstacles. Checked as the rest of the registry is: an id used twice (among places and
 * stations, since `interact` names either), or a tile outside the world's bounds, is reported and
 * the entry left out. Whether a landing tile is walkable is the collision map's to say: the world
 * checks it when it is built (src/game/places/PlaceState.ts) and the loader test asserts it for the
 * default world.
 */
import type { Bounds } from "./bounds.ts";
import type { DoorDef, LadderDef, ObstacleDef, WorldObjectsFile } from "./schemas/places.ts";

export interface PlacesContent {
  doors: readonly DoorDef[];
  ladders: readonly LadderDef[];
  obstacles: readonly ObstacleDef[];
}

type Check = (ok: boolean, file: string, path: string, message: string) => boolean;

const FILE = "world-objects.json";

export function buildPlaces(file: WorldObjectsFile | undefined, bounds: Bounds, stationIds: ReadonlySet<string>, check: Check): PlacesContent {
  const seen = new Set<string>(stationIds);
  const inside = (t: { x: number; z: number }) => t.x >= bounds.minX && t.x <= bounds.maxX && t.z >= bounds.minZ && t.z <= bounds.maxZ;
  const keep = <T extends { id: string; x: number; z: number }>(
    list: readonly T[] | undefined,
    key: string,
    tiles: (d: T) => [string, { x: number; z: number } | undefined][],
  ): T[] =>
    (list ?? []).filter((d, i) => {
      const at = `$.${key}[${i}]`;
      if (!check(!seen.has(d.id), FILE, `${at}.id`, `duplicate id "${d.id}" (places and stations share one namespace)`)) return false;
      for (const [path, t] of [["", d] as [string, { x: number; z: number }], ...tiles(d)]) {
        if (t !== undefined && !check(inside(t), FILE, `${at}${path}`, `tile (${t.x}, ${t.z}) is outside the world's bounds`)) return false;
      }
      seen.add(d.id);
      return true;
    });
  return {
    doors: keep(file?.doors, "doors", () => []),
    ladders: keep(file?.ladders, "ladders", (d: LadderDef) => [[".to", d.to]]),
    obstacles: keep(file?.obstacles, "obstacles", (d: ObstacleDef) => [
      [".to", d.to],
      [".from", d.from],
      [".failTo", d.failTo],
    ]),
  };
}
