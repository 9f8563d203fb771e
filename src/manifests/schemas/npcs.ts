/** `npcs.json`: mobs, bosses, neutral and quest NPCs with stats, combat, movement and drops. */
import { z } from "zod";
import { assetPath, dimensions, id, nonNegativeInt, positiveInt, probability } from "./common.ts";
import { dialogueTree } from "./dialogue.ts";

export const dropEntry = z
  .looseObject({
    itemId: id,
    minQuantity: positiveInt,
    maxQuantity: positiveInt,
    chance: probability,
    rarity: z.string().optional(),
  })
  .refine((d) => d.minQuantity <= d.maxQuantity, "minQuantity must not exceed maxQuantity");
export type DropEntry = z.infer<typeof dropEntry>;

export const DROP_TIERS = ["always", "common", "uncommon", "rare", "veryRare"] as const;

export const npc = z.looseObject({
  id,
  name: z.string().min(1),
  description: z.string().optional(),
  category: z.enum(["mob", "boss", "neutral", "quest"]),
  faction: z.string().optional(),
  stats: z
    .looseObject({
      level: positiveInt,
      health: positiveInt,
      attack: positiveInt.default(1),
      strength: positiveInt.default(1),
      defense: positiveInt.default(1),
      defenseBonus: z.int().default(0),
      // Defence bonuses against one attack type (combat.ts npcDefenceBonus); without one, defenseBonus.
      defenseStab: z.int().optional(),
      defenseSlash: z.int().optional(),
      defenseCrush: z.int().optional(),
      defenseRanged: z.int().optional(),
      // Against spells (magic.ts npcMagicDefenceRoll); without one, defenseBonus.
      defenseMagic: z.int().optional(),
      ranged: positiveInt.default(1),
      // Its magic defence level (magic.ts); without one, its defence stands in.
      magic: positiveInt.optional(),
    })
    .optional(),
  combat: z
    .looseObject({
      attackable: z.boolean().default(false),
      aggressive: z.boolean().default(false),
      retaliates: z.boolean().default(true),
      aggroRange: nonNegativeInt.default(0),
      combatRange: positiveInt.default(1),
      leashRange: nonNegativeInt.default(10),
      attackSpeedTicks: positiveInt.default(4),
      respawnTicks: positiveInt.default(25),
    })
    .optional(),
  movement: z.looseObject({ type: z.string(), speed: z.number().min(0), wanderRadius: nonNegativeInt.default(0) }).optional(),
  drops: z
    .looseObject({
      defaultDrop: z.looseObject({ enabled: z.boolean(), itemId: id, quantity: positiveInt }).optional(),
      always: z.array(dropEntry).default([]),
      common: z.array(dropEntry).default([]),
      uncommon: z.array(dropEntry).default([]),
      rare: z.array(dropEntry).default([]),
      veryRare: z.array(dropEntry).default([]),
    })
    .optional(),
  services: z.looseObject({ enabled: z.boolean(), types: z.array(z.string()) }).optional(),
  /** What it says when talked to (schemas/dialogue.ts; rules: src/game/dialogue.ts). */
  dialogue: dialogueTree.optional(),
  appearance: z.looseObject({ modelPath: assetPath, iconPath: assetPath, scale: z.number().optional(), dimensions: dimensions.optional() }).optional(),
  levelRange: z.looseObject({ min: positiveInt, max: positiveInt }).optional(),
});
export type NpcDef = z.infer<typeof npc>;

export const npcsFile = z.array(npc);
