import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `bank`: a character's bank, one stack per item id (banks stack every item). */
export const BankSlot = defineEntity({
  name: "BankSlot",
  tableName: "bank",
  properties: {
    id: p.integer().primary().autoincrement(),
    characterId: p.string().length(64),
    itemId: p.string().length(64),
    /** Display order in the bank. */
    slot: p.integer().check("slot >= 0"),
    quantity: p.integer().check("quantity >= 1 and quantity <= 2147483647"),
  },
  uniques: [{ name: "bank_character_item_unique", properties: ["characterId", "itemId"] }],
});
export type IBankSlot = InferEntity<typeof BankSlot>;
