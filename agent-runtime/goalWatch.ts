/**
 * The watchdog over the goals an agent chose for itself (`autonomous`): one that gets nowhere is
 * given up as failed, so the brain tries something else. The agent (Agent.ts) asks it once a tick
 * while its goal's behaviour runs; a goal set by hand, and a quest (quest.ts QUEST_STUCK_TICKS),
 * have limits of their own.
 */
import { skillingChance } from "../src/game/gathering.ts";
import { dist, type AgentView } from "./AgentView.ts";
import type { Goal } from "./goalBehaviour.ts";
import type { Knowledge } from "./knowledge.ts";

/**
 * An autonomous training goal (gathering, combat) that gained no experience for this many ticks is
 * given up as failed, so the brain tries something else: with many agents in one place the trees,
 * rocks and monsters are taken, and waiting for them is no way to train.
 */
export const GOAL_STALL_TICKS = 80;
const TRAINING_GOALS = new Set(["woodcutting", "mining", "fishing", "combat"]);
/** Players within this many tiles make a stalled training goal's spot a crowded one. */
const CROWD_RADIUS = 8;
/** Expected rolls without a success before a gathering goal counts as stalled (e^-6: one stall in 400 goals by chance). */
const STALL_ROLLS = 6;

/**
 * Ticks without experience before a training goal is stalled: GOAL_STALL_TICKS, or for gathering
 * STALL_ROLLS of its expected ticks a success at its level (the node's cycle over the OSRS
 * skilling chance of its best yield: src/game/gathering.ts), when longer. Shrimp at Fishing 3 come
 * every ~25 ticks, and 80 dry ticks ended fishing for food by chance in most runs of 15:47.
 */
export function stallTicks(goal: { type: string; target?: string | undefined }, skills: Record<string, { level: number }>, know: Knowledge): number {
  if (goal.type === "combat" || goal.target === undefined) return GOAL_STALL_TICKS;
  const node = know.registry.resources.get(goal.target);
  if (node === undefined) return GOAL_STALL_TICKS;
  const level = skills[node.gathering]?.level ?? 1;
  const chances = node.harvestYield
    .filter((y) => (y.levelRequired ?? node.levelRequired) <= level && y.catchLow !== undefined && y.catchHigh !== undefined)
    .map((y) => skillingChance(y.catchLow!, y.catchHigh!, level));
  if (chances.length === 0) return GOAL_STALL_TICKS;
  const miss = chances.reduce((p, c) => p * (1 - c), 1);
  return Math.max(GOAL_STALL_TICKS, Math.ceil((STALL_ROLLS * node.baseCycleTicks) / Math.max(0.01, 1 - miss)));
}
/**
 * Any other autonomous goal (making, cooking, a purchase, the bank) with neither experience nor
 * progress for this many ticks is given up too: a goal whose behaviour loops on a refusal it does
 * not recognise held a ladder agent for 6,500 ticks (issue #48). A quest has its own limit
 * (quest.ts QUEST_STUCK_TICKS); idling and exploring are no progress by nature.
 */
export const ANY_GOAL_STALL_TICKS = 600;
const OWN_LIMIT_GOALS = new Set(["quest", "idle", "explore"]);

export class GoalWatch {
  private readonly view: AgentView;
  private readonly know: Knowledge;
  /** The experience total last seen, and the tick it last grew (a training goal's sign of life). */
  private xpSeen = -1;
  private xpGrewAt = 0;
  /** Where it stood at the last stall check (a training goal on its way is not stalled). */
  private stallSpot: { x: number; z: number } | undefined;

  constructor(view: AgentView, know: Knowledge) {
    this.view = view;
    this.know = know;
  }

  /** A goal began at `tick`: its time without experience counts from there. */
  began(tick: number): void {
    this.xpGrewAt = tick;
  }

  /**
   * Why `goal` is to be given up at `tick` (`crowded`: a training goal that others' crowding may
   * explain), or undefined while it gets somewhere. `lastProgressAt`: the tick its behaviour last
   * showed a new high of progress.
   */
  givenUp(goal: Goal | null, tick: number, lastProgressAt: number): { why: string; crowded: boolean } | undefined {
    if (this.stalled(goal, tick)) {
      // A crowd only when others stand near: alone, the spot is no worse than another (a fishing
      // spot marked crowded was left for the next ten goals, and the hurt fighter chopped trees).
      const others = this.view.countSeen("player", (p) => p.id !== this.view.playerId && dist(p, this.view.position) <= CROWD_RADIUS);
      const ticks = stallTicks(goal!, this.view.self!.skills, this.know);
      return { why: `${others > 0 ? "crowded or out of reach" : "out of reach"}: no experience in ${ticks} ticks`, crowded: others > 0 };
    }
    if (this.goingNowhere(goal, tick, lastProgressAt)) return { why: `no experience and no progress in ${ANY_GOAL_STALL_TICKS} ticks`, crowded: false };
    return undefined;
  }

  /** An autonomous goal other than training (and quest, idle, explore) with no experience nor progress for ANY_GOAL_STALL_TICKS. */
  private goingNowhere(goal: Goal | null, tick: number, lastProgressAt: number): boolean {
    if (goal === null || goal.lockedBy !== "autonomous" || TRAINING_GOALS.has(goal.type) || OWN_LIMIT_GOALS.has(goal.type)) return false;
    let xp = 0;
    for (const s of Object.values(this.view.self!.skills)) xp += s.xp;
    if (xp !== this.xpSeen) {
      this.xpSeen = xp;
      this.xpGrewAt = tick;
    }
    return tick - Math.max(this.xpGrewAt, lastProgressAt) > ANY_GOAL_STALL_TICKS;
  }

  /** True when an autonomous training goal has gained no experience for its allowance (stallTicks) while standing still. */
  private stalled(goal: Goal | null, tick: number): boolean {
    if (goal === null || goal.lockedBy !== "autonomous" || !TRAINING_GOALS.has(goal.type)) return false;
    let xp = 0;
    for (const s of Object.values(this.view.self!.skills)) xp += s.xp;
    if (xp !== this.xpSeen) {
      this.xpSeen = xp;
      this.xpGrewAt = tick;
      return false;
    }
    // On its way (it moved this tick) it is not stalled: a walk from the cows to the fishing spots
    // took more than GOAL_STALL_TICKS, and fishing for food failed as "crowded or out of reach"
    // on arrival in the 12:39 runs (then no food, and the fighter healed at 10 lifepoints a 100 ticks).
    const here = this.view.position;
    const moved = this.stallSpot === undefined || this.stallSpot.x !== here.x || this.stallSpot.z !== here.z;
    this.stallSpot = { x: here.x, z: here.z };
    if (moved) this.xpGrewAt = tick;
    return tick - this.xpGrewAt > stallTicks(goal, this.view.self!.skills, this.know);
  }
}
