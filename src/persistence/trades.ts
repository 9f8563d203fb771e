/**
 * Storing trades' swaps, a batch at a time (group commit): one transaction for every trade of the
 * batch, with the same handful of statements however many trades it holds. It locks all their
 * characters' rows in id order (`SELECT … FOR UPDATE` on PostgreSQL; SQLite serialises writers),
 * and checks each trade on its own: both rows still have the version this process last read or
 * wrote (`versions`, as every save checks: players.ts), else another process has written one of
 * them; no audit row has its trade id yet, so that one trade can never be stored twice; both
 * stored inventories are exactly what its swap was computed from (and, when it moves coins, both
 * stored coin amounts are what it was computed from). A trade failing a check is left
 * out (its rows untouched) and reported; the others' inventories are replaced, their versions
 * advanced and their audit rows written, all in that one transaction, so each trade's swap and
 * audit row commit together or not at all. Any other failure (the database refusing a row, a lost
 * connection) rolls the whole batch back and rejects: the caller stores its trades one by one.
 */
import type { SqlEntityManager } from "@mikro-orm/sqlite";
import { InventorySlot, TradeAudit } from "../../entities/index.ts";
import type { Database, Dialect } from "../db/orm.ts";
import type { ItemStack } from "../game/world/Player.ts";
import { CodedError } from "../codedError.ts";
import { numberArray, textArray } from "./playerRows.ts";

export class TradeCommitError extends CodedError<"ITEMS_CHANGED" | "ALREADY_COMPLETED" | "NOT_FOUND" | "STALE_CHARACTER"> {
  /** For STALE_CHARACTER: the characters another process has written. */
  staleIds: string[] = [];
}

export interface StoredSwap {
  tradeId: string;
  aId: string;
  bId: string;
  before: Map<string, (ItemStack | null)[]>;
  after: Map<string, (ItemStack | null)[]>;
  aGives: ItemStack[];
  bGives: ItemStack[];
  /** Coins given by each side (absent: none), the coins both carried before, and after the swap. */
  aGivesCoins?: number;
  bGivesCoins?: number;
  coinsBefore?: Map<string, number>;
  coinsAfter?: Map<string, number>;
  valueAToB: number;
  valueBToA: number;
}

/**
 * Most trades stored in one transaction: half of a burst of a thousand pairs confirming in the same
 * tick. Its statements stay within SQLite's 32,766 parameters (two a character, four an inventory
 * row in inserts of SQLITE_INSERT_ROWS rows); PostgreSQL gets arrays.
 */
export const TRADE_BATCH_MAX = 500;

/** What storing each trade of a batch came to: undefined when its swap is stored, else why it is not. */
export type SwapOutcomes = Map<string, TradeCommitError | undefined>;

/** Whether the swap moves coins (then its characters' coins are checked and written). */
const movesCoins = (swap: StoredSwap) => (swap.aGivesCoins ?? 0) + (swap.bGivesCoins ?? 0) > 0;

function sameInventory(stored: InventoryRow[], expected: (ItemStack | null)[]): boolean {
  const bySlot = new Map(stored.map((r) => [r.slot, r]));
  if (bySlot.size !== expected.filter((s) => s !== null).length) return false;
  return expected.every((s, slot) => {
    const row = bySlot.get(slot);
    return s === null ? row === undefined : row !== undefined && row.itemId === s.itemId && row.quantity === s.quantity;
  });
}

interface InventoryRow {
  slot: number;
  itemId: string;
  quantity: number;
}

/** An inventory row to insert: character id, slot, item id, quantity. */
type InventoryValues = [string, number, string, number];

/** Rows a multi-row INSERT carries on SQLite (4 parameters each, under its 32,766 a statement). */
const SQLITE_INSERT_ROWS = 1_000;

/**
 * The batch's statements, in raw SQL: MikroORM's entity mapping and query building cost about a
 * millisecond of the event loop per trade at a hundred trades a batch, this a fraction of that.
 * PostgreSQL gets each list as one array parameter per column (`any(…)`, `unnest(…)`); SQLite,
 * one parameter a value. Identifiers are the entities' column names (EntityCaseNamingStrategy).
 */
class SwapStatements {
  private readonly em: SqlEntityManager;
  private readonly pg: boolean;

  constructor(em: SqlEntityManager, dialect: Dialect) {
    this.em = em;
    this.pg = dialect === "postgresql";
  }

  private inList(values: readonly string[]): { sql: string; params: unknown[] } {
    return this.pg ? { sql: "= any(?::varchar[])", params: [textArray(values)] } : { sql: `in (${values.map(() => "?").join(", ")})`, params: [...values] };
  }

  /**
   * One statement: locks the characters' rows in id order (PostgreSQL; SQLite has one writer) and
   * reads their versions and inventories.
   */
  async lockAndRead(ids: readonly string[]): Promise<{ stored: Map<string, number>; coins: Map<string, number>; inventories: Map<string, InventoryRow[]> }> {
    const where = this.inList(ids);
    const rows = await this.em.execute<{ id: string; version: number; coins: number; slot: number | null; itemId: string | null; quantity: number | null }[]>(
      `select c."id", c."version", c."coins", i."slot", i."itemId", i."quantity" from "characters" c left join "inventory" i on i."characterId" = c."id" ` +
        `where c."id" ${where.sql} order by c."id"${this.pg ? " for update of c" : ""}`,
      where.params,
    );
    const stored = new Map<string, number>();
    const coins = new Map<string, number>();
    const inventories = new Map<string, InventoryRow[]>();
    for (const r of rows) {
      stored.set(r.id, Number(r.version));
      coins.set(r.id, Number(r.coins));
      if (r.slot === null || r.itemId === null || r.quantity === null) continue;
      const list = inventories.get(r.id) ?? [];
      list.push({ slot: Number(r.slot), itemId: r.itemId, quantity: Number(r.quantity) });
      inventories.set(r.id, list);
    }
    return { stored, coins, inventories };
  }

  /** Sets characters' coins (character id, coins). */
  async setCoins(rows: readonly [string, number][]): Promise<void> {
    if (rows.length === 0) return;
    if (this.pg) {
      await this.em.execute(
        `update "characters" set "coins" = "v"."vcoins" from unnest(?::varchar[], ?::int[]) as "v" ("vid", "vcoins") where "characters"."id" = "v"."vid"`,
        [textArray(rows.map(([id]) => id)), numberArray(rows.map(([, c]) => c))],
        "run",
      );
      return;
    }
    await this.em.execute(
      `update "characters" set "coins" = case "id" ${rows.map(() => "when ? then ?").join(" ")} end where "id" in (${rows.map(() => "?").join(", ")})`,
      [...rows.flat(), ...rows.map(([id]) => id)],
      "run",
    );
  }

  /** The trade ids that already have an audit row. */
  async audited(tradeIds: readonly string[]): Promise<Set<string>> {
    const where = this.inList(tradeIds);
    const rows = await this.em.execute<{ tradeId: string }[]>(`select "tradeId" from "trade_audit" where "tradeId" ${where.sql}`, where.params);
    return new Set(rows.map((r) => r.tradeId));
  }

  /** Advances each character's version from the one given (`where id = ? and version = ?`); returns how many rows it found. */
  async advanceVersions(expected: readonly [string, number][], now: Date): Promise<number> {
    const rows = this.pg
      ? await this.em.execute<{ id: string }[]>(
          `update "characters" set "version" = "characters"."version" + 1, "updatedAt" = ? from unnest(?::varchar[], ?::int[]) as "v" ("vid", "vversion") ` +
            `where "characters"."id" = "v"."vid" and "characters"."version" = "v"."vversion" returning "characters"."id"`,
          [now, textArray(expected.map(([id]) => id)), numberArray(expected.map(([, v]) => v))],
        )
      : await this.em.execute<{ id: string }[]>(
          `update "characters" set "version" = "version" + 1, "updatedAt" = ? where ("id", "version") in (values ${expected.map(() => "(?, ?)").join(", ")}) returning "id"`,
          [now, ...expected.flat()],
        );
    return rows.length;
  }

  async insertInventory(rows: readonly InventoryValues[]): Promise<void> {
    if (rows.length === 0) return;
    const into = `insert into "inventory" ("characterId", "slot", "itemId", "quantity")`;
    if (this.pg) {
      const column = <T>(i: number) => rows.map((r) => r[i] as T);
      await this.em.execute(
        `${into} select * from unnest(?::varchar[], ?::int[], ?::varchar[], ?::int[])`,
        [textArray(column(0)), numberArray(column(1)), textArray(column(2)), numberArray(column(3))],
        "run",
      );
      return;
    }
    for (let i = 0; i < rows.length; i += SQLITE_INSERT_ROWS) {
      const part = rows.slice(i, i + SQLITE_INSERT_ROWS);
      await this.em.execute(`${into} values ${part.map(() => "(?, ?, ?, ?)").join(", ")}`, part.flat(), "run");
    }
  }
}

/** Why a trade of the batch cannot be stored, from what its transaction read; undefined if it can. */
function check(
  swap: StoredSwap,
  stored: ReadonlyMap<string, number>,
  versions: ReadonlyMap<string, number>,
  audited: ReadonlySet<string>,
  inventories: ReadonlyMap<string, InventoryRow[]>,
  coins: ReadonlyMap<string, number>,
): TradeCommitError | undefined {
  const ids = [swap.aId, swap.bId];
  if (ids.some((id) => !stored.has(id))) return new TradeCommitError("NOT_FOUND", "a trading character no longer exists");
  const stale = ids.filter((id) => versions.get(id) !== stored.get(id)).sort();
  if (stale.length > 0) {
    const err = new TradeCommitError("STALE_CHARACTER", "a trading character was saved by another server");
    err.staleIds = stale;
    return err;
  }
  if (audited.has(swap.tradeId)) return new TradeCommitError("ALREADY_COMPLETED", "this trade was already completed");
  if (!ids.every((id) => sameInventory(inventories.get(id) ?? [], swap.before.get(id)!))) {
    return new TradeCommitError("ITEMS_CHANGED", "the stored inventory differs from the traded one");
  }
  if (movesCoins(swap) && !ids.every((id) => coins.get(id) === swap.coinsBefore?.get(id))) {
    return new TradeCommitError("ITEMS_CHANGED", "the stored coins differ from the traded ones");
  }
  return undefined;
}

/**
 * Stores a batch of swaps (at most {@link TRADE_BATCH_MAX}; no character in two of them) in one
 * transaction, as the file's comment says. Resolves with each trade's outcome once the transaction
 * has committed (the stored trades' versions are advanced in `versions` then); rejects, having
 * stored nothing, when the transaction fails.
 */
export async function storeSwaps(db: Database, swaps: readonly StoredSwap[], versions: Map<string, number>): Promise<SwapOutcomes> {
  const outcomes: SwapOutcomes = new Map();
  if (swaps.length === 0) return outcomes;
  if (swaps.length > TRADE_BATCH_MAX) throw new Error(`a batch of ${swaps.length} trades is over the limit of ${TRADE_BATCH_MAX}`);
  const all = swaps.flatMap((s) => [s.aId, s.bId]).sort();
  if (new Set(all).size !== all.length || new Set(swaps.map((s) => s.tradeId)).size !== swaps.length) {
    throw new Error("a batch of trades names a character or a trade twice");
  }
  const written: StoredSwap[] = [];
  await db.em().transactional(async (em) => {
    outcomes.clear();
    written.length = 0;
    const sql = new SwapStatements(em, db.dialect);
    const { stored, coins, inventories } = await sql.lockAndRead(all);
    const audited = await sql.audited(swaps.map((s) => s.tradeId));
    for (const swap of swaps) {
      const err = check(swap, stored, versions, audited, inventories, coins);
      outcomes.set(swap.tradeId, err);
      if (err === undefined) written.push(swap);
    }
    if (written.length === 0) return;
    const ids = written.flatMap((s) => [s.aId, s.bId]);
    // Every row was locked and its version checked above: the update must find each one.
    const bumped = await sql.advanceVersions(
      ids.map((id) => [id, versions.get(id)!]),
      new Date(),
    );
    if (bumped !== ids.length) throw new Error(`a trade batch advanced ${bumped} of its ${ids.length} characters' versions`);
    await em.nativeDelete(InventorySlot, { characterId: { $in: ids } });
    const rows = written.flatMap((swap) =>
      [swap.aId, swap.bId].flatMap((id) => swap.after.get(id)!.flatMap((s, slot) => (s === null ? [] : [[id, slot, s.itemId, s.quantity] as InventoryValues]))),
    );
    await sql.insertInventory(rows);
    await sql.setCoins(written.filter(movesCoins).flatMap((swap) => [swap.aId, swap.bId].map((id): [string, number] => [id, swap.coinsAfter!.get(id)!])));
    const completedAt = new Date();
    await em.insertMany(
      TradeAudit,
      written.map((swap) => ({
        tradeId: swap.tradeId,
        playerAId: swap.aId,
        playerBId: swap.bId,
        itemsAToB: swap.aGives.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
        itemsBToA: swap.bGives.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
        coinsAToB: swap.aGivesCoins ?? 0,
        coinsBToA: swap.bGivesCoins ?? 0,
        valueAToB: swap.valueAToB,
        valueBToA: swap.valueBToA,
        completedAt,
      })),
    );
  });
  // A character forgotten while the transaction ran (it left, or was lost) gets no entry back.
  for (const swap of written) for (const id of [swap.aId, swap.bId]) if (versions.has(id)) versions.set(id, versions.get(id)! + 1);
  return outcomes;
}

/** Stores one trade's swap (a batch of one); rejects with its TradeCommitError when a check fails. */
export async function storeSwap(db: Database, swap: StoredSwap, versions: Map<string, number>): Promise<void> {
  const err = (await storeSwaps(db, [swap], versions)).get(swap.tradeId);
  if (err !== undefined) throw err;
}
