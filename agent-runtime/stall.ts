/**
 * When an autonomous training goal counts as stalled (Agent.ts gives it up as failed, so the brain
 * tries something else), and when that stall is a crowd's.
 */
import { skillingChance } from "../src/game/gathering.ts";
import type { Knowledge } from "./knowledge.ts";

/**
 * An autonomous training goal (gathering, combat) that gained no experience for this many ticks is
 * given up as failed, so the brain tries something else: with many agents in one place the trees,
 * rocks and monsters are taken, and waiting for them is no way to train.
 */
export const GOAL_STALL_TICKS = 80;
export const TRAINING_GOALS = new Set(["woodcutting", "mining", "fishing", "combat"]);
/** Players within this many tiles make a stalled training goal's spot a crowded one. */
export const CROWD_RADIUS = 8;
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
