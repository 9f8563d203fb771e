/**
 * What an agent's token may do on each authenticated REST route (src/auth/agentScope.ts says why):
 * - `character`: allowed, for its own character and agent only (another one is 403 FORBIDDEN),
 *   and what every player may read;
 * - `owner`: the account's business, refused with 403 AGENT_TOKEN_FORBIDDEN ({@link ownerOnly});
 * - `admin`: an agent's token never carries the admin role (Authenticator), so 403 FORBIDDEN.
 * Keyed as the OpenAPI document's operations (`method path`); a test requires a decision for
 * every authenticated route it documents, and holds each route to it with a real agent token.
 */
import type { Request } from "express";
import { AGENT_TOKEN_FORBIDDEN, isAgentToken } from "../auth/agentScope.ts";
import type { Principal } from "../auth/tokens.ts";
import { ForbiddenError } from "./errors.ts";

export type AgentTokenScope = "character" | "owner" | "admin";

export const AGENT_TOKEN_SCOPES: Readonly<Record<string, AgentTokenScope>> = {
  "get /api/v1/player": "character",
  "post /api/v1/player": "owner",
  "get /api/v1/world": "character",
  "get /api/v1/world/areas": "character",
  "get /api/characters/{characterId}/skills": "character",
  "get /api/characters/{characterId}/position": "character",
  "get /api/characters/{characterId}/hiscores": "character",
  "get /api/characters/{characterId}/quests": "character",
  "get /api/character": "owner",
  "post /api/character": "owner",
  "delete /api/character/{characterId}": "owner",
  "get /api/player/online": "character",
  "get /api/player/by-name/{name}": "character",
  "get /api/template": "character",
  "get /api/template/{templateId}": "character",
  "get /api/agent": "owner",
  "post /api/agent": "owner",
  "delete /api/agent/{agentId}": "owner",
  "post /api/agent/{agentId}/token": "owner",
  // Its own agent's goal and messages: the runtime steers an agent with the agent's token.
  "get /api/agents/{agentId}/goal": "character",
  "post /api/agents/{agentId}/goal": "character",
  "post /api/agents/{agentId}/goal/stop": "character",
  "post /api/agents/{agentId}/goal/resume": "character",
  "post /api/agents/{agentId}/message": "character",
  "get /api/agents/{agentId}/quick-actions": "character",
  "get /api/agents/mapping/{agentId}": "character",
  // Reading the lists lets an agent know its friends, to message them as its character (list
  // changes reach its connection anyway); changing them is the owner's.
  "get /api/v1/social": "character",
  "post /api/v1/social/friends": "owner",
  "delete /api/v1/social/friends/{name}": "owner",
  "post /api/v1/social/requests/{name}/accept": "owner",
  "post /api/v1/social/requests/{name}/decline": "owner",
  "post /api/v1/social/ignored": "owner",
  "delete /api/v1/social/ignored/{name}": "owner",
  // Voice is speaking as its character, in its character's area.
  "post /api/voice/token": "character",
  "get /api/admin/metrics": "admin",
  "post /api/admin/metrics/reset": "admin",
  "post /api/admin/kick": "admin",
  "post /api/admin/mute": "admin",
  "post /api/admin/unmute": "admin",
  "post /api/admin/ban": "admin",
  "post /api/admin/unban": "admin",
  "post /api/admin/teleport": "admin",
  "post /api/admin/broadcast": "admin",
  "get /api/admin/players": "admin",
  "get /api/admin/players/{name}": "admin",
  "post /api/admin/restart": "admin",
  "delete /api/admin/restart": "admin",
  "get /api/admin/audit": "admin",
};

/** The request's principal, when it acts for the whole account: an agent's token gets 403 AGENT_TOKEN_FORBIDDEN. */
export function ownerOnly(req: Request, what: string): Principal {
  const p = req.principal!;
  if (isAgentToken(p)) throw new ForbiddenError(`an agent's token cannot ${what}: use its owner's token`, AGENT_TOKEN_FORBIDDEN);
  return p;
}
