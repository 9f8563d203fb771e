/**
 * What logging in over `/ws` may cost (docs/protocol.md "/ws: many sessions on one socket"). Every login is a
 * transaction, a `playerSessions` row and, for a character already in play, a takeover; a
 * multiplexed socket can ask for one per frame, so two budgets bound them:
 *
 * - per multiplexed socket, `session:open`s: a burst of {@link MUX_OPEN_BURST}, then
 *   {@link MUX_OPENS_PER_SECOND} a second ({@link OpenBucket}). The agent runtime sends at most 50
 *   a second on a connection (agent-runtime/MuxConnection.ts), at start and after a lost socket
 *   (a new socket, a new burst), so it is never refused;
 * - per character (the token's account and the character it logs in), {@link LOGINS_PER_CHARACTER}
 *   logins a {@link LOGIN_WINDOW_MS} window, on plain and multiplexed sockets and Colyseus joins alike, counted in
 *   Redis across the cluster (`rsworld:rl:ws-login:<account>/<character>`) or in memory. Logging
 *   one character in again and again is what only a loop does: the runtime logs each agent in once
 *   per lost socket, with a backoff.
 *
 * A refused open is answered before anything is written (no welcome, no takeover, no row):
 * `error` RATE_LIMITED, then `session:closed` 4029 (a plain socket: closed with 4029). Both are off
 * with DISABLE_RATE_LIMIT, as the authentication attempts are.
 */
import type { Principal } from "../auth/tokens.ts";
import { keyedBudget, limitConnection, type KeyedBudget, type SharedLimitOptions } from "../cluster/sharedLimits.ts";

export const MUX_OPEN_BURST = 100;
export const MUX_OPENS_PER_SECOND = 50;
export const LOGINS_PER_CHARACTER = 10;
export const LOGIN_WINDOW_MS = 60_000;

/** A token bucket of `session:open`s for one socket: `burst` at once, refilled at `perSecond`. */
export class OpenBucket {
  private tokens: number;
  private last: number;
  private readonly burst: number;
  private readonly perSecond: number;
  private readonly now: () => number;

  constructor(burst = MUX_OPEN_BURST, perSecond = MUX_OPENS_PER_SECOND, now: () => number = Date.now) {
    this.burst = burst;
    this.perSecond = perSecond;
    this.now = now;
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one open: true when allowed. */
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

/** The socket transports' login budgets (see the file comment); `enabled` false: none. */
export class LoginBudgets {
  readonly enabled: boolean;
  private readonly perCharacter: KeyedBudget;

  /** `shared`: where to count (the rate limits' Redis connection of the server, when REDIS_URL is set). */
  constructor(enabled = true, shared?: SharedLimitOptions) {
    this.enabled = enabled;
    this.perCharacter = keyedBudget(enabled ? limitConnection(shared) : undefined, "ws-login", LOGINS_PER_CHARACTER, LOGIN_WINDOW_MS);
  }

  /** A multiplexed socket's bucket of opens, or undefined when unlimited. */
  socketBucket(): OpenBucket | undefined {
    return this.enabled ? new OpenBucket() : undefined;
  }

  /**
   * Counts a login of the character `characterId` (the token's own for a scoped token; absent: the
   * account's first): undefined when allowed, else the refusal's message.
   */
  async takeLogin(principal: Principal, characterId: string | undefined): Promise<string | undefined> {
    if (!this.enabled) return undefined;
    const waitMs = await this.perCharacter.take(`${principal.accountId}/${principal.characterId ?? characterId ?? ""}`);
    if (waitMs === undefined) return undefined;
    return `too many logins of this character: at most ${LOGINS_PER_CHARACTER} a minute; retry in ${Math.ceil(waitMs / 1000)} s`;
  }
}
