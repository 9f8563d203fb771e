import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/**
 * `ground_items`: players' drops (and death drops) lying in the world. A row is written in the
 * same transaction as its dropper's save and deleted in the same transaction as its taker's, so
 * an item moving between players is stored in exactly one place at any moment; a despawn deletes
 * it too. Loaded back at startup with its stored times (src/persistence/ground.ts).
 */
export const GroundItemRow = defineEntity({
  name: "GroundItemRow",
  tableName: "ground_items",
  properties: {
    /** A UUID: unique across restarts. */
    id: p.string().primary().length(64),
    /** The world it lies in (its dropper's process's WORLD_ID): only that world loads it back. */
    world: p.integer().default(1).index("ground_items_world_index"),
    itemId: p.string().length(64),
    quantity: p.integer().check("quantity >= 1 and quantity <= 2147483647"),
    x: p.double(),
    z: p.double(),
    /** Who alone sees it until `publicAt` (the dropper); null: everyone. */
    ownerId: p.string().length(64).nullable(),
    publicAt: p.datetime(),
    /** When it despawns; a row found past this at startup is deleted. */
    expiresAt: p.datetime().index("ground_items_expires_index"),
  },
});
export type IGroundItemRow = InferEntity<typeof GroundItemRow>;
