/**
 * The default brain: a utility policy a player would recognise, offline and deterministic under a
 * seed. Each available goal gets a score from the agent's state; the best one wins (a little seeded
 * noise breaks ties and varies agents). In order of urgency: bank a full inventory (or cook or burn
 * what fills it), buy a missing tool when it has the coins, train the weakest skill it can, fight
 * when healthy, explore when nothing else fits; an owner's focus (focus.ts) lifts the goals that serve it. A goal that just failed is not tried again at once,
 * and a place found crowded (everything taken by others it could see) is remembered for the last
 * CROWD_MEMORY goals: it trains elsewhere, as a player would, rather than queue with the crowd. A
 * quest that stalled twice lately waits below training in the same way, and a skill level a quest
 * asks for raises the goal that trains it (questChoice.ts).
 */
import { countOf, nameOf, type Knowledge } from "../knowledge.ts";
import type { Brain, GoalChoice, GoalOption, Observation } from "./Brain.ts";
import { armourUpgrade, bestMonster, runePurchase, weaponUpgrade } from "./fighting.ts";
import { focusBonus } from "./focus.ts";
import { magicChoice } from "./magicFocus.ts";
import { makingReserve, makingScore, makingToolPurchases, tierUpgrade } from "./makingChoice.ts";
import { cookForFight, foodPurchase, meleeArmourFloor, needsFood, provisionShort, shortOfAKill } from "./meleeFood.ts";
import { needText, QUEST_TRAINING, questNeedFor, questScore } from "./questChoice.ts";
import {
  anvilPays,
  makingRocks,
  HIDE_BUY_SCORE,
  hideGoods,
  hidePurchase,
  hidesWanted,
  makingCombat,
  makingInputs,
  makingPurse,
  makingShortOfCoins,
  makingStuck,
} from "./makingFocus.ts";

import { Random } from "./random.ts";
import { saleTrip, type Keep } from "./selling.ts";

/** A tool that training a skill needs, and where it is sold. */
export interface ToolPurchase {
  skill: string;
  itemId: string;
  storeId: string;
  price: number;
  /** A tool of making (a hammer, a knife): the inputs of one of its recipes, any of which it should carry before buying it. */
  inputs?: string[];
}

/** For each gathering skill, the cheapest tool a store sells for its easiest resource. */
export function toolPurchases(know: Knowledge): ToolPurchase[] {
  const out: ToolPurchase[] = [];
  for (const skill of ["woodcutting", "mining", "fishing"]) {
    const nodes = [...know.registry.resources.values()].filter((r) => r.gathering === skill).sort((a, b) => a.levelRequired - b.levelRequired);
    const tool = nodes[0]?.toolRequired;
    if (tool === undefined) continue;
    const offers = [...know.registry.stores.values()].flatMap((s) => s.items.filter((i) => i.itemId === tool).map((i) => ({ storeId: s.id, price: i.price })));
    offers.sort((a, b) => a.price - b.price);
    if (offers[0] !== undefined) out.push({ skill, itemId: tool, ...offers[0] });
  }
  return [...out, ...makingToolPurchases(know)];
}

/**
 * Melee skills below this level make fighting its first goal (Attack, Strength and Defence 10: the
 * ladder's melee milestone); past it, combat weighs less with every level, as gathering does.
 */
export const MELEE_FOCUS = 10;
/**
 * A better melee weapon's score: above fighting on with the one it holds (at most 85; every later
 * blow gains from it), with the tools (85) and the first quest (86).
 */
export const WEAPON_SCORE = 86;
/**
 * Under `focus melee`, a better weapon or armour it can afford (meleeGear): with the focus's bonus
 * (112) above a quest serving the focus (107) by more than the choice's noise (5), since its fights
 * cost less food with it: Hides for the Vats was fought unarmed at 2/1/1 with 167 coins in hand,
 * and lost, in a run of 19:22.
 */
export const MELEE_GEAR_SCORE = 97;
/**
 * Cooking for the next fight under `focus melee` (meleeFocus.ts cookForFight): with the focus's
 * bonus (99) above fighting on with no food (at most 94 + 15), below a quest serving the focus (101).
 */
export const COOK_FOR_FIGHT = 84;
/**
 * Fishing for food under `focus melee` short of a kill (meleeFood.ts needsFood): with the focus's
 * bonus (93) above a quest besides the focus (86) and making, below cooking a load (95).
 */
export const FISH_FOR_FOOD = 78;
/**
 * Laying in the food a quest's fights need under `focus melee` (meleeFood.ts questProvision):
 * fishing for it with the focus's bonus (103) above a fight by more than the choice's noise (5)
 * from melee 2 (at most 80 − 2 + 6 + 15); buying it (PROVISION_BUY) and cooking it (as a full
 * load, 95) above fishing by as much. The quest itself (107) is not offered until the food is in hand.
 */
export const PROVISION_SCORE = 88;
export const PROVISION_BUY = PROVISION_SCORE + 5;
/** Buying food under `focus melee` while hurt with nothing to eat (meleeFocus.ts foodPurchase): with the focus's bonus above fishing for it (FISH_FOR_FOOD, 78) by more than the choice's noise (5). */
export const BUY_FOOD = 84;
/**
 * Under `focus melee`, with this many free slots or fewer it banks before fighting or fishing on:
 * a pack of hides, logs and quest items left one or two slots, and fishing for food ended after a
 * catch or two (runs of 12:32: fishing goals of 40 ticks, then a fight with two shrimp).
 */
export const MELEE_ROOM = 6;
/** Banking for room under `focus melee`: above a fight (at most 105 with the bonus at melee 1, ~96-101 from melee 5), below a melee quest (107). */
export const MELEE_BANK_SCORE = 102;
/**
 * Mining for the anvil's coins under `focus making` while it wants hides it cannot buy (makingFocus.ts
 * anvilPays): with the focus's bonus (85) above training other skills, below a quest (86-88) and making (90).
 */
export const ANVIL_MINING = 70;
/** A sale worth fewer coins than this is no trip worth making (the inventory is banked instead). */
export const MIN_SALE_COINS = 3;

/** How many of the last goals a crowded spot is remembered for (a fishing trip is three: fish, cook, bank). */
export const CROWD_MEMORY = 10;

export class ScriptedBrain implements Brain {
  readonly name = "scripted";
  private readonly rng: Random;
  private readonly know: Knowledge;

  constructor(know: Knowledge, seed: string) {
    this.know = know;
    this.rng = new Random(seed);
    const raw = new Set(know.registry.recipes.cooking.map((r) => r.raw));
    const inputs = makingInputs(know);
    const logs = new Set(know.registry.recipes.firemaking.map((r) => r.log));
    // What it never sells: raw food (it cooks it), and under a making focus the inputs of its chains.
    // Stuck without a coin for the tanner or a thread, it sells those inputs too (makingFocus.ts makingStuck).
    // Under `focus melee`, logs: a fire at the cows' field to cook its meat on (cooking.ts Cook).
    this.keep = (itemId) => raw.has(itemId) || (this.focus === "making" && !this.stuck && inputs.has(itemId)) || (this.focus === "melee" && logs.has(itemId));
  }

  /** Items it keeps rather than sells (selling.ts): raw food, which it cooks (and more under a focus: see the constructor). */
  readonly keep: Keep;
  /** The focus of the last observation it chose from (what `keep` holds back depends on it). */
  private focus: Observation["focus"];
  /** Whether the last observation found a focused maker stuck for coins (makingFocus.ts). */
  private stuck = false;

  async chooseGoal(obs: Observation): Promise<GoalChoice> {
    return this.choose(obs);
  }

  /** The same choice, synchronously (the runtime's fallback path). */
  choose(obs: Observation): GoalChoice {
    this.focus = obs.focus;
    this.stuck = makingStuck(obs, this.know);
    let best: (GoalChoice & { score: number }) | undefined;
    for (const option of obs.availableGoals) {
      const scored = this.score(option, obs);
      if (scored === undefined) continue;
      const score = scored.score + focusBonus(scored, obs, this.know) + this.rng.next() * 5 - this.penalty(option.type, scored.target, obs);
      if (best === undefined || score > best.score) best = { ...scored, score };
    }
    if (best === undefined) return { type: "idle", reason: "nothing to do" };
    return { type: best.type, target: best.target, reason: best.reason };
  }

  /**
   * A goal that failed in the last three is not tried again at once; one found crowded not for
   * CROWD_MEMORY goals, and every crowd met in a kind of goal (rats taken, then toads) makes the
   * whole kind less inviting for as long.
   */
  private penalty(type: string, target: string | undefined, obs: Observation): number {
    let p = 0;
    obs.recentGoals.slice(0, CROWD_MEMORY).forEach((g, i) => {
      // A fight left for want of food is no reason to fight less: it heals (cooks) and fights on.
      if (g.type !== type || g.outcome !== "failed" || g.fled === true) return;
      const same = target === undefined || g.target === undefined || g.target === target;
      if (same && (i < 3 || g.crowded === true)) p += 60;
      // Under `focus melee` a crowd at one spawn is no reason to fight less: the crowded monster is
      // left out (uncrowded) and the next best fought (a run of 12:13 took four other quests and
      // 600 ticks of making after the cows were found crowded, its combat 30 down).
      else if (g.crowded === true && !(obs.focus === "melee" && type === "combat")) p += 30;
    });
    return p;
  }

  /** Of a goal's targets, those not found crowded in the last CROWD_MEMORY goals; all of them when none is left. */
  private uncrowded<T>(type: string, targets: readonly T[], id: (t: T) => string, obs: Observation): T[] {
    const recent = obs.recentGoals.slice(0, CROWD_MEMORY);
    const free = targets.filter((t) => !recent.some((g) => g.crowded === true && g.type === type && g.target === id(t)));
    return free.length > 0 ? free : [...targets];
  }

  private score(option: GoalOption, obs: Observation): (GoalChoice & { score: number }) | undefined {
    // Under the magic focus, its own say first (magicFocus.ts): the staff, essence, runes in pairs, casting.
    if (obs.focus === "magic") {
      const magic = magicChoice(option, obs, this.know, (o) => this.ordinary(o, obs));
      if (magic !== undefined) return magic ?? undefined;
    }
    return this.ordinary(option, obs);
  }

  private ordinary(option: GoalOption, obs: Observation): (GoalChoice & { score: number }) | undefined {
    const count = (test: (itemId: string) => boolean) => obs.inventory.filter((s) => test(s.itemId)).length;
    const reg = this.know.registry;
    const raw = count((id) => reg.recipes.cooking.some((r) => r.raw === id && r.level <= (obs.skills.cooking?.level ?? 1)));
    const logs = count((id) => reg.recipes.firemaking.some((r) => r.log === id && r.level <= (obs.skills.firemaking?.level ?? 1)));
    const food = count((id) => (reg.item(id)?.healAmount ?? 0) > 0);
    const healthy = obs.health >= obs.maxHealth * 0.7;
    const full = obs.freeSlots === 0;
    const level = (skill: string) => obs.skills[skill]?.level ?? 1;
    switch (option.type) {
      case "banking":
        return full
          ? { type: "banking", score: 90, reason: "the inventory is full" }
          : obs.focus === "melee" && obs.freeSlots <= MELEE_ROOM && this.bankable(obs) >= 3
            ? { type: "banking", score: MELEE_BANK_SCORE, reason: `room for food (${obs.freeSlots} free)` }
            : obs.freeSlots <= 2
              ? { type: "banking", score: 45, reason: "the inventory is nearly full" }
              : undefined;
      case "cooking":
        if (raw === 0) return undefined;
        // Hurt with nothing to eat: cook before it can fight again. Under `focus melee`, cook the
        // meat the cows drop before fighting on with little food (meleeFood.ts cookForFight), and
        // the food laid in for a quest's fights before it sets out (meleeFood.ts provisionShort).
        return {
          type: "cooking",
          score:
            full || raw >= 8
              ? 95
              : provisionShort(this.know, obs) !== undefined
                ? 95
                : !healthy && food === 0
                  ? 80
                  : cookForFight(obs, food, raw) || shortOfAKill(this.know, obs)
                    ? COOK_FOR_FIGHT
                    : 30 + raw,
          reason: `${raw} raw food to cook`,
        };
      case "firemaking":
        if (logs === 0) return undefined;
        // Burning logs trains firemaking; banking keeps them. Burn when firemaking lags woodcutting.
        return { type: "firemaking", score: (full ? 70 : 20) + (level("woodcutting") - level("firemaking")) * 4, reason: `${logs} logs to burn` };
      case "shopping": {
        // Under `focus melee`, its coins go to a better weapon, then to armour, before any tool.
        if (obs.focus === "melee") {
          const gear = this.meleeGear(obs, option.targets);
          if (gear !== undefined) return gear;
          // Hurt with nothing to eat, or short of a quest's food: food bought, before fishing for it (meleeFood.ts foodPurchase).
          const food = foodPurchase(this.know, obs, option.targets);
          if (food !== undefined)
            return {
              type: "shopping",
              target: food.itemId,
              score: food.questId !== undefined ? PROVISION_BUY : BUY_FOOD,
              reason:
                food.questId !== undefined
                  ? `buy ${countOf(this.know, food.quantity, food.itemId)} for ${food.quantity * food.price}: food for ${nameOf(this.know, food.questId)}`
                  : `buy ${countOf(this.know, food.quantity, food.itemId)} for ${food.quantity * food.price} (${obs.health}/${obs.maxHealth}, nothing to eat)`,
            };
        }
        // Under `focus melee` no coins are kept for making.
        const reserve = obs.focus === "melee" ? 0 : makingReserve(this.know, obs);
        const buy = toolPurchases(this.know).find(
          (t) =>
            option.targets.includes(t.itemId) &&
            // Under `focus melee` only the net that catches its food: a needle and thread took the
            // coins for one in a run of 12:25 (hurt, nothing to eat, nothing to fish with).
            (obs.focus !== "melee" || t.skill === "fishing") &&
            // A gathering tool leaves the coins for the tools of making what it gathers already (makingChoice.ts).
            obs.coins >= t.price + (t.inputs === undefined && obs.focus !== "melee" ? reserve + makingPurse(obs, this.know, t.itemId) : 0) &&
            !obs.inventory.some((s) => s.itemId === t.itemId) &&
            !Object.values(obs.equipment).includes(t.itemId) &&
            // A tool of making only once it carries something to make with it.
            (t.inputs === undefined || obs.inventory.some((s) => t.inputs!.includes(s.itemId))),
        );
        if (buy !== undefined)
          return { type: "shopping", target: buy.itemId, score: 85, reason: `no ${nameOf(this.know, buy.itemId)} for ${buy.skill}; it costs ${buy.price}` };
        // A focused maker buys a load of hides rather than fight cows for them (makingFocus.ts).
        const hides = hidePurchase(obs, this.know, option.targets);
        if (hides !== undefined)
          return {
            type: "shopping",
            target: hides.itemId,
            score: HIDE_BUY_SCORE,
            reason: `buy ${countOf(this.know, hides.quantity, hides.itemId)} at ${hides.price} for Crafting`,
          };
        // A better melee weapon than it holds, once it has the coins (fighting.ts weaponUpgrade).
        const weapon = this.weaponChoice(obs, option.targets);
        if (weapon !== undefined) return weapon;
        const better = tierUpgrade(this.know, obs, option.targets);
        if (better !== undefined)
          return {
            type: "shopping",
            target: better.itemId,
            score: 80,
            reason: `a better tool for ${better.skill}: ${nameOf(this.know, better.itemId)} for ${better.price}`,
          };
        // No runes for any spell, and coins to spare for many casts: runes, to train Magic in its fights.
        const runes = runePurchase({ skills: obs.skills, inventory: obs.inventory, weaponId: obs.equipment.weapon, coins: obs.coins }, this.know);
        const rune = runes?.items.find((i) => option.targets.includes(i.itemId));
        if (runes === undefined || rune === undefined) return undefined;
        const spell = this.know.registry.magic.spells.get(runes.spellId)!;
        return {
          type: "shopping",
          target: rune.itemId,
          score: 88,
          reason: `runes for ${rune.quantity / spell.runes.find((r) => r.runeId === rune.itemId)!.quantity} casts of ${spell.name}; they cost ${runes.cost}`,
        };
      }
      case "making":
        // Under `focus melee` no making (its quests make what they need themselves): a tanning
        // goal stalled 600 ticks in the 12:13 and 12:25 runs while the fighter healed.
        if (obs.focus === "melee") return undefined;
        return makingScore(option, obs, this.know);
      case "selling": {
        // Surplus a placed store pays for: sold when the inventory fills (before banking it), or on
        // the way when worth a trip (coins buy runes and tools).
        const trip = saleTrip(obs.inventory, this.know, obs.position, this.keep);
        if (trip === undefined || !option.targets.includes(trip.storeId) || trip.coins < MIN_SALE_COINS) return undefined;
        // A focused maker short of coins (makingFocus.ts) sells what pays for a trip before that.
        const short = makingShortOfCoins(obs) && trip.coins >= 10;
        // ... and first of all when the sale pays for a load of hides it cannot buy now.
        const forHides =
          short &&
          hidePurchase(obs, this.know, hideGoods(this.know, obs)) === undefined &&
          hidePurchase({ ...obs, coins: obs.coins + trip.coins }, this.know, hideGoods(this.know, obs)) !== undefined;
        const score = full
          ? 91
          : makingStuck(obs, this.know)
            ? 85
            : forHides
              ? HIDE_BUY_SCORE
              : obs.freeSlots <= 2 || short
                ? 50
                : trip.coins >= 20
                  ? 40
                  : undefined;
        if (score === undefined) return undefined;
        return {
          type: "selling",
          target: trip.storeId,
          score,
          reason: `sell ${trip.itemIds.map((id) => nameOf(this.know, id)).join(", ")} (about ${trip.coins} coins)`,
        };
      }
      case "quest":
        return questScore(option, obs, this.know);
      case "woodcutting":
      case "mining":
      case "fishing": {
        if (full) return undefined;
        // Of equal levels, the one whose yield it carries least (tin after copper: a bar takes both).
        const carried = (id: string) =>
          (reg.resources.get(id)?.harvestYield ?? []).reduce(
            (n, y) => n + obs.inventory.filter((s) => s.itemId === y.itemId).reduce((m, s) => m + s.quantity, 0),
            0,
          );
        // The most rewarding resource the server says it can gather (they are listed by the server
        // as usable), not one found crowded lately while another is left.
        // A focused maker mines the ores it can smelt at its Smithing level (makingFocus.ts makingRocks).
        const targets: string[] = option.type === "mining" ? makingRocks(option.targets, obs, this.know) : option.targets;
        const target = this.uncrowded(option.type, targets, (t) => t, obs).sort(
          (a, b) => (reg.resources.get(b)?.levelRequired ?? 0) - (reg.resources.get(a)?.levelRequired ?? 0) || carried(a) - carried(b),
        )[0];
        // A quest asks for a level it lacks: it trains toward it first (questChoice.ts).
        const need = questNeedFor(option.type, obs, this.know);
        if (need !== undefined) return { type: option.type, target, score: QUEST_TRAINING, reason: `train ${option.type} ${needText(need, obs)}` };
        // Under `focus melee`, short of a kill's cost: fish for food (meleeFood.ts needsFood); short of
        // the food a quest's fights need: fish for that, above any fight (meleeFood.ts provisionShort).
        const provision = option.type === "fishing" ? provisionShort(this.know, obs) : undefined;
        if (provision !== undefined && provision.lifepoints > 0)
          return {
            type: "fishing",
            target,
            score: PROVISION_SCORE,
            reason: `fish for food for ${nameOf(this.know, provision.provision.questId)} (${provision.lifepoints} lifepoints short)`,
          };
        if (option.type === "fishing" && needsFood(this.know, obs))
          return { type: "fishing", target, score: FISH_FOR_FOOD, reason: `fish for food (${food} to eat)` };
        // A focused maker wanting hides it cannot buy mines for the anvil's coins instead of fighting for them (makingFocus.ts anvilPays).
        if (option.type === "mining" && hidesWanted(obs, this.know) && anvilPays(obs, this.know) && 60 - level("mining") < ANVIL_MINING)
          return { type: "mining", target, score: ANVIL_MINING, reason: `mine for bars to sell for hides (mining ${level("mining")})` };
        return { type: option.type, target, score: 60 - level(option.type), reason: `train ${option.type} (level ${level(option.type)})` };
      }
      case "combat": {
        // Under `focus melee`, any fight it can finish, kill by kill (meleeFood.ts shortOfAKill): food first otherwise.
        // Else, hurt, it fights on with food to eat (the runtime eats below half its health); without, it heals first.
        if (full || (obs.focus === "melee" ? shortOfAKill(this.know, obs) : !(healthy || (food > 0 && obs.health >= obs.maxHealth * 0.4)))) return undefined;
        // The monster giving the most experience a tick at its levels that it can take the hits of
        // (fighting.ts bestMonster); of those, not one whose spawn it found crowded lately.
        const mobs = this.uncrowded("combat", option.targets, (m) => m, obs);
        // A focused maker fights only for hides (makingFocus.ts); otherwise the best monster.
        const forMaking = makingCombat(mobs, obs, this.know);
        const target = forMaking === undefined ? bestMonster(mobs, obs.skills, obs.combatLevel, obs.maxHealth, this.know) : (forMaking ?? undefined);
        if (target === undefined) return undefined;
        // Its melee skills below MELEE_FOCUS: fighting comes before gathering (60 − level) and making (70).
        const melee = Math.min(level("attack"), level("strength"), level("defense"));
        const score = (melee < MELEE_FOCUS ? 80 - melee : 70 - melee) + Math.min(food, 3) * 2;
        // A quest asks for a melee level it lacks (Attack 3, Defence 5): fighting comes first, for it.
        const need = questNeedFor("combat", obs, this.know);
        if (need !== undefined && score < QUEST_TRAINING)
          return { type: "combat", target, score: QUEST_TRAINING, reason: `fight ${nameOf(this.know, target)} ${needText(need, obs)}` };
        return {
          type: "combat",
          target,
          score,
          reason: `fight ${nameOf(this.know, target)} (melee ${level("attack")}/${level("strength")}/${level("defense")})`,
        };
      }
      case "explore":
        return { type: "explore", target: this.rng.pick(option.targets), score: 10, reason: "nothing better to do" };
      case "idle":
        return { type: "idle", score: 1, reason: "rest" };
      default:
        return undefined;
    }
  }

  /** Slots a melee trainer's bank trip frees: neither food (cooked or raw), a kept item (tool, gear) nor coins. */
  private bankable(obs: Observation): number {
    const reg = this.know.registry;
    return obs.inventory.filter(
      (s) =>
        s.itemId !== "coins" &&
        !this.know.keep.has(s.itemId) &&
        (reg.item(s.itemId)?.healAmount ?? 0) === 0 &&
        !reg.recipes.cooking.some((r) => r.raw === s.itemId),
    ).length;
  }

  /** A better melee weapon than it holds, once it has the coins (fighting.ts weaponUpgrade), as a shopping choice. */
  private weaponChoice(obs: Observation, targets: readonly string[]): (GoalChoice & { score: number }) | undefined {
    const weapon = weaponUpgrade(this.know, obs, targets);
    if (weapon === undefined) return undefined;
    return { type: "shopping", target: weapon.itemId, score: WEAPON_SCORE, reason: `a better weapon: ${nameOf(this.know, weapon.itemId)} for ${weapon.price}` };
  }

  /**
   * A better melee weapon than it holds once it has the coins (fighting.ts weaponUpgrade); holding
   * one, the armour adding the most defence a coin (fighting.ts armourUpgrade).
   */
  private meleeGear(obs: Observation, targets: readonly string[]): (GoalChoice & { score: number }) | undefined {
    const weapon = this.weaponChoice(obs, targets);
    if (weapon !== undefined) return { ...weapon, score: MELEE_GEAR_SCORE };
    // Armour worth less than the food its coins buy is left (meleeFood.ts meleeArmourFloor).
    const armour = armourUpgrade(this.know, obs, targets, meleeArmourFloor(this.know));
    if (armour !== undefined)
      return { type: "shopping", target: armour.itemId, score: MELEE_GEAR_SCORE, reason: `armour: ${nameOf(this.know, armour.itemId)} for ${armour.price}` };
    return undefined;
  }

  async reply(message: string): Promise<string> {
    return `I don't know "${message.slice(0, 60)}". Try: stop, resume, follow <name>, go to bank, go home, chop trees, fish, mine, fight <monster>, cook, light fires, explore, focus melee|magic|making|quests|off, status.`;
  }
}
