/**
 * Bearer tokens (PROTOCOL.md "Tokens"):
 * - service tokens (anonymous identities, agents, admins) are HS256 JWTs signed with `JWT_SECRET`;
 * - identity-provider tokens are JWTs whose `aud` is `PUBLIC_IDP_APP_ID`, verified with
 *   `IDP_APP_SECRET` (HS256) or, when `IDP_JWKS_URL` is set, with the provider's published keys
 *   (RS256/ES256/PS256/EdDSA).
 * Both are accepted wherever a bearer token is. The algorithm is pinned, so `alg: none` and
 * key-confusion tokens are refused, and an expiry is required. Signing and checking use `jose`.
 */
import { randomUUID } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { JwksClient } from "./jwks.ts";

export const SERVICE_TOKEN_ISSUER = "rs-world-server";
/** Anonymous identities last a week: long enough to come back as the same temporary player. */
export const ANONYMOUS_TOKEN_TTL_S = 7 * 24 * 3600;

export type Role = "player" | "admin";

/** Who a request or connection acts for, after its token was verified. */
export interface Principal {
  accountId: string;
  role: Role;
  anonymous: boolean;
  source: "service" | "idp";
  /** Agent tokens are scoped to one character… */
  characterId?: string;
  /** …and name their agent… */
  agentId?: string;
  /** …of this token generation (a new token for the agent revokes the older ones). */
  agentTokenGeneration?: number;
  /** Identity-provider subject (`sub`), before it is mapped to an account. */
  idpSubject?: string;
}

export class TokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenError";
  }
}

/**
 * A token could not be checked because the identity provider's keys cannot be had (see JwksClient):
 * the server's trouble, not the client's, so it is answered as unavailable (503) and does not count
 * as a failed authentication attempt.
 */
export class AuthUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AuthUnavailable";
  }
}

export interface TokenSettings {
  jwtSecret: string;
  idp: { appId: string | undefined; appSecret: string | undefined; jwksUrl?: string | undefined };
}

interface ServiceClaims extends JWTPayload {
  role: Role;
  anon?: boolean;
  cid?: string;
  agt?: string;
  /** The agent token's generation (absent: 0). */
  gen?: number;
}

/**
 * Signature algorithms of identity-provider keys (IDP_JWKS_URL). The key set also matches each
 * token's algorithm to its key's type (see jwks.ts), so an RSA key never checks an ES256 token.
 * `Ed25519` is the newer name of EdDSA over Ed25519 (RFC 9864).
 */
const ASYMMETRIC = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

export class TokenService {
  private readonly settings: TokenSettings;
  private readonly jwtSecret: Uint8Array;
  private readonly idpSecret: Uint8Array | undefined;
  private readonly jwks: JwksClient | undefined;
  constructor(settings: TokenSettings) {
    this.settings = settings;
    this.jwtSecret = new TextEncoder().encode(settings.jwtSecret);
    this.idpSecret = settings.idp.appSecret !== undefined ? new TextEncoder().encode(settings.idp.appSecret) : undefined;
    this.jwks = settings.idp.jwksUrl !== undefined ? new JwksClient(settings.idp.jwksUrl) : undefined;
  }

  signServiceToken(
    principal: { accountId: string; role?: Role; anonymous?: boolean; characterId?: string; agentId?: string; agentTokenGeneration?: number },
    ttlSeconds: number,
  ): Promise<string> {
    const claims: ServiceClaims = { role: principal.role ?? "player" };
    if (principal.anonymous) claims.anon = true;
    if (principal.characterId !== undefined) claims.cid = principal.characterId;
    if (principal.agentId !== undefined) claims.agt = principal.agentId;
    if (principal.agentTokenGeneration !== undefined && principal.agentTokenGeneration > 0) claims.gen = principal.agentTokenGeneration;
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(principal.accountId)
      .setIssuer(SERVICE_TOKEN_ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .setJti(randomUUID())
      .sign(this.jwtSecret);
  }

  /** A new temporary identity for anonymous mode. */
  async issueAnonymous(): Promise<{ principal: Principal; token: string }> {
    const principal: Principal = { accountId: `anon-${randomUUID()}`, role: "player", anonymous: true, source: "service" };
    return { principal, token: await this.signServiceToken(principal, ANONYMOUS_TOKEN_TTL_S) };
  }

  /** Verifies a bearer token of either kind; rejects with {@link TokenError} when it is not valid. */
  async verify(token: string): Promise<Principal> {
    if (typeof token !== "string" || token.length === 0 || token.length > 8192) {
      throw new TokenError("malformed token");
    }
    // Unverified: only to route the token to its kind's check, which pins the algorithm and key.
    let issuer: unknown;
    let kid: unknown;
    try {
      issuer = decodeJwt(token).iss;
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new TokenError("malformed token");
    }
    if (issuer === SERVICE_TOKEN_ISSUER) return this.verifyService(token);
    return this.verifyIdp(token, kid);
  }

  private async verifyService(token: string): Promise<Principal> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwtSecret, {
        algorithms: ["HS256"],
        issuer: SERVICE_TOKEN_ISSUER,
        requiredClaims: ["exp"],
      }));
    } catch (err) {
      throw new TokenError(`invalid service token: ${(err as Error).message}`);
    }
    const role = payload.role;
    if (typeof payload.sub !== "string" || payload.sub === "" || (role !== "player" && role !== "admin")) {
      throw new TokenError("invalid service token: bad claims");
    }
    // Anonymous identities exist only in anonymous mode (no identity provider): one minted by a
    // server in that mode with the same secret (a staging copy) is no identity here.
    if (payload.anon === true && this.settings.idp.appId !== undefined) {
      throw new TokenError("anonymous tokens are not accepted: an identity provider is configured");
    }
    const principal: Principal = { accountId: payload.sub, role, anonymous: payload.anon === true, source: "service" };
    if (typeof payload.cid === "string") principal.characterId = payload.cid;
    if (typeof payload.agt === "string") {
      principal.agentId = payload.agt;
      principal.agentTokenGeneration = typeof payload.gen === "number" && Number.isInteger(payload.gen) ? payload.gen : 0;
    }
    return principal;
  }

  private async verifyIdp(token: string, kid: unknown): Promise<Principal> {
    const { appId } = this.settings.idp;
    if (appId === undefined || (this.idpSecret === undefined && this.jwks === undefined)) {
      throw new TokenError("identity-provider tokens are not accepted: no identity provider is configured");
    }
    let keySet: JWTVerifyGetKey | undefined;
    if (this.jwks !== undefined) {
      if (typeof kid !== "string") throw new TokenError("invalid identity-provider token: no key id");
      let found;
      try {
        found = await this.jwks.key(kid);
      } catch (err) {
        // Clients get no detail of the fetch (an internal address or status); it stays in `cause`.
        throw new AuthUnavailable("the identity provider's keys are unavailable, try again later", { cause: err });
      }
      if (found === undefined) throw new TokenError("invalid identity-provider token: unknown key id");
      keySet = found;
    }
    let payload: JWTPayload;
    try {
      // jwtVerify checks `exp` only when it is there: a token without one would never expire.
      const required = { audience: appId, requiredClaims: ["exp"] };
      ({ payload } =
        keySet !== undefined
          ? await jwtVerify(token, keySet, { ...required, algorithms: ASYMMETRIC })
          : await jwtVerify(token, this.idpSecret!, { ...required, algorithms: ["HS256"] }));
    } catch (err) {
      throw new TokenError(`invalid identity-provider token: ${(err as Error).message}`);
    }
    if (typeof payload.sub !== "string" || payload.sub === "") throw new TokenError("invalid identity-provider token: no subject");
    return { accountId: `idp:${payload.sub}`, role: "player", anonymous: false, source: "idp", idpSubject: payload.sub };
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
