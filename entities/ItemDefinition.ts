import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/** `items`: item definitions and stats, mirrored from the content manifests at startup. */
export const ItemDefinition = defineEntity({
  name: "ItemDefinition",
  tableName: "items",
  properties: {
    id: p.string().primary().length(64),
    name: p.string().length(128),
    type: p.string().length(32),
    value: p.integer().default(0).check("value >= 0"),
    stackable: p.boolean().default(false),
    tradeable: p.boolean().default(true),
    /** The full manifest entry (bonuses, requirements, models, …). */
    data: p.json<Record<string, unknown>>(),
    updatedAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IItemDefinition = InferEntity<typeof ItemDefinition>;
