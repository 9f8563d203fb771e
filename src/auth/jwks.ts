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
 *
 * Each fetched set becomes a `jose` local key set, which picks the key of a token by its `kid` and
 * its algorithm: a token whose algorithm does not fit the key's type (or the key's `alg`, when the
 * provider names one) finds no key and is refused.
 */
import { createLocalJWKSet, type JWK, type JWTVerifyGetKey } from "jose";

export const JWKS_TTL_MS = 10 * 60_000;
export const REFETCH_COOLDOWN_MS = 30_000;
export const JWKS_TIMEOUT_MS = 5_000;
/** How long past the last good fetch its keys are still used while the provider cannot be reached. */
export const JWKS_MAX_STALE_MS = 60 * 60_000;
export const JWKS_RETRY_MIN_MS = 1_000;
export const JWKS_RETRY_MAX_MS = 5 * 60_000;

export class JwksClient {
  private readonly url: string;
  /** The key ids of the last good fetch, and a verifier of tokens over its keys. */
  private kids = new Set<string>();
  private keySet: JWTVerifyGetKey | undefined;
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
        // Only signing keys with an id: tokens name their key by id. A key that cannot be imported
        // fails only the tokens signed with it (when they are checked), not the whole set.
        const keys = (body.keys as unknown[]).filter(
          (jwk): jwk is JWK & { kid: string } =>
            typeof jwk === "object" && jwk !== null && typeof (jwk as JWK).kid === "string" && ((jwk as JWK).use === undefined || (jwk as JWK).use === "sig"),
        );
        this.keySet = createLocalJWKSet({ keys });
        this.kids = new Set(keys.map((k) => k.kid));
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
   * The key set to verify a token whose key has this id (undefined when the provider publishes no
   * such signing key), fetching the set when stale or when the id is new. Throws when the provider
   * cannot be reached and no keys are usable (none fetched yet, or the last good fetch is older than
   * {@link JWKS_MAX_STALE_MS}), or the id is not among the stale keys.
   */
  async key(kid: string): Promise<JWTVerifyGetKey | undefined> {
    const now = this.now();
    const age = now - this.fetchedAt;
    const due = this.fetchedAt === 0 || age > JWKS_TTL_MS || (!this.kids.has(kid) && age > REFETCH_COOLDOWN_MS);
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
      if (!fetched && !this.kids.has(kid))
        throw new Error(`key id ${kid} is not in the last key set, and the identity provider cannot be reached for a newer one`);
    }
    return this.kids.has(kid) ? this.keySet : undefined;
  }

  private usable(now: number): boolean {
    return this.fetchedAt > 0 && now - this.fetchedAt <= JWKS_MAX_STALE_MS;
  }
}
