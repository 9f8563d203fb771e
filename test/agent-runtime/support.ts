/**
 * Builders the agent-runtime tests share, each with a new character's values: the bundled world's
 * Knowledge, the `player:sync` an agent's view is fed (a Self), the Observation a brain chooses
 * from, an AgentView standing in the world, a behaviour's Ctx recording what it sends, and a quest
 * list. A test states only what differs from them.
 */
import { AgentView, type Self } from "../../agent-runtime/AgentView.ts";
import type { Ctx } from "../../agent-runtime/brain/behaviourKit.ts";
import type { GoalOption, Observation } from "../../agent-runtime/brain/Brain.ts";
import type { QuestEntry } from "../../agent-runtime/brain/questPlan.ts";
import { Random } from "../../agent-runtime/brain/random.ts";
import { knowledgeOf, type Knowledge } from "../../agent-runtime/knowledge.ts";
import type { WorldUpdate } from "../../src/game/worldUpdate.ts";
import { bundledContent } from "../support/content.ts";

export type Entry = WorldUpdate["entities"][number];
/** A message a behaviour sent, as its Ctx recorded it. */
export type Sent = { type: string; data: Record<string, unknown> };

/** What an agent knows of the bundled world's content (a Knowledge of its own for each caller). */
export async function bundledKnowledge(): Promise<Knowledge> {
  return knowledgeOf(await bundledContent());
}

/** A `player:sync` as the server sends it: a new character at the origin, carrying nothing, with `over`. */
export const selfOf = (over: Partial<Self> = {}): Self => ({
  id: "me",
  name: "Robin",
  position: { x: 0, y: 0, z: 0 },
  health: 100,
  maxHealth: 100,
  combatLevel: 3,
  coins: 0,
  combatStyle: "accurate",
  autocast: null,
  runEnergy: 100,
  runMode: false,
  autoRetaliate: true,
  prayerPoints: 1,
  activePrayers: [],
  skills: {},
  inventory: [],
  equipment: {},
  bank: [],
  inTrade: false,
  ...over,
});

/** What a brain chooses from: a new character at the origin, carrying nothing, offered no goal, with `over`. */
export const observation = (over: Partial<Observation> = {}): Observation => ({
  name: "Robin",
  position: { x: 0, z: 0 },
  health: 100,
  maxHealth: 100,
  combatLevel: 3,
  coins: 0,
  skills: {},
  inventory: [],
  freeSlots: 28,
  equipment: {},
  nearby: {},
  availableGoals: [],
  recentGoals: [],
  ...over,
});

/** A character's skills at `levels` (Constitution 10, the rest 1 unless named), with `xp` where given (0 else). */
export const skillsAt = (levels: Record<string, number>, xp: Record<string, number> = {}): Observation["skills"] =>
  Object.fromEntries(
    ["attack", "strength", "defense", "constitution", "woodcutting", "mining", "fishing", "cooking", "firemaking", "magic", "smithing", "crafting"].map((s) => [
      s,
      { level: levels[s] ?? (s === "constitution" ? 10 : 1), xp: xp[s] ?? 0 },
    ]),
  );

/** A fighter under `focus melee` as the melee tests start it: 25 coins, a hatchet, skills at level 1, with `over`. */
export const fighterObservation = (over: Partial<Observation> = {}): Observation =>
  observation({
    coins: 25,
    skills: skillsAt({}),
    inventory: [{ slot: 0, itemId: "bronze_hatchet", quantity: 1 }],
    freeSlots: 27,
    focus: "melee",
    ...over,
  });

/** A quest goal the server offers, of `targets`. */
export const questOptionOf = (...targets: string[]): GoalOption => ({ type: "quest", description: "Do a quest", targets });

/** Inventory slots holding one of each item, from slot 0. */
export const carrying = (itemIds: string[]): Observation["inventory"] => itemIds.map((itemId, slot) => ({ slot, itemId, quantity: 1 }));

/**
 * An agent's view fed `self`; placed at `at` (its first world update, the agent itself among
 * `others`, its entry's fields from `self` unless `me` says otherwise), or not placed at all.
 */
export function viewOf(self: Self, at?: { x: number; z: number }, others: Entry[] = [], me: Partial<Entry> = {}): AgentView {
  const view = new AgentView();
  view.playerId = "me";
  view.sync(self);
  if (at !== undefined) {
    const entry: Entry = {
      id: "me",
      kind: "player",
      x: at.x,
      z: at.z,
      name: self.name,
      health: self.health,
      maxHealth: self.maxHealth,
      combatLevel: 3,
      running: false,
      ...me,
    };
    view.update({ tick: 1, entities: [entry, ...others], removed: [] });
  }
  return view;
}

/** A behaviour's context over `view` at tick 0, drawing from Random(`seed`), with what it sent and noted. */
export function ctxOf(know: Knowledge, view: AgentView, seed: string): { ctx: Ctx; sent: Sent[]; notes: string[] } {
  const sent: Sent[] = [];
  const notes: string[] = [];
  const ctx: Ctx = {
    view,
    know,
    rng: new Random(seed),
    tick: 0,
    send: (type, data) => void sent.push({ type, data }),
    note: (text) => void notes.push(text),
  };
  return { ctx, sent, notes };
}

/** Every quest of the content: those named completed, or in progress at the stage named, the others not started. */
export const questList = (know: Knowledge, completed: string[], doing: Record<string, string> = {}): QuestEntry[] =>
  [...know.registry.quests.quests.values()].map((q) => ({
    id: q.id,
    name: q.name,
    status: completed.includes(q.id) ? "completed" : doing[q.id] !== undefined ? "in_progress" : "not_started",
    stage: doing[q.id] ?? null,
    stageText: "",
  }));
