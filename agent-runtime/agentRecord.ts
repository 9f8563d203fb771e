/**
 * What the runtime keeps of an agent: who it is (its record, stored by store.ts), the state it is
 * in, and the lines of its activity log that `GET /agents/:id` shows its owner (Agent.ts).
 */
import type { Focus } from "./brain/focus.ts";

export type AgentState = "connecting" | "playing" | "paused" | "error" | "stopped";

/** Activity lines kept, newest first. */
export const ACTIVITY_KEPT = 50;

export interface Activity {
  at: string;
  kind: "decision" | "action" | "chat" | "event";
  text: string;
}

/**
 * The seed of an agent's scripted brain and behaviours: the runtime's seed and its character's name,
 * both chosen by people, so that a freshly registered agent (a new random agentId) replays the same
 * choices under the same seed and name (`--seed`, the benches' seeds); and the same after a restart.
 */
export function agentSeed(seed: string, record: Pick<AgentRecord, "name">): string {
  return `${seed}:${record.name}`;
}

export interface AgentRecord {
  agentId: string;
  token: string;
  characterId: string;
  name: string;
  /** The owner's account (the game server's account id). */
  ownerAccountId: string;
  /** Its owner's standing instruction (brain/focus.ts): `focus melee` in chat; absent, none. */
  focus?: Focus | undefined;
}
