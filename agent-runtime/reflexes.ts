/**
 * An agent's reflexes: what it does of itself, whatever its goal, as a player's hands do. It eats
 * when hurt, leaves a fight it is losing with nothing to eat, and switches off the prayers it left
 * on out of a fight. The agent (Agent.ts) steps them once a tick ahead of its goal's behaviour, and
 * walks home when one says to flee.
 */
import { Fight, type Behaviour, type Ctx } from "./brain/behaviours.ts";
import type { Observation } from "./brain/Brain.ts";
import { FLEE_BELOW, losingFight, shouldEat, threat } from "./brain/fighting.ts";
import { QuestGoal } from "./brain/quest.ts";
import { questHandOvers } from "./brain/questNeeds.ts";
import { nameOf } from "./knowledge.ts";

/**
 * Eat below this share of health (or within one max hit of a monster next to it: brain/fighting.ts
 * shouldEat); leave a fight below brain/fighting.ts FLEE_BELOW, or within a max hit, with nothing to eat.
 */
export const EAT_BELOW = 0.5;
/** Between goals, eat below this share (the scripted policy fights at 70 % and up). */
export const TOP_UP_BELOW = 0.75;
/** In a fight it eats once within this many of the monster's max hits (or below FLEE_BELOW); else after the kill. */
export const MID_FIGHT_HITS = 2;
/** Ticks between two bites, and between two times it switches its prayers off. */
const REFLEX_TICKS = 3;

export class Reflexes {
  private readonly ctx: Ctx;
  private lastEatTick = -Infinity;
  private prayersOffAt = -Infinity;

  /** `ctx`: the agent's own (its view, knowledge, tick, link and activity log). */
  constructor(ctx: Ctx) {
    this.ctx = ctx;
  }

  /**
   * Eats when hurt (`ate`; between goals, `waiting` while the last bite's REFLEX_TICKS run, so the
   * next goal is chosen once it has eaten); with nothing to eat, says to leave a fight that is being
   * lost (`flee`); else nothing. `behaviour`: its goal's, undefined between goals; `goalType`: its goal's type;
   * `quests`: its quest list, whose food still to be handed over is eaten only in danger (within one
   * max hit of a monster next to it: brain/questNeeds.ts questHandOvers).
   */
  eatOrFlee(behaviour: Behaviour | undefined, goalType: string | undefined, quests?: Observation["quests"]): "ate" | "waiting" | "flee" | undefined {
    const { view, know, tick } = this.ctx;
    const self = view.self!;
    // Health does not come back by itself: between goals it eats up to the level it fights at.
    const threshold = behaviour === undefined ? TOP_UP_BELOW : EAT_BELOW;
    if (!shouldEat(view, know, threshold)) return undefined;
    // Next to a monster, a bite puts off its next blow (src/game/items.ts EAT_ATTACK_DELAY_TICKS): it
    // eats there only near the end of its margin (two of the monster's max hits, and FLEE_BELOW), and
    // else after the kill, where the walk to the next monster hides the delay.
    const near = threat(view, know);
    if (behaviour !== undefined && near > 0 && self.health >= Math.max(MID_FIGHT_HITS * near, self.maxHealth * FLEE_BELOW)) return undefined;
    const owed = self.health <= near ? new Map<string, number>() : questHandOvers(quests, know);
    const food = self.inventory.find((s) => (know.registry.item(s.itemId)?.healAmount ?? 0) > 0 && view.count(s.itemId) > (owed.get(s.itemId) ?? 0));
    if (food !== undefined) {
      // Between goals the next choice waits for the bite: chosen at once after a bite in the fight, a
      // fight at 70 % went on for 5 more kills where The Drowned Watch waited for 75 % (a run of 02:52).
      if (tick - this.lastEatTick < REFLEX_TICKS) return behaviour === undefined ? "waiting" : undefined;
      this.lastEatTick = tick;
      this.ctx.send("inventory:use", { slot: food.slot });
      this.ctx.note(`eat ${nameOf(know, food.itemId)} (health ${self.health}/${self.maxHealth})`);
      return "ate";
    }
    const goal = goalType === "combat" || goalType === "quest" ? goalType : "other";
    const questFighting = behaviour instanceof QuestGoal && behaviour.fighting;
    if (behaviour !== undefined && losingFight(view, know, FLEE_BELOW, goal, questFighting)) return "flee";
    return undefined;
  }

  /** Out of a fight, the prayers it left on are switched off (they drain points for nothing). */
  prayersOff(behaviour: Behaviour | undefined): void {
    const active = this.ctx.view.self!.activePrayers;
    const tick = this.ctx.tick;
    if (active.length === 0 || behaviour instanceof Fight || (behaviour instanceof QuestGoal && behaviour.fighting) || tick - this.prayersOffAt < REFLEX_TICKS)
      return;
    this.prayersOffAt = tick;
    for (const id of active) this.ctx.send("prayer:toggle", { prayerId: id, active: false });
    this.ctx.note(`stop praying (${active.join(", ")})`);
  }
}
