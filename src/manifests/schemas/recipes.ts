/** `recipes/*.json`: `{recipes: [...]}` per skill. */
import { z } from "zod";
import { id, level, nonNegativeInt, positiveInt, probability } from "./common.ts";

const xp = z.number().min(0);
const ticks = positiveInt;
const input = z.looseObject({ item: id, amount: positiveInt });
const header = { $schema: z.string().optional(), _comment: z.string().optional() };

export const cookingRecipe = z.looseObject({
  raw: id,
  cooked: id,
  burnt: id.optional(),
  level,
  xp,
  ticks,
  stopBurnLevel: z.looseObject({ fire: level.optional(), range: level.optional() }).optional(),
});
export const smeltingRecipe = z.looseObject({ output: id, inputs: z.array(input).min(1), level, xp, ticks, successRate: probability.default(1) });
export const smithingRecipe = z.looseObject({
  output: id,
  bar: id,
  barsRequired: positiveInt,
  level,
  xp,
  ticks,
  category: z.string().optional(),
  outputQuantity: positiveInt.optional(),
});
export const firemakingRecipe = z.looseObject({ log: id, level, xp, ticks });
export const craftingRecipe = z.looseObject({
  output: id,
  outputQuantity: positiveInt.optional(),
  category: z.string().optional(),
  inputs: z.array(input).min(1),
  tools: z.array(id).default([]),
  consumables: z.array(z.looseObject({ item: id, uses: positiveInt })).default([]),
  level,
  xp,
  ticks,
  station: z.string().optional(),
  skill: z.string().optional(),
});
export const runecraftingRecipe = z.looseObject({
  runeType: z.string(),
  runeItemId: id,
  levelRequired: level,
  xpPerEssence: xp,
  essenceTypes: z.array(id).min(1),
  multiRuneLevels: z.array(level).default([]),
});
export const tanningRecipe = z.looseObject({ input: id, output: id, cost: nonNegativeInt, name: z.string().optional() });

const recipesOf = <T extends z.ZodType>(recipe: T) => z.looseObject({ ...header, recipes: z.array(recipe) });
export const cookingFile = recipesOf(cookingRecipe);
export const smeltingFile = recipesOf(smeltingRecipe);
export const smithingFile = recipesOf(smithingRecipe);
export const firemakingFile = recipesOf(firemakingRecipe);
export const craftingFile = recipesOf(craftingRecipe);
export const runecraftingFile = recipesOf(runecraftingRecipe);
export const tanningFile = recipesOf(tanningRecipe);

export type CookingRecipe = z.infer<typeof cookingRecipe>;
export type SmeltingRecipe = z.infer<typeof smeltingRecipe>;
export type SmithingRecipe = z.infer<typeof smithingRecipe>;
export type FiremakingRecipe = z.infer<typeof firemakingRecipe>;
export type CraftingRecipe = z.infer<typeof craftingRecipe>;
