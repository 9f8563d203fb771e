/**
 * Rate limits (spec "Limits"): REST 100 requests/min and authentication 10 attempts/min, counted
 * per client address (`req.ip`: proxy-addr's, behind TRUST_PROXY's proxies). 429 answers carry the
 * common error body plus the standard `RateLimit-*` (draft-6: `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset`, `RateLimit-Policy`) and `Retry-After` headers.
 *
 * Counted by express-rate-limit: in its memory store (one process), or, with REDIS_URL, in Redis
 * across the cluster through {@link SharedStore} (src/cluster/sharedLimits.ts: keys
 * `rsworld:rl:rest:<address>`, `…:auth:…`, `…:admin:…`; in memory while Redis cannot be reached).
 */
import { rateLimit, type ClientRateLimitInfo, type RateLimitRequestHandler, type Store } from "express-rate-limit";
import type { RequestHandler } from "express";
import type { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { limitConnection, sharedCounter, type SharedLimitOptions } from "../cluster/sharedLimits.ts";
import { sendError } from "./errors.ts";
import { AUTH_LIMIT_PER_MIN, RATE_WINDOW_MS } from "../auth/attemptLimiter.ts";

export const REST_LIMIT_PER_MIN = 100;
export { AUTH_LIMIT_PER_MIN, RATE_WINDOW_MS };

/**
 * express-rate-limit's store over a rate-limiter-flexible counter (Redis, with its insurance):
 * express-rate-limit keeps deciding and answering (limit, headers, 429 body, skipped successes);
 * the counter only counts, atomically across processes.
 */
export class SharedStore implements Store {
  /** Counts are shared with other stores' instances (other processes): no per-instance keys. */
  readonly localKeys = false;
  readonly prefix: string;
  private readonly counter: RateLimiterRedis;

  constructor(counter: RateLimiterRedis) {
    this.counter = counter;
    this.prefix = `${counter.keyPrefix}:`;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const res = await this.counter.get(key);
    return res === null ? undefined : info(res);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    return info(await this.counter.penalty(key, 1));
  }

  async decrement(key: string): Promise<void> {
    // A window that ended in between would restart at -1: drop it instead.
    if ((await this.counter.reward(key, 1)).consumedPoints < 0) await this.counter.delete(key);
  }

  async resetKey(key: string): Promise<void> {
    await this.counter.delete(key);
  }
}

function info(res: RateLimiterRes): ClientRateLimitInfo {
  return { totalHits: res.consumedPoints, resetTime: new Date(Date.now() + res.msBeforeNext) };
}

function limiter(limit: number, message: string, store: Store | undefined, skipSuccessfulRequests = false): RateLimitRequestHandler {
  return rateLimit({
    windowMs: RATE_WINDOW_MS,
    limit,
    skipSuccessfulRequests,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    ...(store !== undefined ? { store } : {}),
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

/**
 * The REST limits; `shared.redisUrl` set (REDIS_URL): counted in Redis across the cluster, on the
 * connection of `shared.owner` (closed by `AuthAttempts.close`, which the server calls).
 */
export function createRateLimiters(disabled: boolean, shared?: SharedLimitOptions): RateLimiters {
  if (disabled) return { rest: passThrough, auth: passThrough, adminAttempts: passThrough };
  const redis = limitConnection(shared);
  const store = (budget: string, limit: number) => (redis === undefined ? undefined : new SharedStore(sharedCounter(redis, budget, limit, RATE_WINDOW_MS)));
  const authMessage = `too many authentication attempts: at most ${AUTH_LIMIT_PER_MIN} per minute`;
  return {
    rest: limiter(REST_LIMIT_PER_MIN, `rate limit exceeded: at most ${REST_LIMIT_PER_MIN} requests per minute`, store("rest", REST_LIMIT_PER_MIN)),
    auth: limiter(AUTH_LIMIT_PER_MIN, authMessage, store("auth", AUTH_LIMIT_PER_MIN)),
    adminAttempts: limiter(AUTH_LIMIT_PER_MIN, authMessage, store("admin", AUTH_LIMIT_PER_MIN), true),
  };
}
