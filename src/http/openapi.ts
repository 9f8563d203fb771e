/**
 * The OpenAPI 3.1 document of the REST interface, served at `/api/openapi.json`, generated from
 * zod schemas: each request body and query is the schema its handler validates it with, each
 * answer the schema beside its route (src/http/routes/*), each refusal the common error body with
 * the route's codes. Outside production every JSON answer of a route listed here is checked
 * against its schema (responseCheck.ts), so the document follows what the handlers really send.
 * A test walks the Express router and fails when a mounted route is missing here (or documented
 * but not mounted).
 */
import { STATUS_CODES } from "node:http";
import { z } from "zod";
import type { SocialErrorCode } from "../persistence/social.ts";
import { MODERATION_ERROR_STATUS, type ModerationErrorCode } from "../moderation/ModerationService.ts";
import { AGENT_TOKEN_FORBIDDEN } from "../auth/agentScope.ts";
import { VERSION } from "../version.ts";
import { AGENT_TOKEN_SCOPES } from "./agentScope.ts";
import { ADMIN_BODIES, ADMIN_RESPONSES, AUDIT_QUERY } from "./routes/admin.ts";
import { METRICS_RESPONSES } from "./routes/adminMetrics.ts";
import { ADMIN_PLAYERS_RESPONSE } from "./routes/adminPlayers.ts";
import { AGENT_BODIES, AGENT_RESPONSES } from "./routes/agents.ts";
import { PLAYER_BODIES, PLAYER_RESPONSES } from "./routes/api.ts";
import { ANONYMOUS_RESPONSE } from "./routes/auth.ts";
import { CONTENT_RESPONSES } from "./routes/content.ts";
import { HEALTH_RESPONSES } from "./routes/health.ts";
import { HISCORES_QUERY, HISCORES_RESPONSES } from "./routes/hiscores.ts";
import { SOCIAL_BODY, SOCIAL_ERROR_STATUS, SOCIAL_NAME, SOCIAL_RESPONSE } from "./routes/social.ts";
import { VOICE_BODY, VOICE_RESPONSE } from "./routes/voice.ts";
import { WORLDS_RESPONSE } from "./routes/worlds.ts";
import { ERROR_BODY, errorBody } from "./schemas.ts";

export type Method = "get" | "post" | "put" | "patch" | "delete";
export type Auth = "none" | "bearer" | "admin";
/** Error codes by HTTP status. */
export type ErrorCodes = Partial<Record<number, readonly string[]>>;

export interface Op {
  summary: string;
  auth: Auth;
  /** The JSON body: the schema the handler validates it with. */
  body?: z.ZodType;
  /** The query parameters, as the handler validates them. */
  query?: z.ZodObject;
  /** Path parameters the handler checks (the others are any string). */
  params?: Record<string, z.ZodType>;
  /** Every answer that is not a refusal, by status: the schema of its body (null: none, as a 304). */
  responses: Partial<Record<number, z.ZodType | null>>;
  /** The answers' media type when not JSON. */
  mediaType?: string;
  /** The refusals of this route besides those of every route like it (see errorsOf). */
  errors?: ErrorCodes;
}

/** The refusals of the loginGate (src/server.ts) during a restart's last minute. */
const RESTARTING: ErrorCodes = { 503: ["RESTARTING"] };
/** An id that names no row, or a row of another account (accessCharacter, AgentService.access). */
const OWNED: ErrorCodes = { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"] };

/** A social refusal's codes by status (SOCIAL_ERROR_STATUS); every change may meet the first three. */
function social(...codes: Exclude<SocialErrorCode, "PLAYER_OFFLINE">[]): ErrorCodes {
  return byStatus(["NO_CHARACTER", "UNKNOWN_PLAYER", "SELF", ...codes], (c) => SOCIAL_ERROR_STATUS[c]);
}
function moderation(...codes: ModerationErrorCode[]): ErrorCodes {
  return byStatus(codes, (c) => MODERATION_ERROR_STATUS[c]);
}
function byStatus<C extends string>(codes: C[], status: (code: C) => number): ErrorCodes {
  const out: Record<number, string[]> = {};
  for (const c of codes) (out[status(c)] ??= []).push(c);
  return out;
}

const socialName = { name: SOCIAL_NAME };
/** A path's `:name` is checked as a body (400 INVALID_PAYLOAD). */
const checkedName: ErrorCodes = { 400: ["INVALID_PAYLOAD"] };

/** This document, as `/api/openapi.json` answers it. */
const DOCUMENT = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({ summary: z.string(), responses: z.record(z.string(), z.unknown()) }))),
});

/** Every route, by path (OpenAPI `{param}` syntax) and method. */
export const ROUTES: Record<string, Partial<Record<Method, Op>>> = {
  "/health": {
    get: { summary: "Health: status, ISO timestamp, version, database state (503 when degraded)", auth: "none", responses: { 200: HEALTH_RESPONSES.health, 503: HEALTH_RESPONSES.health } },
  },
  "/status": { get: { summary: "Liveness for the hosting platform; answers within 1 s", auth: "none", responses: { 200: HEALTH_RESPONSES.status } } },
  "/env.js": {
    get: { summary: "Public client environment (PUBLIC_* values) as JavaScript", auth: "none", mediaType: "application/javascript", responses: { 200: HEALTH_RESPONSES.envScript } },
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
  "/api/data/skill-unlocks": { get: { summary: "Skill unlocks: {skill: [{level, description, type}]}, sorted by level", auth: "none", responses: { 200: CONTENT_RESPONSES.skillUnlocks } } },
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
  "/api/v1/world": { get: { summary: "World snapshot: tick, world time, online players' public data, counts", auth: "bearer", responses: { 200: PLAYER_RESPONSES.world } } },
  "/api/v1/worlds": {
    get: { summary: "Every world of the cluster: players, capacity, status, where to join it, and the recommended one", auth: "none", responses: { 200: WORLDS_RESPONSE } },
  },
  "/api/v1/world/areas": { get: { summary: "Every world area", auth: "bearer", responses: { 200: CONTENT_RESPONSES.areas } } },
  "/api/characters/{characterId}/skills": { get: { summary: "A character's skill levels and xp", auth: "bearer", responses: { 200: PLAYER_RESPONSES.skills }, errors: OWNED } },
  "/api/characters/{characterId}/hiscores": {
    get: { summary: "A character's rank, level and xp in the overall hiscores and every skill's (as of its last save)", auth: "bearer", responses: { 200: HISCORES_RESPONSES.character }, errors: OWNED },
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
  "/api/characters/{characterId}/position": {
    get: { summary: "A character's position and online status (from the live world when online)", auth: "bearer", responses: { 200: PLAYER_RESPONSES.position }, errors: OWNED },
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
    delete: { summary: "Delete one of your characters (not while online)", auth: "bearer", responses: { 200: PLAYER_RESPONSES.deleted }, errors: { ...OWNED, 409: ["CHARACTER_ONLINE"] } },
  },
  "/api/player/online": { get: { summary: "Online players' public data", auth: "bearer", responses: { 200: PLAYER_RESPONSES.online } } },
  "/api/player/by-name/{name}": { get: { summary: "A player's public data by name", auth: "bearer", responses: { 200: PLAYER_RESPONSES.byName }, errors: { 404: ["NOT_FOUND"] } } },
  "/api/template": { get: { summary: "Character templates from the content", auth: "bearer", responses: { 200: PLAYER_RESPONSES.templates } } },
  "/api/template/{templateId}": { get: { summary: "One character template", auth: "bearer", responses: { 200: PLAYER_RESPONSES.template }, errors: { 404: ["NOT_FOUND"] } } },
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
  "/api/agent/{agentId}": { delete: { summary: "Remove an agent (its tokens stop working)", auth: "bearer", responses: { 200: AGENT_RESPONSES.deleted }, errors: OWNED } },
  "/api/agent/{agentId}/token": {
    post: { summary: "A new scoped token for an agent (the older ones stop working)", auth: "bearer", responses: { 200: AGENT_RESPONSES.token }, errors: OWNED },
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
  "/api/agents/{agentId}/goal/resume": { post: { summary: "Resume autonomous goal selection", auth: "bearer", responses: { 200: AGENT_RESPONSES.goal }, errors: OWNED } },
  "/api/agents/{agentId}/message": {
    post: { summary: "Send a message to the agent (`agent:message`)", auth: "bearer", body: AGENT_BODIES.message, responses: { 200: AGENT_RESPONSES.message }, errors: OWNED },
  },
  "/api/agents/{agentId}/quick-actions": {
    get: {
      summary: "Nearby NPCs, resources and stations by instance id (a player:action targetId) and content ref, available goals, quick commands, inventory",
      auth: "bearer",
      responses: { 200: AGENT_RESPONSES.quickActions },
      errors: OWNED,
    },
  },
  "/api/agents/mapping/{agentId}": { get: { summary: "Agent-to-character mapping", auth: "bearer", responses: { 200: AGENT_RESPONSES.mapping }, errors: OWNED } },
  "/api/v1/social": {
    get: { summary: "Your friends (online status, world), friend requests received and sent, and ignore list", auth: "bearer", responses: { 200: SOCIAL_RESPONSE } },
  },
  "/api/v1/social/friends": {
    post: {
      summary: "Ask a player (by name) to be friends; accepts when they had asked you. Answers with the lists",
      auth: "bearer",
      body: SOCIAL_BODY,
      responses: { 200: SOCIAL_RESPONSE },
      errors: social("ALREADY_FRIENDS", "IGNORING", "IGNORED", "REQUEST_PENDING", "FRIENDS_FULL", "THEIR_FRIENDS_FULL", "THEIR_REQUESTS_FULL"),
    },
  },
  "/api/v1/social/friends/{name}": {
    delete: {
      summary: "Remove a friend (from both lists), or withdraw your request to them",
      auth: "bearer",
      params: socialName,
      responses: { 200: SOCIAL_RESPONSE },
      errors: merge(checkedName, social("NOT_FRIENDS")),
    },
  },
  "/api/v1/social/requests/{name}/accept": {
    post: {
      summary: "Accept a player's friend request",
      auth: "bearer",
      params: socialName,
      responses: { 200: SOCIAL_RESPONSE },
      errors: merge(checkedName, social("ALREADY_FRIENDS", "NO_REQUEST", "FRIENDS_FULL", "THEIR_FRIENDS_FULL")),
    },
  },
  "/api/v1/social/requests/{name}/decline": {
    post: { summary: "Decline a player's friend request", auth: "bearer", params: socialName, responses: { 200: SOCIAL_RESPONSE }, errors: merge(checkedName, social("NO_REQUEST")) },
  },
  "/api/v1/social/ignored": {
    post: {
      summary: "Ignore a player (by name): their chat, private messages and trade requests never reach you",
      auth: "bearer",
      body: SOCIAL_BODY,
      responses: { 200: SOCIAL_RESPONSE },
      errors: social("ALREADY_IGNORED", "ALREADY_FRIENDS", "IGNORE_FULL"),
    },
  },
  "/api/v1/social/ignored/{name}": {
    delete: { summary: "Stop ignoring a player", auth: "bearer", params: socialName, responses: { 200: SOCIAL_RESPONSE }, errors: merge(checkedName, social("NOT_IGNORED")) },
  },
  "/api/voice/token": {
    post: {
      summary: "A voice-room token for the character's area (503 VOICE_NOT_CONFIGURED when voice is not configured)",
      auth: "bearer",
      body: VOICE_BODY,
      responses: { 200: VOICE_RESPONSE },
      errors: { ...OWNED, 503: ["VOICE_NOT_CONFIGURED"] },
    },
  },
  "/api/admin/metrics": { get: { summary: "Server metrics: ticks, event-loop delay, CPU, memory", auth: "admin", responses: { 200: METRICS_RESPONSES.metrics } } },
  "/api/admin/metrics/reset": { post: { summary: "Start a new metrics window", auth: "admin", responses: { 200: METRICS_RESPONSES.reset } } },
  // Moderation (src/http/routes/admin.ts): each action answers with its audit row.
  "/api/admin/kick": {
    post: {
      summary: "Kick a player (by character name): its session ends, saved; close 4011",
      auth: "admin",
      body: ADMIN_BODIES.kick,
      responses: { 200: ADMIN_RESPONSES.action },
      errors: moderation("UNKNOWN_PLAYER", "PLAYER_OFFLINE"),
    },
  },
  "/api/admin/mute": {
    post: {
      summary: "Mute an account for some minutes: its public chat and private messages are refused (MUTED)",
      auth: "admin",
      body: ADMIN_BODIES.mute,
      responses: { 200: ADMIN_RESPONSES.action },
      errors: moderation("UNKNOWN_PLAYER", "INVALID_PAYLOAD"),
    },
  },
  "/api/admin/unmute": {
    post: { summary: "Lift a mute", auth: "admin", body: ADMIN_BODIES.unmute, responses: { 200: ADMIN_RESPONSES.action }, errors: moderation("UNKNOWN_PLAYER", "NOT_MUTED") },
  },
  "/api/admin/ban": {
    post: {
      summary: "Ban an account for some minutes or permanently: every login refused (BANNED), an online session ends (close 4012)",
      auth: "admin",
      body: ADMIN_BODIES.ban,
      responses: { 200: ADMIN_RESPONSES.action },
      errors: moderation("UNKNOWN_PLAYER", "INVALID_PAYLOAD"),
    },
  },
  "/api/admin/unban": {
    post: { summary: "Lift a ban", auth: "admin", body: ADMIN_BODIES.unban, responses: { 200: ADMIN_RESPONSES.action }, errors: moderation("UNKNOWN_PLAYER", "NOT_BANNED") },
  },
  "/api/admin/teleport": {
    post: {
      summary: "Move an online player to a walkable tile",
      auth: "admin",
      body: ADMIN_BODIES.teleport,
      responses: { 200: ADMIN_RESPONSES.action },
      errors: moderation("UNKNOWN_PLAYER", "INVALID_DESTINATION", "PLAYER_OFFLINE"),
    },
  },
  "/api/admin/broadcast": {
    post: {
      summary: "A system chat line to every player on every world",
      auth: "admin",
      body: ADMIN_BODIES.broadcast,
      responses: { 200: ADMIN_RESPONSES.action },
      errors: moderation("INVALID_PAYLOAD"),
    },
  },
  "/api/admin/players": {
    get: {
      summary:
        "Every player in this process's world with its transport (colyseus, ws, or none: lingering after a drop), world, position and session start; this process's CPU (cores' worth over a sampling window, user/system) and memory",
      auth: "admin",
      responses: { 200: ADMIN_PLAYERS_RESPONSE },
    },
  },
  "/api/admin/players/{name}": {
    get: {
      summary: "Look a player up: account, online state and world, ban, mute, recent sessions",
      auth: "admin",
      responses: { 200: ADMIN_RESPONSES.player },
      errors: moderation("UNKNOWN_PLAYER"),
    },
  },
  "/api/admin/restart": {
    post: {
      summary:
        "Schedule a maintenance restart in 10..86400 s (replaces a scheduled one): countdown lines to every player, logins refused (RESTARTING) in the last minute, trades cancelled, everyone saved, exit 0 for the supervisor to start it again",
      auth: "admin",
      body: ADMIN_BODIES.restart,
      responses: { 200: ADMIN_RESPONSES.restart },
      errors: moderation("INVALID_PAYLOAD"),
    },
    delete: { summary: "Cancel the scheduled restart", auth: "admin", responses: { 200: ADMIN_RESPONSES.restart }, errors: moderation("NO_RESTART_SCHEDULED") },
  },
  "/api/admin/audit": {
    get: { summary: "The moderation audit, newest first (one player's with ?name=)", auth: "admin", query: AUDIT_QUERY, responses: { 200: ADMIN_RESPONSES.audit }, errors: moderation("UNKNOWN_PLAYER") },
  },
};

function merge(...lists: ErrorCodes[]): ErrorCodes {
  const out: Record<number, string[]> = {};
  for (const list of lists) {
    for (const [status, codes] of Object.entries(list)) {
      const into = (out[Number(status)] ??= []);
      for (const c of codes ?? []) if (!into.includes(c)) into.push(c);
    }
  }
  return out;
}

/**
 * Every refusal a route may answer: its own, and those of every route like it: a thrown error
 * (500), a malformed path (400, errors.ts), a bad JSON body (400, 413), an invalid body or query
 * (400), the rate limits (429, rateLimit.ts), and the bearer and admin guards (auth/middleware.ts).
 */
export function errorsOf(path: string, method: Method, op: Op): ErrorCodes {
  const admin = op.auth === "admin";
  return merge(
    path.includes("{") ? { 400: ["BAD_REQUEST"] } : {},
    method === "post" || op.body !== undefined ? { 400: ["MALFORMED_JSON"], 413: ["PAYLOAD_TOO_LARGE"] } : {},
    op.body !== undefined || op.query !== undefined ? { 400: ["INVALID_PAYLOAD"] } : {},
    op.auth === "none" ? {} : { 401: ["UNAUTHORIZED"], 403: admin ? ["CROSS_SITE", "FORBIDDEN", "BANNED"] : ["BANNED"], 503: ["AUTH_UNAVAILABLE"] },
    path.startsWith("/api/") ? { 429: ["RATE_LIMITED"] } : {},
    AGENT_TOKEN_SCOPES[`${method} ${path}`] === "owner" ? { 403: [AGENT_TOKEN_FORBIDDEN] } : {},
    op.errors ?? {},
    { 500: ["INTERNAL_ERROR"] },
  );
}

/** What the answers of one operation may be, for responseCheck.ts. */
export interface Answers {
  /** The statuses that are not refusals, with the schema of their body (null: none). */
  responses: ReadonlyMap<number, z.ZodType | null>;
  /** The refusals, each the error body with its codes. */
  refusals: ReadonlyMap<number, z.ZodType>;
}

function answersOf(path: string, method: Method, op: Op): Answers {
  const refusals = Object.entries(errorsOf(path, method, op)).map(([status, codes]) => [Number(status), errorBody(codes as [string, ...string[]])] as const);
  return { responses: new Map(Object.entries(op.responses).map(([status, schema]) => [Number(status), schema ?? null])), refusals: new Map(refusals) };
}

/** Every operation's answers by `method path` (OpenAPI syntax: `get /api/template/{templateId}`). */
export function answersByOperation(): Map<string, Answers> {
  const out = new Map<string, Answers>();
  for (const [path, ops] of Object.entries(ROUTES)) for (const [method, op] of Object.entries(ops) as [Method, Op][]) out.set(`${method} ${path}`, answersOf(path, method, op));
  return out;
}

/** A zod schema as a JSON Schema (2020-12, OpenAPI 3.1's dialect), of what a request sends or an answer holds. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: ({ jsonSchema: s }) => {
      // `format: date-time` says it; zod's long pattern for it would fill the document.
      if (s.format === "date-time") delete s.pattern;
      // z.int()'s safe-integer bounds say nothing a client needs.
      if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
      if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
    },
  }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const optional = (schema: z.ZodType) => schema.safeParse(undefined).success;

function operation(path: string, method: Method, op: Op): object {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const parameters = [
    ...pathParams.map((name) => ({ name, in: "path", required: true, schema: op.params?.[name] ? jsonSchema(op.params[name], "input") : { type: "string" } })),
    ...Object.entries(op.query?.shape ?? {}).map(([name, schema]) => ({ name, in: "query", required: !optional(schema as z.ZodType), schema: jsonSchema(schema as z.ZodType, "input") })),
  ];
  const agentScope = AGENT_TOKEN_SCOPES[`${method} ${path}`];
  const responses: Record<string, object> = {};
  for (const [status, schema] of Object.entries(op.responses)) {
    responses[status] = { description: STATUS_CODES[Number(status)], ...(schema ? { content: { [op.mediaType ?? "application/json"]: { schema: jsonSchema(schema, "output") } } } : {}) };
  }
  for (const [status, codes] of Object.entries(errorsOf(path, method, op))) {
    const list = codes as [string, ...string[]];
    // The common error body (errorBody(list), as a reference and the codes).
    const schema = { allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { error: { properties: { code: { enum: list } } } } }] };
    responses[status] = { description: `${STATUS_CODES[Number(status)]}: ${list.join(", ")}`, content: { "application/json": { schema } } };
  }
  return {
    summary: op.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    security: op.auth === "bearer" ? [{ bearer: [] }] : op.auth === "admin" ? [{ adminBasic: [] }, { bearer: [] }] : [],
    // What an agent's token may do here (src/http/agentScope.ts).
    ...(agentScope !== undefined ? { "x-agent-token": agentScope } : {}),
    // parseBody reads a missing body as {}: the body is required only when {} is not valid.
    ...(op.body ? { requestBody: { required: !op.body.safeParse({}).success, content: { "application/json": { schema: jsonSchema(op.body, "input") } } } } : {}),
    responses,
  };
}

let document: object | undefined;

export function openApiDocument(): object {
  document ??= {
    openapi: "3.1.0",
    info: {
      title: "rs-world-server",
      version: VERSION,
      description:
        "Authoritative multiplayer game server: REST interface. Real time: Colyseus room `world` and the `/ws` socket (see docs/protocol.md). Every refusal is `{success: false, error: {code, message}}` with the codes listed per status.",
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        adminBasic: { type: "http", scheme: "basic", description: "Any user name; ADMIN_CODE as the password" },
      },
      schemas: { Error: jsonSchema(ERROR_BODY, "output") },
    },
    paths: Object.fromEntries(
      Object.entries(ROUTES).map(([path, ops]) => [path, Object.fromEntries((Object.entries(ops) as [Method, Op][]).map(([method, op]) => [method, operation(path, method, op)]))]),
    ),
  };
  return document;
}
