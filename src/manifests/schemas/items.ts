/** `items.json` or `items/*.json`: arrays of item definitions. */
import { z } from "zod";
import { assetPath, dimensions, id, level, nonNegativeInt, positiveInt, skillLevels } from "./common.ts";

export const MAX_STACK_SIZE = 2_147_483_647;

export const item = z.looseObject({
  id,
  name: z.string().min(1),
  type: z.string().min(1),
  value: nonNegativeInt,
  tradeable: z.boolean().default(true),
  stackable: z.boolean().default(false),
  maxStackSize: z.int().min(1).max(MAX_STACK_SIZE).optional(),
  weight: z.number().min(0).optional(),
  tier: z.string().optional(),
  equipSlot: z.string().optional(),
  weaponType: z.string().optional(),
  attackType: z.string().optional(),
  /** Ticks between attacks (600 ms each). */
  attackSpeed: positiveInt.optional(),
  /** Tiles. */
  attackRange: positiveInt.optional(),
  bonuses: z.record(z.string(), z.number().finite()).optional(),
  requirements: z.looseObject({ level: level.optional(), skills: skillLevels.optional() }).optional(),
  healAmount: nonNegativeInt.optional(),
  prayerXp: z.number().min(0).optional(),
  tool: z.looseObject({ skill: z.string(), priority: z.int(), rollTicks: positiveInt.optional() }).optional(),
  inventoryActions: z.array(z.string()).optional(),
  description: z.string().optional(),
  examine: z.string().optional(),
  modelPath: assetPath,
  equippedModelPath: assetPath,
  iconPath: assetPath,
  dimensions: dimensions.optional(),
});
export type ItemDef = z.infer<typeof item>;

export const itemsFile = z.array(item);
