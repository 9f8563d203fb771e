/**
 * Store prices that move with stock, as RuneScape's shops price them. The formula is LostCity's
 * `calc_shop_value` (2004Scape/Server, data/src/scripts/shop/scripts/shop.rs2, the OSRS client's
 * shop price script), whose three numbers are the OSRS wiki's `StoreTableHead` fields
 * (`sellmultiplier`, `buymultiplier`, `delta`; e.g. the Lumbridge General Store:
 * 1300 / 400 / 30, the same as LostCity's `lumbridge.npc`):
 *
 *   change = clamp((stock − baseStock) × delta, −5000, 1000)        (per mille)
 *   price  = floor(cost × max(100, multiplier − change) / 1000)
 *
 * so every item of stock above the base takes `delta`‰ of the cost off the price, every item
 * short of it adds as much, never below 10% of the cost nor above multiplier + 500%. The price a
 * player pays uses the sell multiplier; what a store pays, the buy multiplier (and may be 0).
 */

/** The genre's general store (OSRS wiki, Lumbridge General Store; LostCity `lumbridge.npc`). */
export const GENERAL_SELL_MULTIPLIER = 1300;
/** The default per-item change (‰ of the cost) when the content names none: the general store's 3%. */
export const DEFAULT_DELTA = 30;
/** The change's bounds and the price's floor, per mille (LostCity `calc_shop_value`). */
const CHANGE_MIN = -5000;
const CHANGE_MAX = 1000;
const FLOOR = 100;

/** One item's price at a stock `diff` items away from the base stock (negative: short). */
export function shopPrice(cost: number, multiplier: number, delta: number, diff: number): number {
  const change = Math.min(CHANGE_MAX, Math.max(CHANGE_MIN, diff * delta));
  return Math.floor((cost * Math.max(FLOOR, multiplier - change)) / 1000);
}

/**
 * The sum of `price(diff)` for `n` consecutive diffs from `start` (step +1 or −1), where `price`
 * depends on the diff only through `shopPrice` (and its neighbour, `diff − 1`): it is constant
 * where the change is clamped, so long runs there are multiplied instead of added one by one.
 */
export function sumPrices(price: (diff: number) => number, start: number, step: 1 | -1, n: number, delta: number): number {
  if (n <= 0) return 0;
  if (delta <= 0) return price(start) * n;
  // Clamped (constant) at or below lo and at or above hi (one more for the neighbour diff − 1).
  const lo = Math.floor(CHANGE_MIN / delta);
  const hi = Math.ceil(CHANGE_MAX / delta) + 1;
  let total = 0;
  let i = 0;
  while (i < n) {
    const d = start + step * i;
    const flat = step > 0 ? (d >= hi ? n - i : d < lo ? Math.min(n - i, lo - d) : 0) : d <= lo ? n - i : d > hi ? Math.min(n - i, d - hi) : 0;
    if (flat > 0) {
      total += price(d) * flat;
      i += flat;
    } else {
      total += price(d);
      i++;
    }
  }
  return total;
}
