/**
 * Items on the ground. A drop is seen (and may be taken) only by the player it belongs to for
 * {@link PRIVATE_TICKS}, then by everyone, and disappears after {@link DESPAWN_TICKS}. Taking one
 * is decided within a tick in player order, so of two players picking up one item in the same
 * tick exactly one gets it. Ground items live in memory only, as in RuneScape.
 */
import { giveItem, transact } from "./inventory.ts";
import { invError, tradeLock } from "./rules.ts";
import type { GroundItem } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, World } from "./world/World.ts";

/** One minute private, three minutes in all (600 ms ticks). */
export const PRIVATE_TICKS = 100;
export const DESPAWN_TICKS = 300;
/** Spec limit for an agent's drop-all. */
export const DROP_ALL_LIMIT = 50;

export function spawnGroundItem(world: World, itemId: string, quantity: number, at: { x: number; z: number }, ownerId: string | undefined): GroundItem {
  const id = world.newId("item");
  const item: GroundItem = {
    id,
    itemId,
    quantity,
    x: at.x,
    z: at.z,
    ownerId,
    publicAtTick: world.tick + (ownerId === undefined ? 0 : PRIVATE_TICKS),
    despawnAtTick: world.tick + DESPAWN_TICKS,
    version: 0,
    mark: 0,
  };
  world.groundItems.set(id, item);
  return item;
}

export function visibleTo(world: World, item: GroundItem, playerId: string): boolean {
  return item.ownerId === undefined || item.ownerId === playerId || world.tick >= item.publicAtTick;
}

export function dropSlot(world: World, player: Player, slot: number): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  const r = transact(player, world.content, (tx) => tx.inv.removeFromSlot(slot));
  if (!r.ok) return invError(r.error);
  spawnGroundItem(world, r.value.itemId, r.value.quantity, player, player.id);
  // Stored at once, not at the next autosave: once the item is public someone else may take it and
  // be saved, and a crash must not bring it back to the dropper as well.
  world.requestSave(player);
}

/** Drops every slot (or every slot of one item), at most {@link DROP_ALL_LIMIT}. */
export function dropAll(world: World, player: Player, itemId: string | undefined): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  const slots = player.data.inventory.flatMap((s, i) => (s !== null && (itemId === undefined || s.itemId === itemId) ? [i] : [])).slice(0, DROP_ALL_LIMIT);
  if (slots.length === 0) return { code: "ITEM_NOT_FOUND", message: "nothing to drop" };
  const r = transact(player, world.content, (tx) => slots.map((slot) => tx.inv.removeFromSlot(slot)));
  if (!r.ok) return invError(r.error);
  for (const stack of r.value) spawnGroundItem(world, stack.itemId, stack.quantity, player, player.id);
  world.requestSave(player); // as dropSlot
}

/** Takes a ground item the player stands on; false when it is gone (someone was first). */
export function takeGroundItem(world: World, player: Player, id: string): HandlerResult {
  const item = world.groundItems.get(id);
  if (item === undefined || !visibleTo(world, item, player.id)) return { code: "ITEM_GONE", message: "that item is gone" };
  // Coins go to the balance, like every other way of getting coins.
  const r = transact(player, world.content, (tx) => giveItem(tx, item.itemId, item.quantity));
  if (!r.ok) return invError(r.error);
  world.groundItems.delete(id);
  item.gone = true;
}

export function despawnGroundItems(world: World): void {
  for (const [id, item] of world.groundItems) {
    if (world.tick >= item.despawnAtTick) {
      world.groundItems.delete(id);
      item.gone = true;
    }
    else if (world.tick === item.publicAtTick) item.version++;
  }
}
