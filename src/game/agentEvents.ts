/**
 * The events an agent's own connection may send besides the game's (src/game/clientEvents.ts):
 * protocol only, imported by the server (src/server.ts) and by agent clients (agent-runtime/).
 * They go over the agent's socket rather than REST so that a runtime playing many agents from one
 * address is not held to the per-address REST budget for routine reports.
 */
import { z } from "zod";

const goalId = z.string().min(1).max(64);

export const AGENT_EVENTS = {
  /** Progress of the current goal, 0..100 (`goalId` must be the current goal's). */
  "agent:goalProgress": z.strictObject({ goalId, progress: z.int().min(0).max(100) }),
  /**
   * An autonomous goal chosen by the agent itself, as `POST /api/agents/:id/goal` with
   * `source: "autonomous"` would set it: refused while goals are paused (`GOALS_PAUSED`) or when
   * the goal is not available (`GOAL_UNAVAILABLE`); accepted goals come back as `agent:goal`.
   */
  "agent:setGoal": z.strictObject({
    type: z.string().min(1).max(32),
    target: z.string().min(1).max(64).optional(),
    description: z.string().min(1).max(200).optional(),
  }),
  /** Asks for the agent's goal state and the goals it may choose now: answered with `agent:goal` (to this connection only). */
  "agent:getGoal": z.strictObject({}),
} as const;

export type AgentEventName = keyof typeof AGENT_EVENTS;
export type AgentEvent<K extends AgentEventName> = z.infer<(typeof AGENT_EVENTS)[K]>;
