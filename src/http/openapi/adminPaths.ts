/** The OpenAPI paths of the operators: metrics, moderation, players, restarts, the audit (src/http/openapi.ts). */
import { ADMIN_BODIES, ADMIN_RESPONSES, AUDIT_QUERY } from "../routes/admin.ts";
import { METRICS_RESPONSES } from "../routes/adminMetrics.ts";
import { ADMIN_PLAYERS_RESPONSE } from "../routes/adminPlayers.ts";
import { moderation, type Paths } from "./ops.ts";

export const ADMIN_PATHS: Paths = {
  "/api/admin/metrics": {
    get: { summary: "Server metrics: ticks, event-loop delay, CPU, memory", auth: "admin", responses: { 200: METRICS_RESPONSES.metrics } },
  },
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
    post: {
      summary: "Lift a mute",
      auth: "admin",
      body: ADMIN_BODIES.unmute,
      responses: { 200: ADMIN_RESPONSES.action },
      errors: moderation("UNKNOWN_PLAYER", "NOT_MUTED"),
    },
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
    post: {
      summary: "Lift a ban",
      auth: "admin",
      body: ADMIN_BODIES.unban,
      responses: { 200: ADMIN_RESPONSES.action },
      errors: moderation("UNKNOWN_PLAYER", "NOT_BANNED"),
    },
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
    get: {
      summary: "The moderation audit, newest first (one player's with ?name=)",
      auth: "admin",
      query: AUDIT_QUERY,
      responses: { 200: ADMIN_RESPONSES.audit },
      errors: moderation("UNKNOWN_PLAYER"),
    },
  },
};
