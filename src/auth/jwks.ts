/**
 * The identity provider's published keys (`IDP_JWKS_URL`), fetched and cached. An unknown key id
 * triggers one refetch (at most every {@link REFETCH_COOLDOWN_MS}), so a key rotation is picked
 * up without letting every bad token hammer the provider.
 */
import { createPublicKey, type KeyObject } from "node:crypto";

export const JWKS_TTL_MS = 10 * 60_000;
export const REFETCH_COOLDOWN_MS = 30_000;
export const JWKS_TIMEOUT_MS = 5_000;

export class JwksClient {
  private readonly url: string;
  private keys = new Map<string, KeyObject>();
  private fetchedAt = 0;
  private inFlight: Promise<void> | undefined;
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
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  /** The key with this id, fetching the set when stale or when the id is new. */
  async key(kid: string): Promise<KeyObject | undefined> {
    const age = this.now() - this.fetchedAt;
    if (this.fetchedAt === 0 || age > JWKS_TTL_MS || (!this.keys.has(kid) && age > REFETCH_COOLDOWN_MS)) {
      await this.refresh();
    }
    return this.keys.get(kid);
  }
}
