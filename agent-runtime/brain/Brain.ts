/**
 * What a brain decides, and what it decides from. The runtime (agent-runtime/Agent.ts) plays the
 * decisions through the game's events; a brain only chooses: which goal to pursue next, and what
 * to say back to a chat message that is not a command. Decisions happen when a goal ends or a
 * message arrives, never in the per-tick step, so a slow brain (a language model) does not hold
 * the game up.
 */
import type { QuestEntry } from "./questPlan.ts";

/** An owner's standing instructions (focus.ts): what an agent can be told to pursue above all. */
export const FOCUSES = ["melee", "magic", "making", "quests"] as const;
export type Focus = (typeof FOCUSES)[number];

/** A goal the server offers this character now (`availableGoals` of the goal routes). */
export interface GoalOption {
  type: string;
  description: string;
  targets: string[];
}

/** What the agent knows when it decides: its own state and a summary of what it sees. */
export interface Observation {
  name: string;
  position: { x: number; z: number };
  health: number;
  maxHealth: number;
  combatLevel: number;
  coins: number;
  skills: Record<string, { level: number; xp: number }>;
  /** Item id and quantity per occupied slot. */
  inventory: { slot: number; itemId: string; quantity: number }[];
  freeSlots: number;
  equipment: Record<string, string>;
  /** What is in view, counted by kind and content id (e.g. `resource:tree_normal` → 3). */
  nearby: Record<string, number>;
  /** The goals the server offers now. */
  availableGoals: GoalOption[];
  /** Its owner's standing instruction (focus.ts): the goals serving it come first; absent, none. */
  focus?: Focus | undefined;
  /** Its quest list (`quest:list`): each quest's status, stage and what to do now; absent until heard. */
  quests?: QuestEntry[] | undefined;
  /**
   * The last goals (up to RECENT_GOALS), newest first, with how they ended; `crowded`: given up
   * because others took what it needed (the trees depleted, the monsters killed, by a crowd it could
   * see); `stalled`: a quest goal given up with the quest where it was when the goal began; `fled`: a
   * fight left hurt with nothing to eat (the fight was no mistake: it heals and fights on).
   */
  recentGoals: {
    type: string;
    target?: string | undefined;
    outcome: "done" | "failed" | "replaced";
    crowded?: boolean | undefined;
    stalled?: boolean | undefined;
    fled?: boolean | undefined;
  }[];
}

/** How many of its last goals the runtime remembers for the brain (Observation.recentGoals). */
export const RECENT_GOALS = 30;

export interface GoalChoice {
  type: string;
  target?: string | undefined;
  /** Why, in a few words: shown in the agent's activity. */
  reason: string;
}

export interface Brain {
  /** A name for the activity log and `GET /agents/:id` (`scripted`, `openai:gpt-4o-mini`, …). */
  readonly name: string;
  /** The next goal, one of `obs.availableGoals` (a choice outside them is refused by the server). */
  chooseGoal(obs: Observation): Promise<GoalChoice>;
  /** A chat reply to a message that is not one of the commands (agent-runtime/brain/commands.ts). */
  reply(message: string, from: string, obs: Observation): Promise<string>;
}
