/**
 * The OpenAPI 3.1 document of the REST interface, served at `/api/openapi.json`. A test walks the
 * Express router and fails when a mounted route is missing here (or documented but not mounted).
 */
import { z } from "zod";
import { VERSION } from "../version.ts";
import { ADMIN_BODIES } from "./routes/admin.ts";

type Method = "get" | "post" | "put" | "patch" | "delete";

interface Op {
  summary: string;
  auth: "none" | "bearer" | "admin";
  body?: Record<string, unknown>;
  responses?: Record<string, string>;
}

const errorBody = {
  type: "object",
  required: ["success", "error"],
  properties: { success: { const: false }, error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } } },
};

const str = { type: "string" };
const nameBody = { type: "object", required: ["name"], properties: { name: str } };
const goalBody = { type: "object", required: ["type"], properties: { type: str, target: str, description: str, source: { enum: ["manual", "autonomous"] } } };

/** Every route, by path (OpenAPI `{param}` syntax) and method. */
export const ROUTES: Record<string, Partial<Record<Method, Op>>> = {
  "/health": { get: { summary: "Health: status, ISO timestamp, version, database state (503 when degraded)", auth: "none" } },
  "/status": { get: { summary: "Liveness for the hosting platform; answers within 1 s", auth: "none" } },
  "/env.js": { get: { summary: "Public client environment (PUBLIC_* values) as JavaScript", auth: "none" } },
  "/manifests/{file}": { get: { summary: "A cached manifest (nested paths allowed); 5-minute cache, ETag, 304", auth: "none" } },
  "/api/openapi.json": { get: { summary: "This document", auth: "none" } },
  "/api/auth/anonymous": { post: { summary: "Anonymous mode: a temporary identity and its token (counts as an authentication attempt)", auth: "none" } },
  "/api/data/skill-unlocks": { get: { summary: "Skill unlocks: {skill: [{level, description, type}]}, sorted by level", auth: "none" } },
  "/api/v1/player": {
    get: { summary: "The current player: account, current character, all characters", auth: "bearer" },
    post: { summary: "Create the player (201) or rename it (200)", auth: "bearer", body: { type: "object", properties: { name: str, templateId: str } } },
  },
  "/api/v1/world": { get: { summary: "World snapshot: tick, world time, online players' public data, counts", auth: "bearer" } },
  "/api/v1/world/areas": { get: { summary: "Every world area", auth: "bearer" } },
  "/api/characters/{characterId}/skills": { get: { summary: "A character's skill levels and xp", auth: "bearer" } },
  "/api/characters/{characterId}/position": { get: { summary: "A character's position and online status", auth: "bearer" } },
  "/api/character": {
    get: { summary: "Your characters", auth: "bearer" },
    post: { summary: "Create a character (optionally from a template)", auth: "bearer", body: { type: "object", required: ["name"], properties: { name: str, templateId: str } } },
  },
  "/api/character/{characterId}": { delete: { summary: "Delete one of your characters (not while online)", auth: "bearer" } },
  "/api/player/online": { get: { summary: "Online players' public data", auth: "bearer" } },
  "/api/player/by-name/{name}": { get: { summary: "A player's public data by name", auth: "bearer" } },
  "/api/template": { get: { summary: "Character templates from the content", auth: "bearer" } },
  "/api/template/{templateId}": { get: { summary: "One character template", auth: "bearer" } },
  "/api/agent": {
    get: { summary: "Your agents", auth: "bearer" },
    post: { summary: "Register an agent for one of your characters; returns its scoped token", auth: "bearer", body: { type: "object", required: ["characterId"], properties: { characterId: str, name: str } } },
  },
  "/api/agent/{agentId}": { delete: { summary: "Remove an agent (its tokens stop working)", auth: "bearer" } },
  "/api/agent/{agentId}/token": { post: { summary: "A new scoped token for an agent", auth: "bearer" } },
  "/api/agents/{agentId}/goal": {
    get: { summary: "Current goal, progress, pause state and available goals", auth: "bearer" },
    post: { summary: "Set a new goal", auth: "bearer", body: goalBody },
  },
  "/api/agents/{agentId}/goal/stop": { post: { summary: "Stop the goal and pause autonomous behaviour", auth: "bearer" } },
  "/api/agents/{agentId}/goal/resume": { post: { summary: "Resume autonomous goal selection", auth: "bearer" } },
  "/api/agents/{agentId}/message": { post: { summary: "Send a message to the agent", auth: "bearer", body: { type: "object", required: ["message"], properties: { message: str } } } },
  "/api/agents/{agentId}/quick-actions": { get: { summary: "Nearby NPCs, resources and stations by instance id (a player:action targetId) and content ref, available goals, quick commands, inventory", auth: "bearer" } },
  "/api/agents/mapping/{agentId}": { get: { summary: "Agent-to-character mapping", auth: "bearer" } },
  "/api/v1/social": { get: { summary: "Your friends (online status, world), friend requests received and sent, and ignore list", auth: "bearer" } },
  "/api/v1/social/friends": { post: { summary: "Ask a player (by name) to be friends; accepts when they had asked you. Answers with the lists", auth: "bearer", body: nameBody } },
  "/api/v1/social/friends/{name}": { delete: { summary: "Remove a friend (from both lists), or withdraw your request to them", auth: "bearer" } },
  "/api/v1/social/requests/{name}/accept": { post: { summary: "Accept a player's friend request", auth: "bearer" } },
  "/api/v1/social/requests/{name}/decline": { post: { summary: "Decline a player's friend request", auth: "bearer" } },
  "/api/v1/social/ignored": { post: { summary: "Ignore a player (by name): their chat, private messages and trade requests never reach you", auth: "bearer", body: nameBody } },
  "/api/v1/social/ignored/{name}": { delete: { summary: "Stop ignoring a player", auth: "bearer" } },
  "/api/voice/token": { post: { summary: "A voice-room token for the character's area (503 when voice is not configured)", auth: "bearer", body: { type: "object", properties: { characterId: str } } } },
  "/api/admin/metrics": { get: { summary: "Server metrics: ticks, event-loop delay, CPU, memory", auth: "admin" } },
  "/api/admin/metrics/reset": { post: { summary: "Start a new metrics window", auth: "admin" } },
  // Moderation (src/http/routes/admin.ts): the bodies are the zod schemas that validate them.
  "/api/admin/kick": { post: { summary: "Kick a player (by character name): its session ends, saved; close 4011", auth: "admin", body: adminBody("kick") } },
  "/api/admin/mute": { post: { summary: "Mute an account for some minutes: its public chat and private messages are refused (MUTED)", auth: "admin", body: adminBody("mute") } },
  "/api/admin/unmute": { post: { summary: "Lift a mute", auth: "admin", body: adminBody("unmute") } },
  "/api/admin/ban": { post: { summary: "Ban an account for some minutes or permanently: every login refused (BANNED), an online session ends (close 4012)", auth: "admin", body: adminBody("ban") } },
  "/api/admin/unban": { post: { summary: "Lift a ban", auth: "admin", body: adminBody("unban") } },
  "/api/admin/teleport": { post: { summary: "Move an online player to a walkable tile", auth: "admin", body: adminBody("teleport") } },
  "/api/admin/broadcast": { post: { summary: "A system chat line to every player on every world", auth: "admin", body: adminBody("broadcast") } },
  "/api/admin/players": { get: { summary: "Every player in this process's world with its transport (colyseus, ws, or none: lingering after a drop), world, position and session start; this process's CPU (cores' worth over a sampling window, user/system) and memory", auth: "admin" } },
  "/api/admin/players/{name}": { get: { summary: "Look a player up: account, online state and world, ban, mute, recent sessions", auth: "admin" } },
  "/api/admin/restart": {
    post: { summary: "Schedule a maintenance restart in 10..86400 s (replaces a scheduled one): countdown lines to every player, logins refused (RESTARTING) in the last minute, trades cancelled, everyone saved, exit 0 for the supervisor to start it again", auth: "admin", body: adminBody("restart") },
    delete: { summary: "Cancel the scheduled restart (404 NO_RESTART_SCHEDULED when none is)", auth: "admin" },
  },
  "/api/admin/audit": { get: { summary: "The moderation audit, newest first (?limit=1..100, ?offset, ?name= one player's)", auth: "admin" } },
};

function adminBody(action: keyof typeof ADMIN_BODIES): Record<string, unknown> {
  return z.toJSONSchema(ADMIN_BODIES[action], { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

export function openApiDocument(): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const [p, ops] of Object.entries(ROUTES)) {
    paths[p] = {};
    for (const [method, op] of Object.entries(ops) as [Method, Op][]) {
      const params = [...p.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: str }));
      paths[p][method] = {
        summary: op.summary,
        ...(params.length > 0 ? { parameters: params } : {}),
        ...(op.auth === "bearer" ? { security: [{ bearer: [] }] } : op.auth === "admin" ? { security: [{ adminBasic: [] }, { bearer: [] }] } : { security: [] }),
        ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: op.body } } } } : {}),
        responses: {
          "200": { description: "Success", content: { "application/json": { schema: { type: "object" } } } },
          ...(op.auth !== "none" ? { "401": { description: "Missing or invalid token", content: { "application/json": { schema: errorBody } } } } : {}),
          ...(op.auth !== "none" ? { "403": { description: "Not allowed", content: { "application/json": { schema: errorBody } } } } : {}),
          "429": { description: "Rate limit exceeded", content: { "application/json": { schema: errorBody } } },
        },
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: "rs-world-server", version: VERSION, description: "Authoritative multiplayer game server: REST interface. Real time: Colyseus room `world` and the `/ws` socket (see README)." },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        adminBasic: { type: "http", scheme: "basic", description: "Any user name; ADMIN_CODE as the password" },
      },
      schemas: { Error: errorBody },
    },
    paths,
  };
}
