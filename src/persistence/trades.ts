/**
 * Storing a trade's swap: one transaction that locks both characters' rows in id order
 * (`SELECT … FOR UPDATE` on PostgreSQL; SQLite serialises writers), re-verifies that both
 * stored inventories are exactly what the swap was computed from, replaces both inventories,
 * and writes the audit row, keyed by the trade id, so that one trade can never be stored twice.
 * Both rows must still have the version this process last read or wrote (`versions`, as every
 * save checks: players.ts), else another process has written one of them and nothing is stored;
 * both versions advance with the swap.
 */
import { LockMode } from "@mikro-orm/core";
import { Character, InventorySlot, TradeAudit } from "../../entities/index.ts";
import type { Database } from "../db/orm.ts";
import type { ItemStack } from "../game/world/Player.ts";
import { CodedError } from "../codedError.ts";

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
  valueAToB: number;
  valueBToA: number;
}

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

export async function storeSwap(db: Database, swap: StoredSwap, versions: Map<string, number>): Promise<void> {
  const ids = [swap.aId, swap.bId].sort();
  await db.em().transactional(async (em) => {
    const locked = await em.find(Character, { id: { $in: ids } }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: "asc" }, fields: ["id", "version"] });
    if (locked.length !== 2) throw new TradeCommitError("NOT_FOUND", "a trading character no longer exists");
    const stale = locked.filter((row) => versions.get(row.id) !== row.version).map((row) => row.id);
    if (stale.length > 0) {
      const err = new TradeCommitError("STALE_CHARACTER", "a trading character was saved by another server");
      err.staleIds = stale;
      throw err;
    }
    for (const id of ids) await em.nativeUpdate(Character, { id, version: versions.get(id)! }, { version: versions.get(id)! + 1, updatedAt: new Date() });
    if ((await em.count(TradeAudit, { tradeId: swap.tradeId })) > 0) throw new TradeCommitError("ALREADY_COMPLETED", "this trade was already completed");
    for (const id of ids) {
      const rows = await em.find(InventorySlot, { characterId: id });
      if (!sameInventory(rows, swap.before.get(id)!)) throw new TradeCommitError("ITEMS_CHANGED", "the stored inventory differs from the traded one");
    }
    await em.nativeDelete(InventorySlot, { characterId: { $in: ids } });
    const rows = ids.flatMap((id) =>
      swap.after.get(id)!.flatMap((s, slot) => (s === null ? [] : [{ characterId: id, slot, itemId: s.itemId, quantity: s.quantity }])),
    );
    if (rows.length > 0) await em.insertMany(InventorySlot, rows);
    await em.insertMany(TradeAudit, [
      {
        tradeId: swap.tradeId,
        playerAId: swap.aId,
        playerBId: swap.bId,
        itemsAToB: swap.aGives.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
        itemsBToA: swap.bGives.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
        valueAToB: swap.valueAToB,
        valueBToA: swap.valueBToA,
        completedAt: new Date(),
      },
    ]);
  });
  for (const id of ids) versions.set(id, versions.get(id)! + 1);
}
