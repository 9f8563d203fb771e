import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

export const INVENTORY_SLOTS = 28;
export const MAX_STACK = 2_147_483_647;

/** `inventory`: one row per occupied slot (0..27) of a character's 28-slot inventory. */
export const InventorySlot = defineEntity({
  name: "InventorySlot",
  tableName: "inventory",
  properties: {
    id: p.integer().primary().autoincrement(),
    characterId: p.string().length(64),
    slot: p.integer().check("slot >= 0 and slot <= 27"),
    itemId: p.string().length(64),
    quantity: p.integer().check("quantity >= 1 and quantity <= 2147483647"),
  },
  uniques: [{ name: "inventory_character_slot_unique", properties: ["characterId", "slot"] }],
});
export type IInventorySlot = InferEntity<typeof InventorySlot>;
