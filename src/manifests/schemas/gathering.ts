/** `gathering/{woodcutting,mining,fishing}.json`: resource nodes and what they yield. */
import { z } from "zod";
import { assetPath, dimensions, id, level, positiveInt, probability, skillName } from "./common.ts";

export const harvestYield = z.looseObject({
  itemId: id,
  itemName: z.string().optional(),
  quantity: positiveInt,
  chance: probability,
  xpAmount: z.number().min(0),
  levelRequired: level.optional(),
  stackable: z.boolean().optional(),
  /** A consumable needed per catch (bait, feathers). */
  secondaryRequired: id.optional(),
  /** Success out of 256 at levels 1 and 99 (OSRS "Skilling success rate"); fishing's catches carry them. */
  catchLow: z.int().min(0).max(256).optional(),
  catchHigh: z.int().min(0).max(256).optional(),
});

export const resourceNode = z.looseObject({
  id,
  name: z.string().min(1),
  type: z.string(),
  examine: z.string().optional(),
  modelPath: assetPath,
  depletedModelPath: assetPath,
  dimensions: dimensions.optional(),
  harvestSkill: skillName,
  /** An item id, or a tool family (`pickaxe`) satisfied by any `*_pickaxe`. */
  toolRequired: id,
  /** A consumable used up per catch at this node (fishing bait, feathers). */
  secondaryRequired: id.optional(),
  levelRequired: level,
  /** Ticks per gathering attempt (600 ms each). */
  baseCycleTicks: positiveInt,
  depleteChance: probability,
  respawnTicks: positiveInt,
  harvestYield: z.array(harvestYield).min(1),
});
export type ResourceNodeDef = z.infer<typeof resourceNode>;

const header = { $schema: z.string().optional(), _comment: z.string().optional() };
export const woodcuttingFile = z.looseObject({ ...header, trees: z.array(resourceNode) });
export const miningFile = z.looseObject({ ...header, rocks: z.array(resourceNode) });
export const fishingFile = z.looseObject({ ...header, spots: z.array(resourceNode) });
