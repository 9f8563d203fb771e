/**
 * What a service NPC opens: a banker's (or bank booth's) bank, a keeper's store. Reached by
 * `interact` on them (actions.ts) and by their dialogue's options (dialogue.ts).
 */
import { openStore } from "./store.ts";
import type { Player } from "./world/Player.ts";
import type { World } from "./world/World.ts";

/** The bank, shown by a banker or booth (`npcId`). */
export function openBank(world: World, player: Player, npcId: string): void {
  world.stores.viewers.delete(player.id);
  world.send(player.id, "interface:open", { type: "bank", npcId, bank: player.data.bank.map((s) => ({ itemId: s.itemId, quantity: s.quantity })) });
}

/** The store the NPC keeps; false when it keeps none. */
export function openKeepersStore(world: World, player: Player, npcId: string): boolean {
  const storeId = world.npcs.get(npcId)?.service?.storeId;
  const store = storeId !== undefined ? world.content.stores.get(storeId) : undefined;
  if (store === undefined) return false;
  openStore(world, world.stores, player, store, npcId);
  return true;
}
