/**
 * The default brain: a utility policy a player would recognise, offline and deterministic under a
 * seed. Each available goal gets a score from the agent's state; the best one wins (a little seeded
 * noise breaks ties and varies agents). In order of urgency: bank a full inventory (or cook or burn
 * what fills it), buy a missing tool when it has the coins, train the weakest skill it can, fight
 * when healthy, explore when nothing else fits. A goal that just failed is not tried again at once,
 * and a place found crowded (everything taken by others it could see) is remembered for the last
 * CROWD_MEMORY goals: it trains elsewhere, as a player would, rather than queue with the crowd.
 */
import { nameOf, type Knowledge } from "../knowledge.ts";
import type { Brain, GoalChoice, GoalOption, Observation } from "./Brain.ts";
import { runePurchase } from "./fighting.ts";
import { Random } from "./random.ts";

/** A tool that training a skill needs, and where it is sold. */
export interface ToolPurchase {
  skill: string;
  itemId: string;
  storeId: string;
  price: number;
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
  return out;
}

/** How many of the last goals a crowded spot is remembered for (a fishing trip is three: fish, cook, bank). */
export const CROWD_MEMORY = 10;

export class ScriptedBrain implements Brain {
  readonly name = "scripted";
  private readonly rng: Random;
  private readonly know: Knowledge;

  constructor(know: Knowledge, seed: string) {
    this.know = know;
    this.rng = new Random(seed);
  }

  async chooseGoal(obs: Observation): Promise<GoalChoice> {
    return this.choose(obs);
  }

  /** The same choice, synchronously (the runtime's fallback path). */
  choose(obs: Observation): GoalChoice {
    let best: (GoalChoice & { score: number }) | undefined;
    for (const option of obs.availableGoals) {
      const scored = this.score(option, obs);
      if (scored === undefined) continue;
      const score = scored.score + this.rng.next() * 5 - this.penalty(option.type, scored.target, obs);
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
      if (g.type !== type || g.outcome !== "failed") return;
      const same = target === undefined || g.target === undefined || g.target === target;
      if (same && (i < 3 || g.crowded === true)) p += 60;
      else if (g.crowded === true) p += 30;
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
        return full ? { type: "banking", score: 90, reason: "the inventory is full" } : obs.freeSlots <= 2 ? { type: "banking", score: 45, reason: "the inventory is nearly full" } : undefined;
      case "cooking":
        if (raw === 0) return undefined;
        return { type: "cooking", score: full || raw >= 8 ? 95 : 30 + raw, reason: `${raw} raw food to cook` };
      case "firemaking":
        if (logs === 0) return undefined;
        // Burning logs trains firemaking; banking keeps them. Burn when firemaking lags woodcutting.
        return { type: "firemaking", score: (full ? 70 : 20) + (level("woodcutting") - level("firemaking")) * 4, reason: `${logs} logs to burn` };
      case "shopping": {
        const buy = toolPurchases(this.know).find((t) => option.targets.includes(t.itemId) && obs.coins >= t.price && !obs.inventory.some((s) => s.itemId === t.itemId) && !Object.values(obs.equipment).includes(t.itemId));
        if (buy !== undefined) return { type: "shopping", target: buy.itemId, score: 85, reason: `no ${nameOf(this.know, buy.itemId)} for ${buy.skill}; it costs ${buy.price}` };
        // No runes for any spell, and coins to spare for many casts: runes, to train Magic in its fights.
        const runes = runePurchase({ skills: obs.skills, inventory: obs.inventory, weaponId: obs.equipment.weapon, coins: obs.coins }, this.know);
        const rune = runes?.items.find((i) => option.targets.includes(i.itemId));
        if (runes === undefined || rune === undefined) return undefined;
        const spell = this.know.registry.magic.spells.get(runes.spellId)!;
        return { type: "shopping", target: rune.itemId, score: 55, reason: `runes for ${rune.quantity / spell.runes.find((r) => r.runeId === rune.itemId)!.quantity} casts of ${spell.name}; they cost ${runes.cost}` };
      }
      case "woodcutting":
      case "mining":
      case "fishing": {
        if (full) return undefined;
        // The most rewarding resource the server says it can gather (they are listed by the server
        // as usable), not one found crowded lately while another is left.
        const target = this.uncrowded(option.type, option.targets, (t) => t, obs).sort((a, b) => (reg.resources.get(b)?.levelRequired ?? 0) - (reg.resources.get(a)?.levelRequired ?? 0))[0];
        return { type: option.type, target, score: 60 - level(option.type), reason: `train ${option.type} (level ${level(option.type)})` };
      }
      case "combat": {
        if (full || !healthy) return undefined;
        // The strongest monster it can beat: level at most its combat level (at least the weakest one).
        // Of those, not one whose spawn it found crowded lately, while another is left.
        const all = option.targets.map((id) => ({ id, level: reg.npcs.get(id)?.stats?.level ?? 1 })).sort((a, b) => b.level - a.level);
        const mobs = this.uncrowded("combat", all, (m) => m.id, obs);
        const target = mobs.find((m) => m.level <= obs.combatLevel) ?? mobs.at(-1);
        if (target === undefined) return undefined;
        return { type: "combat", target: target.id, score: 58 - obs.combatLevel + Math.min(food, 3) * 2, reason: `fight ${nameOf(this.know, target.id)} (combat level ${obs.combatLevel})` };
      }
      case "explore":
        return { type: "explore", target: this.rng.pick(option.targets), score: 10, reason: "nothing better to do" };
      case "idle":
        return { type: "idle", score: 1, reason: "rest" };
      default:
        return undefined;
    }
  }

  async reply(message: string): Promise<string> {
    return `I don't know "${message.slice(0, 60)}". Try: stop, resume, follow <name>, go to bank, go home, chop trees, fish, mine, fight <monster>, cook, light fires, explore, status.`;
  }
}
