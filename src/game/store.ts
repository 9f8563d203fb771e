/**
 * Stores: `store:buy {storeId, itemId, quantity}` and `store:sell {storeId, slot, quantity}`,
 * within 2 tiles of the store's keeper. Prices move with the stock (src/game/storePricing.ts):
 * - Buying an item the store lists costs its listed price at its base stock (`stockQuantity`),
 *   `priceChange` (default 3%) of it more per item short, less per item over; an item players
 *   sold it that it does not list costs 130% of its value (the genre's general store) at a base
 *   of 0. Unlimited items (-1) keep their listed price. Each item of a purchase is priced at the
 *   stock it is taken from, and never below what the store would pay for it back.
 * - Selling pays the item's value times the buyback rate at the base stock, moving the same way;
 *   the item joins the store's stock. A general store buys any tradeable item (at most
 *   {@link EXTRA_KINDS} kinds it does not list), a specialist only what it lists. A sale that
 *   would pay 0 coins for any of its items is refused: a store never takes an item for nothing.
 * - Stock drifts back to the base one item at a time: every `restockTime` seconds for a listed
 *   item (up only when it has a restock time), every {@link DRIFT_TICKS} ticks otherwise.
 * Stock is per world and in memory (a restart restocks every store).
 *
 * A player who opened a store (`interface:open`) is its viewer while within reach of the keeper:
 * each tick their view (prices, stock, what the store pays for each item they carry) is compared
 * with the last one sent, and a changed view goes out as `store:update`.
 */
import type { ContentRegistry } from "../manifests/registry.ts";
import type { ItemDef } from "../manifests/schemas/items.ts";
import type { StoreDef } from "../manifests/schemas/misc.ts";
import type { ServerEvent } from "./serverEvents.ts";
import { COINS, giveItem, MAX_STACK, transact } from "./inventory.ts";
import { invError, SERVICE_RANGE, tradeLock, within } from "./rules.ts";
import { DEFAULT_DELTA, GENERAL_SELL_MULTIPLIER, shopPrice, sumPrices } from "./storePricing.ts";
import { drift, listing, type StoreStock } from "./storeStock.ts";
import type { Player } from "./world/Player.ts";
import type { GameError, HandlerResult, World } from "./world/World.ts";

export { DRIFT_TICKS, StoreStock } from "./storeStock.ts";

/** Kinds of items a general store keeps that it does not list (an OSRS shop shows 40 slots). */
export const EXTRA_KINDS = 40;

export type StoreView = Omit<ServerEvent<"store:update">, "storeId">;

/** A general store: the store's `general` flag, else whether a keeper placed for it is a `general_store` (world-areas.json). */
export function isGeneral(content: ContentRegistry, store: StoreDef): boolean {
  return store.general ?? content.areas.some((a) => a.npcs.some((n) => n.storeId === store.id && n.type === "general_store"));
}

function delta(store: StoreDef): number {
  return store.priceChange === undefined ? DEFAULT_DELTA : Math.round(store.priceChange * 1000);
}

/** What the store pays for one item when it holds `count` of it (before this one joins). */
function payAt(store: StoreDef, item: ItemDef, count: number): number {
  const { base } = drift(store, item.id);
  return shopPrice(item.value, Math.round(store.buybackRate * 1000), delta(store), count - base);
}

/** What one item costs when the store holds `count` of it (this one included). */
function costAt(store: StoreDef, item: ItemDef, count: number): number {
  const e = listing(store, item.id);
  if (e !== undefined && e.stockQuantity < 0) return Math.max(1, e.price);
  const price =
    e === undefined ? shopPrice(item.value, GENERAL_SELL_MULTIPLIER, delta(store), count) : shopPrice(e.price, 1000, delta(store), count - e.stockQuantity);
  // Never below what the store would pay for it back (no profit in buying and selling back).
  return Math.max(1, price, store.buyback ? payAt(store, item, count - 1) : 0);
}

/** Coins for buying `n` from a count of `count`: each at the count it is taken from. */
export function purchaseCost(store: StoreDef, item: ItemDef, count: number, n: number): number {
  const e = listing(store, item.id);
  if (e !== undefined && e.stockQuantity < 0) return costAt(store, item, 0) * n;
  const base = e?.stockQuantity ?? 0;
  return sumPrices((d) => costAt(store, item, d + base), count - base, -1, n, delta(store));
}

/** Coins for selling `n` to a count of `count`: each at the count it joins. */
export function saleValue(store: StoreDef, item: ItemDef, count: number, n: number): number {
  const { base } = drift(store, item.id);
  return sumPrices((d) => payAt(store, item, d + base), count - base, 1, n, delta(store));
}

/** Why the store will not buy an item at all (before prices), or undefined. */
function refusal(content: ContentRegistry, store: StoreDef, item: ItemDef | undefined, tick: number, stock: StoreStock): GameError | undefined {
  if (!store.buyback) return { code: "NOT_BUYING", message: `${store.name} does not buy items` };
  if (item === undefined || item.id === COINS || !item.tradeable) return { code: "UNTRADEABLE_ITEM", message: "the store will not take that" };
  if (listing(store, item.id) === undefined) {
    if (!isGeneral(content, store)) return { code: "NOT_WANTED", message: `${store.name} only buys what it sells; a general store buys anything` };
    const extras = stock.extras(store, tick);
    if (extras.length >= EXTRA_KINDS && !extras.includes(item.id)) return { code: "STORE_FULL", message: `${store.name} has no room for another kind of item` };
  }
  return undefined;
}

/** The store as one player sees it now: what it sells (price of the next one, stock) and what it pays for each item they carry. */
export function storeView(world: World, stock: StoreStock, store: StoreDef, player: Player): StoreView {
  const tick = world.tick;
  const items = [...store.items.map((e) => e.itemId), ...stock.extras(store, tick)].flatMap((itemId) => {
    const item = world.content.item(itemId);
    if (item === undefined) return [];
    const unlimited = listing(store, itemId)?.stockQuantity === -1;
    const count = stock.count(store, itemId, tick);
    return [{ itemId, price: costAt(store, item, unlimited ? 0 : count), stock: unlimited ? null : count }];
  });
  const seen = new Set<string>();
  const sell: StoreView["sell"] = [];
  for (const s of player.data.inventory) {
    if (s === null || seen.has(s.itemId)) continue;
    seen.add(s.itemId);
    const item = world.content.item(s.itemId);
    const no = refusal(world.content, store, item, tick, stock);
    const price = no === undefined ? payAt(store, item!, stock.count(store, s.itemId, tick)) : 0;
    if (no !== undefined) sell.push({ itemId: s.itemId, price: 0, refusal: no.message });
    else if (price < 1) sell.push({ itemId: s.itemId, price: 0, refusal: `${store.name} would pay nothing for it` });
    else sell.push({ itemId: s.itemId, price });
  }
  return { items, sell };
}

/** Registers a player as the store's viewer and sends them `interface:open` with the store's current view. */
export function openStore(world: World, stock: StoreStock, player: Player, store: StoreDef, npcId: string): void {
  const view = storeView(world, stock, store, player);
  stock.viewers.set(player.id, { storeId: store.id, npcId, sent: JSON.stringify(view) });
  world.send(player.id, "interface:open", { type: "store", npcId, storeId: store.id, name: store.name, ...view });
}

/** Each tick: a viewer whose view changed gets `store:update`; one gone or out of the keeper's reach stops being one. */
export function refreshStoreViews(world: World, stock: StoreStock): void {
  for (const [playerId, v] of stock.viewers) {
    const player = world.players.get(playerId);
    const npc = world.npcs.get(v.npcId);
    const store = world.content.stores.get(v.storeId);
    if (player === undefined || npc === undefined || store === undefined || !within(player, npc, SERVICE_RANGE)) {
      stock.viewers.delete(playerId);
      continue;
    }
    const view = storeView(world, stock, store, player);
    const text = JSON.stringify(view);
    if (text === v.sent) continue;
    v.sent = text;
    world.send(playerId, "store:update", { storeId: store.id, ...view });
  }
}

function storeNear(world: World, player: Player, storeId: string): StoreDef | undefined {
  const store = world.content.stores.get(storeId);
  if (store === undefined) return undefined;
  for (const n of world.npcs.values()) if (n.service?.storeId === storeId && within(player, n, SERVICE_RANGE)) return store;
  return undefined;
}

const TOO_FAR: GameError = { code: "TOO_FAR", message: "you need to be within 2 tiles of that store's keeper" };

export function buy(world: World, stock: StoreStock, player: Player, data: { storeId: string; itemId: string; quantity: number }): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  const store = storeNear(world, player, data.storeId);
  if (store === undefined) return TOO_FAR;
  const item = world.content.item(data.itemId);
  const entry = listing(store, data.itemId);
  const unlimited = entry?.stockQuantity === -1;
  const count = item === undefined ? 0 : stock.count(store, data.itemId, world.tick);
  if (item === undefined || (entry === undefined && count <= 0)) return { code: "INVALID_ITEM", message: `${store.name} does not sell "${data.itemId}"` };
  if (!unlimited && count < data.quantity) return { code: "OUT_OF_STOCK", message: `${store.name} has not enough in stock` };
  const cost = purchaseCost(store, item, count, data.quantity);
  if (!Number.isSafeInteger(cost) || cost > MAX_STACK) return { code: "INVALID_QUANTITY", message: "that costs more coins than can exist" };
  // The genre's words, the same in the chat and the store's dialog (the price is on the button).
  if (player.data.coins < cost) return { code: "NOT_ENOUGH_COINS", message: "you don't have enough coins" };
  const r = transact(player, world.content, (tx) => {
    tx.coins -= cost;
    giveItem(tx, data.itemId, data.quantity);
  });
  if (!r.ok) return invError(r.error);
  // An unlimited item's surplus (what players sold it) is bought back first.
  stock.change(store, data.itemId, unlimited ? -Math.min(count, data.quantity) : -data.quantity, world.tick);
}

export function sell(world: World, stock: StoreStock, player: Player, data: { storeId: string; slot: number; quantity: number }): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  const store = storeNear(world, player, data.storeId);
  if (store === undefined) return TOO_FAR;
  if (!store.buyback) return { code: "NOT_BUYING", message: `${store.name} does not buy items` };
  const stack = player.data.inventory[data.slot];
  if (stack === null || stack === undefined) return { code: "INVALID_SLOT", message: `slot ${data.slot} is empty` };
  const item = world.content.item(stack.itemId);
  const no = refusal(world.content, store, item, world.tick, stock);
  if (no) return no;
  const def = item!;
  const held = def.stackable ? stack.quantity : player.data.inventory.filter((s) => s?.itemId === def.id).length;
  if (data.quantity > held) return { code: "ITEM_NOT_FOUND", message: `you have only ${held} ${def.name}` };
  const count = stock.count(store, def.id, world.tick);
  if (count + data.quantity > MAX_STACK) return { code: "STORE_FULL", message: `${store.name} cannot hold that many` };
  // The last item of the sale pays the least: if it pays nothing, the store takes none of them.
  if (payAt(store, def, count + data.quantity - 1) < 1) {
    let takes = 0;
    while (takes < data.quantity && payAt(store, def, count + takes) >= 1) takes++;
    return {
      code: "WORTHLESS",
      message: takes === 0 ? `${store.name} would pay nothing for ${def.name}` : `${store.name} would pay nothing for more than ${takes} ${def.name} now`,
    };
  }
  const pay = saleValue(store, def, count, data.quantity);
  if (!Number.isSafeInteger(pay)) return { code: "INVALID_QUANTITY", message: "that is worth more coins than can exist" };
  const r = transact(player, world.content, (tx) => {
    if (def.stackable) tx.inv.removeFromSlot(data.slot, data.quantity);
    else tx.inv.remove(def.id, data.quantity);
    tx.coins += pay;
  });
  if (!r.ok) return invError(r.error);
  stock.change(store, def.id, data.quantity, world.tick);
}
