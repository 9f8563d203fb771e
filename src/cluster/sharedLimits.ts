/**
 * The rate limits' counters in a cluster (REDIS_URL): rate-limiter-flexible's `RateLimiterRedis`,
 * so that every process of the cluster counts a client's requests and attempts in one place. Keys
 * are `rsworld:rl:<budget>:<client address>` (budgets: `rest`, `auth`, `admin`, `ws-anon`,
 * `ws-token`), or `rsworld:rl:<budget>:<account>` for what is counted per account wherever it plays
 * (`ws-login`: logins of one character; `social-request`, `social-pm`: src/social/socialBudgets.ts),
 * each living for its window from its first count (a fixed window, as in memory).
 *
 * Redis unreachable (not connected, also before the connection is first ready at startup, or no
 * answer within {@link REDIS_COMMAND_TIMEOUT_MS}): each counter has an insurance limiter in memory
 * with the same limit (rate-limiter-flexible's `insuranceLimiter`), so the process counts on its
 * own, as one without REDIS_URL does, until Redis answers again. A request is never refused, nor let through unlimited, because Redis is
 * down; the outage and the recovery are logged once each.
 *
 * One Redis connection per server (keyed by its `owner`, the Express app), shared by the REST
 * limits and the socket attempts, closed with the server ({@link closeLimitConnection}).
 */
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Logger } from "../logger.ts";

export const RATE_LIMIT_KEY_PREFIX = "rsworld:rl";
/** How long a limit check waits for Redis before the insurance counts instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** Reconnection delays while Redis is down: 200 ms more each try, at most this. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/** Where a server's rate limits count: `redisUrl` unset, in memory (one process). */
export interface SharedLimitOptions {
  /** REDIS_URL (`config.cluster?.redisUrl`). */
  redisUrl: string | undefined;
  /** The server the counters belong to (its Express app): one connection each. */
  owner: object;
  /** Says when Redis goes away and comes back. */
  logger?: Logger;
}

const connections = new WeakMap<object, Redis>();

/** The owner's connection for its rate limits (opened on first use), or undefined without REDIS_URL. */
export function limitConnection(options: SharedLimitOptions | undefined): Redis | undefined {
  if (options?.redisUrl === undefined) return undefined;
  let redis = connections.get(options.owner);
  if (redis === undefined) {
    redis = connect(options.redisUrl, options.logger);
    connections.set(options.owner, redis);
  }
  return redis;
}

/** Closes the owner's connection, if it has one. */
export async function closeLimitConnection(owner: object): Promise<void> {
  const redis = connections.get(owner);
  if (redis === undefined) return;
  connections.delete(owner);
  if (redis.status !== "ready") return redis.disconnect();
  const ended = new Promise((resolve) => redis.once("end", resolve));
  await redis.quit().then(
    () => ended,
    () => redis.disconnect(),
  );
}

function connect(url: string, logger: Logger | undefined): Redis {
  const redis = new Redis(url, {
    // Never queue a check while disconnected, nor retry it: the insurance counts it at once.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_COMMAND_TIMEOUT_MS * 2,
    retryStrategy: (times) => Math.min(times * 200, MAX_RECONNECT_DELAY_MS),
  });
  // Said once an outage: ioredis reports every failed reconnection ("error", then "reconnecting").
  let down = false;
  let lastError: Error | undefined;
  redis.on("error", (err: Error) => {
    lastError = err;
  });
  redis.on("reconnecting", () => {
    if (down) return;
    down = true;
    logger?.warn({ err: lastError }, "rate limits: Redis cannot be reached; this process counts on its own until it answers again");
  });
  redis.on("ready", () => {
    lastError = undefined;
    if (!down) return;
    down = false;
    logger?.info("rate limits: Redis answers again; counting across the cluster");
  });
  return redis;
}

/**
 * A counter of `limit` points per `windowMs` per key, in Redis under `rsworld:rl:<budget>:`, with
 * its insurance in memory (see the file comment).
 */
export function sharedCounter(redis: Redis, budget: string, limit: number, windowMs: number): RateLimiterRedis {
  const keyPrefix = `${RATE_LIMIT_KEY_PREFIX}:${budget}`;
  const duration = windowMs / 1000;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points: limit,
    duration,
    // Not connected: straight to the insurance (with the offline queue off, the command would fail anyway).
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: limit, duration }),
  });
}

/**
 * A budget of `limit` uses per `windowMs` per key (an account, a character): in Redis under
 * `rsworld:rl:<budget>:<key>` across the cluster (with its insurance, above), or in this process's
 * memory without a connection. Fixed windows, as the other limits.
 */
export interface KeyedBudget {
  readonly limit: number;
  readonly windowMs: number;
  /** Counts one use: undefined when allowed, else the ms until the key's window ends (refused). */
  take(key: string): Promise<number | undefined>;
}

export function keyedBudget(redis: Redis | undefined, budget: string, limit: number, windowMs: number): KeyedBudget {
  const counter =
    redis === undefined
      ? new RateLimiterMemory({ keyPrefix: `${RATE_LIMIT_KEY_PREFIX}:${budget}`, points: limit, duration: windowMs / 1000 })
      : sharedCounter(redis, budget, limit, windowMs);
  return {
    limit,
    windowMs,
    async take(key) {
      try {
        await counter.consume(key);
        return undefined;
      } catch (err) {
        if (err instanceof RateLimiterRes) return Math.max(1, err.msBeforeNext);
        throw err;
      }
    },
  };
}
