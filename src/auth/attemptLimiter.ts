/**
 * Authentication attempts per client address on the socket transports (`/ws` and Colyseus joins):
 * the REST limit (spec "Limits": {@link AUTH_LIMIT_PER_MIN} attempts per minute) for what would
 * otherwise go around it. Two budgets per address ({@link AuthAttempts}): new anonymous identities
 * (a connection without a token in anonymous mode creates one, with its `users` row, every time),
 * and failed token checks (past the limit no token from the address is checked until the window
 * ends). A client whose token is good is never counted.
 */
import { AUTH_LIMIT_PER_MIN, RATE_WINDOW_MS } from "../http/rateLimit.ts";
import { TokenError } from "./tokens.ts";

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

/** The two budgets of the socket transports (see the file comment), used by every one of them. */
export class AuthAttempts {
  private readonly anonymous = new AttemptLimiter();
  private readonly failedTokens = new AttemptLimiter();
  /** `false`: nothing is limited (DISABLE_RATE_LIMIT, tests, the benchmarks). */
  private readonly enabled: boolean;

  constructor(enabled = true) {
    this.enabled = enabled;
  }

  /** Before a new anonymous identity is issued: counts it, or throws {@link TooManyAttempts}. */
  anonymousIdentity(address: string | undefined): void {
    if (this.enabled && !this.anonymous.take(address)) throw new TooManyAttempts(this.anonymous.retryAfterS(address));
  }

  /**
   * Checks a token with `check`: a failure (a TokenError) counts, and once the address is at the
   * limit no token from it is checked ({@link TooManyAttempts}). Good tokens never count, even many
   * at once from one address (users behind one NAT): so checks already running when the limit is
   * reached still run, and are counted when they fail.
   */
  async checkToken<T>(address: string | undefined, check: () => Promise<T>): Promise<T> {
    if (!this.enabled) return check();
    if (!this.failedTokens.allows(address)) throw new TooManyAttempts(this.failedTokens.retryAfterS(address));
    try {
      return await check();
    } catch (err) {
      if (err instanceof TokenError) this.failedTokens.take(address);
      throw err;
    }
  }
}
