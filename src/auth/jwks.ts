/**
 * The identity provider's published keys (`IDP_JWKS_URL`), fetched and cached. An unknown key id
 * triggers one refetch (at most every {@link REFETCH_COOLDOWN_MS}), so a key rotation is picked
 * up without letting every bad token hammer the provider.
 *
 * When the provider cannot be reached, the keys of the last good fetch go on being used for up to
 * {@link JWKS_MAX_STALE_MS}, so an outage of the provider does not log everyone out; and failed
 * fetches are retried with a growing delay ({@link JWKS_RETRY_MIN_MS} doubling up to
 * {@link JWKS_RETRY_MAX_MS}), not on every token, which would hold every login for the fetch's
 * timeout. Without usable keys, or for a key id the stale keys do not hold, a token check fails
 * at once until the next attempt is due.
 */
import { createPublicKey, type KeyObject } from "node:crypto";

export const JWKS_TTL_MS = 10 * 60_000;
export const REFETCH_COOLDOWN_MS = 30_000;
export const JWKS_TIMEOUT_MS = 5_000;
/** How long past the last good fetch its keys are still used while the provider cannot be reached. */
export const JWKS_MAX_STALE_MS = 60 * 60_000;
export const JWKS_RETRY_MIN_MS = 1_000;
export const JWKS_RETRY_MAX_MS = 5 * 60_000;

export class JwksClient {
  private readonly url: string;
  private keys = new Map<string, KeyObject>();
  private fetchedAt = 0;
  private inFlight: Promise<void> | undefined;
  /** Failed fetches in a row, and when the next fetch may start after them. */
  private failures = 0;
  private retryAt = 0;
  private readonly now: () => number;

  constructor(url: string, now: () => number = Date.now) {
    this.url = url;
    this.now = now;
  }

  private refresh(): Promise<void> {
    this.inFlight ??= (async () => {
      try {
        const res = await fetch(this.url, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) });
        if (!res.ok) throw new Error(`JWKS fetch failed: HTTP ${res.status}`);
        const body = (await res.json()) as { keys?: unknown };
        if (!Array.isArray(body.keys)) throw new Error("JWKS response has no keys array");
        const keys = new Map<string, KeyObject>();
        for (const jwk of body.keys as Record<string, unknown>[]) {
          if (typeof jwk.kid !== "string" || (jwk.use !== undefined && jwk.use !== "sig")) continue;
          try {
            keys.set(jwk.kid, createPublicKey({ key: jwk as never, format: "jwk" }));
          } catch {
            // A key this runtime cannot use is skipped; tokens signed with it will not verify.
          }
        }
        this.keys = keys;
        this.fetchedAt = this.now();
        this.failures = 0;
        this.retryAt = 0;
      } catch (err) {
        this.failures++;
        this.retryAt = this.now() + Math.min(JWKS_RETRY_MAX_MS, JWKS_RETRY_MIN_MS * 2 ** (this.failures - 1));
        throw err;
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  /**
   * The key with this id, fetching the set when stale or when the id is new. Throws when the
   * provider cannot be reached and no keys are usable (none fetched yet, or the last good fetch is
   * older than {@link JWKS_MAX_STALE_MS}), or the id is not among the stale keys.
   */
  async key(kid: string): Promise<KeyObject | undefined> {
    const now = this.now();
    const age = now - this.fetchedAt;
    const due = this.fetchedAt === 0 || age > JWKS_TTL_MS || (!this.keys.has(kid) && age > REFETCH_COOLDOWN_MS);
    if (due) {
      let fetched = false;
      if (now >= this.retryAt || this.inFlight !== undefined) {
        try {
          await this.refresh();
          fetched = true;
        } catch (err) {
          if (!this.usable(now)) throw err;
        }
      } else if (!this.usable(now)) {
        throw new Error(`the identity provider's keys could not be fetched; next attempt in ${Math.ceil((this.retryAt - now) / 1000)} s`);
      }
      // Stale keys vouch only for the ids they hold: a new id may be a key the provider rotated to.
      if (!fetched && !this.keys.has(kid)) throw new Error(`key id ${kid} is not in the last key set, and the identity provider cannot be reached for a newer one`);
    }
    return this.keys.get(kid);
  }

  private usable(now: number): boolean {
    return this.fetchedAt > 0 && now - this.fetchedAt <= JWKS_MAX_STALE_MS;
  }
}
