/**
 * Character leases: a character is live in one server process at a time. Several processes may
 * share one database (and later one world cluster); each holds a lease row per character it has
 * loaded (`character_leases`: character id, the process's random owner id, expiry), takes it
 * before reading the character, renews it every third of its lifetime while the character is live
 * or still being saved, and deletes it after the final save. Another process may take a lease
 * only when it is released or expired, so a process that died (SIGKILL) frees its characters
 * after at most one lease lifetime.
 *
 * A lease is the first line only: a process that stalls past its lease can find its characters
 * taken over. Every save therefore also checks the character's `version` (players.ts, trades.ts),
 * and a process that loses a lease or a version check treats the character as lost to it.
 *
 * Expiry times come from each process's clock: hosts sharing a database must keep their clocks
 * in step to well under the lease lifetime (NTP does).
 */
import { randomUUID } from "node:crypto";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import { CharacterLease } from "../../entities/index.ts";
import { CodedError } from "../codedError.ts";
import { DEFAULT_CHARACTER_LEASE_MS } from "../config/env.ts";
import type { Database } from "../db/orm.ts";
import { runStatement } from "../db/rawSql.ts";

/** How long a lease lives without renewal, ms (`CHARACTER_LEASE_MS`; shorter in tests): 30 s. */
export const LEASE_MS = DEFAULT_CHARACTER_LEASE_MS;
/** Leases are renewed every lifetime / this (10 s by default): two renewals may fail before one expires. */
export const LEASE_RENEW_FRACTION = 3;

export class CharacterInUseError extends CodedError<"CHARACTER_IN_USE"> {
  constructor(characterId: string) {
    super("CHARACTER_IN_USE", `character ${characterId} is in use on another server; try again shortly`);
  }
}

export class CharacterLeases {
  /** This process's owner id: random per start, so a restarted process does not inherit a dead one's leases. */
  readonly ownerId: string;
  readonly leaseMs: number;
  private readonly db: Database;
  private readonly now: () => number;
  /** The characters this process holds (taken and not yet released). */
  private readonly held = new Set<string>();

  constructor(db: Database, options: { leaseMs?: number; ownerId?: string; now?: () => number } = {}) {
    this.db = db;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.ownerId = options.ownerId ?? randomUUID();
    this.now = options.now ?? Date.now;
  }

  get renewMs(): number {
    return Math.max(1, Math.floor(this.leaseMs / LEASE_RENEW_FRACTION));
  }

  holds(characterId: string): boolean {
    return this.held.has(characterId);
  }

  /**
   * Takes the character's lease, or renews it when this process already holds it. Throws
   * {@link CharacterInUseError} when another process holds it and it has not expired.
   */
  async acquire(characterId: string): Promise<void> {
    const now = new Date(this.now());
    const expiresAt = new Date(now.getTime() + this.leaseMs);
    // Ours already, or free to take over (expired). On PostgreSQL a concurrent taker of the same
    // expired row waits for this row lock, then finds it no longer expired and updates nothing.
    // Raw (src/db/rawSql.ts): this runs at every login.
    const em = this.db.statements;
    const taken = await runStatement(
      em,
      `update "character_leases" set "ownerId" = ?, "expiresAt" = ? where "characterId" = ? and ("ownerId" = ? or "expiresAt" < ?)`,
      [this.ownerId, expiresAt, characterId, this.ownerId, now],
    );
    if (taken === 0) {
      try {
        await runStatement(em, `insert into "character_leases" ("characterId", "ownerId", "expiresAt") values (?, ?, ?)`, [
          characterId,
          this.ownerId,
          expiresAt,
        ]);
      } catch (err) {
        // A live lease of another process (or one taken an instant ago by a racing login).
        if (err instanceof UniqueConstraintViolationException) throw new CharacterInUseError(characterId);
        throw err;
      }
    }
    this.held.add(characterId);
  }

  /** The process holding a live lease of the character (its owner id), if one does. */
  async holder(characterId: string): Promise<string | undefined> {
    const row = await this.db.em().findOne(CharacterLease, { characterId, expiresAt: { $gte: new Date(this.now()) } }, { fields: ["ownerId"] });
    return row === null || row.ownerId === this.ownerId ? undefined : row.ownerId;
  }

  /** Gives the lease up (after the character's final save); only ever this process's own row. */
  async release(characterId: string): Promise<void> {
    this.held.delete(characterId);
    await this.db.em().nativeDelete(CharacterLease, { characterId, ownerId: this.ownerId });
  }

  /** Forgets a lease that is no longer this process's (taken over), without touching the row. */
  forget(characterId: string): void {
    this.held.delete(characterId);
  }

  /**
   * Extends every held lease; returns the characters whose lease is no longer this process's
   * (expired and taken over by another, or deleted): they are lost to this process.
   */
  async renewAll(): Promise<string[]> {
    const ids = [...this.held];
    if (ids.length === 0) return [];
    const expiresAt = new Date(this.now() + this.leaseMs);
    const em = this.db.em();
    await em.nativeUpdate(CharacterLease, { characterId: { $in: ids }, ownerId: this.ownerId }, { expiresAt });
    const ours = new Set(
      (await em.find(CharacterLease, { characterId: { $in: ids }, ownerId: this.ownerId }, { fields: ["characterId"] })).map((r) => r.characterId),
    );
    // A lease released while this renewal ran is no longer held either way.
    return ids.filter((id) => !ours.has(id) && this.held.has(id));
  }

  /** Releases every lease this process holds (shutdown, after the final saves). */
  async releaseAll(): Promise<void> {
    const ids = [...this.held];
    this.held.clear();
    if (ids.length > 0) await this.db.em().nativeDelete(CharacterLease, { characterId: { $in: ids }, ownerId: this.ownerId });
  }
}
