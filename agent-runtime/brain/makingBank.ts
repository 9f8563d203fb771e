/**
 * The bank's side of making (making.ts): a `making` goal whose recipe's inputs the agent banked
 * (ores, logs, essence, hides: the server offers the goal from the bank too, see
 * src/agents/AgentService.ts makeableRecipes) starts at the bank. It opens the bank, deposits what
 * it carries that is neither kept nor food nor an input of the recipe, and withdraws the inputs for
 * as many makes as its inventory holds (and, for tanning, its coins pay), the ingredients in the
 * recipe's proportions (one copper ore to one tin ore), as a player fetches a load for the furnace.
 */
import { countOf, nearest } from "../knowledge.ts";
import type { ProductionRecipe } from "../../src/manifests/production.ts";
import { FOOD_KEPT, STALL_TICKS, Walker, type Ctx } from "./behaviourKit.ts";
import { basePay } from "./selling.ts";

export const INVENTORY_SLOTS = 28;
/** What a placed store pays for an item (selling.ts basePay) from which a bank trip for inputs leaves it carried, to be sold: a bronze sword's 30. */
export const CARRIED_WORTH = 20;

/** What a bank:withdraw plan takes out for `recipe`, from the bank's contents and the room it has. */
export function withdrawals(
  recipe: ProductionRecipe,
  bank: ReadonlyMap<string, number>,
  room: { free: number; carried: (itemId: string) => number; coins: number; stackable: (itemId: string) => boolean },
): { itemId: string; quantity: number }[] {
  if (recipe.essence !== undefined) {
    // Runecrafting binds every essence carried at once: fill the free slots with it.
    let free = room.free;
    const out: { itemId: string; quantity: number }[] = [];
    for (const t of recipe.essence.types) {
      const n = Math.min(bank.get(t) ?? 0, room.stackable(t) ? Infinity : free);
      if (n > 0) out.push({ itemId: t, quantity: n });
      if (!room.stackable(t)) free -= n;
    }
    return out;
  }
  if (recipe.inputs.length === 0) return [];
  // Slots one make's inputs take (a stackable input one slot in all, counted as free already used when carried).
  const perMake = recipe.inputs.reduce((n, i) => n + (room.stackable(i.itemId) ? 0 : i.quantity), 0);
  const stackSlots = recipe.inputs.filter((i) => room.stackable(i.itemId) && room.carried(i.itemId) === 0).length;
  const slotsHeld = recipe.inputs.reduce((n, i) => n + (room.stackable(i.itemId) ? 0 : room.carried(i.itemId)), 0);
  let makes = Math.min(...recipe.inputs.map((i) => Math.floor(((bank.get(i.itemId) ?? 0) + room.carried(i.itemId)) / i.quantity)));
  if (perMake > 0) makes = Math.min(makes, Math.floor((room.free - stackSlots + slotsHeld) / perMake));
  if (recipe.coins > 0) makes = Math.min(makes, Math.floor(room.coins / recipe.coins));
  if (makes <= 0) return [];
  return recipe.inputs.flatMap((i) => {
    const want = makes * i.quantity - room.carried(i.itemId);
    return want > 0 ? [{ itemId: i.itemId, quantity: want }] : [];
  });
}

/** Whether an item is an input of any making recipe (not deposited when fetching: it is to be made). */
function isInput(recipe: ProductionRecipe, itemId: string): boolean {
  return recipe.inputs.some((i) => i.itemId === itemId) || (recipe.essence?.types.includes(itemId) ?? false);
}

/** Walks to the bank, opens it, deposits the clutter and withdraws `recipe`'s inputs; `step` says when it is over. */
export class FetchInputs {
  private readonly recipe: ProductionRecipe;
  private readonly walker = new Walker();
  private askedAt = -Infinity;
  private queue: { deposit?: { slot: number; quantity: number }; withdraw?: { itemId: string; quantity: number } }[] | undefined;
  private sentAt = -Infinity;
  private readonly startedAt: number;
  /** What it took out, for the activity log and the caller. */
  taken = 0;

  constructor(recipe: ProductionRecipe, tick: number) {
    this.recipe = recipe;
    this.startedAt = tick;
  }

  /** "going" while under way; "done" once the withdrawals were sent and had a moment to land; "failed" without a bank in reach. */
  step(ctx: Ctx): "going" | "done" | "failed" {
    if (this.queue !== undefined) {
      // Within reach of the bank: a few commands a tick (the server's per-tick item cap is 5).
      if (this.queue.length > 0) {
        for (const c of this.queue.splice(0, 4)) {
          if (c.deposit !== undefined) ctx.send("bank:deposit", c.deposit);
          if (c.withdraw !== undefined) ctx.send("bank:withdraw", c.withdraw);
        }
        this.sentAt = ctx.tick;
        return "going";
      }
      return ctx.tick - this.sentAt >= 2 ? "done" : "going";
    }
    if (ctx.tick - this.startedAt > 20 * STALL_TICKS) return "failed";
    const refs = new Set(ctx.know.banks.map((b) => b.npcRef));
    const banker = ctx.view.find("npc", (e) => e.ref !== undefined && refs.has(e.ref))[0];
    if (banker !== undefined) {
      if (ctx.tick - this.askedAt >= STALL_TICKS) {
        this.askedAt = ctx.tick;
        ctx.send("player:action", { action: "interact", targetId: banker.id });
        ctx.note(`to the bank for ${this.recipe.name}`);
      }
      return "going";
    }
    const bank = nearest(ctx.view.position, ctx.know.banks);
    if (bank === undefined) return "failed";
    this.walker.walk(ctx, bank);
    return "going";
  }

  onEvent(type: string, data: Record<string, unknown>, ctx: Ctx): void {
    if (type !== "interface:open" || data.type !== "bank" || this.queue !== undefined) return;
    const bank = new Map<string, number>();
    for (const s of (data.bank as { itemId: string; quantity: number }[] | undefined) ?? []) bank.set(s.itemId, (bank.get(s.itemId) ?? 0) + s.quantity);
    const self = ctx.view.self!;
    const reg = ctx.know.registry;
    // Deposit what is neither kept, nor food it keeps, nor the recipe's input: room for the load.
    let food = 0;
    const worth = (id: string) => Math.max(0, ...ctx.know.keepers.map((k) => basePay(ctx.know, k.storeId, id)));
    const deposits: { slot: number; quantity: number }[] = [];
    const kept = new Set<string>();
    for (const s of self.inventory) {
      if (isInput(this.recipe, s.itemId)) continue;
      // One of each kept item, as the banking goal keeps (behaviours.ts Bank).
      if (ctx.know.keep.has(s.itemId) && !kept.has(s.itemId)) {
        kept.add(s.itemId);
        continue;
      }
      if ((reg.item(s.itemId)?.healAmount ?? 0) > 0 && food < FOOD_KEPT) {
        food++;
        continue;
      }
      // Goods a placed store pays well for go to the store, not the bank: the 13:00 UTC run's seed 1
      // banked the swords it smithed to sell for hides and sat at 4 coins with Crafting 4.
      if (worth(s.itemId) >= CARRIED_WORTH) continue;
      deposits.push({ slot: s.slot, quantity: s.quantity });
      bank.set(s.itemId, (bank.get(s.itemId) ?? 0) + s.quantity);
    }
    const plan = withdrawals(this.recipe, bank, {
      free: ctx.view.freeSlots(INVENTORY_SLOTS) + deposits.length,
      carried: (id) => ctx.view.count(id),
      coins: self.coins,
      stackable: (id) => reg.item(id)?.stackable === true,
    });
    this.taken = plan.reduce((n, w) => n + w.quantity, 0);
    if (this.taken > 0) ctx.note(`withdraw ${plan.map((w) => countOf(ctx.know, w.quantity, w.itemId)).join(", ")}`);
    this.queue = [...deposits.map((deposit) => ({ deposit })), ...plan.map((withdraw) => ({ withdraw }))];
  }
}
