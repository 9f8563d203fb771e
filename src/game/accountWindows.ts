/**
 * Flood limits counted per account, not per character or session: an account's characters (up to
 * five, each on its own session, socket or process's world) share one budget of chat lines and
 * one of private messages, so logging more characters in, or logging one out and in again, buys
 * no more. Per world (this process); the social service adds its own per-account window on private
 * messages and friend requests, shared across the cluster (src/social/socialBudgets.ts).
 */
import type { Player } from "./world/Player.ts";

/**
 * Whose budget a player's line counts against: its account's, shared by the characters its owner
 * plays; an agent's character (one agent a character, at most five an account) has one of its own,
 * so the owner chatting with its agents (commands and their answers) does not starve either.
 */
export function floodKey(player: Player): string {
  return player.agentControlled ? `${player.data.accountId}:agent:${player.id}` : player.data.accountId;
}

/** Accounts tracked before the idle ones are dropped (their windows empty). */
const PRUNE_AT = 1_024;

export class AccountWindows {
  private readonly times = new Map<string, number[]>();
  private pruneAt = PRUNE_AT;

  /** Counts one use by the account in a sliding window; false (not counted) when it is at `limit`. */
  allow(accountId: string, now: number, limit: number, windowMs: number): boolean {
    let times = this.times.get(accountId);
    if (times === undefined) {
      if (this.times.size >= this.pruneAt) this.prune(now, windowMs);
      this.times.set(accountId, (times = []));
    }
    while (times.length > 0 && times[0]! <= now - windowMs) times.shift();
    if (times.length >= limit) return false;
    times.push(now);
    return true;
  }

  private prune(now: number, windowMs: number): void {
    for (const [accountId, times] of this.times) if (times.length === 0 || times.at(-1)! <= now - windowMs) this.times.delete(accountId);
    this.pruneAt = Math.max(PRUNE_AT, this.times.size * 2);
  }
}
