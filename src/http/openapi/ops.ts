/**
 * An operation of the OpenAPI document (src/http/openapi.ts) as the path tables describe it, and
 * its refusals: its own, and those every route like it may answer (errorsOf).
 */
import type { z } from "zod";
import type { SocialErrorCode } from "../../persistence/social.ts";
import { MODERATION_ERROR_STATUS, type ModerationErrorCode } from "../../moderation/ModerationService.ts";
import { AGENT_TOKEN_FORBIDDEN } from "../../auth/agentScope.ts";
import { AGENT_TOKEN_SCOPES } from "../agentScope.ts";
import { SOCIAL_ERROR_STATUS } from "../routes/social.ts";

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

/** Operations by path (OpenAPI `{param}` syntax) and method. */
export type Paths = Record<string, Partial<Record<Method, Op>>>;

/** The refusals of the loginGate (src/restApp.ts) during a restart's last minute. */
export const RESTARTING: ErrorCodes = { 503: ["RESTARTING"] };
/** An id that names no row, or a row of another account (accessCharacter, AgentService.access). */
export const OWNED: ErrorCodes = { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"] };

/** A social refusal's codes by status (SOCIAL_ERROR_STATUS); every change may meet the first three. */
export function social(...codes: Exclude<SocialErrorCode, "PLAYER_OFFLINE">[]): ErrorCodes {
  return byStatus(["NO_CHARACTER", "UNKNOWN_PLAYER", "SELF", ...codes], (c) => SOCIAL_ERROR_STATUS[c]);
}
export function moderation(...codes: ModerationErrorCode[]): ErrorCodes {
  return byStatus(codes, (c) => MODERATION_ERROR_STATUS[c]);
}
function byStatus<C extends string>(codes: C[], status: (code: C) => number): ErrorCodes {
  const out: Record<number, string[]> = {};
  for (const c of codes) (out[status(c)] ??= []).push(c);
  return out;
}

export function merge(...lists: ErrorCodes[]): ErrorCodes {
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
 * (400), the rate limits (429, rateLimit.ts), and the bearer and admin guards (http/authGuards.ts).
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
