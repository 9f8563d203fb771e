/** Combat, the scripted agent's fighting goal (see behaviours.ts for the others). */
import { dist, type Seen } from "../AgentView.ts";
import { nameOf, nearest } from "../knowledge.ts";
import { boostPrayer, castableSpell, kitOf, needsAltar, prayerState, togglePrayer, trainingStyle } from "./fighting.ts";
import { Avoid, Crowd, crowded, ended, errorOf, going, pct, Walker, type Behaviour, type Ctx, type Outcome, KILLS_PER_GOAL, FOE_SPREAD, CROWDED_TICKS, PLAYERS_PER_MONSTER, STALL_TICKS } from "./behaviourKit.ts";

/** Combat: fight monsters of the chosen type, loot what falls near, until KILLS_PER_GOAL kills. */
export class Fight implements Behaviour {
  private target: string | undefined;
  private issuedAt = -Infinity;
  private lastHit = -Infinity;
  private kills = 0;
  private equipped = false;
  private looting: string | undefined;
  private lootAt = -Infinity;
  private readonly avoid = new Avoid();
  private readonly walker = new Walker();
  private readonly crowd = new Crowd();
  private readonly mobType: string;
  /** When it last asked for a style (the sync confirming it comes a tick later). */
  private styleAskedAt = -Infinity;
  /** Casting was refused (no runes, level): melee until this tick. */
  private noMagicUntil = -Infinity;
  /** The last order was a cast (its refusal turns casting off, not the target). */
  private casting = false;
  private prayAskedAt = -Infinity;
  /** Went to an altar this goal (once: then it fights on with what it has), and when. */
  private altarSince: number | undefined;
  private altarAskedAt = -Infinity;

  constructor(mobType: string) {
    this.mobType = mobType;
  }

  /** Melee trains its lowest of Attack, Strength and Defence: the style that does, when another is in force. */
  private fitStyle(ctx: Ctx): void {
    const self = ctx.view.self!;
    const want = trainingStyle(self, ctx.know);
    if (want === undefined || want.style === self.combatStyle || ctx.tick - this.styleAskedAt < 3) return;
    this.styleAskedAt = ctx.tick;
    ctx.send("player:setCombatStyle", { style: want.style });
    ctx.note(`style ${want.style} (train ${want.skill}, level ${self.skills[want.skill]?.level ?? 1})`);
  }

  step(ctx: Ctx): Outcome {
    if (this.kills >= KILLS_PER_GOAL) return ended("done", `${this.kills} kills`);
    const progress = pct(this.kills, KILLS_PER_GOAL);
    const self = ctx.view.self!;
    if (!this.equipped) {
      this.equipped = true;
      if (self.equipment.weapon === undefined) {
        // The strongest weapon carried that is not also a gathering tool (a hatchet stays a hatchet).
        const bonus = (itemId: string) => Object.values(ctx.know.registry.item(itemId)?.bonuses ?? {}).reduce((a, b) => a + b, 0);
        const weapon = self.inventory
          .filter((s) => ctx.know.registry.item(s.itemId)?.equipSlot === "weapon" && !ctx.know.tools.has(s.itemId))
          .sort((a, b) => bonus(b.itemId) - bonus(a.itemId))[0];
        if (weapon !== undefined) {
          ctx.send("inventory:use", { slot: weapon.slot });
          ctx.note(`equip ${nameOf(ctx.know, weapon.itemId)}`);
          return going(progress);
        }
      }
    }
    const spots = ctx.know.mobSpots.get(this.mobType) ?? [];
    if (spots.length === 0) return ended("failed", `no ${this.mobType} in this world`, progress);
    const spot = nearest(ctx.view.position, spots)!;
    // A crowd at the spawn: every monster dead and others waiting, or a few players for each one
    // standing, and no kill of its own for a while (a kill clears the count).
    const measure = () => {
      const live = ctx.view.countSeen("npc", (e) => e.ref === this.mobType && e.dead !== true);
      if (live > 0) return { need: PLAYERS_PER_MONSTER * live, patience: 2 * CROWDED_TICKS };
      return { need: Math.max(2, ctx.view.countSeen("npc", (e) => e.ref === this.mobType)), patience: CROWDED_TICKS };
    };
    if (this.crowd.taken(ctx, spot, measure)) return crowded(`${this.mobType} fought by a crowd`, progress);
    // With runes for a spell it casts (training Magic); else melee in the style that trains its lowest skill.
    const spell = ctx.tick < this.noMagicUntil ? undefined : castableSpell(kitOf(self), ctx.know);
    if (spell === undefined) this.fitStyle(ctx);
    const current = this.target !== undefined ? ctx.view.entities.get(this.target) : undefined;
    if ((current === undefined || current.dead === true) && this.recharge(ctx)) return going(progress);
    if (current !== undefined && current.dead !== true) {
      if (spell === undefined) this.pray(ctx);
      // A cast is one attack: cast again when the spell's attack timer has run.
      if (spell !== undefined && ctx.tick - this.issuedAt >= spell.attackSpeed) {
        this.cast(ctx, current.id, spell.id);
        return going(progress);
      }
      if (ctx.tick - Math.max(this.issuedAt, this.lastHit) < STALL_TICKS) return going(progress);
    }
    // Between fights, pick up what lies close by (drops are visible to the killer first), one
    // item at a time: a new pickup would replace the one under way.
    if (this.looting !== undefined && ctx.view.entities.has(this.looting) && ctx.tick - this.lootAt < 8) return going(progress);
    if (ctx.view.freeSlots() > 0) {
      const loot = ctx.view.find("item", (e) => dist(e, ctx.view.position) <= 4 && !this.avoid.has(e.id, ctx))[0];
      if (loot !== undefined) {
        this.avoid.add(loot.id, ctx, 20);
        this.looting = loot.id;
        this.lootAt = ctx.tick;
        ctx.send("player:action", { action: "pickup", targetId: loot.id });
        ctx.note(`pick up ${loot.ref !== undefined ? nameOf(ctx.know, loot.ref) : "an item"}`);
        return going(progress);
      }
    }
    const foe = this.chooseFoe(ctx);
    if (foe !== undefined) {
      this.target = foe.id;
      if (spell !== undefined) {
        this.cast(ctx, foe.id, spell.id);
        ctx.note(`cast ${spell.name} on ${foe.name ?? nameOf(ctx.know, this.mobType)} (${foe.x},${foe.z})`);
        return going(progress);
      }
      this.issuedAt = ctx.tick;
      this.casting = false;
      ctx.send("player:action", { action: "attack", targetId: foe.id });
      ctx.note(`attack ${foe.name ?? nameOf(ctx.know, this.mobType)} (${foe.x},${foe.z})`);
      return going(progress);
    }
    if (dist(spot, ctx.view.position) > 3) this.walker.walk(ctx, spot);
    return going(progress);
  }

  /**
   * The monster to attack: one no other player stands next to (that fight is someone else's) before
   * one that is fought already, then among the nearest (up to FOE_SPREAD tiles farther than the
   * nearest) one drawn at random: fighters arriving together spread over the monsters instead of
   * all taking the first, where only one of them would get the kill.
   */
  private chooseFoe(ctx: Ctx): Seen | undefined {
    const foes = ctx.view.find("npc", (e) => e.ref === this.mobType && e.dead !== true && !this.avoid.has(e.id, ctx));
    if (foes.length === 0) return undefined;
    const free = foes.filter((f) => ctx.view.countSeen("player", (p) => dist(p, f) <= 1) === 0);
    const pool = free.length > 0 ? free : foes;
    const here = ctx.view.position;
    const reach = dist(pool[0]!, here) + FOE_SPREAD;
    return ctx.rng.pick(pool.filter((f) => dist(f, here) <= reach));
  }

  /** In a melee fight with prayer points: the boost prayer for the skill it trains, switched on. */
  private pray(ctx: Ctx): void {
    const self = ctx.view.self!;
    const state = prayerState(self);
    if (state === undefined || state.points <= 0 || ctx.tick - this.prayAskedAt < 3) return;
    const prayer = boostPrayer(self, ctx.know, trainingStyle(self, ctx.know)?.skill);
    if (prayer === undefined || state.active.includes(prayer.id)) return;
    this.prayAskedAt = ctx.tick;
    togglePrayer(ctx.send, prayer.id, true);
    ctx.note(`pray ${prayer.name} (${state.points} points)`);
  }

  /** Between fights, points low: to the nearest altar to recharge them (once a goal). True while on it. */
  private recharge(ctx: Ctx): boolean {
    const self = ctx.view.self!;
    if (this.altarSince === undefined) {
      if (!needsAltar(self, ctx.know)) return false;
      this.altarSince = ctx.tick;
      ctx.note(`recharge prayer (${prayerState(self)!.points} points)`);
    }
    if (!needsAltar(self, ctx.know) || ctx.tick - this.altarSince > 10 * STALL_TICKS) return false;
    const altar = nearest(ctx.view.position, ctx.know.altars)!;
    if (dist(altar, ctx.view.position) > 1) this.walker.walk(ctx, altar);
    if (dist(altar, ctx.view.position) <= 8 && ctx.tick - this.altarAskedAt >= STALL_TICKS) {
      this.altarAskedAt = ctx.tick;
      ctx.send("player:action", { action: "interact", targetId: altar.id });
    }
    return true;
  }

  private cast(ctx: Ctx, targetId: string, spellId: string): void {
    this.issuedAt = ctx.tick;
    this.casting = true;
    ctx.send("player:action", { action: "cast", spellId, targetId });
  }

  onEvent(type: string, data: Record<string, unknown>, ctx: Ctx): void {
    if (type === "combat:hit" && data.attackerId === ctx.view.playerId) {
      this.lastHit = ctx.tick;
      if (data.targetHealth === 0) {
        this.kills++;
        this.crowd.clear();
        ctx.note(`killed ${nameOf(ctx.know, this.mobType)} (${this.kills}/${KILLS_PER_GOAL})`);
      }
      return;
    }
    const err = errorOf(type, data);
    if (err?.event === "player:action" && this.casting && (err.code === "NO_RUNES" || err.code === "LEVEL_TOO_LOW" || err.code === "UNKNOWN_SPELL")) {
      // Its spell cannot be cast (the runes ran out): melee for a while, the same monster.
      this.noMagicUntil = ctx.tick + 5 * STALL_TICKS;
      this.casting = false;
      this.issuedAt = -Infinity;
      return;
    }
    if (err?.event === "player:setCombatStyle") return;
    if (err?.event === "player:action" && this.target !== undefined && err.code !== "ITEM_GONE") {
      this.avoid.add(this.target, ctx);
      this.target = undefined;
    }
  }
}

/**
 * Banking: walk to a banker, open the bank, deposit everything but tools, weapons, coins and some
 * food. `visit`: go there even with nothing to deposit (the `go to bank` command).
 */
