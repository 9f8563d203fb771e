/** Stores, skill unlocks, tools, ammunition, prayers, and the presentational files. */
import { z } from "zod";
import { id, level, nonNegativeInt, positiveInt, probability } from "./common.ts";

export const storeItem = z.looseObject({
  id: id.optional(),
  itemId: id,
  name: z.string().optional(),
  price: nonNegativeInt,
  /** -1: unlimited. */
  stockQuantity: z.int().min(-1),
  /** Seconds between restocks; 0 for none. */
  restockTime: nonNegativeInt,
  category: z.string().optional(),
});
export const store = z.looseObject({
  id,
  name: z.string().min(1),
  buyback: z.boolean().default(true),
  /** Fraction of an item's value paid when a player sells it. */
  buybackRate: z.number().min(0).max(1).default(0.5),
  /**
   * A general store buys any tradeable item; a specialist only what it lists. Absent: a store is a
   * general one when a keeper placed for it is of type `general_store` (world-areas.json).
   */
  general: z.boolean().optional(),
  /** How far the price moves per item of stock off the base stock, as a fraction of the cost (default 0.03). */
  priceChange: z.number().min(0).max(1).optional(),
  description: z.string().optional(),
  items: z.array(storeItem),
});
export type StoreDef = z.infer<typeof store>;
export const storesFile = z.array(store);

export const UNLOCK_TYPES = ["item", "ability", "area", "quest", "activity"] as const;
export const skillUnlock = z.looseObject({ level, description: z.string().min(1), type: z.enum(UNLOCK_TYPES) });
export type SkillUnlock = z.infer<typeof skillUnlock>;
export const skillUnlocksFile = z.looseObject({
  $schema: z.string().optional(),
  _comment: z.string().optional(),
  skills: z.record(z.string().regex(/^[a-z]+$/), z.array(skillUnlock)),
});

export const toolsFile = z.array(
  z.looseObject({
    itemId: id,
    skill: z.string(),
    tier: z.string().optional(),
    levelRequired: level,
    priority: z.int(),
    rollTicks: positiveInt.optional(),
    bonusTickChance: probability.optional(),
    bonusRollTicks: positiveInt.optional(),
  }),
);
export type ToolDef = z.infer<typeof toolsFile>[number];

export const ammunitionFile = z.looseObject({
  arrows: z.array(
    z.looseObject({ id, name: z.string(), rangedStrength: nonNegativeInt, requiredRangedLevel: level, requiredBowTier: nonNegativeInt.optional() }),
  ),
});

/**
 * `prayers.json` (rules: src/game/prayer.ts). `bonuses` multiply levels (`attackMultiplier`,
 * `strengthMultiplier`, `defenseMultiplier`, `rangedMultiplier`, `magicMultiplier`); `conflicts`
 * names prayers it switches off; `protection` (our extension) scales the damage of one attack style
 * taken from NPCs (`damageMultiplier` 0: none gets through, as the genre's protection prayers do).
 */
export const prayersFile = z.looseObject({
  prayers: z.array(
    z.looseObject({
      id,
      name: z.string(),
      description: z.string().optional(),
      level,
      category: z.string().optional(),
      drainEffect: z.number().min(0).optional(),
      bonuses: z.record(z.string(), z.number().min(0).max(10)).optional(),
      conflicts: z.array(z.string()).optional(),
      protection: z.looseObject({ style: z.enum(["melee", "ranged", "magic"]), damageMultiplier: z.number().min(0).max(1).default(0) }).optional(),
    }),
  ),
});
export type PrayerDef = z.infer<typeof prayersFile>["prayers"][number];

export const tierRequirementsFile = z.record(z.string(), z.union([z.string(), z.record(z.string(), z.record(z.string(), level))]));

export const musicFile = z.array(z.looseObject({ id, name: z.string(), path: z.string() }));
export const vegetationFile = z.looseObject({ assets: z.array(z.looseObject({ id, model: z.string() })) });
export const duelArenasFile = z.looseObject({ arenas: z.array(z.looseObject({ arenaId: z.int() })) });
export const lodSettingsFile = z.looseObject({ version: z.int().optional() });

const vec3 = z.looseObject({ x: z.number().finite(), y: z.number().finite(), z: z.number().finite() });
export const modelBoundsFile = z.looseObject({
  tileSize: z.number().positive(),
  models: z.array(
    z.looseObject({
      id: z.string().min(1),
      assetPath: z.string().min(1),
      bounds: z.looseObject({ min: vec3, max: vec3 }),
      dimensions: vec3,
      footprint: z.looseObject({ width: positiveInt, depth: positiveInt }),
    }),
  ),
});
