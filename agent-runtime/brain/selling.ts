/**
 * Selling surplus (the `selling` goal), as a player of the genre turns what it does not need into
 * coins: what the agent carries beyond its needs (drops, ores, logs, fish it will not cook, bones a
 * store pays for) is sold at the placed store that pays the most for it, never its tools, worn or
 * wieldable gear, runes, coins or the food it keeps. Generic over the content: what a store pays is
 * the server's own formula (src/game/storePricing.ts, the store's buyback rate at its base stock),
 * and what the store really pays is read from its view (`interface:open`/`store:update` `sell`).
 * A `keep` predicate lets a caller hold back more (the inputs of a making chain, food to cook).
 */
import { dist } from "../AgentView.ts";
import { countOf, nameOf, type Knowledge, type Spot } from "../knowledge.ts";
import { isGeneral } from "../../src/game/store.ts";
import { DEFAULT_DELTA, shopPrice } from "../../src/game/storePricing.ts";
import { ended, errorOf, going, pct, Walker, type Behaviour, type BehaviourEventArgs, type Ctx, type Outcome, FOOD_KEPT, STALL_TICKS } from "./behaviourKit.ts";

/** An item the caller wants kept whatever it would fetch. */
export type Keep = (itemId: string) => boolean;

export interface Slot {
  slot: number;
  itemId: string;
  quantity: number;
}

/** What a placed store pays for one `itemId` at its base stock (the first of a sale); 0 when it does not buy it. */
export function basePay(know: Knowledge, storeId: string, itemId: string): number {
  const reg = know.registry;
  const store = reg.stores.get(storeId);
  const item = reg.item(itemId);
  if (store === undefined || item === undefined || !store.buyback || itemId === "coins" || item.tradeable !== true) return 0;
  // A specialist buys only what it sells; a general store anything (src/game/store.ts refusal).
  if (!store.items.some((i) => i.itemId === itemId) && !isGeneral(reg, store)) return 0;
  const delta = store.priceChange === undefined ? DEFAULT_DELTA : Math.round(store.priceChange * 1000);
  return shopPrice(item.value, Math.round(store.buybackRate * 1000), delta, 0);
}

/**
 * The slots it would sell: anything but coins, what it keeps when it banks (tools, gear, runes:
 * Knowledge.keep) but the spare copies of a kept item (the second dagger or pair of gloves it
 * smithed or sewed: banking keeps one of each too), FOOD_KEPT pieces of food, and what `keep` holds back.
 */
export function surplus(inventory: readonly Slot[], know: Knowledge, keep: Keep = () => false, release: Keep = () => false): Slot[] {
  let food = 0;
  const out: Slot[] = [];
  const kept = new Set<string>();
  for (const s of inventory) {
    if (s.itemId === "coins" || keep(s.itemId)) continue;
    // `release`: kept items it may sell this time (a caster's bow and tools for its staff: magicFocus.ts staffSale).
    if (know.keep.has(s.itemId) && !release(s.itemId)) {
      // One of each kept; a spare is surplus, but never runes or a making consumable (thread), which stack or are used up.
      const spare = kept.has(s.itemId) && !know.registry.magic.runes.has(s.itemId) && !consumables(know).has(s.itemId);
      kept.add(s.itemId);
      if (spare) out.push(s);
      continue;
    }
    if ((know.registry.item(s.itemId)?.healAmount ?? 0) > 0 && food++ < FOOD_KEPT) continue;
    out.push(s);
  }
  return out;
}

const consumablesOf = new WeakMap<Knowledge, Set<string>>();
/** The consumables of making recipes (thread), cached by knowledge. */
function consumables(know: Knowledge): Set<string> {
  let set = consumablesOf.get(know);
  if (set === undefined) {
    set = new Set([...know.registry.production.values()].flatMap((r) => r.consumables.map((c) => c.itemId)));
    consumablesOf.set(know, set);
  }
  return set;
}

/** A trip to sell: the store, the item kinds it pays for, and about how many coins (at base prices, less as its stock grows). */
export interface SaleTrip {
  storeId: string;
  itemIds: string[];
  coins: number;
}

/**
 * The store to sell the surplus at: of the placed stores, the one paying the most for it (each
 * item kind at its base price, the first few of a kind only: the price falls as the stock grows),
 * the nearest of equals. Undefined when no store pays for anything of it.
 */
export function saleTrip(inventory: readonly Slot[], know: Knowledge, from: Spot, keep?: Keep, release?: Keep): SaleTrip | undefined {
  const goods = surplus(inventory, know, keep, release);
  if (goods.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const s of goods) counts.set(s.itemId, (counts.get(s.itemId) ?? 0) + s.quantity);
  let best: (SaleTrip & { d: number }) | undefined;
  for (const k of know.keepers) {
    let coins = 0;
    const itemIds: string[] = [];
    for (const [itemId, n] of counts) {
      const pay = basePay(know, k.storeId, itemId);
      if (pay < 1) continue;
      itemIds.push(itemId);
      // Each further item joins a larger stock and pays less: count a few at the first price.
      coins += pay * Math.min(n, 5);
    }
    const d = dist(from, k);
    if (coins > 0 && (best === undefined || coins > best.coins || (coins === best.coins && d < best.d))) best = { storeId: k.storeId, itemIds, coins, d };
  }
  return best === undefined ? undefined : { storeId: best.storeId, itemIds: best.itemIds, coins: best.coins };
}

/**
 * Selling: walk to the store's keeper, open the store, and sell its surplus one item (or one stack)
 * at a time while the store's view says it pays for it; done when the store pays nothing more for
 * anything left to sell.
 */
export class Sell implements Behaviour {
  private askedAt = -Infinity;
  private readonly walker = new Walker();
  private readonly storeId: string;
  private readonly keep: Keep | undefined;
  private readonly release: Keep | undefined;
  /** The store's view: what it pays now for the first of each item carried (undefined: not open yet). */
  private offers: Map<string, number> | undefined;
  private soldAt = -Infinity;
  private sold = 0;
  private total = -1;
  private coins = -1;
  /** Items the store refused (the sale would pay nothing): not offered again this trip. */
  private readonly refused = new Set<string>();
  private lastSold: string | undefined;

  constructor(storeId: string, keep?: Keep, release?: Keep) {
    this.storeId = storeId;
    this.keep = keep;
    this.release = release;
  }

  /** What is left to sell here: surplus slots the store's view pays for. */
  private goods(ctx: Ctx): Slot[] {
    const inv = ctx.view.self!.inventory;
    return surplus(inv, ctx.know, this.keep, this.release).filter(
      (s) =>
        !this.refused.has(s.itemId) && (this.offers === undefined ? basePay(ctx.know, this.storeId, s.itemId) >= 1 : (this.offers.get(s.itemId) ?? 0) >= 1),
    );
  }

  step(ctx: Ctx): Outcome {
    const self = ctx.view.self!;
    if (this.coins < 0) this.coins = self.coins;
    const goods = this.goods(ctx);
    if (this.total < 0) this.total = goods.length;
    const progress = pct(this.total - goods.length, this.total);
    if (goods.length === 0)
      return this.sold > 0 ? ended("done", `sold ${this.sold} for ${self.coins - this.coins} coins`) : ended("failed", "nothing this store pays for", 0);
    const keeper = ctx.know.keepers.find((k) => k.storeId === this.storeId);
    if (keeper === undefined) return ended("failed", `no keeper for ${this.storeId}`, 0);
    const seen = ctx.view.find("npc", (e) => e.ref === keeper.npcRef)[0];
    if (this.offers !== undefined && seen !== undefined && dist(seen, ctx.view.position) <= 2) {
      // One sale at a time: the next once the store's view has answered (or after a few ticks).
      if (ctx.tick - this.soldAt < 3) return going(progress);
      const s = goods[0]!;
      const stackable = ctx.know.registry.item(s.itemId)?.stackable === true;
      this.soldAt = ctx.tick;
      this.lastSold = s.itemId;
      this.sold++;
      ctx.send("store:sell", { storeId: this.storeId, slot: s.slot, quantity: stackable ? s.quantity : 1 });
      ctx.note(
        `sell ${stackable && s.quantity > 1 ? countOf(ctx.know, s.quantity, s.itemId) : nameOf(ctx.know, s.itemId)} (${this.offers.get(s.itemId)} coins)`,
      );
      return going(progress);
    }
    if (seen === undefined) {
      this.walker.walk(ctx, keeper);
      return going(Math.min(progress, 10));
    }
    if (ctx.tick - this.askedAt >= STALL_TICKS) {
      this.askedAt = ctx.tick;
      this.offers = undefined;
      ctx.send("player:action", { action: "interact", targetId: seen.id });
      ctx.note(`talk to ${seen.name ?? nameOf(ctx.know, keeper.npcRef)} to sell`);
    }
    return going(progress);
  }

  onEvent(...[type, raw, ctx]: BehaviourEventArgs): void {
    const data = raw as Record<string, unknown>;
    if ((type === "interface:open" && data.type === "store" && data.storeId === this.storeId) || (type === "store:update" && data.storeId === this.storeId)) {
      const sell = (data.sell as { itemId: string; price: number }[] | undefined) ?? [];
      this.offers = new Map(sell.map((o) => [o.itemId, o.price]));
      // The view answered the last sale: the next may go at once.
      if (type === "store:update") this.soldAt = -Infinity;
      return;
    }
    const err = errorOf(type, data);
    if (err?.event !== "store:sell") return;
    // Too far (the keeper moved): open it again. Anything else: that item is not sold here.
    if (err.code === "TOO_FAR") {
      this.offers = undefined;
      this.askedAt = -Infinity;
      return;
    }
    // Refused (worth nothing now, not wanted): that sale did not happen, and the item is left.
    if (this.lastSold !== undefined) this.refused.add(this.lastSold);
    this.sold = Math.max(0, this.sold - 1);
    this.soldAt = -Infinity;
    void ctx;
  }
}
