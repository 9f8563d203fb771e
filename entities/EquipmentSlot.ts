import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

import { EQUIPMENT_SLOTS } from "../src/game/clientEvents.ts";

/** `equipment`: worn items by slot type, one row per occupied slot. */
export const EquipmentSlot = defineEntity({
  name: "EquipmentSlot",
  tableName: "equipment",
  properties: {
    id: p.integer().primary().autoincrement(),
    characterId: p.string().length(64),
    slotType: p
      .string()
      .length(16)
      .check(EQUIPMENT_SLOTS.map((s) => `"slotType" = '${s}'`).join(" or ")),
    itemId: p.string().length(64),
    quantity: p.integer().default(1).check("quantity >= 1 and quantity <= 2147483647"),
  },
  uniques: [{ name: "equipment_character_slot_unique", properties: ["characterId", "slotType"] }],
});
export type IEquipmentSlot = InferEntity<typeof EquipmentSlot>;
