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
