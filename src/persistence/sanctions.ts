/**
 * Reading an account's sanctions (`sanctions`: entities/Sanction.ts), which every login does
 * twice (its ban, its mute): raw (src/db/rawSql.ts). Writing them stays with the moderation
 * service, through MikroORM.
 */
import type { Database } from "../db/orm.ts";
import { dateOf, selectRow } from "../db/rawSql.ts";

export interface SanctionInForce {
  /** null: permanent. */
  endsAt: Date | null;
  reason: string | null;
}

/** The account's sanction of that kind in force at `now`, if any (one that has ended is not). */
export async function sanctionInForce(db: Database, accountId: string, kind: "ban" | "mute", now = Date.now()): Promise<SanctionInForce | undefined> {
  const em = db.statements;
  const row = await selectRow<{ endsAt: unknown; reason: string | null }>(
    em,
    `select "endsAt", "reason" from "sanctions" where "accountId" = ? and "kind" = ?`,
    [accountId, kind],
  );
  if (row === undefined) return undefined;
  const endsAt = dateOf(em, row.endsAt);
  if (endsAt !== null && endsAt.getTime() <= now) return undefined;
  return { endsAt, reason: row.reason ?? null };
}
