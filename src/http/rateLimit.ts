/**
 * Rate limits (spec "Limits"): REST 100 requests/min and authentication 10 attempts/min, counted
 * per client address. 429 answers carry the common error body plus the standard `RateLimit-*`
 * (draft-6: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`, `RateLimit-Policy`) and `Retry-After` headers.
 */
import { rateLimit, type RateLimitRequestHandler } from "express-rate-limit";
import type { RequestHandler } from "express";
import { sendError } from "./errors.ts";

export const REST_LIMIT_PER_MIN = 100;
export const AUTH_LIMIT_PER_MIN = 10;
export const RATE_WINDOW_MS = 60_000;

function limiter(limit: number, message: string, skipSuccessfulRequests = false): RateLimitRequestHandler {
  return rateLimit({
    windowMs: RATE_WINDOW_MS,
    limit,
    skipSuccessfulRequests,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    handler: (_req, res) => sendError(res, 429, "RATE_LIMITED", message),
  });
}

export interface RateLimiters {
  /** Every REST request under /api. */
  rest: RequestHandler;
  /** Every request that is an authentication attempt (token issuance). */
  auth: RequestHandler;
  /** Admin logins: only failed attempts count, so a signed-in monitor can poll freely. */
  adminAttempts: RequestHandler;
}

const passThrough: RequestHandler = (_req, _res, next) => next();

export function createRateLimiters(disabled: boolean): RateLimiters {
  if (disabled) return { rest: passThrough, auth: passThrough, adminAttempts: passThrough };
  const authMessage = `too many authentication attempts: at most ${AUTH_LIMIT_PER_MIN} per minute`;
  return {
    rest: limiter(REST_LIMIT_PER_MIN, `rate limit exceeded: at most ${REST_LIMIT_PER_MIN} requests per minute`),
    auth: limiter(AUTH_LIMIT_PER_MIN, authMessage),
    adminAttempts: limiter(AUTH_LIMIT_PER_MIN, authMessage, true),
  };
}
