/**
 * Turns a bearer token into the account it acts for. Identity-provider subjects are mapped to a
 * `users` row, created on their first use; service-token accounts (anonymous players, agents) get
 * a row too, so that every account has one. The admin role comes from the token or from the row.
 */
import { randomUUID } from "node:crypto";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import { User } from "../../entities/index.ts";
import type { Database } from "../db/orm.ts";
import { runStatement, selectRow } from "../db/rawSql.ts";
import { ANONYMOUS_TOKEN_TTL_S, TokenError, type Principal, type TokenService } from "./tokens.ts";

/** How long a resolved account is trusted from memory before the database is asked again. */
export const ACCOUNT_CACHE_MS = 60_000;
const CACHE_LIMIT = 10_000;

interface CachedAccount {
  accountId: string;
  admin: boolean;
  at: number;
}

export class Authenticator {
  readonly tokens: TokenService;
  private readonly db: Database;
  private readonly cache = new Map<string, CachedAccount>();
  /** Set when agents exist: a deleted agent's token, or one a newer token replaced, stops working at once. */
  agentIsLive: ((agentId: string, characterId: string | undefined, generation: number) => Promise<boolean>) | undefined;
  /** Set by the moderation service: rejects (BannedError) for a banned account; the REST guards ask it on every request. */
  admission: ((accountId: string) => Promise<void>) | undefined;

  constructor(tokens: TokenService, db: Database) {
    this.tokens = tokens;
    this.db = db;
  }

  /** Verifies the token and resolves its account; rejects with TokenError when invalid. */
  async authenticate(token: string): Promise<Principal> {
    const principal = await this.tokens.verify(token);
    if (
      principal.agentId !== undefined &&
      this.agentIsLive !== undefined &&
      !(await this.agentIsLive(principal.agentId, principal.characterId, principal.agentTokenGeneration ?? 0))
    ) {
      throw new TokenError("this agent no longer exists, or this token was replaced by a newer one");
    }
    return this.resolve(principal);
  }

  /** A new temporary identity (anonymous mode), with its `users` row. */
  async issueAnonymous(): Promise<{ principal: Principal; token: string; expiresIn: number }> {
    const { principal, token } = await this.tokens.issueAnonymous();
    await this.ensureUser(principal.accountId, { anonymous: true });
    return { principal, token, expiresIn: ANONYMOUS_TOKEN_TTL_S };
  }

  async resolve(principal: Principal): Promise<Principal> {
    const key = principal.idpSubject !== undefined ? `idp:${principal.idpSubject}` : `acc:${principal.accountId}`;
    let account = this.cache.get(key);
    if (account === undefined || Date.now() - account.at > ACCOUNT_CACHE_MS) {
      account =
        principal.idpSubject !== undefined
          ? await this.userForSubject(principal.idpSubject)
          : await this.ensureUser(principal.accountId, { anonymous: principal.anonymous });
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(key, account);
    }
    // An agent acts as its one character, never with its owner's admin rights.
    const admin = principal.agentId === undefined && (principal.role === "admin" || account.admin);
    return { ...principal, accountId: account.accountId, role: admin ? "admin" : "player" };
  }

  private async userForSubject(subject: string): Promise<CachedAccount> {
    const em = this.db.em();
    let row = await em.findOne(User, { idpUserId: subject });
    if (row === null) {
      try {
        const created = em.create(User, { id: randomUUID(), idpUserId: subject, anonymous: false, lastLoginAt: new Date() });
        await em.flush();
        row = created;
      } catch (err) {
        if (!(err instanceof UniqueConstraintViolationException)) throw err;
        row = await this.db.em().findOneOrFail(User, { idpUserId: subject });
      }
    }
    return { accountId: row.id, admin: row.role === "admin", at: Date.now() };
  }

  /** The account's row, created if it has none (raw: an anonymous join runs this, src/db/rawSql.ts). */
  private async ensureUser(accountId: string, opts: { anonymous: boolean }): Promise<CachedAccount> {
    const em = this.db.statements;
    const read = () => selectRow<{ role: string }>(em, `select "role" from "users" where "id" = ?`, [accountId]);
    let row = await read();
    if (row === undefined) {
      try {
        await runStatement(em, `insert into "users" ("id", "role", "anonymous", "createdAt") values (?, ?, ?, ?)`, [
          accountId,
          "player",
          opts.anonymous,
          new Date(),
        ]);
        row = { role: "player" };
      } catch (err) {
        if (!(err instanceof UniqueConstraintViolationException)) throw err;
        row = await read();
        if (row === undefined) throw err;
      }
    }
    return { accountId, admin: row.role === "admin", at: Date.now() };
  }
}
