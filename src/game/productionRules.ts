/**
 * What a make needs and what it does to the inventory (production.ts runs the loop):
 * - the recipe supported (UNSUPPORTED_RECIPE), the skill's level (LEVEL_TOO_LOW), its station in
 *   reach (NO_STATION; a station is in reach within STATION_REACH tiles, as a range for cooking),
 *   every tool carried or worn (MISSING_TOOL), the inputs (MISSING_INPUT), a consumable begun or
 *   one to begin (MISSING_CONSUMABLE), the coins (NOT_ENOUGH_COINS), and room for the output
 *   (INVENTORY_FULL, checked on a copy of the inventory: the inputs taken first free their slots);
 * - one make is one inventory transaction (inventory.ts `transact`): inputs, a consumable begun,
 *   coins and the output, all or nothing;
 * - consumables: the item is taken at the first make that needs it and gives `uses` makes (thread:
 *   5); the uses left are the player's (PlayerData.consumableUses), saved with the character (a
 *   logout or a restart loses none of them), and a make is never given for nothing;
 * - smelting with a `successRate` under 1 (iron: 0.5, OSRS wiki "Iron bar": 50% without the ring of
 *   forging): a failed roll takes the inputs and gives no bar and no xp;
 * - runecrafting: every essence of the recipe's types carried is taken at once, giving
 *   1 + (the number of `multiRuneLevels` at or below the Runecrafting level) runes each (OSRS wiki
 *   "Runecraft": air runes ×2 at 11, ×3 at 22, …) and `xpPerEssence` per essence;
 * - tanning: `cost` coins a hide, no skill and no xp.
 */
import type { ProductionRecipe } from "../manifests/production.ts";
import { BankTx, InvError, InventoryTx, transact, type Tx } from "./inventory.ts";
import { chebyshev } from "./map/CollisionMap.ts";
import { levelOf } from "./progression.ts";
import type { Player } from "./world/Player.ts";
import type { GameError, World } from "./world/World.ts";
import { skillTitle } from "./skills.ts";

/** Tiles from a station at which it can be used (Chebyshev: a side or a corner, as a range for cooking). */
export const STATION_REACH = 1;

const spaced = (id: string) => id.replace(/_/g, " ");
const nameOf = (world: World, id: string) => (world.content.item(id)?.name ?? spaced(id)).toLowerCase();

/** The station (or, for cooking, a lit fire) in reach for the recipe: its id, or undefined. */
export function stationInReach(world: World, player: Player, recipe: ProductionRecipe): string | undefined {
  if (recipe.station === null) return undefined;
  let best: { id: string; d: number } | undefined;
  for (const s of world.stations) {
    if (s.type !== recipe.station) continue;
    const d = chebyshev(player, s);
    if (d <= STATION_REACH && (best === undefined || d < best.d)) best = { id: s.id, d };
  }
  if (best === undefined && recipe.kind === "cooking") {
    for (const o of world.objects.values()) if (o.type === "fire" && chebyshev(player, o) <= STATION_REACH) return o.id;
  }
  return best?.id;
}

/** Whether the player carries (or wears) an item. */
function carries(player: Player, itemId: string): boolean {
  return player.data.inventory.some((s) => s?.itemId === itemId) || Object.values(player.data.equipment).some((s) => s.itemId === itemId);
}

function countOf(player: Player, itemId: string): number {
  return player.data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
}

/** Runes one essence gives at a level: one, and one more for each multi-rune level reached. */
export function runesPerEssence(recipe: ProductionRecipe, level: number): number {
  return 1 + (recipe.essence?.multiRuneLevels.filter((l) => l <= level).length ?? 0);
}

/** What one make takes and gives, as planned now (runecrafting: every essence carried). */
export interface MakePlan {
  /** Items given on success (0 for firemaking, whose product is a fire). */
  produced: number;
  /** Xp on success. */
  xp: number;
  steps: (tx: Tx) => void;
}

export function planMake(world: World, player: Player, recipe: ProductionRecipe, success = true): MakePlan {
  const level = recipe.skill !== null ? levelOf(player, recipe.skill) : 1;
  let produced = recipe.outputQuantity;
  let xp = recipe.xp;
  let essence: { itemId: string; quantity: number }[] = [];
  if (recipe.essence !== undefined) {
    essence = recipe.essence.types.map((itemId) => ({ itemId, quantity: countOf(player, itemId) })).filter((e) => e.quantity > 0);
    const n = essence.reduce((a, e) => a + e.quantity, 0);
    produced = n * runesPerEssence(recipe, level);
    xp = recipe.xp * n;
  }
  const begin = recipe.consumables.filter((c) => usesLeft(player, c.itemId) === 0).map((c) => c.itemId);
  return {
    produced: success ? produced : 0,
    xp: success ? xp : 0,
    steps: (tx) => {
      for (const i of [...recipe.inputs, ...essence]) tx.inv.remove(i.itemId, i.quantity);
      for (const c of begin) tx.inv.remove(c, 1);
      if (recipe.coins > 0) {
        if (tx.coins < recipe.coins) throw new InvError("ITEM_NOT_FOUND", "not enough coins");
        tx.coins -= recipe.coins;
      }
      if (success && recipe.output !== null && produced > 0) tx.inv.add(recipe.output, produced);
    },
  };
}

/** Why the player cannot make the recipe here and now (undefined: it can). Changes nothing. */
export function checkMake(world: World, player: Player, recipe: ProductionRecipe): GameError | undefined {
  if (recipe.unsupported !== undefined) return { code: "UNSUPPORTED_RECIPE", message: `${recipe.name} cannot be made in this world: ${recipe.unsupported}` };
  if (recipe.skill !== null && levelOf(player, recipe.skill) < recipe.level)
    return { code: "LEVEL_TOO_LOW", message: `you need ${skillTitle(recipe.skill)} level ${recipe.level} to make ${recipe.name.toLowerCase()}` };
  if (recipe.station !== null && stationInReach(world, player, recipe) === undefined) {
    const type = world.content.stations.find((s) => s.type === recipe.station)?.name ?? spaced(recipe.station);
    return { code: "NO_STATION", message: `you need to be next to a ${recipe.kind === "cooking" ? "fire or range" : type.toLowerCase()}` };
  }
  for (const t of recipe.tools) if (!carries(player, t)) return { code: "MISSING_TOOL", message: `you need a ${nameOf(world, t)}` };
  for (const i of recipe.inputs) {
    if (countOf(player, i.itemId) < i.quantity)
      return { code: "MISSING_INPUT", message: `you need ${i.quantity > 1 ? `${i.quantity} × ` : ""}${nameOf(world, i.itemId)}` };
  }
  if (recipe.essence !== undefined && recipe.essence.types.every((t) => countOf(player, t) === 0)) {
    return { code: "MISSING_INPUT", message: `you have no ${recipe.essence.types.map((t) => nameOf(world, t)).join(" or ")}` };
  }
  for (const c of recipe.consumables) {
    if (usesLeft(player, c.itemId) === 0 && countOf(player, c.itemId) === 0)
      return { code: "MISSING_CONSUMABLE", message: `you need some ${nameOf(world, c.itemId)}` };
  }
  if (player.data.coins < recipe.coins) return { code: "NOT_ENOUGH_COINS", message: `that costs ${recipe.coins} coins` };
  // Room for the output: the make tried on a copy of the inventory.
  try {
    planMake(world, player, recipe).steps({
      inv: new InventoryTx(player.data.inventory, world.content),
      bank: new BankTx(player.data.bank),
      coins: player.data.coins,
    });
  } catch (err) {
    if (!(err instanceof InvError)) throw err;
    return err.code === "NOT_ENOUGH_SPACE" || err.code === "STACK_OVERFLOW"
      ? { code: "INVENTORY_FULL", message: "you have no room for it" }
      : { code: err.code, message: err.message };
  }
  return undefined;
}

/**
 * One make, as one transaction (checked first with checkMake). Returns what it gave (0 when a
 * smelting roll failed), or the refusal; the xp is the caller's to award.
 */
export function makeOnce(world: World, player: Player, recipe: ProductionRecipe): { produced: number; xp: number } | GameError {
  const refusal = checkMake(world, player, recipe);
  if (refusal) return refusal;
  const success = recipe.successRate >= 1 || world.random() < recipe.successRate;
  const plan = planMake(world, player, recipe, success);
  const r = transact(player, world.content, plan.steps);
  if (!r.ok) return { code: r.error.code === "NOT_ENOUGH_SPACE" ? "INVENTORY_FULL" : r.error.code, message: r.error.message };
  for (const c of recipe.consumables) {
    const left = usesLeft(player, c.itemId);
    setUsesLeft(player, c.itemId, (left === 0 ? c.uses : left) - 1);
  }
  return { produced: plan.produced, xp: plan.xp };
}

/** Makes left of a consumable begun (PlayerData.consumableUses); 0: none begun, the next make takes one. */
export function usesLeft(player: Player, itemId: string): number {
  return player.data.consumableUses?.[itemId] ?? 0;
}

/** Records the makes left of a consumable (none left: the entry goes); saved with the character. */
function setUsesLeft(player: Player, itemId: string, left: number): void {
  const uses = { ...player.data.consumableUses };
  if (left > 0) uses[itemId] = left;
  else delete uses[itemId];
  player.data.consumableUses = Object.keys(uses).length > 0 ? uses : undefined;
  player.saveDue = true;
}
