/**
 * Per-account windows on what one account can aim at others (docs/gameplay.md "Friends, ignore lists and
 * private messages"): friend requests sent ({@link FRIEND_REQUESTS_LIMIT} an hour) and private
 * messages ({@link PRIVATE_MESSAGES_LIMIT} a minute, on top of the tick's 5 every 5 s), whatever
 * the characters, sessions, sockets or transports (REST included) the account uses. Counted in
 * Redis across the cluster (`rsworld:rl:social-request:<account>`, `…:social-pm:…`), or in this
 * process's memory without REDIS_URL. Refused with a {@link SocialError} RATE_LIMITED (REST 429),
 * before anything is written or sent.
 */
import type { Redis } from "ioredis";
import { keyedBudget, type KeyedBudget } from "../cluster/sharedLimits.ts";
import { SocialError } from "../persistence/social.ts";

export const FRIEND_REQUESTS_LIMIT = 20;
export const FRIEND_REQUEST_WINDOW_MS = 3_600_000;
export const PRIVATE_MESSAGES_LIMIT = 30;
export const PRIVATE_MESSAGE_WINDOW_MS = 60_000;

export class SocialBudgets {
  private readonly requests: KeyedBudget;
  private readonly messages: KeyedBudget;

  /** `redis`: the server's rate-limit connection (REDIS_URL); without it, counted in memory. */
  constructor(redis?: Redis) {
    this.requests = keyedBudget(redis, "social-request", FRIEND_REQUESTS_LIMIT, FRIEND_REQUEST_WINDOW_MS);
    this.messages = keyedBudget(redis, "social-pm", PRIVATE_MESSAGES_LIMIT, PRIVATE_MESSAGE_WINDOW_MS);
  }

  /** Counts a friend request of the account's, or refuses it (RATE_LIMITED). */
  async takeRequest(accountId: string): Promise<void> {
    const waitMs = await this.requests.take(accountId);
    if (waitMs !== undefined)
      throw new SocialError("RATE_LIMITED", `at most ${FRIEND_REQUESTS_LIMIT} friend requests an hour per account; retry in ${minutes(waitMs)}`);
  }

  /** Counts a private message of the account's, or refuses it (RATE_LIMITED). */
  async takeMessage(accountId: string): Promise<void> {
    const waitMs = await this.messages.take(accountId);
    if (waitMs !== undefined)
      throw new SocialError("RATE_LIMITED", `at most ${PRIVATE_MESSAGES_LIMIT} private messages a minute per account; retry in ${Math.ceil(waitMs / 1000)} s`);
  }
}

const minutes = (ms: number) => (ms < 60_000 ? `${Math.ceil(ms / 1000)} s` : `${Math.ceil(ms / 60_000)} min`);
