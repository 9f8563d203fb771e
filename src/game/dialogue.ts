/**
 * Talking to NPCs: `player:action {action: "talk", targetId}` walks next to the NPC (as `interact`
 * does) and opens its dialogue (`dialogue:open`); the player answers with `dialogue:choose
 * {optionId}` until a node without options, or an option leading nowhere, ends it
 * (`dialogue:close`).
 *
 * What an NPC says is its tree in npcs.json (schemas/dialogue.ts): nodes with text, responses
 * shown only when their conditions hold (a quest's status or stage, items carried, a level) and
 * carrying effects (open the bank or the store, start a quest, do a quest's dialogue stage, give
 * or take items). The quest engine adds its own options to the entry node of the NPCs its quests
 * name (quests.ts): the offer of a quest the NPC starts (when the tree does not start it itself),
 * a dialogue or give stage with this NPC (a give's items taken as it is chosen; short, refused),
 * a reminder of the stage to do now. A banker or keeper without a
 * tree still offers its service as an option, as in the genre.
 *
 * A choice is all or nothing: its effects are checked first, their items (given, taken, a quest's
 * gifts and rewards) moved in one inventory transaction, and only then the quests change. Option
 * ids are new at every `dialogue:open`: an option of an earlier one, of another player's dialogue
 * or of none is refused (INVALID_OPTION) and changes nothing. Walking, another action, leaving
 * the NPC's reach, the NPC's death or combat closes the dialogue.
 */
import type { Dialogue, Quest, Response } from "../manifests/questContent.ts";
import type { DialogueCondition, DialogueEffect } from "../manifests/schemas/dialogue.ts";
import { chebyshev } from "./map/CollisionMap.ts";
import { giveItem, transact } from "./inventory.ts";
import { addXp, levelOf, toSkill } from "./progression.ts";
import { sentence } from "./sentence.ts";
import { SKILLS } from "./skills.ts";
import {
  advanceRefusal,
  applyAdvance,
  applyStart,
  currentStage,
  giveOnAdvance,
  giveOnStart,
  questLog,
  sendQuestList,
  startRefusal,
  statusOf,
  talkStage,
  unmetRequirement,
} from "./quests.ts";
import { invError, SERVICE_RANGE } from "./rules.ts";
import { openBank, openKeepersStore } from "./services.ts";
import type { NpcInstance } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { GameError, HandlerResult, World } from "./world/World.ts";

/** A dialogue stays open while the player is within this many tiles (Chebyshev) of the NPC. */
export const DIALOGUE_RANGE = SERVICE_RANGE;

interface Option {
  id: string;
  text: string;
  next?: string | undefined;
  conditions: DialogueCondition[];
  effects: DialogueEffect[];
  /** What to say after it when it leads to no node of the tree (a quest's own options). */
  say?: () => string;
  /** Its own effect, in place of `effects` (an xp lamp's skill): an error changes nothing. */
  run?: () => GameError | undefined;
}

interface Session {
  /** Who speaks: an NPC, or an item (an xp lamp asking which skill). */
  npc: NpcInstance | undefined;
  nodeId: string;
  options: Option[];
}

/** The open dialogues of each world, by player id. */
const open = new WeakMap<World, Map<string, Session>>();
let optionSeq = 0;

function sessions(world: World): Map<string, Session> {
  let m = open.get(world);
  if (m === undefined) open.set(world, (m = new Map<string, Session>()));
  return m;
}

/** The open dialogue's NPC (instance id), if any. */
export function dialogueWith(world: World, player: Player): string | undefined {
  return open.get(world)?.get(player.id)?.npc?.id;
}

/** Opens the NPC's dialogue at its entry node (the player stands in reach). */
export function talkTo(world: World, player: Player, npc: NpcInstance): void {
  const tree = world.content.quests.dialogues.get(npc.def.id) ?? serviceTree(npc);
  const questOptions = questOptionsFor(world, player, npc, tree);
  if (tree === undefined && questOptions.length === 0) {
    world.tell(player.id, `${npc.def.name} has nothing to say to you right now.`);
    return;
  }
  if (tree === undefined) {
    show(world, player, npc, "quests", `${npc.def.name} looks up at you.`, questOptions);
    return;
  }
  showNode(world, player, npc, tree, tree.entryNodeId, questOptions);
}

/** A service NPC without a tree of its own: a greeting with its service as the option. */
function serviceTree(npc: NpcInstance): Dialogue | undefined {
  const service = npc.service?.type === "bank" ? "openBank" : npc.service?.storeId !== undefined ? "openStore" : undefined;
  if (service === undefined) return undefined;
  const ask = service === "openBank" ? "I'd like to access my bank." : "Let me see your wares.";
  const responses: Response[] = [
    { text: ask, conditions: [], effects: [{ type: service }] },
    { text: "Goodbye.", conditions: [], effects: [] },
  ];
  return { entryNodeId: "greeting", nodes: new Map([["greeting", { id: "greeting", text: "Good day. How can I help you?", responses }]]) };
}

function showNode(world: World, player: Player, npc: NpcInstance, tree: Dialogue, nodeId: string, extra: Option[] = []): void {
  const node = tree.nodes.get(nodeId)!;
  const options = [...node.responses.map((r) => ({ id: "", text: r.text, next: r.nextNodeId, conditions: r.conditions, effects: r.effects })), ...extra];
  show(world, player, npc, node.id, node.text, options);
}

/** Sends `dialogue:open` with the options whose conditions hold, each under a new id. */
function show(world: World, player: Player, npc: NpcInstance, nodeId: string, text: string, all: Option[]): void {
  showFrom(world, player, npc, { id: npc.id, name: npc.def.name }, nodeId, text, all);
}

function showFrom(
  world: World,
  player: Player,
  npc: NpcInstance | undefined,
  speaker: { id: string; name: string },
  nodeId: string,
  text: string,
  all: Option[],
): void {
  const options = all.filter((o) => o.conditions.every((c) => holds(world, player, c))).map((o) => ({ ...o, id: `o${++optionSeq}` }));
  sessions(world).set(player.id, { npc, nodeId, options });
  world.send(player.id, "dialogue:open", { npcId: speaker.id, npcName: speaker.name, nodeId, text, options: options.map((o) => ({ id: o.id, text: o.text })) });
}

/**
 * The xp an item gives as a lamp: its `lampXp` (our content's field), or the number its id ends in
 * when it is named `xp_lamp_<xp>` (the real content set's quest rewards are `xp_lamp_100`).
 */
export function lampXp(item: { id: string; lampXp?: unknown }): number | undefined {
  if (typeof item.lampXp === "number" && item.lampXp > 0) return item.lampXp;
  const m = /^xp_lamp_(\d+)$/.exec(item.id);
  return m !== null && Number(m[1]) > 0 ? Number(m[1]) : undefined;
}

/**
 * An xp lamp used (inventory:use alone): it asks which skill, one option a skill; the chosen one
 * takes the lamp (first) and gives its xp. Other dialogues close, as any new one replaces them.
 */
export function rubLamp(world: World, player: Player, itemId: string, xp: number): void {
  const name = world.content.item(itemId)?.name ?? itemId;
  const options: Option[] = SKILLS.map((skill) => ({
    id: "",
    text: `${skill[0]!.toUpperCase()}${skill.slice(1)}`,
    conditions: [],
    effects: [],
    run: () => {
      const r = transact(player, world.content, (tx) => tx.inv.remove(itemId, 1));
      if (!r.ok) return invError(r.error);
      addXp(world, player, skill, xp);
      return undefined;
    },
  }));
  showFrom(world, player, undefined, { id: itemId, name }, "lamp", `Choose the skill to gain ${xp} xp in.`, options);
}

function holds(world: World, player: Player, c: DialogueCondition): boolean {
  switch (c.type) {
    case "quest": {
      if (c.status !== undefined && statusOf(player, c.questId) !== c.status) return false;
      if (c.stage === undefined) return true;
      const quest = world.content.quests.quests.get(c.questId);
      return quest !== undefined && currentStage(player, quest)?.id === c.stage;
    }
    case "item": {
      const have = player.data.inventory.reduce((n, s) => (s?.itemId === c.itemId ? n + s.quantity : n), 0);
      return c.not ? have < c.quantity : have >= c.quantity;
    }
    case "level": {
      const skill = toSkill(c.skill);
      return skill !== undefined && levelOf(player, skill) >= c.level;
    }
  }
}

/** The options the quest engine adds to the NPC's entry node. */
function questOptionsFor(world: World, player: Player, npc: NpcInstance, tree: Dialogue | undefined): Option[] {
  const out: Option[] = [];
  const npcId = npc.def.id;
  for (const quest of world.content.quests.quests.values()) {
    const stage = currentStage(player, quest);
    if (stage !== undefined && talkStage(stage) && stage.npcId === npcId) {
      const last = questLog(player)[quest.id]!.stage === quest.stages.length - 1;
      out.push({
        id: "",
        text: last ? `${quest.name}: it's done.` : `About ${quest.name}…`,
        conditions: [],
        effects: [{ type: "advanceQuest", questId: quest.id }],
        say: () =>
          statusOf(player, quest.id) === "completed" ? "Well done! That's everything I asked." : stageSentence(currentStage(player, quest)?.description),
      });
      continue;
    }
    if (quest.startNpc !== npcId) continue;
    if (stage !== undefined) {
      out.push({
        id: "",
        text: `About ${quest.name}…`,
        conditions: [],
        effects: [],
        say: () => `You still need to ${stage.description.charAt(0).toLowerCase()}${stage.description.slice(1).replace(/\.$/, "")}.`,
      });
      continue;
    }
    if (startsInTree(tree, quest.id) || startRefusal(world, player, quest)?.code === "QUEST_COMPLETED") continue;
    const unmet = unmetRequirement(world, player, quest);
    if (unmet !== undefined) {
      out.push({ id: "", text: `${quest.name}?`, conditions: [], effects: [], say: () => `Not yet: ${unmet}.` });
      continue;
    }
    out.push({
      id: "",
      text: `${quest.name}: I'd like to help.`,
      conditions: [],
      effects: [{ type: "startQuest", questId: quest.id }],
      next: quest.onStart.dialogue !== undefined && tree?.nodes.has(quest.onStart.dialogue) ? quest.onStart.dialogue : undefined,
      // Content without an `onStart.dialogue` node: the quest's summary and first step, as sentences.
      say: () => `${quest.description} ${stageSentence(currentStage(player, quest)?.description)}`.trim(),
    });
  }
  return out;
}

/** A stage's description as a sentence, the way the genre's NPCs and journal end a line ("Chop 5 logs."); none: "". */
function stageSentence(description: string | undefined): string {
  return description === undefined || description.trim() === "" ? "" : sentence(description);
}

function startsInTree(tree: Dialogue | undefined, questId: string): boolean {
  if (tree === undefined) return false;
  for (const node of tree.nodes.values())
    for (const r of node.responses) if (r.effects.some((e) => e.type === "startQuest" && e.questId === questId)) return true;
  return false;
}

/** `dialogue:choose {optionId}`. */
export function chooseOption(world: World, player: Player, data: { optionId: string }): HandlerResult {
  const session = open.get(world)?.get(player.id);
  const option = session?.options.find((o) => o.id === data.optionId);
  if (session === undefined || option === undefined) return { code: "INVALID_OPTION", message: "that is not an option of your open dialogue" };
  const npc = session.npc;
  if (!option.conditions.every((c) => holds(world, player, c))) return { code: "INVALID_OPTION", message: "that option is no longer open to you" };
  if (option.run !== undefined || npc === undefined) {
    const failed = option.run?.();
    if (failed) return failed;
    closeDialogue(world, player);
    return;
  }
  const refusal = check(world, player, npc, option.effects);
  if (refusal) return refusal;
  const quests = world.content.quests.quests;
  const r = transact(player, world.content, (tx) => {
    for (const e of option.effects) {
      if (e.type === "giveItem") giveItem(tx, e.itemId, e.quantity);
      else if (e.type === "takeItem") tx.inv.remove(e.itemId, e.quantity);
      else if (e.type === "startQuest") giveOnStart(tx, quests.get(e.questId)!);
      else if (e.type === "advanceQuest") giveOnAdvance(tx, player, quests.get(e.questId)!);
    }
  });
  if (!r.ok) return invError(r.error);
  for (const e of option.effects) {
    if (e.type === "startQuest") applyStart(world, player, quests.get(e.questId)!, npc.def.id);
    else if (e.type === "advanceQuest") applyAdvance(world, player, quests.get(e.questId)!);
  }
  const service = option.effects.find((e) => e.type === "openBank" || e.type === "openStore");
  if (service !== undefined) {
    closeDialogue(world, player);
    if (service.type === "openBank") openBank(world, player, npc.id);
    else openKeepersStore(world, player, npc.id);
    return;
  }
  const tree = world.content.quests.dialogues.get(npc.def.id) ?? serviceTree(npc);
  if (option.next !== undefined && tree?.nodes.has(option.next)) showNode(world, player, npc, tree, option.next);
  else if (option.say !== undefined) show(world, player, npc, "quest", option.say(), []);
  else closeDialogue(world, player);
}

/** Why the effects cannot run now (undefined: they can). */
function check(world: World, player: Player, npc: NpcInstance, effects: readonly DialogueEffect[]): GameError | undefined {
  for (const e of effects) {
    const quest: Quest | undefined = "questId" in e ? world.content.quests.quests.get(e.questId as string) : undefined;
    if (e.type === "startQuest") {
      const refusal = quest === undefined ? { code: "INVALID_QUEST", message: "no such quest" } : startRefusal(world, player, quest);
      if (refusal) return refusal;
    } else if (e.type === "advanceQuest") {
      const refusal = quest === undefined ? { code: "INVALID_QUEST", message: "no such quest" } : advanceRefusal(world, player, quest, npc.def.id);
      if (refusal) return refusal;
    } else if (e.type === "openStore" && npc.service?.storeId === undefined) {
      return { code: "INVALID_TARGET", message: `${npc.def.name} keeps no store` };
    }
  }
  return undefined;
}

/** Ends the player's dialogue, if one is open (`dialogue:close`). */
export function closeDialogue(world: World, player: Player): void {
  if (open.get(world)?.delete(player.id)) world.send(player.id, "dialogue:close", {});
}

/** `dialogue:close {}`. */
export function handleClose(world: World, player: Player): HandlerResult {
  closeDialogue(world, player);
}

/** `quest:getList {}`. */
export function handleQuestList(world: World, player: Player): HandlerResult {
  sendQuestList(world, player);
}

/**
 * Each tick (actions phase): dialogues end when their player walks, starts another action, leaves
 * the world or the NPC's reach, when the NPC dies, or when an NPC attacks the player.
 */
export function closeInterruptedDialogues(world: World): void {
  const m = open.get(world);
  if (m === undefined || m.size === 0) return;
  for (const [playerId, s] of m) {
    const player = world.players.get(playerId);
    if (player === undefined) {
      m.delete(playerId);
      continue;
    }
    // An item's question (a lamp) stays open wherever the player goes.
    if (s.npc === undefined) continue;
    const npc = s.npc;
    const walking = player.path.length > 0 || player.moveTarget !== undefined;
    const busy = player.action !== undefined && !(player.action.kind === "talk" && player.action.targetId === npc.id);
    const npcGone = world.npcs.get(npc.id) !== npc || npc.deadUntil !== 0;
    const attacked = () => [...world.npcs.values()].some((n) => n.targetId === player.id && n.deadUntil === 0);
    if (walking || busy || npcGone || chebyshev(player, npc) > DIALOGUE_RANGE || attacked()) closeDialogue(world, player);
  }
}
