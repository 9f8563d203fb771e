/**
 * Stores: `store:buy {storeId, itemId, quantity}` and `store:sell {storeId, slot, quantity}`,
 * within 2 tiles of the store's keeper. Buying costs the store's price per item and draws from
 * its stock (-1: unlimited); selling pays the item's value times the store's buyback rate (stores
 * without buyback refuse). Stock restocks by one every `restockTime` seconds toward its level.
 */
import type { StoreDef } from "../manifests/schemas/misc.ts";
import { giveItem, MAX_STACK, transact } from "./inventory.ts";
import { invError, SERVICE_RANGE, tradeLock, within } from "./rules.ts";
import type { Player } from "./world/Player.ts";
import { TICK_MS, type HandlerResult, type World } from "./world/World.ts";

/** Live stock per store and item (only for limited items). */
export class StoreStock {
  private readonly stock = new Map<string, number>();
  private readonly lastRestock = new Map<string, number>();

  private key(storeId: string, itemId: string): string {
    return `${storeId}\u0000${itemId}`;
  }

  level(store: StoreDef, itemId: string, tick: number): number {
    const entry = store.items.find((i) => i.itemId === itemId);
    if (entry === undefined) return 0;
    if (entry.stockQuantity < 0) return Infinity;
    const k = this.key(store.id, itemId);
    let current = this.stock.get(k) ?? entry.stockQuantity;
    if (entry.restockTime > 0 && current < entry.stockQuantity) {
      const every = Math.max(1, Math.round((entry.restockTime * 1000) / TICK_MS));
      const since = this.lastRestock.get(k) ?? tick;
      const gained = Math.floor((tick - since) / every);
      if (gained > 0) {
        current = Math.min(entry.stockQuantity, current + gained);
        this.lastRestock.set(k, since + gained * every);
      }
    }
    // Full again: the restock clock starts over at the next purchase (`take`), not from the old one.
    if (current >= entry.stockQuantity) this.lastRestock.delete(k);
    this.stock.set(k, current);
    return current;
  }

  take(store: StoreDef, itemId: string, quantity: number, tick: number): void {
    const entry = store.items.find((i) => i.itemId === itemId)!;
    if (entry.stockQuantity < 0) return;
    const k = this.key(store.id, itemId);
    this.stock.set(k, this.level(store, itemId, tick) - quantity);
    if (!this.lastRestock.has(k)) this.lastRestock.set(k, tick);
  }
}

function storeNear(world: World, player: Player, storeId: string): StoreDef | undefined {
  const store = world.content.stores.get(storeId);
  if (store === undefined) return undefined;
  for (const n of world.npcs.values()) if (n.service?.storeId === storeId && within(player, n, SERVICE_RANGE)) return store;
  return undefined;
}

export function buy(world: World, stock: StoreStock, player: Player, data: { storeId: string; itemId: string; quantity: number }): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  const store = storeNear(world, player, data.storeId);
  if (store === undefined) return { code: "TOO_FAR", message: "you need to be within 2 tiles of that store's keeper" };
  const entry = store.items.find((i) => i.itemId === data.itemId);
  if (entry === undefined) return { code: "INVALID_ITEM", message: `${store.name} does not sell "${data.itemId}"` };
  if (stock.level(store, data.itemId, world.tick) < data.quantity) return { code: "OUT_OF_STOCK", message: `${store.name} has not enough in stock` };
  const cost = entry.price * data.quantity;
  if (!Number.isSafeInteger(cost) || cost > MAX_STACK) return { code: "INVALID_QUANTITY", message: "that costs more coins than can exist" };
  if (player.data.coins < cost) return { code: "NOT_ENOUGH_COINS", message: `that costs ${cost} coins` };
  const r = transact(player, world.content, (tx) => {
    tx.coins -= cost;
    giveItem(tx, data.itemId, data.quantity);
  });
  if (!r.ok) return invError(r.error);
  stock.take(store, data.itemId, data.quantity, world.tick);
}

export function sell(world: World, player: Player, data: { storeId: string; slot: number; quantity: number }): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  const store = storeNear(world, player, data.storeId);
  if (store === undefined) return { code: "TOO_FAR", message: "you need to be within 2 tiles of that store's keeper" };
  if (!store.buyback) return { code: "NOT_BUYING", message: `${store.name} does not buy items` };
  const stack = player.data.inventory[data.slot];
  if (stack === null || stack === undefined) return { code: "INVALID_SLOT", message: `slot ${data.slot} is empty` };
  const item = world.content.item(stack.itemId);
  if (item === undefined || !item.tradeable) return { code: "UNTRADEABLE_ITEM", message: "the store will not take that" };
  const pay = Math.floor(item.value * store.buybackRate) * data.quantity;
  const itemId = stack.itemId;
  const r = transact(player, world.content, (tx) => {
    if (item.stackable) tx.inv.removeFromSlot(data.slot, data.quantity);
    else tx.inv.remove(itemId, data.quantity);
    tx.coins += pay;
  });
  return r.ok ? undefined : invError(r.error);
}
