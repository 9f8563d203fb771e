/**
 * The quest and dialogue part of the content registry, built from `quests.json` and the dialogue
 * trees of `npcs.json`. What the game cannot run is reported (naming file and entry) and left out:
 * a quest with a stage type the engine does not know, one whose NPCs are not placed in the world
 * (no one to talk to), one whose kill target is no NPC, whose gather, make or give target is no
 * item, whose interact target is no item, place or "fire", or whose reach area is no area;
 * an unknown item among its gifts or rewards is dropped from the list; a dialogue response leading
 * to a node that does not exist, or naming an unknown quest or item, is dropped.
 */
import { dialogueTree, type DialogueCondition, type DialogueEffect, type DialogueTree } from "./schemas/dialogue.ts";
import type { NpcDef } from "./schemas/npcs.ts";
import { questsFile as questsSchema, STAGE_TYPES, type QuestDef, type QuestStageDef, type StageType } from "./schemas/quests.ts";

export interface QuestStage extends QuestStageDef {
  type: StageType;
}

export interface Quest {
  id: string;
  name: string;
  description: string;
  questPoints: number;
  replayable: boolean;
  requirements: { quests: string[]; skills: Record<string, number>; items: Stack[] };
  startNpc: string;
  stages: QuestStage[];
  onStart: { items: Stack[]; dialogue?: string | undefined };
  rewards: { questPoints: number; items: Stack[]; xp: Record<string, number> };
}

type Stack = { itemId: string; quantity: number };

/** A response as the game reads it: its effects in one list. */
export interface Response {
  text: string;
  nextNodeId?: string | undefined;
  conditions: DialogueCondition[];
  effects: DialogueEffect[];
}

export interface Dialogue {
  entryNodeId: string;
  nodes: ReadonlyMap<string, { id: string; text: string; responses: Response[] }>;
}

export interface QuestContent {
  /** Every quest the game can run, in the file's order. */
  quests: ReadonlyMap<string, Quest>;
  /** NPC id → its dialogue tree (only NPCs that have one). */
  dialogues: ReadonlyMap<string, Dialogue>;
}

/** The item a stage of type `interact` names for lighting fires (firemaking makes no item). */
export const FIRE_TARGET = "fire";

type Check = (ok: boolean, file: string, path: string, message: string) => boolean;

export function buildQuests(
  questsInput: Record<string, QuestDef> | undefined,
  npcs: ReadonlyMap<string, NpcDef>,
  /** NPC ids an area places (someone a player can walk up to and talk to). */
  placed: ReadonlySet<string>,
  knownItem: (id: string) => boolean,
  check: Check,
  /** The ids of world-areas.json (a `reach` stage's area) and world-objects.json (an `interact` stage's place). */
  known: { areas: ReadonlySet<string>; places: ReadonlySet<string> } = { areas: new Set(), places: new Set() },
): QuestContent {
  const file = "quests.json";
  // Parsed again here (a no-op on the loader's schema-valid data) because the browser client builds
  // its registry from the raw files the server serves: the schemas' defaults and shorthands apply.
  const parsedQuests = questsInput === undefined ? undefined : questsSchema.safeParse(questsInput);
  const questsFile: Record<string, QuestDef> | undefined = parsedQuests?.success === true ? parsedQuests.data : undefined;
  check(parsedQuests === undefined || parsedQuests.success, file, "$", "does not fit its schema");
  const quests = new Map<string, Quest>();
  const types = STAGE_TYPES as readonly string[];
  for (const [key, q] of Object.entries(questsFile ?? {})) {
    const at = `$.${key}`;
    let ok = check(q.id === key, file, `${at}.id`, `quest id "${q.id}" differs from its key "${key}"`);
    ok = check(placed.has(q.startNpc), file, `${at}.startNpc`, `unknown NPC "${q.startNpc}": no area places it, so the quest cannot be started`) && ok;
    q.stages.forEach((s, i) => {
      const sAt = `${at}.stages[${i}]`;
      if (!check(types.includes(s.type), file, `${sAt}.type`, `unknown stage type "${s.type}" (known: ${STAGE_TYPES.join(", ")})`)) {
        ok = false;
        return;
      }
      if (s.type === "dialogue" || s.type === "give") {
        const npc = s.npcId ?? q.startNpc;
        // (The start NPC missing is reported once, above.)
        ok = (npc === q.startNpc || check(placed.has(npc), file, `${sAt}.npcId`, `unknown NPC "${npc}": no area places it`)) && ok;
      }
      if (s.type === "dialogue") return;
      if (s.type === "reach") {
        ok =
          check(
            s.area !== undefined && known.areas.has(s.area),
            file,
            `${sAt}.area`,
            s.area === undefined ? "a reach stage needs an area" : `unknown area "${s.area}"`,
          ) && ok;
      } else if (s.target === undefined) {
        ok = check(false, file, `${sAt}.target`, `a ${s.type} stage needs a target`) && ok;
      } else if (s.type === "kill") {
        ok = check(npcs.has(s.target), file, `${sAt}.target`, `unknown NPC "${s.target}"`) && ok;
      } else if (!(s.type === "interact" && (s.target === FIRE_TARGET || known.places.has(s.target)))) {
        ok =
          check(
            knownItem(s.target),
            file,
            `${sAt}.target`,
            s.type === "interact" ? `unknown item "${s.target}" (nor a place)` : `unknown item "${s.target}"`,
          ) && ok;
      }
    });
    const items = (list: { itemId: string; quantity: number }[], path: string) =>
      list
        .filter((s, j) => check(knownItem(s.itemId), file, `${at}.${path}[${j}].itemId`, `unknown item "${s.itemId}"`))
        .map((s) => ({ itemId: s.itemId, quantity: s.quantity }));
    if (!ok) continue;
    quests.set(key, {
      id: q.id,
      name: q.name,
      description: q.description,
      questPoints: q.questPoints,
      replayable: q.replayable,
      startNpc: q.startNpc,
      stages: q.stages.map((s) => ({ ...s, npcId: s.type === "dialogue" || s.type === "give" ? (s.npcId ?? q.startNpc) : s.npcId }) as QuestStage),
      requirements: { quests: q.requirements.quests, skills: q.requirements.skills, items: items(q.requirements.items, "requirements.items") },
      onStart: { items: items(q.onStart.items, "onStart.items"), dialogue: q.onStart.dialogue },
      rewards: { questPoints: q.rewards.questPoints ?? q.questPoints, items: items(q.rewards.items, "rewards.items"), xp: { ...q.rewards.xp } },
    });
  }
  // A quest needing an unknown (or left out) quest could never start.
  for (const [key, q] of quests) {
    q.requirements.quests.forEach((r, i) => {
      if (!check(quests.has(r), file, `$.${key}.requirements.quests[${i}]`, `unknown quest "${r}"`)) quests.delete(key);
    });
  }

  const dialogues = new Map<string, Dialogue>();
  [...npcs.values()].forEach((npc, i) => {
    if (npc.dialogue === undefined) return;
    const tree = dialogueTree.safeParse(npc.dialogue);
    if (!check(tree.success, "npcs.json", `$[${i}].dialogue`, "does not fit its schema")) return;
    const d = buildDialogue(tree.data!, `$[${i}].dialogue`, quests, knownItem, check);
    if (d !== undefined) dialogues.set(npc.id, d);
  });
  return { quests, dialogues };
}

function buildDialogue(
  tree: DialogueTree,
  at: string,
  quests: ReadonlyMap<string, Quest>,
  knownItem: (id: string) => boolean,
  check: Check,
): Dialogue | undefined {
  const file = "npcs.json";
  const ids = new Set(tree.nodes.map((n) => n.id));
  if (!check(ids.has(tree.entryNodeId), file, `${at}.entryNodeId`, `no node "${tree.entryNodeId}"`)) return undefined;
  const nodes = new Map<string, { id: string; text: string; responses: Response[] }>();
  tree.nodes.forEach((node, n) => {
    const responses: Response[] = [];
    node.responses.forEach((r, j) => {
      const rAt = `${at}.nodes[${n}].responses[${j}]`;
      const effects = [...(r.effect !== undefined ? [r.effect] : []), ...r.effects] as DialogueEffect[];
      const fine =
        (r.nextNodeId === undefined || check(ids.has(r.nextNodeId), file, `${rAt}.nextNodeId`, `no node "${r.nextNodeId}"`)) &&
        effects.every((e) =>
          e.type === "startQuest" || e.type === "advanceQuest"
            ? check(quests.has(e.questId), file, rAt, `unknown quest "${e.questId}"`)
            : e.type === "giveItem" || e.type === "takeItem"
              ? check(knownItem(e.itemId), file, rAt, `unknown item "${e.itemId}"`)
              : true,
        ) &&
        r.conditions.every((c) =>
          c.type === "quest"
            ? check(quests.has(c.questId), file, rAt, `unknown quest "${c.questId}"`)
            : c.type === "item"
              ? check(knownItem(c.itemId), file, rAt, `unknown item "${c.itemId}"`)
              : true,
        );
      if (fine) responses.push({ text: r.text, nextNodeId: r.nextNodeId, conditions: r.conditions, effects });
    });
    nodes.set(node.id, { id: node.id, text: node.text, responses });
  });
  return { entryNodeId: tree.entryNodeId, nodes };
}
