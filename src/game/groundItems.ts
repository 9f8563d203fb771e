/**
 * Items on the ground. A drop is seen (and may be taken) only by the player it belongs to for
 * {@link PRIVATE_TICKS}, then by everyone, and disappears after {@link DESPAWN_TICKS}. Taking one
 * is decided within a tick in player order, so of two players picking up one item in the same
 * tick exactly one gets it.
 *
 * A player's drop (and a death's) is stored: the game records it on the dropper (`pendingGround`),
 * and the dropper's save writes the `ground_items` row in the same transaction as the dropper's
 * inventory; a pickup is recorded on the taker, whose save deletes the row with the taker's
 * inventory, and requests that save at once. Another player may take a drop only once its row is
 * stored (`persist: "stored"`), so the taker's transaction can never commit before the dropper's:
 * at any crash the item is in exactly one place. A mob's drop is made from nothing and lives in
 * memory only. Despawned stored items are queued for the saver (World.despawnedGround).
 */
import { randomUUID } from "node:crypto";
import { giveItem, transact } from "./inventory.ts";
import { invError, tradeLock } from "./rules.ts";
import type { GroundItem } from "./world/entities.ts";
import type { GroundOp, Player } from "./world/Player.ts";
import type { HandlerResult, World } from "./world/World.ts";

/** One minute private, three minutes in all (600 ms ticks). */
export const PRIVATE_TICKS = 100;
export const DESPAWN_TICKS = 300;
/** Spec limit for an agent's drop-all. */
export const DROP_ALL_LIMIT = 50;

/**
 * Puts an item on the ground. `dropper`: a player's drop, recorded on that player so that its next
 * save stores it (see above); without one, the item lives in memory only.
 */
export function spawnGroundItem(
  world: World,
  itemId: string,
  quantity: number,
  at: { x: number; z: number },
  ownerId: string | undefined,
  dropper?: Player,
): GroundItem {
  // Unique across restarts: a stored item keeps its id, and the tick counter starts again at 0.
  const id = randomUUID();
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
  if (dropper !== undefined) {
    item.persist = "pending";
    const now = world.now();
    dropper.pendingGround.push({
      op: "drop",
      id,
      itemId,
      quantity,
      x: item.x,
      z: item.z,
      ownerId: ownerId ?? null,
      publicAt: now + (item.publicAtTick - world.tick) * world.tickMs,
      expiresAt: now + (item.despawnAtTick - world.tick) * world.tickMs,
    });
  }
  return item;
}

/**
 * Puts a stored ground item back at startup, with its stored times (a restart neither extends nor
 * shortens its private minute or its life); `publicAt` and `expiresAt` are wall-clock ms.
 */
export function restoreGroundItem(world: World, row: Extract<GroundOp, { op: "drop" }>): GroundItem {
  const now = world.now();
  const ticksUntil = (at: number) => Math.max(0, Math.ceil((at - now) / world.tickMs));
  const item: GroundItem = {
    id: row.id,
    itemId: row.itemId,
    quantity: row.quantity,
    x: row.x,
    z: row.z,
    ownerId: row.ownerId ?? undefined,
    publicAtTick: world.tick + ticksUntil(row.publicAt),
    despawnAtTick: world.tick + Math.max(1, ticksUntil(row.expiresAt)),
    version: 0,
    mark: 0,
    persist: "stored",
  };
  world.groundItems.set(item.id, item);
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
  spawnGroundItem(world, r.value.itemId, r.value.quantity, player, player.id, player);
  // Stored at once (the inventory and the ground row together), not at the next autosave: others
  // may take the item only once it is stored.
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
  for (const stack of r.value) spawnGroundItem(world, stack.itemId, stack.quantity, player, player.id, player);
  world.requestSave(player); // as dropSlot
}

/** Takes a ground item the player stands on; false when it is gone (someone was first). */
export function takeGroundItem(world: World, player: Player, id: string): HandlerResult {
  const item = world.groundItems.get(id);
  if (item === undefined || !visibleTo(world, item, player.id)) return { code: "ITEM_GONE", message: "that item is gone" };
  // Another player's drop whose row is not stored yet (its dropper's save is under way or failing):
  // taking it now could store the pickup before the drop. Its dropper's own pickup is stored in order.
  if (item.persist === "pending" && item.ownerId !== player.id)
    return { code: "ITEM_GONE", message: "that item is not ready to be taken yet; try again shortly" };
  // Coins go to the balance, like every other way of getting coins.
  const r = transact(player, world.content, (tx) => giveItem(tx, item.itemId, item.quantity));
  if (!r.ok) return invError(r.error);
  world.groundItems.delete(id);
  item.gone = true;
  if (item.persist !== undefined) {
    player.pendingGround.push({ op: "take", id });
    // Stored at once, as drops are: the row goes with the taker's inventory in one transaction.
    world.requestSave(player);
  }
}

export function despawnGroundItems(world: World): void {
  for (const [id, item] of world.groundItems) {
    if (world.tick >= item.despawnAtTick) {
      world.groundItems.delete(id);
      item.gone = true;
      if (item.persist !== undefined) world.despawnedGround.push(id);
    } else if (world.tick === item.publicAtTick) item.version++;
  }
}
