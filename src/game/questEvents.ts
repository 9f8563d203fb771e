/**
 * The protocol of dialogue and quests (rules: dialogue.ts, quests.ts): the client events and the
 * server events, spread into the one table of each (clientEvents.ts, serverEvents.ts) and their
 * scopes (eventScopes.ts). Protocol only: clients import it without the game rules.
 */
import { z } from "zod";

const id = z.string().min(1);
const ref = z.string().min(1).max(64);

export const QUEST_STATUS = ["not_started", "in_progress", "completed"] as const;

/** What a client may send: counted against the `action` cap of a tick (World.INPUT_CAPS). */
export const QUEST_CLIENT_EVENTS = {
  // An option of the dialogue open now (`dialogue:open` `options[].id`); any other is refused (INVALID_OPTION) and changes nothing.
  "dialogue:choose": { category: "action", schema: z.object({ optionId: ref }) },
  // Closes the open dialogue (as walking away does).
  "dialogue:close": { category: "action", schema: z.object({}) },
  "quest:getList": { category: "action", schema: z.object({}) },
} as const;

/** Every one acts on the character that sends it (an agent may send them). */
export const QUEST_EVENT_SCOPES = { "dialogue:choose": "character", "dialogue:close": "character", "quest:getList": "character" } as const;

const progress = z.strictObject({ count: z.int().min(0), required: z.int().min(1) });

export const QUEST_SERVER_EVENTS = {
  "dialogue:open": {
    doc: 'an NPC speaks (after `player:action {action: "talk"}` or a chosen option), or an item asks (an xp lamp: which skill): its text and your options; answer with `dialogue:choose {optionId}`; no options: the dialogue ends when closed',
    schema: z.strictObject({ npcId: id, npcName: z.string(), nodeId: id, text: z.string(), options: z.array(z.strictObject({ id, text: z.string() })) }),
  },
  "dialogue:close": {
    doc: "the dialogue ended: closed, walked away from, interrupted by combat, or replaced by the service it opened",
    schema: z.strictObject({}),
  },
  "quest:list": {
    doc: "every quest of the world with your status, current stage (`stage`: its id; null when not started or completed), what to do now (`stageText`) and a counted stage's progress, and your quest points: at login (after `welcome` and `player:sync`), in answer to `quest:getList` and after every change",
    schema: z.strictObject({
      quests: z.array(
        z.strictObject({
          id,
          name: z.string(),
          status: z.enum(QUEST_STATUS),
          stage: z.string().nullable(),
          stageText: z.string(),
          progress: progress.optional(),
        }),
      ),
      questPoints: z.int().min(0),
    }),
  },
  "quest:progress": {
    doc: "a step of a quest: a kill counted, an item gathered or made (`progress`), a stage done (`stage` the next one's id, `stageText` what to do now), or the quest started or completed (`status`)",
    schema: z.strictObject({
      questId: id,
      name: z.string(),
      status: z.enum(QUEST_STATUS),
      stage: z.string().nullable(),
      stageText: z.string(),
      progress: progress.optional(),
    }),
  },
  "quest:completed": {
    doc: "a quest completed: the quest points it gave (0 on a replay) and its rewards",
    schema: z.strictObject({
      questId: id,
      name: z.string(),
      questPoints: z.int().min(0),
      totalQuestPoints: z.int().min(0),
      items: z.array(z.strictObject({ itemId: id, quantity: z.int().min(1) })),
      xp: z.record(z.string(), z.number()),
    }),
  },
} as const;
