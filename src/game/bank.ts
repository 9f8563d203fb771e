/**
 * Banking: `bank:deposit {slot, quantity}` and `bank:withdraw {itemId, quantity}`, within 2 tiles
 * of a bank (a banker or a bank booth). Every item stacks in the bank. A deposit of a non-stacking
 * item takes that many of it from the inventory; a withdrawal must fit whole (no partial
 * withdrawals, no overflow), else nothing moves.
 */
import { giveItem, transact } from "./inventory.ts";
import { invError, SERVICE_RANGE, tradeLock, within } from "./rules.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, World } from "./world/World.ts";

export function nearBank(world: World, player: Player): boolean {
  for (const n of world.npcs.values()) if (n.service?.type === "bank" && within(player, n, SERVICE_RANGE)) return true;
  return world.stations.some((s) => s.type === "bank" && within(player, s, SERVICE_RANGE));
}

export function deposit(world: World, player: Player, data: { slot: number; quantity: number }): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  if (!nearBank(world, player)) return { code: "TOO_FAR", message: "you need to be within 2 tiles of a bank" };
  const stack = player.data.inventory[data.slot];
  if (stack === null || stack === undefined) return { code: "INVALID_SLOT", message: `slot ${data.slot} is empty` };
  const itemId = stack.itemId;
  const r = transact(player, world.content, (tx) => {
    if (world.content.item(itemId)?.stackable) tx.inv.removeFromSlot(data.slot, data.quantity);
    else tx.inv.remove(itemId, data.quantity);
    tx.bank.add(itemId, data.quantity);
  });
  return r.ok ? undefined : invError(r.error);
}

export function withdraw(world: World, player: Player, data: { itemId: string; quantity: number }): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  if (!nearBank(world, player)) return { code: "TOO_FAR", message: "you need to be within 2 tiles of a bank" };
  if (!world.content.hasItem(data.itemId)) return { code: "INVALID_ITEM", message: `unknown item "${data.itemId}"` };
  const r = transact(player, world.content, (tx) => {
    tx.bank.remove(data.itemId, data.quantity);
    giveItem(tx, data.itemId, data.quantity);
  });
  return r.ok ? undefined : invError(r.error);
}
