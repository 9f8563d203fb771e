/** The OpenAPI paths of health, content, players, characters, hiscores and agents (src/http/openapi.ts). */
import { z } from "zod";
import { HEALTH_RESPONSES } from "../routes/health.ts";
import { CONTENT_RESPONSES } from "../routes/content.ts";
import { ANONYMOUS_RESPONSE } from "../routes/auth.ts";
import { PLAYER_BODIES, PLAYER_RESPONSES } from "../routes/api.ts";
import { WORLDS_RESPONSE } from "../routes/worlds.ts";
import { HISCORES_QUERY, HISCORES_RESPONSES } from "../routes/hiscores.ts";
import { QUESTS_RESPONSE } from "../routes/quests.ts";
import { AGENT_BODIES, AGENT_RESPONSES } from "../routes/agents.ts";
import { OWNED, RESTARTING, type Paths } from "./ops.ts";

/** This document, as `/api/openapi.json` answers it. */
const DOCUMENT = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({ summary: z.string(), responses: z.record(z.string(), z.unknown()) }))),
});

export const PLAYER_PATHS: Paths = {
  "/health": {
    get: {
      summary: "Health: status, ISO timestamp, version, database state (503 when degraded)",
      auth: "none",
      responses: { 200: HEALTH_RESPONSES.health, 503: HEALTH_RESPONSES.health },
    },
  },
  "/status": { get: { summary: "Liveness for the hosting platform; answers within 1 s", auth: "none", responses: { 200: HEALTH_RESPONSES.status } } },
  "/env.js": {
    get: {
      summary: "Public client environment (PUBLIC_* values) as JavaScript",
      auth: "none",
      mediaType: "application/javascript",
      responses: { 200: HEALTH_RESPONSES.envScript },
    },
  },
  "/manifests/{file}": {
    get: {
      summary: "A cached manifest (nested paths allowed); 5-minute cache, ETag, 304 on If-None-Match",
      auth: "none",
      params: { file: z.string().describe("a path under manifests/, e.g. `npcs.json`, `items/weapons.json`") },
      responses: { 200: CONTENT_RESPONSES.manifest, 304: null },
      errors: { 400: ["INVALID_PATH"], 404: ["NOT_FOUND"] },
    },
  },
  "/manifests/index.json": {
    get: {
      summary: "Every manifest in the server's manifest directory (what to ask /manifests/{file} for); 5-minute cache, ETag, 304 on If-None-Match",
      auth: "none",
      responses: { 200: CONTENT_RESPONSES.index, 304: null },
    },
  },
  "/api/openapi.json": { get: { summary: "This document", auth: "none", responses: { 200: DOCUMENT } } },
  "/api/auth/anonymous": {
    post: {
      summary: "Anonymous mode: a temporary identity and its token (counts as an authentication attempt)",
      auth: "none",
      responses: { 201: ANONYMOUS_RESPONSE },
      errors: { 403: ["ANONYMOUS_DISABLED"], ...RESTARTING },
    },
  },
  "/api/data/skill-unlocks": {
    get: { summary: "Skill unlocks: {skill: [{level, description, type}]}, sorted by level", auth: "none", responses: { 200: CONTENT_RESPONSES.skillUnlocks } },
  },
  "/api/v1/player": {
    get: {
      summary: "The current player: account, current character, all characters (an agent's token: its character only)",
      auth: "bearer",
      responses: { 200: PLAYER_RESPONSES.player },
      errors: { 404: ["NOT_FOUND"] },
    },
    post: {
      summary: "Create the player (201) or rename it (200)",
      auth: "bearer",
      body: PLAYER_BODIES.player,
      responses: { 200: PLAYER_RESPONSES.playerChanged, 201: PLAYER_RESPONSES.playerChanged },
      errors: { 400: ["INVALID_TEMPLATE", "INVALID_NAME"], 409: ["NAME_TAKEN"], ...RESTARTING },
    },
  },
  "/api/v1/world": {
    get: { summary: "World snapshot: tick, world time, online players' public data, counts", auth: "bearer", responses: { 200: PLAYER_RESPONSES.world } },
  },
  "/api/v1/worlds": {
    get: {
      summary: "Every world of the cluster: players, capacity, status, where to join it, and the recommended one",
      auth: "none",
      responses: { 200: WORLDS_RESPONSE },
    },
  },
  "/api/v1/world/areas": { get: { summary: "Every world area", auth: "bearer", responses: { 200: CONTENT_RESPONSES.areas } } },
  "/api/characters/{characterId}/skills": {
    get: { summary: "A character's skill levels and xp", auth: "bearer", responses: { 200: PLAYER_RESPONSES.skills }, errors: OWNED },
  },
  "/api/characters/{characterId}/hiscores": {
    get: {
      summary: "A character's rank, level and xp in the overall hiscores and every skill's (as of its last save)",
      auth: "bearer",
      responses: { 200: HISCORES_RESPONSES.character },
      errors: OWNED,
    },
  },
  "/api/characters/{characterId}/quests": {
    get: {
      summary: "A character's quests: every quest of the world with its status, stage and progress, and its quest points",
      auth: "bearer",
      responses: { 200: QUESTS_RESPONSE },
      errors: OWNED,
    },
  },
  "/api/v1/hiscores": {
    get: {
      summary: "A page of the hiscores: overall (total level, then total xp) or one skill's (its xp); ties go to who got there first",
      auth: "none",
      query: HISCORES_QUERY,
      responses: { 200: HISCORES_RESPONSES.page },
      errors: { 400: ["INVALID_PAYLOAD"] },
    },
  },
  "/api/v1/hiscores/player/{name}": {
    get: {
      summary: "Any player's rank, level and xp in the overall hiscores and every skill's, by name (as players read it: case and spacing aside)",
      auth: "none",
      responses: { 200: HISCORES_RESPONSES.player },
      errors: { 400: ["INVALID_PAYLOAD"], 404: ["NOT_FOUND"] },
    },
  },
  "/api/characters/{characterId}/position": {
    get: {
      summary: "A character's position and online status (from the live world when online)",
      auth: "bearer",
      responses: { 200: PLAYER_RESPONSES.position },
      errors: OWNED,
    },
  },
  "/api/character": {
    get: { summary: "Your characters", auth: "bearer", responses: { 200: PLAYER_RESPONSES.characters } },
    post: {
      summary: "Create a character (optionally from a template); at most 5 per account",
      auth: "bearer",
      body: PLAYER_BODIES.character,
      responses: { 201: PLAYER_RESPONSES.characterCreated },
      errors: { 400: ["INVALID_TEMPLATE", "INVALID_NAME"], 409: ["TOO_MANY_CHARACTERS", "NAME_TAKEN"], ...RESTARTING },
    },
  },
  "/api/character/{characterId}": {
    delete: {
      summary: "Delete one of your characters (not while online)",
      auth: "bearer",
      responses: { 200: PLAYER_RESPONSES.deleted },
      errors: { ...OWNED, 409: ["CHARACTER_ONLINE"] },
    },
  },
  "/api/player/online": { get: { summary: "Online players' public data", auth: "bearer", responses: { 200: PLAYER_RESPONSES.online } } },
  "/api/player/by-name/{name}": {
    get: { summary: "A player's public data by name", auth: "bearer", responses: { 200: PLAYER_RESPONSES.byName }, errors: { 404: ["NOT_FOUND"] } },
  },
  "/api/template": { get: { summary: "Character templates from the content", auth: "bearer", responses: { 200: PLAYER_RESPONSES.templates } } },
  "/api/template/{templateId}": {
    get: { summary: "One character template", auth: "bearer", responses: { 200: PLAYER_RESPONSES.template }, errors: { 404: ["NOT_FOUND"] } },
  },
  "/api/agent": {
    get: { summary: "Your agents", auth: "bearer", responses: { 200: AGENT_RESPONSES.list } },
    post: {
      summary: "Register an agent for one of your characters; returns its scoped token",
      auth: "bearer",
      body: AGENT_BODIES.register,
      responses: { 201: AGENT_RESPONSES.registered },
      errors: { ...OWNED, 409: ["TOO_MANY_AGENTS", "CHARACTER_HAS_AGENT"] },
    },
  },
  "/api/agent/{agentId}": {
    delete: { summary: "Remove an agent (its tokens stop working)", auth: "bearer", responses: { 200: AGENT_RESPONSES.deleted }, errors: OWNED },
  },
  "/api/agent/{agentId}/token": {
    post: {
      summary: "A new scoped token for an agent (the older ones stop working)",
      auth: "bearer",
      responses: { 200: AGENT_RESPONSES.token },
      errors: OWNED,
    },
  },
  "/api/agents/{agentId}/goal": {
    get: { summary: "Current goal, progress, pause state and available goals", auth: "bearer", responses: { 200: AGENT_RESPONSES.goal }, errors: OWNED },
    post: {
      summary: "Set a new goal",
      auth: "bearer",
      body: AGENT_BODIES.goal,
      responses: { 200: AGENT_RESPONSES.goal },
      errors: { ...OWNED, 409: ["GOALS_PAUSED"], 422: ["GOAL_UNAVAILABLE"] },
    },
  },
  "/api/agents/{agentId}/goal/stop": {
    post: { summary: "Stop the goal and pause autonomous behaviour", auth: "bearer", responses: { 200: AGENT_RESPONSES.goal }, errors: OWNED },
  },
  "/api/agents/{agentId}/goal/resume": {
    post: { summary: "Resume autonomous goal selection", auth: "bearer", responses: { 200: AGENT_RESPONSES.goal }, errors: OWNED },
  },
  "/api/agents/{agentId}/message": {
    post: {
      summary: "Send a message to the agent (`agent:message`)",
      auth: "bearer",
      body: AGENT_BODIES.message,
      responses: { 200: AGENT_RESPONSES.message },
      errors: OWNED,
    },
  },
  "/api/agents/{agentId}/quick-actions": {
    get: {
      summary: "Nearby NPCs, resources and stations by instance id (a player:action targetId) and content ref, available goals, quick commands, inventory",
      auth: "bearer",
      responses: { 200: AGENT_RESPONSES.quickActions },
      errors: OWNED,
    },
  },
  "/api/agents/mapping/{agentId}": {
    get: { summary: "Agent-to-character mapping", auth: "bearer", responses: { 200: AGENT_RESPONSES.mapping }, errors: OWNED },
  },
};
