/**
 * The watchdog over the goals an agent chose for itself (`autonomous`): one that gets nowhere is
 * given up as failed, so the brain tries something else. The agent (Agent.ts) asks it once a tick
 * while its goal's behaviour runs; a goal set by hand, and a quest (quest.ts QUEST_STUCK_TICKS),
 * have limits of their own.
 */
import type { AgentView } from "./AgentView.ts";
import type { Goal } from "./goalBehaviour.ts";

/**
 * An autonomous training goal (gathering, combat) that gained no experience for this many ticks is
 * given up as failed, so the brain tries something else: with many agents in one place the trees,
 * rocks and monsters are taken, and waiting for them is no way to train.
 */
export const GOAL_STALL_TICKS = 80;
const TRAINING_GOALS = new Set(["woodcutting", "mining", "fishing", "combat"]);
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
  /** The experience total last seen, and the tick it last grew (a training goal's sign of life). */
  private xpSeen = -1;
  private xpGrewAt = 0;
  /** Where it stood at the last stall check (a training goal on its way is not stalled). */
  private stallSpot: { x: number; z: number } | undefined;

  constructor(view: AgentView) {
    this.view = view;
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
    if (this.stalled(goal, tick)) return { why: `crowded or out of reach: no experience in ${GOAL_STALL_TICKS} ticks`, crowded: true };
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

  /** True when an autonomous training goal has gained no experience for GOAL_STALL_TICKS. */
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
    return tick - this.xpGrewAt > GOAL_STALL_TICKS;
  }
}
