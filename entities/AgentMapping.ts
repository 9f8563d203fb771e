import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `agent_mappings`: an AI agent, the character it plays, and its persisted goal state. */
export const AgentMapping = defineEntity({
  name: "AgentMapping",
  tableName: "agent_mappings",
  properties: {
    agentId: p.string().primary().length(64),
    accountId: p.string().length(64).index("agent_mappings_account_index"),
    characterId: p.string().length(64).unique("agent_mappings_character_unique"),
    name: p.string().length(64).nullable(),
    goal: p.json<Record<string, unknown>>().nullable(),
    goalsPaused: p.boolean().default(false),
    /** Bumped when the owner asks for a new token: tokens of an older generation stop working. */
    tokenGeneration: p.integer().default(0),
    createdAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IAgentMapping = InferEntity<typeof AgentMapping>;
