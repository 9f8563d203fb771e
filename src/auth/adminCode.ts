/**
 * The in-game admin command's code check (`/admin <code>` in chat, src/game/chat.ts), with its
 * guessing budgets: {@link ADMIN_ATTEMPTS_PER_ACCOUNT} wrong codes per account and
 * {@link ADMIN_ATTEMPTS_PER_ADDRESS} per client address in {@link ADMIN_WINDOW_MS}. Past either, no
 * code from that account or address is checked until the window ends. Only wrong codes count, and a
 * budget is one account's or one address's: before, one world-wide budget let anyone lock every
 * admin out by failing on purpose. The address budget stops one client from renewing the account
 * budget with fresh (anonymous) accounts. Each budget map is bounded (AttemptLimiter).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { AttemptLimiter } from "./attemptLimiter.ts";
import type { AdminCheck } from "../game/chat.ts";

/** Constant-time string comparison (hashing first makes the lengths equal). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

export const ADMIN_ATTEMPTS_PER_ACCOUNT = 5;
export const ADMIN_ATTEMPTS_PER_ADDRESS = 20;
export const ADMIN_WINDOW_MS = 10 * 60_000;

export type { AdminCheck };

export class AdminCodeGuard {
  private readonly code: string;
  private readonly byAccount: AttemptLimiter;
  private readonly byAddress: AttemptLimiter;

  constructor(code: string, now: () => number = Date.now) {
    this.code = code;
    this.byAccount = new AttemptLimiter({ limit: ADMIN_ATTEMPTS_PER_ACCOUNT, windowMs: ADMIN_WINDOW_MS, now });
    this.byAddress = new AttemptLimiter({ limit: ADMIN_ATTEMPTS_PER_ADDRESS, windowMs: ADMIN_WINDOW_MS, now });
  }

  /** `address` undefined (no client connection to speak of): the account's budget alone applies. */
  check(code: string, accountId: string, address: string | undefined): AdminCheck {
    if (!this.byAccount.allows(accountId) || (address !== undefined && !this.byAddress.allows(address))) return "limited";
    if (safeEqual(code, this.code)) return "granted";
    this.byAccount.take(accountId);
    if (address !== undefined) this.byAddress.take(address);
    return "wrong";
  }
}
