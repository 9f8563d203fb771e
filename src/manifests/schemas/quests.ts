/**
 * `quests.json` (rules: src/game/quests.ts): an object of quests by id. Each quest has a start NPC,
 * requirements (skills, other quests, items carried), stages in order, gifts on starting
 * (`onStart.items`) and rewards (quest points, xp by skill, items). Both content sets use the
 * stage types of {@link STAGE_TYPES}; the loader reports (and leaves out) a quest with any other.
 */
import { z } from "zod";
import { id, level, nonNegativeInt, positiveInt, skillName } from "./common.ts";

/**
 * What a stage asks for:
 * - `dialogue`: talk to `npcId` (the first stage is the start NPC's offer; a later one a return);
 * - `kill`: kill `count` NPCs of type `target`;
 * - `gather`: gather `count` of item `target` (woodcutting, mining, fishing yields);
 * - `interact`: use the place `target` `count` times (a door opened or shut, a ladder climbed, an
 *   agility obstacle crossed: an id of world-objects.json), make `count` of item `target` (cooked,
 *   smelted, smithed, crafted, fletched, runecrafted), or light `count` fires (`target` "fire");
 * - `make`: make `count` of item `target` (a recipe's output) with the production engine;
 * - `reach`: enter the area `area` (an id of world-areas.json), or be in it when the stage begins;
 * - `give`: talk to `npcId` carrying `count` of item `target`, which the NPC takes in that step.
 */
export const STAGE_TYPES = ["dialogue", "kill", "gather", "interact", "make", "reach", "give"] as const;
export type StageType = (typeof STAGE_TYPES)[number];

export const questStage = z.looseObject({
  id: z.string().min(1),
  /** Any string here: an unknown type is a reference problem (reported, quest left out), not a schema error. */
  type: z.string().min(1),
  description: z.string().default(""),
  npcId: id.optional(),
  target: z.string().min(1).optional(),
  /** A `reach` stage's area (world-areas.json). */
  area: z.string().min(1).optional(),
  count: positiveInt.default(1),
});
export type QuestStageDef = z.infer<typeof questStage>;

const stack = z.looseObject({ itemId: id, quantity: positiveInt.default(1) });
/** An item requirement: an id (one of it) or a stack. */
const itemRequirement = z.union([id.transform((itemId) => ({ itemId, quantity: 1 })), stack]);

export const quest = z.looseObject({
  id,
  name: z.string().min(1),
  description: z.string().default(""),
  difficulty: z.string().optional(),
  questPoints: nonNegativeInt.default(0),
  replayable: z.boolean().default(false),
  requirements: z
    .looseObject({
      quests: z.array(id).default([]),
      skills: z.record(skillName, level).default({}),
      items: z.array(itemRequirement).default([]),
    })
    .prefault({}),
  startNpc: id,
  stages: z.array(questStage).min(1),
  onStart: z
    .looseObject({
      items: z.array(stack).default([]),
      /** A node of the start NPC's dialogue shown when the quest starts (else the first task's text). */
      dialogue: z.string().optional(),
    })
    .prefault({}),
  rewards: z
    .looseObject({
      /** Quest points; absent: the quest's own `questPoints`. */
      questPoints: nonNegativeInt.optional(),
      items: z.array(stack).default([]),
      xp: z.record(skillName, z.number().min(0)).default({}),
    })
    .prefault({}),
});
export type QuestDef = z.infer<typeof quest>;

export const questsFile = z.record(z.string(), quest);
