/**
 * NPC dialogue trees (`npcs.json` `dialogue`; rules: src/game/dialogue.ts). A tree has an entry
 * node; each node has text and responses (the player's options). A response leads to another node
 * (`nextNodeId`; none: the dialogue closes), may be shown only under `conditions`, and may carry
 * effects. Both content sets write an effect as a word (`"openBank"`, `"openStore"`); ours may
 * also write objects (start or advance a quest, give or take items) and lists of them.
 */
import { z } from "zod";
import { id, level, positiveInt, skillName } from "./common.ts";

export const QUEST_STATUSES = ["not_started", "in_progress", "completed"] as const;
export type QuestStatus = (typeof QUEST_STATUSES)[number];

/** When a response is offered: every condition of its list must hold. */
export const dialogueCondition = z.discriminatedUnion("type", [
  /** The quest's status is this; with `stage`, the quest is in progress at that stage (by id). */
  z.looseObject({ type: z.literal("quest"), questId: id, status: z.enum(QUEST_STATUSES).optional(), stage: z.string().optional() }),
  /** The player carries at least `quantity` of the item (`not`: fewer). */
  z.looseObject({ type: z.literal("item"), itemId: id, quantity: positiveInt.default(1), not: z.boolean().default(false) }),
  /** The player's level in the skill is at least this. */
  z.looseObject({ type: z.literal("level"), skill: skillName, level }),
]);
export type DialogueCondition = z.infer<typeof dialogueCondition>;

const effectObject = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("openBank") }),
  z.looseObject({ type: z.literal("openStore") }),
  z.looseObject({ type: z.literal("startQuest"), questId: id }),
  /** Completes the quest's current stage when it is a dialogue or give stage with this NPC (a give's items taken). */
  z.looseObject({ type: z.literal("advanceQuest"), questId: id }),
  z.looseObject({ type: z.literal("giveItem"), itemId: id, quantity: positiveInt.default(1) }),
  z.looseObject({ type: z.literal("takeItem"), itemId: id, quantity: positiveInt.default(1) }),
]);
export const dialogueEffect = z.union([z.enum(["openBank", "openStore"]).transform((type) => ({ type })), effectObject]);
export type DialogueEffect = z.infer<typeof effectObject>;

export const dialogueResponse = z.looseObject({
  text: z.string().min(1),
  nextNodeId: z.string().min(1).optional(),
  conditions: z.array(dialogueCondition).default([]),
  effect: dialogueEffect.optional(),
  effects: z.array(dialogueEffect).default([]),
});
export type DialogueResponse = z.infer<typeof dialogueResponse>;

export const dialogueNode = z.looseObject({
  id: z.string().min(1),
  text: z.string(),
  responses: z.array(dialogueResponse).default([]),
});
export type DialogueNode = z.infer<typeof dialogueNode>;

export const dialogueTree = z.looseObject({
  entryNodeId: z.string().min(1),
  nodes: z.array(dialogueNode).min(1),
});
export type DialogueTree = z.infer<typeof dialogueTree>;
