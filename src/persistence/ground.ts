/**
 * Stored ground items (`ground_items`): players' drops, written and deleted by the saves of the
 * players who drop and take them (see src/game/groundItems.ts), so that an item moving between
 * players is in exactly one place in the database at any moment.
 */
import type { SqlEntityManager } from "@mikro-orm/sqlite";
import { GroundItemRow } from "../../entities/index.ts";
import type { Database } from "../db/orm.ts";
import type { GroundOp } from "../game/world/Player.ts";

export type StoredGroundItem = Extract<GroundOp, { op: "drop" }>;

/** A player's ground changes, in order, inside that player's save transaction. */
export async function applyGroundOps(em: SqlEntityManager, ops: readonly GroundOp[], world = 1): Promise<void> {
  for (const o of ops) {
    if (o.op === "take") {
      await em.nativeDelete(GroundItemRow, { id: o.id });
      continue;
    }
    // A stored snapshot is never written twice by the saver; a replay (a test's) re-inserts nothing.
    if ((await em.count(GroundItemRow, { id: o.id })) > 0) continue;
    await em.insertMany(GroundItemRow, [
      {
        id: o.id,
        world,
        itemId: o.itemId,
        quantity: o.quantity,
        x: o.x,
        z: o.z,
        ownerId: o.ownerId,
        publicAt: new Date(o.publicAt),
        expiresAt: new Date(o.expiresAt),
      },
    ]);
  }
}

/** Despawned items' rows. */
export async function deleteGroundItems(db: Database, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.em().nativeDelete(GroundItemRow, { id: { $in: [...ids] } });
}

/**
 * The ground items of a world to put back at startup: every row of it not yet expired (expired
 * ones, e.g. a despawn that was not written before a crash, are deleted). Other worlds' items are
 * theirs: each world (process) loads only its own, so no drop lies in two worlds.
 */
export async function loadGroundItems(db: Database, now: number, world = 1): Promise<StoredGroundItem[]> {
  const em = db.em();
  await em.nativeDelete(GroundItemRow, { world, expiresAt: { $lte: new Date(now) } });
  const rows = await em.find(GroundItemRow, { world }, { orderBy: { expiresAt: "asc", id: "asc" } });
  return rows.map((r) => ({
    op: "drop",
    id: r.id,
    itemId: r.itemId,
    quantity: r.quantity,
    x: Number(r.x),
    z: Number(r.z),
    ownerId: r.ownerId ?? null,
    publicAt: r.publicAt.getTime(),
    expiresAt: r.expiresAt.getTime(),
  }));
}
