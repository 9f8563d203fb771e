/**
 * What an agent told to train making (`focus making`, focus.ts) does besides making: the chains a
 * player of the genre runs for Smithing and Crafting at low levels. Ores mined, smelted and smithed
 * (a pickaxe and a hammer bought); hides from cows, tanned and sewn (a needle and thread bought, the
 * tanner's fee paid), so the combat it does is against what drops hides, and only while it wants
 * them; and its surplus (spare gloves and daggers, cooked meat) sold when short of the coins all
 * this takes. Crafting 10 is ~80 leather gloves (13.8 xp each, 1,154 xp), so ~80 hides; Smithing 10
 * ~61 bronze bars smelted (6.5 xp) and smithed (12.5 xp a dagger): the two skills take turns, the
 * lower one first, as both count.
 */
import type { Knowledge } from "../knowledge.ts";
import type { GoalChoice, Observation } from "./Brain.ts";
import { makingToolPurchases, offerOf } from "./makingChoice.ts";
import { salePerInput } from "./making.ts";

/** The level a making focus trains Crafting and Smithing to first (the ladder's target: 10 each). */
export const MAKING_TARGET = 10;
/** Hides and leather carried at which it stops fighting for more and tans and sews them. */
export const HIDE_LOAD = 10;
/** Coins below which a focused maker sells its surplus (the tanner's fee, thread, a pickaxe and a hammer cost more). */
export const MAKING_PURSE = 60;

type Obs = Pick<Observation, "focus" | "skills" | "inventory" | "equipment" | "coins">;

/** The inputs of tanning recipes whose output a supported crafting recipe takes (cowhide for leather). */
export function hideInputs(know: Knowledge): Set<string> {
  const reg = know.registry;
  const crafted = new Set(
    [...reg.production.values()].filter((r) => r.kind === "crafting" && r.unsupported === undefined).flatMap((r) => r.inputs.map((i) => i.itemId)),
  );
  return new Set(
    [...reg.production.values()]
      .filter((r) => r.kind === "tanning" && r.unsupported === undefined && r.output !== null && crafted.has(r.output))
      .flatMap((r) => r.inputs.map((i) => i.itemId)),
  );
}

/** Monster ids (of `targets`) that always drop a hide for Crafting (brindle cows' cowhide). */
export function hideSources(know: Knowledge, targets: readonly string[]): string[] {
  const hides = hideInputs(know);
  return targets.filter((id) => know.registry.npcs.get(id)?.drops?.always.some((d) => hides.has(d.itemId) && d.chance >= 1) === true);
}

const level = (obs: Pick<Observation, "skills">, skill: string) => obs.skills[skill]?.level ?? 1;

/** Whether it owns a pickaxe (any mining tool of tools.json), carried or worn. */
function ownsPickaxe(obs: Obs, know: Knowledge): boolean {
  const owned = new Set([...obs.inventory.map((s) => s.itemId), ...Object.values(obs.equipment)]);
  return know.registry.tools.some((t) => t.skill === "mining" && owned.has(t.itemId));
}

/**
 * Whether a focused maker wants hides now: Crafting below MAKING_TARGET and not ahead of Smithing
 * (or no pickaxe to train Smithing with), and fewer than HIDE_LOAD hides and leather carried.
 */
export function hidesWanted(obs: Obs, know: Knowledge): boolean {
  if (obs.focus !== "making" || level(obs, "crafting") >= MAKING_TARGET) return false;
  if (level(obs, "crafting") > level(obs, "smithing") && ownsPickaxe(obs, know) && level(obs, "smithing") < MAKING_TARGET) return false;
  return hidesCarried(obs, know) < HIDE_LOAD;
}

/** Hides and the leather tanned from them that it carries. */
export function hidesCarried(obs: Pick<Observation, "inventory">, know: Knowledge): number {
  const made = new Set([...know.registry.production.values()].filter((r) => r.kind === "tanning" && r.output !== null).map((r) => r.output as string));
  const hides = hideInputs(know);
  return obs.inventory.filter((s) => hides.has(s.itemId) || made.has(s.itemId)).reduce((n, s) => n + s.quantity, 0);
}

/** Fewest hides bought at a time (unless fewer make up the load): fewer, and it fights cows for them. */
export const HIDE_BUY_MIN = 3;
/** A hide purchase's score: above fighting cows for them (at most 85 at melee 1 with food), below banking a full inventory. */
export const HIDE_BUY_SCORE = 88;

/** The leather (tanning's outputs) that a supported craft at its Crafting level takes: bought ready-tanned when hides run out. */
export function craftLeather(know: Knowledge, obs: Pick<Observation, "skills">): Set<string> {
  const reg = know.registry;
  const tanned = new Set([...reg.production.values()].filter((r) => r.kind === "tanning" && r.output !== null).map((r) => r.output as string));
  return new Set(
    [...reg.production.values()]
      .filter((r) => r.kind === "crafting" && r.unsupported === undefined && r.level <= level(obs, "crafting"))
      .flatMap((r) => r.inputs.map((i) => i.itemId))
      .filter((id) => tanned.has(id)),
  );
}

/** Whether buying `itemId` failed in its last three goals (the store out of stock: Tawney's holds 10 hides, one back every 120 s). */
function failedLately(obs: { recentGoals?: Observation["recentGoals"] | undefined }, itemId: string): boolean {
  return (obs.recentGoals ?? []).slice(0, 3).some((g) => g.type === "shopping" && g.target === itemId && g.outcome === "failed");
}

/**
 * The hides a focused maker buys when it wants hides (hidesWanted) and a placed store among the
 * shopping `targets` sells them (Tawney's cowhide, as a player of the genre buys them rather than
 * fights for every one): enough to make up HIDE_LOAD with what it carries, as many as its coins pay
 * for with the tanner's fee of each, keeping the price of the needle and thread it lacks for the
 * leather, and room in the inventory; none when that is fewer than HIDE_BUY_MIN. The cheapest a
 * leather first (a cowhide at 4 and the tanner's 1 over leather at 6); one whose purchase failed in
 * its last goals (out of stock) is passed over for the next, so with the hides sold out it buys the
 * store's leather rather than fight cows at Attack 1.
 */
export function hidePurchase(
  obs: Obs & Pick<Observation, "freeSlots"> & { recentGoals?: Observation["recentGoals"] | undefined },
  know: Knowledge,
  targets: readonly string[],
): { itemId: string; storeId: string; price: number; quantity: number } | undefined {
  if (!hidesWanted(obs, know)) return undefined;
  const reg = know.registry;
  const tanning = [...reg.production.values()].filter((r) => r.kind === "tanning" && r.unsupported === undefined && r.output !== null);
  const leather = new Set(tanning.map((r) => r.output as string));
  const crafts = [...reg.production.values()].filter(
    (r) => r.kind === "crafting" && r.unsupported === undefined && r.inputs.some((i) => leather.has(i.itemId)),
  );
  const owned = new Set([...obs.inventory.map((s) => s.itemId), ...Object.values(obs.equipment)]);
  const lacking = [...new Set(crafts.flatMap((r) => [...r.tools, ...r.consumables.map((c) => c.itemId)]))].filter((t) => !owned.has(t));
  const reserve = lacking.reduce((n, t) => n + (offerOf(know, t)?.price ?? 0), 0);
  const wanted = HIDE_LOAD - hidesCarried(obs, know);
  // Hides with the tanner's cheapest fee, and the leather a craft at its level takes, at no fee.
  const goods = [
    ...[...hideInputs(know)].map((id) => ({ id, fee: Math.min(...tanning.filter((r) => r.inputs.some((i) => i.itemId === id)).map((r) => r.coins)) })),
    ...[...craftLeather(know, obs)].map((id) => ({ id, fee: 0 })),
  ].flatMap((g) => {
    const offer = offerOf(know, g.id);
    return offer === undefined ? [] : [{ offer, cost: offer.price + g.fee }];
  });
  goods.sort((a, b) => a.cost - b.cost);
  for (const { offer, cost } of goods) {
    if (!targets.includes(offer.itemId) || failedLately(obs, offer.itemId)) continue;
    const afford = Math.floor((obs.coins - reserve) / cost);
    const quantity = Math.min(wanted, afford, obs.freeSlots);
    if (quantity > 0 && quantity >= Math.min(HIDE_BUY_MIN, wanted)) return { ...offer, quantity };
  }
  return undefined;
}

/** What hidePurchase may buy: the hides and the leather tanned from them. */
export function hideGoods(know: Knowledge, obs: Pick<Observation, "skills">): string[] {
  return [...hideInputs(know), ...craftLeather(know, obs)];
}

/**
 * The combat a making focus allows, for scripted.ts's combat case: undefined without the focus (the
 * ordinary choice), a hide source while it wants hides, null (no fight) otherwise: a maker fights
 * for hides, not for levels.
 */
export function makingCombat(targets: readonly string[], obs: Obs, know: Knowledge): string | null | undefined {
  if (obs.focus !== "making") return undefined;
  if (!hidesWanted(obs, know) || anvilPays(obs, know)) return null;
  return hideSources(know, targets)[0] ?? null;
}

/** Coins a bar smithed must fetch (selling.ts basePay) for the anvil to pay for hides: a bronze sword's 30, not a hatchet's 16. */
export const ANVIL_COINS = 20;

/**
 * Whether a focused maker earns its hides at the anvil rather than fights cows for them: it owns a
 * pickaxe and the tools of a smithing recipe at its level that a placed store pays ANVIL_COINS a
 * bar for (a bronze sword from Smithing 5), and a placed store sells hides or leather. A sword is
 * two ores, about 50 ticks mined, smelted and smithed, for 30 coins, five hides tanned; a fight
 * with a cow at Attack 1-3 took 150-300 ticks for a hide or two and ended at a quarter of its health
 * (the ladder runs of 12:13 and 12:37 UTC: 17-23 such fights a run, most of them for hides).
 */
export function anvilPays(obs: Obs, know: Knowledge): boolean {
  if (obs.focus !== "making" || !ownsPickaxe(obs, know)) return false;
  const owned = new Set([...obs.inventory.map((s) => s.itemId), ...Object.values(obs.equipment)]);
  const sells = hideGoods(know, obs).some((id) => offerOf(know, id) !== undefined);
  return (
    sells &&
    [...know.registry.production.values()].some(
      (r) =>
        r.kind === "smithing" &&
        r.unsupported === undefined &&
        r.level <= level(obs, "smithing") &&
        r.tools.every((t) => owned.has(t)) &&
        salePerInput(know, r) >= ANVIL_COINS,
    )
  );
}

/**
 * Of mining `targets`, those a focused maker mines: the rocks yielding an ore that a smelting recipe
 * at its Smithing level takes (copper and tin, not iron below Smithing 15, whose ore it could only
 * bank: the 12:37 UTC run's seed 1 mined iron at Mining 15 and Smithing 9 from tick 8,000 and ended
 * at Smithing 9). All of them without the focus, or when none yields such an ore.
 */
export function makingRocks(targets: readonly string[], obs: Obs, know: Knowledge): string[] {
  if (obs.focus !== "making") return [...targets];
  const smeltable = new Set(
    [...know.registry.production.values()]
      .filter((r) => r.kind === "smelting" && r.unsupported === undefined && r.level <= level(obs, "smithing"))
      .flatMap((r) => r.inputs.map((i) => i.itemId)),
  );
  const rocks = targets.filter((id) => (know.registry.resources.get(id)?.harvestYield ?? []).some((y) => smeltable.has(y.itemId)));
  return rocks.length > 0 ? rocks : [...targets];
}

/** Items whose purchase serves making: the tools of making but runecrafting's, and the pickaxes. */
export function makingShopItems(know: Knowledge): Set<string> {
  return new Set([
    ...makingToolPurchases(know)
      .filter((t) => t.skill !== "runecrafting")
      .map((t) => t.itemId),
    ...know.registry.tools.filter((t) => t.skill === "mining").map((t) => t.itemId),
  ]);
}

/** Whether a focused maker is short of coins for its chains (fees, thread, a pickaxe and a hammer). */
export function makingShortOfCoins(obs: Obs): boolean {
  return obs.focus === "making" && obs.coins < MAKING_PURSE;
}

/**
 * Whether a focused maker is stuck for coins: it carries hides and cannot pay the tanner's fee for
 * one, or leather and no thread, and cannot buy a thread. Selling its surplus comes first then.
 */
export function makingStuck(obs: Obs, know: Knowledge): boolean {
  if (obs.focus !== "making") return false;
  const tanning = [...know.registry.production.values()].filter((r) => r.kind === "tanning" && r.unsupported === undefined);
  const carries = (ids: Set<string>) => obs.inventory.some((s) => ids.has(s.itemId));
  const fee = Math.min(...tanning.map((r) => r.coins));
  if (carries(hideInputs(know)) && obs.coins < fee) return true;
  const leather = new Set(tanning.flatMap((r) => (r.output === null ? [] : [r.output])));
  const crafts = [...know.registry.production.values()].filter((r) => r.kind === "crafting" && r.inputs.some((i) => leather.has(i.itemId)));
  const threads = [...new Set(crafts.flatMap((r) => r.consumables.map((c) => c.itemId)))];
  const noThread = threads.some((t) => !obs.inventory.some((s) => s.itemId === t) && obs.coins < (offerOf(know, t)?.price ?? 0));
  return carries(leather) && noThread;
}

/**
 * Coins a focused maker keeps back when buying a gathering tool that serves no making chain (a
 * fishing net): MAKING_PURSE, for the fees, thread, pickaxe and hammer; 0 otherwise.
 */
export function makingPurse(obs: Obs, know: Knowledge, itemId: string): number {
  return obs.focus === "making" && !makingShopItems(know).has(itemId) ? MAKING_PURSE : 0;
}

/** The inputs of the making chains it keeps rather than sells under the focus (ores, bars, hides, leather, logs). */
export function makingInputs(know: Knowledge): Set<string> {
  const out = new Set<string>();
  for (const r of know.registry.production.values()) {
    if (r.unsupported !== undefined || r.skill === "runecrafting" || r.kind === "cooking" || r.kind === "firemaking") continue;
    for (const i of r.inputs) out.add(i.itemId);
  }
  return out;
}

/** Whether a chosen goal serves a making focus (focus.ts SERVES.making). */
export function servesMaking(c: GoalChoice, obs: Obs, know: Knowledge): boolean {
  switch (c.type) {
    case "mining":
      return true;
    case "making":
      return c.target !== undefined && know.registry.production.get(c.target)?.skill !== "runecrafting";
    case "combat":
      return c.target !== undefined && hidesWanted(obs, know) && hideSources(know, [c.target]).length > 0;
    case "shopping":
      return c.target !== undefined && (makingShopItems(know).has(c.target) || (hideGoods(know, obs).includes(c.target) && hidesWanted(obs, know)));
    case "selling":
      return makingShortOfCoins(obs);
    default:
      return false;
  }
}

/**
 * The making consumables (thread, five makes each) a focused maker buys with `makes` more leather
 * makes in view: enough for them besides those it carries (it cannot see the makes left of a thread
 * begun), as its `coins` allow, so a load of leather is not stopped half-sewn for a trip back to
 * Tawney's (the runs of 12:13 UTC: a making goal refused "you need some thread" every few loads).
 */
export function threadsFor(
  obs: Pick<Observation, "focus" | "inventory" | "skills">,
  know: Knowledge,
  makes: number,
  coins: number,
): { itemId: string; quantity: number }[] {
  if (obs.focus !== "making") return [];
  const leather = craftLeather(know, obs);
  const crafts = [...know.registry.production.values()].filter(
    (r) => r.kind === "crafting" && r.unsupported === undefined && r.inputs.some((i) => leather.has(i.itemId)),
  );
  const out: { itemId: string; quantity: number }[] = [];
  for (const c of new Map(crafts.flatMap((r) => r.consumables.map((k) => [k.itemId, k.uses] as const)))) {
    const [itemId, uses] = c;
    const price = offerOf(know, itemId)?.price ?? 0;
    const carried = obs.inventory.filter((s) => s.itemId === itemId).reduce((n, s) => n + s.quantity, 0);
    const quantity = Math.min(Math.ceil(makes / Math.max(1, uses)) - carried, price > 0 ? Math.floor(coins / price) : Infinity);
    if (quantity > 0) out.push({ itemId, quantity });
  }
  return out;
}

/** The tanner's fees for the hides it carries (the cheapest tanning of each): coins a thread purchase leaves it. */
export function tanningDue(obs: Pick<Observation, "inventory">, know: Knowledge): number {
  const tanning = [...know.registry.production.values()].filter((r) => r.kind === "tanning" && r.unsupported === undefined);
  const hides = hideInputs(know);
  return obs.inventory
    .filter((s) => hides.has(s.itemId))
    .reduce((n, s) => n + s.quantity * Math.min(...tanning.filter((r) => r.inputs.some((i) => i.itemId === s.itemId)).map((r) => r.coins)), 0);
}
