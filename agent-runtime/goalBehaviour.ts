/**
 * The behaviour that carries out a goal the agent took (its own choice or its owner's): which
 * resource, monster, store, recipe or quest, and how its focus shapes it (brain/*Focus.ts). Split
 * from Agent.ts, which decides when; this decides how.
 */

import type { ServerEvent } from "../src/game/serverEvents.ts";
import type { AgentView } from "./AgentView.ts";
import { Bank, Cook, Explore, Fight, Firemake, Gather, Idle, lightableLogs, Shop, type Behaviour } from "./brain/behaviours.ts";
import type { Observation } from "./brain/Brain.ts";
import { kitOf, runePurchase } from "./brain/fighting.ts";
import type { Focus } from "./brain/focus.ts";
import { CASTER_FOOD, casterKeep, staffForSpell, staffSale } from "./brain/magicFocus.ts";
import { Make } from "./brain/making.ts";
import { offerOf } from "./brain/makingChoice.ts";
import { HIDE_LOAD, hidePurchase, hidesCarried, tanningDue, threadsFor } from "./brain/makingFocus.ts";
import { enoughFood, FOOD_TRIP_ROOM, foodPurchase, provisionTarget, shortOfAKill } from "./brain/meleeFood.ts";
import { MELEE_LOGS_KEPT, meleeLoot, meleeQuestSkill, pendingQuestXp, questMakeInputs } from "./brain/meleeFocus.ts";
import { QuestGoal } from "./brain/quest.ts";
import { toolPurchases } from "./brain/scripted.ts";
import { Sell, type Keep } from "./brain/selling.ts";
import type { Knowledge } from "./knowledge.ts";

/** A goal the server gave the agent (`agent:goal`). */
export type Goal = NonNullable<ServerEvent<"agent:goal">["goal"]>;

/** Food (cooked or raw) a fighter under `focus melee` keeps when it banks for room. */
export const MELEE_FOOD_KEPT = 12;

/** What the agent tells the behaviour it starts: what it knows and sees, its focus, and what it keeps from sales. */
export interface GoalSource {
  know: Knowledge;
  view: AgentView;
  focus: Focus | undefined;
  observation(): Observation;
  keep: Keep;
}

export function behaviourFor(goal: Goal, agent: GoalSource): Behaviour {
  const know = agent.know;
  const focus = agent.focus;
  const bestResource = (skill: string) =>
    [...know.registry.resources.values()]
      .filter(
        (r) =>
          r.gathering === skill &&
          r.levelRequired <= (agent.view.self?.skills[skill]?.level ?? 1) &&
          agent.view.has(r.toolRequired) &&
          know.resourceSpots.has(r.id),
      )
      .sort((a, b) => b.levelRequired - a.levelRequired)[0]?.id;
  switch (goal.type) {
    case "woodcutting":
    case "mining":
    case "fishing": {
      // Under `focus melee` it fishes for food, and stops with enough for the next fights, or for
      // the quest it lays food in for (brain/meleeFood.ts provisionTarget: reckoned as it sets out).
      const target = goal.type === "fishing" && focus === "melee" ? provisionTarget(know, agent.observation()) : undefined;
      return new Gather(
        goal.type,
        goal.target ?? bestResource(goal.type) ?? "",
        goal.type === "fishing" && focus === "melee" ? () => enoughFood(agent.view.self!, know, target) || agent.view.freeSlots() <= FOOD_TRIP_ROOM : undefined,
      );
    }
    case "combat": {
      const mob =
        goal.target ??
        [...know.mobSpots.keys()].sort((a, b) => (know.registry.npcs.get(a)?.stats?.level ?? 1) - (know.registry.npcs.get(b)?.stats?.level ?? 1))[0];
      // Under `focus melee`, a melee level a quest asks for is trained first (brain/meleeFocus.ts);
      // under the magic focus a fight that casts ends with its runes: it crafts more rather than melee (brain/magicFocus.ts).
      return new Fight(mob ?? "", {
        trainFirst: meleeQuestSkill(agent.observation(), know),
        castOnly: focus === "magic",
        pendingXp: focus === "melee" ? pendingQuestXp(know, agent.observation()) : undefined,
        loot: focus === "melee" ? meleeLoot(know, agent.observation()) : undefined,
        stopBefore:
          focus === "melee"
            ? () => (shortOfAKill(know, agent.observation()) ? "food first: the next kill costs more than its health and food" : undefined)
            : undefined,
      });
    }
    case "banking":
      // A caster banks all but its pickaxe, staff and spell's runes: loads of essence take the pack (brain/magicFocus.ts).
      // Once the staff is held (before, its quests' fights want the food and tools: the 09:38 run, hurt at a quest's kill stage).
      return focus === "magic" && staffForSpell(kitOf(agent.view.self!), know) === undefined
        ? new Bank(false, { item: casterKeep(know, kitOf(agent.view.self!)), food: CASTER_FOOD })
        : // Under `focus melee` it banks for room and keeps its food, raw meat too (brain/scripted.ts MELEE_ROOM).
          focus === "melee"
          ? new Bank(false, { item: (id) => know.keep.has(id), food: MELEE_FOOD_KEPT }, true, meleeBankKeeps(know, agent.observation()))
          : new Bank();
    case "cooking":
      return new Cook();
    case "firemaking":
      return new Firemake();
    case "shopping": {
      // Runes: for the strongest spell it can afford to cast many times (brain/fighting.ts).
      if (goal.target !== undefined && know.registry.magic.runes.has(goal.target)) {
        const runes = runePurchase(kitOf(agent.view.self!), know);
        return runes === undefined ? new Idle() : new Shop(runes.storeId, runes.items);
      }
      // Hides: a load, as many as its coins pay for with the tanner's fee (brain/makingFocus.ts).
      // With the thread for them, when the store sells both (Tawney's): a load is not stopped half-sewn.
      const obs = agent.observation();
      const hides = goal.target === undefined ? undefined : hidePurchase(obs, know, [goal.target]);
      if (hides !== undefined) {
        const spent = hides.quantity * hides.price;
        const threads = threadsFor(obs, know, hidesCarried(obs, know) + hides.quantity, obs.coins - spent - hides.quantity).filter(
          (t) => offerOf(know, t.itemId)?.storeId === hides.storeId,
        );
        return new Shop(hides.storeId, [{ itemId: hides.itemId, quantity: hides.quantity }, ...threads]);
      }
      // Food: as many as the coins pay for, up to a few fights' worth (brain/meleeFocus.ts).
      const food = goal.target === undefined ? undefined : foodPurchase(know, obs, [goal.target]);
      if (food !== undefined) return new Shop(food.storeId, [{ itemId: food.itemId, quantity: food.quantity }]);
      const buy = toolPurchases(know).find((t) => t.itemId === goal.target) ?? offerOf(know, goal.target) ?? toolPurchases(know)[0];
      if (buy === undefined) return new Idle();
      // A thread under `focus making`: two at a time (ten makes), as its coins allow (brain/makingFocus.ts threadsFor).
      // The tanner's fees for the hides it carries are kept (the 13:00 UTC run: two threads left no coin to tan with).
      const spool = threadsFor(obs, know, HIDE_LOAD, Math.max(buy.price, obs.coins - tanningDue(obs, know))).find((t) => t.itemId === buy.itemId);
      return new Shop(buy.storeId, spool === undefined ? buy.itemId : [spool]);
    }
    case "making":
      return new Make(goal.target);
    case "selling": {
      // A caster short of its staff sells its bow and other skills' tools too (brain/magicFocus.ts staffSale).
      const sale = staffSale(agent.observation(), agent.know);
      const keep = agent.keep;
      return sale === undefined ? new Sell(goal.target ?? "", keep) : new Sell(goal.target ?? "", (id) => keep(id) || sale.keep(id), sale.release);
    }
    case "quest":
      return new QuestGoal(goal.target ?? "");
    case "explore":
      return new Explore(goal.target);
    default:
      return new Idle();
  }
}

/** What a melee trainer's bank trip leaves in the pack besides food and gear: its quests' inputs, and MELEE_LOGS_KEPT logs for a fire to cook on. */
function meleeBankKeeps(know: Knowledge, obs: Observation): Map<string, number> {
  const keeps = questMakeInputs(know, obs);
  for (const log of lightableLogs(know, obs.skills.firemaking?.level ?? 1)) keeps.set(log, Math.max(keeps.get(log) ?? 0, MELEE_LOGS_KEPT));
  return keeps;
}
