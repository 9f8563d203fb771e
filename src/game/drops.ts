/**
 * A dead mob's drop table, rolled as Old School RuneScape rolls one (OSRS wiki "Drop table",
 * "Drop rate"): the `defaultDrop` (bones) and every `always` entry drop each kill; then ONE roll
 * over all the other entries (common, uncommon, rare, very rare together), each entry's `chance`
 * its weight. A table whose chances add up to at most 1 keeps each entry's chance per kill exactly
 * and leaves the rest (1 − the sum) empty: a kill then drops nothing more, as the genre's "nothing"
 * share. A table whose chances add up to more than 1 has no empty share: each entry drops with its
 * chance divided by the sum. So at most one entry of the main table drops a kill: never two rares
 * at once. The quantity is uniform between the entry's minQuantity and maxQuantity.
 * Pure rules: the random source is the caller's (the world's seeded one).
 */
import type { NpcDef } from "../manifests/schemas/npcs.ts";
import type { ItemStack } from "./world/Player.ts";

export type DropTable = NonNullable<NpcDef["drops"]>;

/** The tiers rolled together in the one weighted roll (`always` drops every kill). */
export const ROLLED_TIERS = ["common", "uncommon", "rare", "veryRare"] as const;

function quantity(entry: { minQuantity: number; maxQuantity: number }, random: () => number): number {
  return entry.minQuantity + Math.floor(random() * (entry.maxQuantity - entry.minQuantity + 1));
}

/** What one kill drops, in order: the default drop, the `always` entries, then the main roll's entry if any. */
export function rollDrops(drops: DropTable, random: () => number): ItemStack[] {
  const out: ItemStack[] = [];
  if (drops.defaultDrop?.enabled) out.push({ itemId: drops.defaultDrop.itemId, quantity: drops.defaultDrop.quantity });
  for (const d of drops.always) out.push({ itemId: d.itemId, quantity: quantity(d, random) });
  const main = ROLLED_TIERS.flatMap((tier) => drops[tier]);
  const total = main.reduce((sum, d) => sum + d.chance, 0);
  if (total <= 0) return out;
  let roll = random() * Math.max(1, total);
  for (const d of main) {
    roll -= d.chance;
    if (roll < 0) {
      out.push({ itemId: d.itemId, quantity: quantity(d, random) });
      break;
    }
  }
  return out;
}
