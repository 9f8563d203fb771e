/**
 * The scripted policy's side of making (scripted.ts): how much a `making` goal is worth, and the
 * tools of making it buys (a hammer for the anvil, implied by the catalogue's smithing recipes, a
 * knife for fletching, a needle and thread for leather) once it carries something to make with them.
 */
import type { Knowledge } from "../knowledge.ts";
import type { GoalChoice, GoalOption, Observation } from "./Brain.ts";
import { MAKING_ORDER, recipeOrder } from "./making.ts";

/** The cheapest offer of a placed store for each tool the making recipes keep, with the inputs of those recipes. */
export function makingToolPurchases(know: Knowledge): { skill: string; itemId: string; storeId: string; price: number; inputs: string[] }[] {
  const reg = know.registry;
  const sold = new Set(know.keepers.map((k) => k.storeId));
  const tools = new Map<string, { skill: string; inputs: Set<string> }>();
  for (const r of reg.production.values()) {
    if (r.unsupported !== undefined || !(MAKING_ORDER as readonly string[]).includes(r.kind)) continue;
    // The consumables too (thread for the needle): bought as a tool is, one at a time, when none is carried.
    for (const t of [...r.tools, ...r.consumables.map((c) => c.itemId)]) {
      const entry = tools.get(t) ?? { skill: r.skill ?? r.kind, inputs: new Set<string>() };
      for (const i of r.inputs) entry.inputs.add(i.itemId);
      tools.set(t, entry);
    }
  }
  // The inputs of what makes a tool's inputs count too: the ores of the bars (ores for the furnace,
  // then the anvil's hammer), the hides of the leather (the tanner, then the needle and thread).
  for (const entry of tools.values()) {
    for (const r of reg.production.values())
      if ((r.kind === "smelting" || r.kind === "tanning") && r.output !== null && entry.inputs.has(r.output))
        for (const i of r.inputs) entry.inputs.add(i.itemId);
  }
  const out: { skill: string; itemId: string; storeId: string; price: number; inputs: string[] }[] = [];
  for (const [itemId, { skill, inputs }] of tools) {
    const offers = [...reg.stores.values()]
      .filter((s) => sold.has(s.id))
      .flatMap((s) => s.items.filter((i) => i.itemId === itemId).map((i) => ({ storeId: s.id, price: i.price })));
    offers.sort((a, b) => a.price - b.price);
    if (offers[0] !== undefined) out.push({ skill, itemId, ...offers[0], inputs: [...inputs] });
  }
  return out;
}

/** A making goal's score under a making focus (focus.ts): with FOCUS_BONUS above a quest's (88), as the focus means. */
export const FOCUSED_MAKING = 75;

/**
 * A `making` goal (its targets: the recipes the server says the inventory allows): above training
 * a gathering skill, and above banking when the inventory is full, since making frees the slots
 * (bars from ores, runes from essence) and trains a skill gathering cannot.
 */
export function makingScore(option: GoalOption, obs: Observation, know: Knowledge): (GoalChoice & { score: number }) | undefined {
  const recipes = option.targets.flatMap((id) => {
    const r = know.registry.production.get(id);
    // The tanner's fee: a recipe it cannot pay for is no goal (the server leaves coins to the make).
    return r === undefined || r.coins > obs.coins ? [] : [r];
  });
  if (recipes.length === 0) return undefined;
  recipes.sort(recipeOrder(know));
  const first = recipes[0]!;
  // A focused maker (makingFocus.ts) makes before a quest; a full inventory is upkeep either way.
  const base = obs.focus === "making" && first.skill !== "runecrafting" ? FOCUSED_MAKING : 70;
  return { type: "making", target: first.id, score: obs.freeSlots === 0 ? 93 : base, reason: `make ${first.name} (${first.kind})` };
}

/** Coins an agent keeps back when it buys a better tier of a tool (the tanner's fee, thread). */
export const TIER_RESERVE = 20;

/**
 * A better tier of a gathering tool it already uses (tools.json: a lower `priority` is a better
 * tier, an iron pickaxe over a bronze one), at its level, sold by a placed store among the shopping
 * `targets`, and affordable with TIER_RESERVE coins left: the best such, by tier.
 */
export function tierUpgrade(
  know: Knowledge,
  obs: Pick<Observation, "skills" | "coins" | "inventory" | "equipment"> & { focus?: Observation["focus"] },
  targets: readonly string[],
): { skill: string; itemId: string; storeId: string; price: number } | undefined {
  const reg = know.registry;
  const sold = new Set(know.keepers.map((k) => k.storeId));
  const owned = new Set([...obs.inventory.map((s) => s.itemId), ...Object.values(obs.equipment)]);
  let best: { skill: string; itemId: string; storeId: string; price: number; priority: number } | undefined;
  // A focused maker (makingFocus.ts) upgrades its pickaxe only: its coins go to the chains.
  for (const skill of obs.focus === "making" ? ["mining"] : ["woodcutting", "mining"]) {
    const tiers = reg.tools.filter((t) => t.skill === skill);
    const have = Math.min(...tiers.filter((t) => owned.has(t.itemId)).map((t) => t.priority));
    if (!Number.isFinite(have)) continue; // none yet: the basic tool is bought as any missing tool is (scripted.ts)
    for (const t of tiers) {
      if (t.priority >= have || t.levelRequired > (obs.skills[skill]?.level ?? 1) || !targets.includes(t.itemId)) continue;
      const offer = [...reg.stores.values()]
        .filter((s) => sold.has(s.id))
        .flatMap((s) => s.items.filter((i) => i.itemId === t.itemId).map((i) => ({ storeId: s.id, price: i.price })))
        .sort((a, b) => a.price - b.price)[0];
      if (offer === undefined || obs.coins < offer.price + TIER_RESERVE) continue;
      if (best === undefined || t.priority < best.priority) best = { skill, itemId: t.itemId, ...offer, priority: t.priority };
    }
  }
  return best === undefined ? undefined : { skill: best.skill, itemId: best.itemId, storeId: best.storeId, price: best.price };
}

/** The cheapest offer of an item by a placed store (a tier bought by tierUpgrade). */
export function offerOf(know: Knowledge, itemId: string | undefined): { itemId: string; storeId: string; price: number } | undefined {
  const sold = new Set(know.keepers.map((k) => k.storeId));
  const offers = [...know.registry.stores.values()]
    .filter((s) => sold.has(s.id))
    .flatMap((s) => s.items.filter((i) => i.itemId === itemId).map((i) => ({ itemId: i.itemId, storeId: s.id, price: i.price })));
  return offers.sort((a, b) => a.price - b.price)[0];
}

/**
 * Coins to keep for the tools of making that what it can gather now needs (a hammer for the ores
 * of its pickaxe, a knife for the logs of its hatchet), not owned yet: a tool for another gathering
 * skill is bought only with these left, so the first coins go to making what it gathers already.
 */
export function makingReserve(know: Knowledge, obs: Pick<Observation, "inventory" | "equipment">): number {
  const owned = new Set([...obs.inventory.map((s) => s.itemId), ...Object.values(obs.equipment)]);
  const ownsTool = (tool: string) => owned.has(tool) || [...owned].some((id) => id.endsWith(`_${tool.split("_").pop()}`));
  const gathered = new Set([...know.registry.resources.values()].filter((r) => ownsTool(r.toolRequired)).flatMap((r) => r.harvestYield.map((y) => y.itemId)));
  return makingToolPurchases(know)
    .filter((t) => !owned.has(t.itemId) && t.inputs.some((i) => gathered.has(i)))
    .reduce((n, t) => n + t.price, 0);
}
