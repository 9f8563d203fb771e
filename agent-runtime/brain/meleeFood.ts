/**
 * `focus melee`'s food (scripted.ts, focus.ts, goalBehaviour.ts): it cooks the meat the cows drop
 * before it fights on, fishes or buys food when hurt with nothing to eat, and lays in the food a
 * quest's fights need (questProvision) rather than wait for them to become winnable by chance: a
 * fighter eats what it cooks between cows, and Tusks in the Hollow (700 melee xp, 2 boars) waited
 * for food it never held in a run of 19:02 on 2026-11-29. Pure decisions from the content and what
 * the agent sees; no sending.
 */
import { burnChance } from "../../src/game/cookingBurn.ts";
import { purchaseCost } from "../../src/game/store.ts";
// Health and healing are shown in lifepoints, ten to a hitpoint.
import { LIFEPOINTS_PER_HITPOINT } from "../../src/game/world/entities.ts";
import type { Knowledge } from "../knowledge.ts";
import type { Observation } from "./Brain.ts";
import { armourUpgrade, bestMonster, FLEE_BELOW, weaponUpgrade } from "./fighting.ts";
import { offerOf } from "./makingChoice.ts";
import { foodLifepoints, killCost, meleeQuestValue, questFees, questFoodShort, type FighterObs } from "./meleeFocus.ts";

/** Cooked food it wants in hand before a fight under `focus melee` (the reflexes eat below half health). */
export const MELEE_FOOD = 4;

/**
 * Under `focus melee`, whether to cook the raw food it carries now rather than fight on: it holds
 * fewer than MELEE_FOOD cooked and at least as much raw as it lacks (or any raw while hurt).
 */
export function cookForFight(obs: Pick<Observation, "focus" | "health" | "maxHealth">, food: number, raw: number): boolean {
  if (obs.focus !== "melee" || raw === 0 || food >= MELEE_FOOD) return false;
  return raw >= MELEE_FOOD - food || obs.health < obs.maxHealth * 0.7;
}

/**
 * Under `focus melee`, hurt so that it cannot finish a kill of the monster it trains on (fighting.ts
 * bestMonster, meleeFocus.ts killCost) with its health above where it leaves a fight (FLEE_BELOW)
 * and its food: a fight begun so is left with the monster standing, its damage healed away. At full
 * health it fights anyway (it has nothing better to wait for). In runs of 19:45-19:57 a fighter at
 * 2/4/2 began cows at 70 % with nothing to eat and left 3-5 fights a run at 30 %.
 */
export function shortOfAKill(
  know: Knowledge,
  obs: Pick<Observation, "focus" | "skills" | "equipment" | "health" | "maxHealth" | "inventory" | "combatLevel">,
): boolean {
  if (obs.focus !== "melee" || obs.health >= obs.maxHealth) return false;
  const mob = bestMonster([...know.mobSpots.keys()], obs.skills, obs.combatLevel, obs.maxHealth, know);
  if (mob === undefined) return false;
  return obs.health - obs.maxHealth * FLEE_BELOW + foodLifepoints(know, obs.inventory) < killCost(know, obs, mob);
}

/**
 * Under `focus melee`, whether to get food (fish or buy it) before fighting on: short of a kill's
 * cost (shortOfAKill) with no raw food to cook (cooked first: cookForFight). A level-1 fighter takes
 * some 86 lifepoints a cow (fighting.ts meleeRates) and health comes back at 10 lifepoints a 100
 * ticks (src/game/regeneration.ts): shrimp caught and cooked (30 lifepoints each) heal it several
 * times faster than waiting. Before, it went below 70 % with fewer than MELEE_FOOD cooked, where a
 * cow at 6/9/6 in leather costs some 20: 400-900 ticks of fishing a run (2026-11-29 22:53-23:24).
 */
export function needsFood(
  know: Knowledge,
  obs: Pick<Observation, "focus" | "skills" | "equipment" | "health" | "maxHealth" | "inventory" | "combatLevel">,
): boolean {
  return foodCounts(obs, know).raw === 0 && shortOfAKill(know, obs);
}

/**
 * Food, cooked or raw, that a fishing trip under `focus melee` stops at: some 10 raw shrimp, half of
 * them burnt at Cooking 1-10, heal ~150 lifepoints, the cost of a few cows at low levels. Before,
 * it fished until the pack was full: 570 and 610 ticks for ~20 shrimp in a run of 16:18, while
 * fighting waited.
 */
export const MELEE_FISH_STOCK = 10;

/**
 * Free slots a fishing trip for food under `focus melee` leaves: a quest's drops to pick up (Hides
 * for the Vats' two cowhides; a trip that filled the pack left them lying in a run of 19:35, and the
 * tanning stage failed).
 */
export const FOOD_TRIP_ROOM = 3;

/**
 * Whether a fishing trip for food has enough: `lifepoints` of food, cooked or raw at its expected
 * worth (rawWorth), when it fishes for a quest (provisionTarget); else MELEE_FISH_STOCK pieces.
 */
export function enoughFood(obs: Pick<Observation, "inventory" | "skills">, know: Knowledge, lifepoints?: number): boolean {
  if (lifepoints !== undefined) return foodLifepoints(know, obs.inventory) + rawWorth(know, obs) >= lifepoints;
  const { food, raw } = foodCounts(obs, know);
  return food + raw >= MELEE_FISH_STOCK;
}

/** The slots of food it carries (anything that heals) and of raw food it can cook at its level, as the scripted policy counts them. */
export function foodCounts(obs: Pick<Observation, "inventory" | "skills">, know: Knowledge): { food: number; raw: number } {
  const cooking = obs.skills.cooking?.level ?? 1;
  const reg = know.registry;
  return {
    food: obs.inventory.filter((s) => (reg.item(s.itemId)?.healAmount ?? 0) > 0).length,
    raw: obs.inventory.filter((s) => reg.recipes.cooking.some((r) => r.raw === s.itemId && r.level <= cooking)).length,
  };
}

/**
 * The lifepoints a raw item is worth once cooked on a fire at its Cooking level: what the cooked
 * food heals, less the share that burns (src/game/cookingBurn.ts: raw meat at Cooking 5 burns 52 %
 * of the time on a fire). 0 for anything it cannot cook.
 */
export function cookedWorth(know: Knowledge, itemId: string, cooking: number): number {
  const recipe = know.registry.recipes.cooking.find((r) => r.raw === itemId && r.level <= cooking);
  if (recipe === undefined) return 0;
  return (know.registry.item(recipe.cooked)?.healAmount ?? 0) * LIFEPOINTS_PER_HITPOINT * (1 - burnChance(recipe, cooking, "fire"));
}

/** The expected lifepoints of the raw food it carries, once cooked (cookedWorth). */
export function rawWorth(know: Knowledge, obs: Pick<Observation, "inventory" | "skills">): number {
  const cooking = obs.skills.cooking?.level ?? 1;
  return obs.inventory.reduce((n, s) => n + cookedWorth(know, s.itemId, cooking) * s.quantity, 0);
}

/**
 * The lifepoints a slot of fish is worth once cooked (cookedWorth, the mean of what its spot yields:
 * shrimp and anchovies at the net spot), at the best spot its Fishing level reaches with a tool it
 * holds, or with the cheapest tool it would buy when it holds none (a small fishing net); 0 with
 * neither.
 */
export function fishWorth(know: Knowledge, obs: Pick<Observation, "skills" | "inventory" | "equipment">): number {
  const fishing = obs.skills.fishing?.level ?? 1;
  const cooking = obs.skills.cooking?.level ?? 1;
  const held = new Set([...obs.inventory.map((s) => s.itemId), ...Object.values(obs.equipment)]);
  const spots = [...know.registry.resources.values()].filter((r) => r.gathering === "fishing" && r.levelRequired <= fishing && know.resourceSpots.has(r.id));
  const price = (r: (typeof spots)[number]) => (held.has(r.toolRequired) ? 0 : (offerOf(know, r.toolRequired)?.price ?? Infinity));
  const cheapest = Math.min(...spots.map(price));
  let best = 0;
  for (const r of spots) {
    if (price(r) !== cheapest || cheapest === Infinity || r.harvestYield.length === 0) continue;
    best = Math.max(best, r.harvestYield.reduce((n, y) => n + cookedWorth(know, y.itemId, cooking), 0) / r.harvestYield.length);
  }
  return best;
}

/**
 * Lifepoints a point of armour's defence saves a fighter over what is left of its climb once it has
 * coins (after its first quests, some two thirds of the fights): `npm run bench:melee-bound --
 * --armour leather_body,leather_gloves,leather_boots` took 3,031 lifepoints over the whole climb to
 * 2,662 for their +10 (37 a point), on 2026-11-29.
 */
export const LIFEPOINTS_PER_DEFENCE = 24;

/**
 * Under `focus melee`, the least defence a coin a piece of armour is bought for: what the coins buy
 * in food instead (the best store food's lifepoints a coin, a loaf's 40 for 12 at Hobb's), at
 * LIFEPOINTS_PER_DEFENCE. A leather body (+8 for 36 coins, some 190 lifepoints: 5.3 a coin) is
 * bought; a bronze full helm (+4 for 35: 2.7), leather gloves and boots (+1 for 10: 2.4) are not, and
 * their 55 coins are four loaves: a run of 2026-11-30 01:45 bought all four and fished 400 ticks for
 * Hides for the Vats, 20 lifepoints short, with 8 coins left. 0 when no store sells food.
 */
export function meleeArmourFloor(know: Knowledge): number {
  const food = bestFoodOffer(know, undefined);
  return food === undefined ? 0 : food.heal / food.price / LIFEPOINTS_PER_DEFENCE;
}

/** The best food a placed store sells among `targets` (undefined: any), by lifepoints a coin. */
function bestFoodOffer(know: Knowledge, targets: readonly string[] | undefined): { itemId: string; storeId: string; price: number; heal: number } | undefined {
  const placed = new Set(know.keepers.map((k) => k.storeId));
  let best: { itemId: string; storeId: string; price: number; heal: number } | undefined;
  for (const store of know.registry.stores.values()) {
    if (!placed.has(store.id)) continue;
    for (const offer of store.items) {
      const heal = (know.registry.item(offer.itemId)?.healAmount ?? 0) * LIFEPOINTS_PER_HITPOINT;
      if (heal <= 0 || (targets !== undefined && !targets.includes(offer.itemId)) || offer.price <= 0) continue;
      if (best === undefined || heal / offer.price > best.heal / best.price) best = { itemId: offer.itemId, storeId: store.id, price: offer.price, heal };
    }
  }
  return best;
}

/**
 * How many of a store's food its coins buy, up to `most`: the price rises as the stock falls
 * (src/game/store.ts purchaseCost, from the stock the store is listed with: about 3 % an item at
 * the general store), so five loaves cost 62 coins, not 60 (a purchase of five for 60 coins was
 * refused "You don't have enough coins." in a run of 19:45).
 */
function affordable(know: Knowledge, offer: { itemId: string; storeId: string }, coins: number, most: number): number {
  const store = know.registry.stores.get(offer.storeId);
  const item = know.registry.item(offer.itemId);
  const listed = store?.items.find((i) => i.itemId === offer.itemId);
  if (store === undefined || item === undefined || listed === undefined) return 0;
  let n = 0;
  while (n < most && purchaseCost(store, item, listed.stockQuantity, n + 1) <= coins) n++;
  return n;
}

/** Whether a quest is open to it: under way, or not started with the quests and levels it requires. */
export function questOpen(know: Knowledge, obs: Pick<Observation, "quests" | "skills">, questId: string): boolean {
  const status = new Map((obs.quests ?? []).map((q) => [q.id, q.status]));
  if (status.get(questId) === "in_progress") return true;
  const quest = know.registry.quests.quests.get(questId);
  if (quest === undefined || status.get(questId) === "completed") return false;
  const done = quest.requirements.quests.every((q) => status.get(q) === "completed");
  const level = (skill: string) => obs.skills[skill === "defence" ? "defense" : skill]?.level ?? 1;
  return done && Object.entries(quest.requirements.skills).every(([skill, lvl]) => level(skill) >= (lvl ?? 1));
}

/** A quest's food to lay in: the quest, and the lifepoints of food it lacks for its fights (questFoodShort). */
export interface Provision {
  questId: string;
  lifepoints: number;
}

/**
 * Under `focus melee`, the open quest serving the focus (meleeQuestValue, best first) whose fights
 * it could win with food it lacks now (questFoodShort above 0), when that food fits one trip: its
 * free slots, filled with the best food its coins buy and then with raw fish at their cooked worth
 * (fishWorth). Undefined when none, and while a better weapon or armour is affordable (bought
 * first). A quest whose food would not fit waits for levels: Tusks in the Hollow's boars lack some
 * 820 lifepoints at 3/2/2 with a bronze sword alone, 400 at 3/4/2 where the aggressive style hits 2,
 * 240 at 5/8/6 (570, 265 and 135 in bronze armour); 477 laid in at 3/4/2 took ~1,300 ticks of
 * fishing and cooking in a run of 19:22, where one trip's ~180 lifepoints (15 slots of shrimp at
 * Cooking 5) take ~450.
 */
export function questProvision(know: Knowledge, obs: FighterObs & Pick<Observation, "coins" | "freeSlots">): Provision | undefined {
  if (obs.focus !== "melee") return undefined;
  // Gear first: a better weapon or armour it can afford cuts the food the fights need (scripted.ts MELEE_GEAR_SCORE).
  const forSale = [...know.registry.stores.values()].flatMap((s) => s.items.map((i) => i.itemId));
  if (weaponUpgrade(know, obs, forSale) !== undefined || armourUpgrade(know, obs, forSale, meleeArmourFloor(know)) !== undefined) return undefined;
  const offer = bestFoodOffer(know, undefined);
  const free = Math.max(0, obs.freeSlots - FOOD_TRIP_ROOM);
  const bought = offer === undefined ? 0 : affordable(know, offer, obs.coins - questFees(know, obs), free);
  // What one trip fills its pack with, FOOD_TRIP_ROOM left: the loaves its coins buy, raw fish in
  // the rest at their cooked worth (what burns counted), and the raw food it carries.
  const room = bought * (offer?.heal ?? 0) + (free - bought) * fishWorth(know, obs) + rawWorth(know, obs);
  let best: (Provision & { value: number }) | undefined;
  for (const quest of know.registry.quests.quests.values()) {
    if (!questOpen(know, obs, quest.id)) continue;
    const value = meleeQuestValue(know, obs, quest.id);
    if (value <= 0 || (best !== undefined && value <= best.value)) continue;
    const entry = (obs.quests ?? []).find((q) => q.id === quest.id);
    const short = questFoodShort(know, obs, quest.id, entry?.status === "in_progress" ? entry.stage : undefined);
    if (short > 0 && short <= room) best = { questId: quest.id, lifepoints: Math.ceil(short), value };
  }
  return best === undefined ? undefined : { questId: best.questId, lifepoints: best.lifepoints };
}

/** The lifepoints of food still to get for a provision: what it lacks less the raw food it carries, at its cooked worth. */
export function provisionShort(
  know: Knowledge,
  obs: FighterObs & Pick<Observation, "coins" | "freeSlots">,
): { provision: Provision; lifepoints: number } | undefined {
  const provision = questProvision(know, obs);
  if (provision === undefined) return undefined;
  return { provision, lifepoints: Math.max(0, provision.lifepoints - rawWorth(know, obs)) };
}

/**
 * The food, cooked and raw at its cooked worth, a fishing trip under `focus melee` stops at when it
 * fishes for a quest (provisionShort): what it carries now and what it lacks, or an ordinary trip's
 * MELEE_FISH_STOCK catches when it lacks less (a trip of two shrimp for 18 lifepoints, the walk
 * there and back for them, in a run of 19:22). Undefined otherwise (then MELEE_FISH_STOCK pieces:
 * enoughFood).
 */
export function provisionTarget(know: Knowledge, obs: FighterObs & Pick<Observation, "coins" | "freeSlots">): number | undefined {
  const short = provisionShort(know, obs);
  if (short === undefined || short.lifepoints <= 0) return undefined;
  const worth = fishWorth(know, obs);
  return foodLifepoints(know, obs.inventory) + rawWorth(know, obs) + Math.max(short.lifepoints + burnSpread(short.lifepoints, worth), MELEE_FISH_STOCK * worth);
}

/**
 * One standard deviation of what the burns take from raw fish cooked for `lifepoints`, each catch
 * worth `worth` on average, at half of them burnt (Cooking 1-15 on a fire burns 45-60 %: then a
 * catch's spread is its mean, and n of them spread √n times it): the margin a provisioning trip
 * fishes beyond what it lacks. Without it, a trip laid in what Tusks in the Hollow lacked at its
 * expected worth, the burns took more, and a second trip of ~200 ticks went for 14 lifepoints in
 * two of four runs of 02:37.
 */
export function burnSpread(lifepoints: number, worth: number): number {
  return worth > 0 ? Math.sqrt(lifepoints * worth) : 0;
}

/** Food bought at most in one trip under `focus melee` while hurt (a few fights' worth at low levels). */
export const MELEE_FOOD_BUY = 8;
/** Fewer than this is no trip worth making to a store while hurt (a quest's food is bought to the loaf). */
const MIN_FOOD_BUY = 2;

/**
 * Under `focus melee`, the food to buy with its coins: hurt with little to eat and nothing raw to
 * cook (needsFood), as many as its coins and free slots allow up to MELEE_FOOD_BUY; or the food a
 * quest's fights lack (provisionShort), to the last piece its coins buy. The store food healing the
 * most lifepoints a coin among `targets` (the server's shopping goal). Bread heals 40 lifepoints for
 * 12 coins at Hobb's; a shrimp caught and cooked at Fishing and Cooking 1-5 took some 50 ticks for
 * 30 (one in ~25 ticks caught, half burnt: the runs of 2026-11-29 15:47-16:24), while a cow at
 * Defence 1 takes 0.55 lifepoints a tick.
 */
export function foodPurchase(
  know: Knowledge,
  obs: FighterObs & Pick<Observation, "coins" | "freeSlots">,
  targets: readonly string[],
): { itemId: string; storeId: string; price: number; quantity: number; questId?: string } | undefined {
  const hurt = needsFood(know, obs);
  const short = provisionShort(know, obs);
  if (!hurt && (short === undefined || short.lifepoints <= 0)) return undefined;
  const best = bestFoodOffer(know, targets);
  if (best === undefined) return undefined;
  // The fees of its quests' make stages kept (questFees: Hides for the Vats' tanning).
  const afford = affordable(know, best, obs.coins - questFees(know, obs), obs.freeSlots);
  const forQuest = short === undefined ? 0 : Math.min(afford, Math.ceil(short.lifepoints / best.heal));
  const forHurt = hurt ? Math.min(MELEE_FOOD_BUY, afford) : 0;
  if (forQuest > 0 && forQuest >= forHurt)
    return { itemId: best.itemId, storeId: best.storeId, price: best.price, quantity: forQuest, questId: short!.provision.questId };
  return forHurt < MIN_FOOD_BUY ? undefined : { itemId: best.itemId, storeId: best.storeId, price: best.price, quantity: forHurt };
}
