/**
 * Authentication attempts per client address on the socket transports (`/ws` and Colyseus joins):
 * the REST limit (spec "Limits": {@link AUTH_LIMIT_PER_MIN} attempts per minute) for what would
 * otherwise go around it. Two budgets per address ({@link AuthAttempts}): new anonymous identities
 * (a connection without a token in anonymous mode creates one, with its `users` row, every time),
 * and failed token checks (past the limit no token from the address is checked until the window
 * ends). A client whose token is good is never counted.
 *
 * Counted in this process's memory ({@link AttemptLimiter}), or, with REDIS_URL, in Redis across the
 * cluster (keys `rsworld:rl:ws-anon:<address>` and `rsworld:rl:ws-token:<address>`; in memory while
 * Redis cannot be reached: src/cluster/sharedLimits.ts).
 */
import type { Redis } from "ioredis";
import { RateLimiterRes, type RateLimiterRedis } from "rate-limiter-flexible";
import { closeLimitConnection, limitConnection, sharedCounter, type SharedLimitOptions } from "../cluster/sharedLimits.ts";
import { TokenError } from "./tokens.ts";

/** Authentication attempts per client address a window (spec "Limits"), on REST (http/rateLimit.ts) and the sockets alike. */
export const AUTH_LIMIT_PER_MIN = 10;
/** The rate limits' window, ms. */
export const RATE_WINDOW_MS = 60_000;

/** Addresses tracked at most; past it, expired windows are dropped (and, if none, all). */
const MAX_ADDRESSES = 100_000;

export class AttemptLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: { limit?: number; windowMs?: number; now?: () => number } = {}) {
    this.limit = options.limit ?? AUTH_LIMIT_PER_MIN;
    this.windowMs = options.windowMs ?? RATE_WINDOW_MS;
    this.now = options.now ?? Date.now;
  }

  private window(address: string | undefined): { start: number; count: number } {
    const key = address ?? "unknown";
    const t = this.now();
    let w = this.windows.get(key);
    if (w === undefined || t - w.start >= this.windowMs) {
      if (w === undefined && this.windows.size >= MAX_ADDRESSES) this.prune(t);
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    return w;
  }

  /** Whether the address may make another attempt now (nothing is counted, nothing is stored). */
  allows(address: string | undefined): boolean {
    const w = this.windows.get(address ?? "unknown");
    return w === undefined || this.now() - w.start >= this.windowMs || w.count < this.limit;
  }

  /** Counts one attempt; false (and not counted) when the address is already at the limit. */
  take(address: string | undefined): boolean {
    const w = this.window(address);
    if (w.count >= this.limit) return false;
    w.count++;
    return true;
  }

  /** Seconds until the address's window ends (for `Retry-After`-style messages). */
  retryAfterS(address: string | undefined): number {
    const w = this.window(address);
    return Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000));
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
    if (this.windows.size >= MAX_ADDRESSES) this.windows.clear();
  }
}

/** An attempt refused because its address is at a limit; transports answer 429 / close 4029. */
export class TooManyAttempts extends Error {
  constructor(retryAfterS: number) {
    super(`too many authentication attempts: at most ${AUTH_LIMIT_PER_MIN} per minute; retry in ${retryAfterS} s`);
  }
}

/** One budget of attempts per address, as {@link AuthAttempts} uses it. */
interface AttemptBudget {
  /** Counts an attempt, or refuses it ({@link TooManyAttempts}) when the address is at the limit. */
  take(address: string | undefined): Promise<void>;
  /** Refuses ({@link TooManyAttempts}) when the address is at the limit; counts nothing. */
  check(address: string | undefined): Promise<void>;
  /** Counts an attempt that failed. */
  count(address: string | undefined): Promise<void>;
}

/** A budget in this process's memory: every decision at once, exactly. */
class MemoryBudget implements AttemptBudget {
  private readonly limiter = new AttemptLimiter();

  async take(address: string | undefined): Promise<void> {
    if (!this.limiter.take(address)) throw new TooManyAttempts(this.limiter.retryAfterS(address));
  }

  async check(address: string | undefined): Promise<void> {
    if (!this.limiter.allows(address)) throw new TooManyAttempts(this.limiter.retryAfterS(address));
  }

  async count(address: string | undefined): Promise<void> {
    this.limiter.take(address);
  }
}

/** Addresses remembered as refused at most; past it, the memory starts over (Redis still decides). */
const MAX_REFUSED_ADDRESSES = 100_000;

/**
 * A budget in Redis, shared by the cluster's processes (src/cluster/sharedLimits.ts). An address
 * Redis refused is remembered until its window ends, and refused without asking again.
 */
class SharedBudget implements AttemptBudget {
  private readonly counter: RateLimiterRedis;
  private readonly refusedUntil = new Map<string, number>();

  constructor(redis: Redis, budget: string) {
    this.counter = sharedCounter(redis, budget, AUTH_LIMIT_PER_MIN, RATE_WINDOW_MS);
  }

  async take(address: string | undefined): Promise<void> {
    this.refuseIfKnown(address);
    try {
      await this.counter.consume(key(address));
    } catch (err) {
      if (err instanceof RateLimiterRes) throw this.refused(address, err.msBeforeNext);
      throw err;
    }
  }

  async check(address: string | undefined): Promise<void> {
    this.refuseIfKnown(address);
    const res = await this.counter.get(key(address));
    if (res !== null && res.consumedPoints >= AUTH_LIMIT_PER_MIN) throw this.refused(address, res.msBeforeNext);
  }

  async count(address: string | undefined): Promise<void> {
    await this.counter.penalty(key(address), 1);
  }

  private refuseIfKnown(address: string | undefined): void {
    const until = this.refusedUntil.get(key(address));
    if (until === undefined) return;
    const msLeft = until - Date.now();
    if (msLeft > 0) throw new TooManyAttempts(retryAfterS(msLeft));
    this.refusedUntil.delete(key(address));
  }

  private refused(address: string | undefined, msBeforeNext: number): TooManyAttempts {
    if (this.refusedUntil.size >= MAX_REFUSED_ADDRESSES) this.refusedUntil.clear();
    this.refusedUntil.set(key(address), Date.now() + msBeforeNext);
    return new TooManyAttempts(retryAfterS(msBeforeNext));
  }
}

const key = (address: string | undefined) => address ?? "unknown";
const retryAfterS = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The two budgets of the socket transports (see the file comment), used by every one of them:
 * in memory, or in Redis across the cluster when `shared.redisUrl` (REDIS_URL) is set.
 */
export class AuthAttempts {
  private readonly anonymous: AttemptBudget;
  private readonly failedTokens: AttemptBudget;
  /** `false`: nothing is limited (DISABLE_RATE_LIMIT, tests, the benchmarks). */
  private readonly enabled: boolean;
  private readonly owner: object | undefined;

  /**
   * `shared`: where to count (the REST limits' options: `owner` is the server's Express app, whose
   * one Redis connection serves both, and {@link close} closes it).
   */
  constructor(enabled = true, shared?: SharedLimitOptions) {
    this.enabled = enabled;
    const redis = enabled ? limitConnection(shared) : undefined;
    this.owner = shared?.owner;
    this.anonymous = redis === undefined ? new MemoryBudget() : new SharedBudget(redis, "ws-anon");
    this.failedTokens = redis === undefined ? new MemoryBudget() : new SharedBudget(redis, "ws-token");
  }

  /** Before a new anonymous identity is issued: counts it, or refuses with {@link TooManyAttempts}. */
  async takeAnonymousIdentity(address: string | undefined): Promise<void> {
    if (this.enabled) await this.anonymous.take(address);
  }

  /**
   * Checks a token with `check`: a failure (a TokenError) counts, and once the address is at the
   * limit no token from it is checked ({@link TooManyAttempts}). Good tokens never count, even many
   * at once from one address (users behind one NAT): so checks already running when the limit is
   * reached still run, and are counted when they fail.
   */
  async checkToken<T>(address: string | undefined, check: () => Promise<T>): Promise<T> {
    if (!this.enabled) return check();
    await this.failedTokens.check(address);
    try {
      return await check();
    } catch (err) {
      if (err instanceof TokenError) await this.failedTokens.count(address);
      throw err;
    }
  }

  /** Closes the Redis connection of the server's rate limits (REST's and these), if any. */
  async close(): Promise<void> {
    if (this.owner !== undefined) await closeLimitConnection(this.owner);
  }
}
