/** World layout: `world-areas.json`, `world-config.json`, `stations.json`, `buildings.json`, `biomes.json`. */
import { z } from "zod";
import { assetPath, bounds, dimensions, id, itemStack, nonNegativeInt, position } from "./common.ts";

export const areaNpc = z.looseObject({ id, type: z.string(), position, storeId: id.optional(), name: z.string().optional() });
export const areaResource = z.looseObject({ type: z.string(), position, resourceId: id });
export const mobSpawn = z.looseObject({ mobId: id, position, spawnRadius: nonNegativeInt.default(0), maxCount: z.int().min(1).default(1) });
export const areaStation = z.looseObject({ type: z.string(), position, id: id.optional() });

export const area = z.looseObject({
  id,
  name: z.string().min(1),
  description: z.string().optional(),
  difficultyLevel: nonNegativeInt.default(0),
  bounds,
  biomeType: z.string().optional(),
  safeZone: z.boolean().default(false),
  pvpEnabled: z.boolean().default(false),
  /** A multi-combat area: many may fight one monster, and many monsters one player (src/game/singleCombat.ts). */
  multiCombat: z.boolean().default(false),
  npcs: z.array(areaNpc).default([]),
  resources: z.array(areaResource).default([]),
  mobSpawns: z.array(mobSpawn).default([]),
  stations: z.array(areaStation).default([]),
  fishing: z.looseObject({ enabled: z.boolean(), spotCount: nonNegativeInt.optional(), spotTypes: z.array(id).default([]) }).optional(),
  /**
   * Below ground (a dungeon): a region of the same map outside the surface's bounds, reached only
   * by the ladders and stairs of `world-objects.json` (docs/content.md "Underground areas").
   */
  underground: z.boolean().default(false),
  /** Tiles of this area no one can walk on (inclusive rectangles): its walls and pillars. */
  blocked: z.array(bounds).default([]),
});
export type AreaDef = z.infer<typeof area>;

/** Groups of areas (`starterTowns`, `level1Areas`, …), each an object keyed by area id. */
export const worldAreasFile = z.record(z.string(), z.record(z.string(), area));

/** Our engine's block in `world-config.json` (absent from sets made for other engines). */
export const characterTemplate = z.looseObject({
  id,
  name: z.string().min(1),
  description: z.string().default(""),
  starterKit: z.array(itemStack).min(1),
});

export const gameSettings = z.looseObject({
  spawn: position.default({ x: 0, y: 10, z: 0 }),
  starterKit: z.array(itemStack).default([]),
  /** Character templates: alternative starter kits a new character may choose. */
  templates: z.array(characterTemplate).default([]),
  bounds: bounds.optional(),
  blocked: z.array(bounds.and(z.looseObject({ reason: z.string().optional() }))).default([]),
});
export type GameSettings = z.infer<typeof gameSettings>;

export const worldConfigFile = z.looseObject({
  version: z.int().optional(),
  seed: z.int().optional(),
  terrain: z.looseObject({}).optional(),
  game: gameSettings.optional(),
});

export const stationsFile = z.looseObject({
  stations: z.array(
    z.looseObject({
      type: z.string().min(1),
      name: z.string().min(1),
      model: assetPath,
      modelScale: z.number().optional(),
      modelYOffset: z.number().optional(),
      examine: z.string().optional(),
      dimensions: dimensions.optional(),
    }),
  ),
});

export const buildingsFile = z.array(
  z.looseObject({ id, name: z.string().optional(), type: z.string().optional(), position: position.optional(), dimensions: dimensions.optional() }),
);

export const biomesFile = z.array(z.looseObject({ id, name: z.string(), difficultyLevel: nonNegativeInt.optional() }));
