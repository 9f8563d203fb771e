/**
 * Tokens as a client or an identity provider would make them, good or forged, signed with `jose`.
 */
import type { KeyObject } from "node:crypto";
import { SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from "jose";

export interface SignOptions {
  alg?: string;
  kid?: string;
  audience?: string;
  issuer?: string;
  /** Seconds from now (negative: already expired); null: no `exp` at all. Default 60. */
  expiresIn?: number | null;
}

/** A JWT over `claims`, signed with a shared secret (a string) or a private key. */
export function signJwt(claims: JWTPayload, key: string | KeyObject | CryptoKey | Uint8Array, opts: SignOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: opts.alg ?? "HS256", typ: "JWT", ...(opts.kid !== undefined ? { kid: opts.kid } : {}) })
    .setIssuedAt(now);
  if (opts.audience !== undefined) jwt.setAudience(opts.audience);
  if (opts.issuer !== undefined) jwt.setIssuer(opts.issuer);
  if (opts.expiresIn !== null) jwt.setExpirationTime(now + (opts.expiresIn ?? 60));
  return jwt.sign(typeof key === "string" ? new TextEncoder().encode(key) : key);
}

/** An `alg: none` token: no signature at all. */
export function unsignedJwt(claims: JWTPayload, opts: { audience?: string; issuer?: string } = {}): string {
  const jwt = new UnsecuredJWT(claims).setIssuedAt().setExpirationTime("1m");
  if (opts.audience !== undefined) jwt.setAudience(opts.audience);
  if (opts.issuer !== undefined) jwt.setIssuer(opts.issuer);
  return jwt.encode();
}
