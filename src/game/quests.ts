/**
 * The quest engine: a character's progress through the content's quests (quests.json), stage by
 * stage. A quest starts at its start NPC (dialogue.ts): its requirements are checked (skills,
 * quests completed, items carried), its `onStart` gifts given, and its first stage, the offer
 * itself, is done. Each later stage is done by:
 * - `dialogue`: talking to its NPC (the dialogue offers "About <quest>…");
 * - `give`: talking to its NPC carrying its items, which are taken in that step (all or nothing);
 * - `kill`, `gather`, `interact`, `make`: counting kills of its NPC, items of its target gathered,
 *   uses of its place (or items made, or fires lit), items of its target made, from the moment
 *   the stage begins ({@link questStep});
 * - `reach`: entering its area, or standing in it when the stage begins ({@link reachAreas});
 * and the last stage done completes the quest: its reward items (one transaction: no room, no
 * completion), xp and, the first time only, its quest points. A replayable quest may be started
 * again once completed. A step out of order (a kill for a later stage, a talk before the kills)
 * counts for nothing.
 *
 * Every change is announced: `quest:progress` for the quest, then the whole `quest:list`.
 */
import type { Quest, QuestStage } from "../manifests/questContent.ts";
import { FIRE_TARGET } from "../manifests/questContent.ts";
import { giveItem, transact, type Tx } from "./inventory.ts";
import { addXp, levelOf, toSkill } from "./progression.ts";
import { invError } from "./rules.ts";
import type { ServerEvent } from "./serverEvents.ts";
import type { ContentRegistry } from "../manifests/registry.ts";
import type { Player, PlayerData, QuestProgress } from "./world/Player.ts";
import type { GameError, World } from "./world/World.ts";
import { skillTitle } from "./skills.ts";

export { FIRE_TARGET };
export type QuestStatus = "not_started" | "in_progress" | "completed";
type Progress = { count: number; required: number };

/** The character's quest states (created empty on first use). */
export function questLog(player: Player): Record<string, QuestProgress> {
  return (player.data.quests ??= {});
}

export function statusOf(player: Player, questId: string): QuestStatus {
  return player.data.quests?.[questId]?.status ?? "not_started";
}

/** The stage to do now (in progress only). */
export function currentStage(player: Player, quest: Quest): QuestStage | undefined {
  const s = player.data.quests?.[quest.id];
  return s?.status === "in_progress" ? quest.stages[s.stage] : undefined;
}

/** Quest points: those of every quest completed (once each), as the content gives them now. */
export function questPoints(world: World, player: Player): number {
  return questListOf(world.content, player.data.quests).questPoints;
}

/** Why the player may not start the quest now (undefined: it may). */
export function startRefusal(world: World, player: Player, quest: Quest): GameError | undefined {
  const status = statusOf(player, quest.id);
  if (status === "in_progress") return { code: "QUEST_IN_PROGRESS", message: `you are already doing ${quest.name}` };
  if (status === "completed" && !quest.replayable) return { code: "QUEST_COMPLETED", message: `you have already completed ${quest.name}` };
  const unmet = unmetRequirement(world, player, quest);
  return unmet === undefined ? undefined : { code: "REQUIREMENTS_NOT_MET", message: unmet };
}

/** The first requirement of the quest the player does not meet, in words. */
export function unmetRequirement(world: World, player: Player, quest: Quest): string | undefined {
  for (const [name, level] of Object.entries(quest.requirements.skills)) {
    const skill = toSkill(name);
    if (skill === undefined || levelOf(player, skill) < level) return `you need ${skillTitle(skill ?? name)} level ${level} for ${quest.name}`;
  }
  for (const q of quest.requirements.quests) {
    if ((player.data.quests?.[q]?.completions ?? 0) === 0) return `you need to complete ${world.content.quests.quests.get(q)?.name ?? q} first`;
  }
  for (const { itemId, quantity } of quest.requirements.items) {
    const have = player.data.inventory.reduce((n, s) => (s?.itemId === itemId ? n + s.quantity : n), 0);
    if (have < quantity) return `you need ${quantity} × ${world.content.item(itemId)?.name ?? itemId} for ${quest.name}`;
  }
  return undefined;
}

/** Why the player cannot do the quest's current stage by talking to this NPC (undefined: it can). */
export function advanceRefusal(world: World, player: Player, quest: Quest, npcId: string): GameError | undefined {
  const stage = currentStage(player, quest);
  if (stage === undefined) return { code: "QUEST_NOT_STARTED", message: `you are not doing ${quest.name}` };
  if (!talkStage(stage) || stage.npcId !== npcId) return { code: "QUEST_STAGE_NOT_READY", message: `first: ${stage.description}` };
  if (stage.type === "give" && carried(player, stage.target!) < stage.count) {
    return { code: "MISSING_ITEM", message: `you need ${stage.count} × ${world.content.item(stage.target!)?.name ?? stage.target} to hand over` };
  }
  return undefined;
}

/** A stage done by talking to its NPC: `dialogue`, or `give` (the items handed over in that step). */
export function talkStage(stage: QuestStage): boolean {
  return stage.type === "dialogue" || stage.type === "give";
}

function carried(player: Player, itemId: string): number {
  return player.data.inventory.reduce((n, s) => (s?.itemId === itemId ? n + s.quantity : n), 0);
}

/** Whether finishing the current stage completes the quest. */
function atLastStage(player: Player, quest: Quest): boolean {
  return player.data.quests?.[quest.id]?.stage === quest.stages.length - 1;
}

/** The items a start gives (into the caller's transaction). */
export function giveOnStart(tx: Tx, quest: Quest): void {
  for (const s of quest.onStart.items) giveItem(tx, s.itemId, s.quantity);
}

/**
 * The items a dialogue advance moves (into the caller's transaction): a `give` stage's items taken
 * (short: the transaction fails, nothing moves), the rewards given when it completes the quest.
 */
export function giveOnAdvance(tx: Tx, player: Player, quest: Quest): void {
  const stage = currentStage(player, quest);
  if (stage?.type === "give") tx.inv.remove(stage.target!, stage.count);
  if (atLastStage(player, quest)) for (const s of quest.rewards.items) giveItem(tx, s.itemId, s.quantity);
}

/**
 * Starts the quest (its gifts already given by the caller's transaction): in progress at its first
 * stage, which is done at once when it is the offer of the NPC the player is talking to.
 */
export function applyStart(world: World, player: Player, quest: Quest, npcId: string): void {
  const was = questLog(player)[quest.id];
  questLog(player)[quest.id] = { status: "in_progress", stage: 0, progress: 0, completions: was?.completions ?? 0 };
  changed(player);
  world.tell(player.id, `You have started ${quest.name}.`);
  const first = quest.stages[0]!;
  if (first.type === "dialogue" && first.npcId === npcId) applyAdvance(world, player, quest);
  else {
    announce(world, player, quest);
    if (first.type === "reach" && inArea(world, player, first.area!)) stageDone(world, player, quest, questLog(player)[quest.id]!);
  }
}

/** Completes the current (dialogue) stage; the rewards' items already given when it was the last. */
export function applyAdvance(world: World, player: Player, quest: Quest): void {
  const s = questLog(player)[quest.id]!;
  if (s.stage >= quest.stages.length - 1) {
    complete(world, player, quest, s);
    return;
  }
  nextStage(world, player, quest, s);
}

/** The quest moves on to its next stage (not past the last); a `reach` stage already met is done at once. */
function nextStage(world: World, player: Player, quest: Quest, s: QuestProgress): void {
  s.stage++;
  s.progress = 0;
  changed(player);
  announce(world, player, quest);
  const stage = quest.stages[s.stage]!;
  if (stage.type === "reach" && inArea(world, player, stage.area!)) stageDone(world, player, quest, s);
}

/** Whether the player stands in the area (world-areas.json id). */
function inArea(world: World, player: Player, areaId: string): boolean {
  const b = world.content.areas.find((a) => a.id === areaId)?.bounds;
  return b !== undefined && player.x >= b.minX && player.x <= b.maxX && player.z >= b.minZ && player.z <= b.maxZ;
}

/**
 * Each tick: every quest in progress whose current stage is a `reach` the player now stands in is
 * done (the area entered by walking, a ladder or a teleport).
 */
export function reachAreas(world: World): void {
  for (const player of world.players.values()) {
    const log = player.data.quests;
    if (log === undefined) continue;
    for (const id in log) {
      const s = log[id]!;
      if (s.status !== "in_progress") continue;
      const quest = world.content.quests.quests.get(id);
      const stage = quest?.stages[s.stage];
      if (quest !== undefined && stage?.type === "reach" && inArea(world, player, stage.area!)) stageDone(world, player, quest, s, true);
    }
  }
}

/** The quests whose rewards a player has been told to make room for by a reach (told once, not each tick). */
const toldNoRoom = new WeakMap<Player, Set<string>>();

/**
 * A step that counts for quests: a kill (`target` the NPC type), an item gathered or made
 * (`target` the item), a fire lit (`interact`, FIRE_TARGET), a place used (`interact`, its id).
 * Counts for every quest in progress whose current stage asks for exactly this; other steps count
 * for nothing.
 */
export function questStep(world: World, player: Player, kind: "kill" | "gather" | "interact" | "make", target: string, count = 1): void {
  const log = player.data.quests;
  if (log === undefined) return;
  for (const [id, s] of Object.entries(log)) {
    if (s.status !== "in_progress") continue;
    const quest = world.content.quests.quests.get(id);
    const stage = quest?.stages[s.stage];
    if (quest === undefined || stage === undefined || stage.type !== kind || stage.target !== target) continue;
    s.progress = Math.min(stage.count, s.progress + count);
    changed(player);
    if (s.progress < stage.count) announce(world, player, quest);
    else stageDone(world, player, quest, s);
  }
}

/**
 * A counted (or reached) stage is done: the next one begins, or the quest completes. A last stage's
 * rewards need room, else the stage waits, done, for the next step (or tick, for a `reach`).
 */
function stageDone(world: World, player: Player, quest: Quest, s: QuestProgress, eachTick = false): void {
  if (s.stage < quest.stages.length - 1) {
    nextStage(world, player, quest, s);
    return;
  }
  const r = transact(player, world.content, (tx) => {
    for (const it of quest.rewards.items) giveItem(tx, it.itemId, it.quantity);
  });
  if (r.ok) {
    toldNoRoom.get(player)?.delete(quest.id);
    complete(world, player, quest, s);
    return;
  }
  if (eachTick) {
    const told = toldNoRoom.get(player) ?? new Set<string>();
    if (told.has(quest.id)) return;
    toldNoRoom.set(player, told.add(quest.id));
  }
  world.sendError(player.id, invError(r.error).code, `make room for the rewards of ${quest.name}`);
}

/**
 * An item made (cooked, smelted, smithed, crafted, fletched, runecrafted, tanned): for `interact`
 * and `make` stages (a fire lit, FIRE_TARGET, only an `interact` one can name).
 */
export function questItemMade(world: World, player: Player, itemId: string, count = 1): void {
  questStep(world, player, "interact", itemId, count);
  questStep(world, player, "make", itemId, count);
}

function complete(world: World, player: Player, quest: Quest, s: QuestProgress): void {
  const first = s.completions === 0;
  s.status = "completed";
  s.progress = 0;
  s.completions++;
  changed(player);
  const xp: Record<string, number> = {};
  for (const [name, amount] of Object.entries(quest.rewards.xp)) {
    const skill = toSkill(name);
    if (skill === undefined || !(amount > 0)) continue;
    addXp(world, player, skill, amount);
    xp[skill] = amount;
  }
  const points = first ? quest.rewards.questPoints : 0;
  world.tell(player.id, `Congratulations! You have completed ${quest.name}.`);
  world.send(player.id, "quest:completed", {
    questId: quest.id,
    name: quest.name,
    questPoints: points,
    totalQuestPoints: questPoints(world, player),
    items: quest.rewards.items.map((i) => ({ itemId: i.itemId, quantity: i.quantity })),
    xp,
  });
  announce(world, player, quest);
}

function changed(player: Player): void {
  player.saveDue = true;
}

/** `quest:progress` for one quest, then the whole list. */
function announce(world: World, player: Player, quest: Quest): void {
  world.send(player.id, "quest:progress", { questId: quest.id, ...entry(world.content, quest, player.data.quests?.[quest.id]) });
  sendQuestList(world, player);
}

/** One quest as the lists show it, given the character's state in it. */
function entry(content: ContentRegistry, quest: Quest, s: QuestProgress | undefined): Omit<ServerEvent<"quest:list">["quests"][number], "id"> {
  if (s === undefined) {
    return {
      name: quest.name,
      status: "not_started",
      stage: null,
      stageText: `Talk to ${content.npcs.get(quest.startNpc)?.name ?? quest.startNpc} to start this quest.`,
    };
  }
  if (s.status === "completed") return { name: quest.name, status: "completed", stage: null, stageText: "Quest complete." };
  const stage = quest.stages[s.stage]!;
  const progress: Progress | undefined = stage.type === "dialogue" ? undefined : { count: s.progress, required: stage.count };
  return { name: quest.name, status: "in_progress", stage: stage.id, stageText: stage.description, ...(progress ? { progress } : {}) };
}

/** Every quest of the content with a character's status in each, and its quest points (`quest:list`, REST). */
export function questListOf(content: ContentRegistry, log: PlayerData["quests"]): ServerEvent<"quest:list"> {
  const quests = [...content.quests.quests.values()].map((q) => ({ id: q.id, ...entry(content, q, log?.[q.id]) }));
  let points = 0;
  for (const [id, s] of Object.entries(log ?? {})) if (s.completions > 0) points += content.quests.quests.get(id)?.rewards.questPoints ?? 0;
  return { quests, questPoints: points };
}

/** `quest:list` for a player in the world. */
export function questList(world: World, player: Player): ServerEvent<"quest:list"> {
  return questListOf(world.content, player.data.quests);
}

export function sendQuestList(world: World, player: Player): void {
  world.send(player.id, "quest:list", questList(world, player));
}
