/**
 * How the scripted agent pursues each goal: one behaviour per goal type, stepped once a game tick,
 * playing the goal through the game's own events (`player:move`, `player:action`, `inventory:use`,
 * `bank:deposit`, `store:buy`) from what the agent sees (AgentView) and knows of the content
 * (Knowledge). A behaviour waits while the server carries an action out (a gathering or a fight
 * goes on by itself) and issues the next command when that action has ended or stalled.
 */
import type { ClientEvent, ClientEventName } from "../../src/game/clientEvents.ts";
import { dist, type AgentView, type Seen } from "../AgentView.ts";
import { nameOf, nearest, type Knowledge, type Spot } from "../knowledge.ts";
import { boostPrayer, castableSpell, kitOf, needsAltar, prayerState, togglePrayer, trainingStyle } from "./fighting.ts";
import type { Random } from "./random.ts";

/** Ticks without visible progress after which a command is issued again. */
export const STALL_TICKS = 12;
/** A goal of fighting ends after this many kills. */
export const KILLS_PER_GOAL = 5;
/** A fighter draws its monster among those up to this many tiles farther than the nearest (see Fight.chooseFoe). */
export const FOE_SPREAD = 2;
/** Cooked food an agent keeps when it banks. */
export const FOOD_KEPT = 5;

export interface Ctx {
  view: AgentView;
  know: Knowledge;
  rng: Random;
  /** The agent's own step counter (one per game tick). */
  tick: number;
  send<K extends ClientEventName>(type: K, data: ClientEvent<K>): void;
  /** A line of the agent's activity log. */
  note(text: string): void;
}

export type Outcome = { progress: number; end?: undefined } | { progress: number; end: "done" | "failed"; why: string; crowded?: boolean };

export interface Behaviour {
  step(ctx: Ctx): Outcome;
  /** An event of the agent's connection while this behaviour runs. */
  onEvent?(type: string, data: Record<string, unknown>, ctx: Ctx): void;
}

const pct = (part: number, whole: number) => Math.max(0, Math.min(100, Math.round((100 * part) / Math.max(1, whole))));
const going = (progress: number): Outcome => ({ progress });
const ended = (end: "done" | "failed", why: string, progress = 100): Outcome => ({ progress: end === "done" ? 100 : progress, end, why });

/** Ticks at a spot where everything is taken by a crowd it can see, after which a goal is given up. */
export const CROWDED_TICKS = 15;
/** Other players per live monster at a spawn that make it a crowd (it gives up after 2 × CROWDED_TICKS without a kill). */
export const PLAYERS_PER_MONSTER = 3;

/**
 * What a player sees at a crowded spot: nothing of what it came for is free in view and at least
 * as many other players stand around it as there are things there to share, or a few players for
 * every monster still standing. Counted over ticks, so one unlucky moment (a tree that just fell)
 * is not a crowd.
 */
class Crowd {
  private ticks = 0;

  /**
   * One tick near `spot` (where the content places what it came for): a crowd when at least `need`
   * other players stand around it, given up on once that has lasted `patience` ticks in a row.
   * `measure` is asked only near the spot: the view is not counted on the way there.
   */
  taken(ctx: Ctx, spot: Spot | undefined, measure: () => { need: number; patience: number }): boolean {
    // On the way there (or between its spots) it has not seen the crowd yet: the count waits.
    if (spot === undefined || dist(spot, ctx.view.position) > 8) return false;
    const { need, patience } = measure();
    if (ctx.view.countSeen("player", (e) => dist(e, spot) <= 6) < need) return this.clear();
    this.ticks++;
    return this.ticks >= patience;
  }

  /** Something was free this tick (or it got its share). */
  clear(): false {
    this.ticks = 0;
    return false;
  }
}

const crowded = (why: string, progress: number): Outcome => ({ progress, end: "failed", why: `crowded: ${why}`, crowded: true });

/** Run energy (0-100) above which an agent runs, and below which it walks (between them it keeps what it did). */
export const RUN_ABOVE = 50;
export const WALK_BELOW = 30;

/**
 * Whether to run: only with energy to spare. `runEnergy` of player:sync (run energy: running
 * drains it, walking and standing restore it); a server without it (every run free) is walked, as
 * the agents always did. Between WALK_BELOW and RUN_ABOVE it keeps what it did, so a runner does not
 * flip at one threshold.
 */
export function shouldRun(runEnergy: number | undefined, wasRunning: boolean): boolean {
  if (runEnergy === undefined) return false;
  return wasRunning ? runEnergy >= WALK_BELOW : runEnergy > RUN_ABOVE;
}

/** Walks toward a spot, at most once every few ticks (the server keeps walking the path); runs with energy to spare. */
class Walker {
  private issuedAt = -Infinity;
  private dest: Spot | undefined;
  private running = false;

  walk(ctx: Ctx, to: Spot): void {
    const same = this.dest !== undefined && this.dest.x === to.x && this.dest.z === to.z;
    const energy = (ctx.view.self as { runEnergy?: number } | undefined)?.runEnergy;
    const run = shouldRun(energy, this.running);
    // Out of breath on the way: walk the rest (a new order with `run` off).
    if (same && ctx.tick - this.issuedAt < STALL_TICKS && run === this.running) return;
    this.dest = { x: to.x, z: to.z };
    this.issuedAt = ctx.tick;
    this.running = run;
    ctx.send("player:move", { x: to.x, z: to.z, ...(run ? { run: true } : {}) });
  }
}

/** Ids refused or unreachable lately, kept out of the choice for a while. */
class Avoid {
  private readonly until = new Map<string, number>();
  add(id: string, ctx: Ctx, ticks = 30): void {
    this.until.set(id, ctx.tick + ticks);
  }
  has(id: string, ctx: Ctx): boolean {
    const t = this.until.get(id);
    return t !== undefined && t > ctx.tick;
  }
}

const errorOf = (type: string, data: Record<string, unknown>) => (type === "error" ? { code: String(data.code), event: String(data.event ?? "") } : undefined);

/** Woodcutting, mining, fishing: gather the chosen resource type until the inventory is full. */
export class Gather implements Behaviour {
  private target: string | undefined;
  private issuedAt = -Infinity;
  private lastGain = -Infinity;
  private gained = 0;
  private room = -1;
  private failure: string | undefined;
  private readonly avoid = new Avoid();
  private readonly walker = new Walker();
  private readonly crowd = new Crowd();
  private readonly skill: string;
  private readonly resourceType: string;

  constructor(skill: string, resourceType: string) {
    this.skill = skill;
    this.resourceType = resourceType;
  }

  step(ctx: Ctx): Outcome {
    if (this.room < 0) this.room = ctx.view.freeSlots();
    if (this.failure !== undefined) return ended("failed", this.failure, pct(this.gained, this.room));
    if (ctx.view.freeSlots() === 0) return ended("done", "inventory full");
    const current = this.target !== undefined ? ctx.view.entities.get(this.target) : undefined;
    // Next to it, the server's action goes on by itself (a slow catch is not a stall): wait longer.
    const patience = current !== undefined && dist(current, ctx.view.position) <= 1 ? 3 * STALL_TICKS : STALL_TICKS;
    const busy = current !== undefined && current.depleted !== true && ctx.tick - Math.max(this.issuedAt, this.lastGain) < patience;
    if (busy) return going(pct(this.gained, this.room));
    const options = ctx.view.find("resource", (e) => e.ref === this.resourceType && e.depleted !== true && !this.avoid.has(e.id, ctx));
    const best = options[0];
    if (best !== undefined) {
      this.crowd.clear();
      this.target = best.id;
      this.issuedAt = ctx.tick;
      ctx.send("player:action", { action: "gather", targetId: best.id });
      ctx.note(`gather ${nameOf(ctx.know, this.resourceType)} at ${best.x},${best.z}`);
    } else {
      // None free in view: a crowd took them, or go where the content places them, the nearest other spot first.
      const here = ctx.view.position;
      const all = ctx.know.resourceSpots.get(this.resourceType) ?? [];
      if (all.length === 0) return ended("failed", `no ${this.resourceType} in this world`, 0);
      const measure = () => ({ need: Math.max(2, ctx.view.countSeen("resource", (e) => e.ref === this.resourceType)), patience: CROWDED_TICKS });
      if (this.crowd.taken(ctx, nearest(here, all), measure)) return crowded(`every ${this.resourceType} in view taken`, pct(this.gained, this.room));
      const spot = nearest(here, all.filter((s) => dist(s, here) > 8));
      if (spot !== undefined) this.walker.walk(ctx, spot);
    }
    return going(pct(this.gained, this.room));
  }

  onEvent(type: string, data: Record<string, unknown>, ctx: Ctx): void {
    if (type === "skill:xp" && data.skill === this.skill) {
      this.lastGain = ctx.tick;
      this.gained++;
      return;
    }
    const err = errorOf(type, data);
    if (err === undefined || err.event !== "player:action") return;
    if (err.code === "INVENTORY_FULL") return; // step() sees the full inventory
    if (err.code === "NO_TOOL" || err.code === "LEVEL_TOO_LOW" || err.code === "NO_BAIT") this.failure = `cannot gather: ${err.code}`;
    else if (this.target !== undefined) {
      this.avoid.add(this.target, ctx);
      this.target = undefined;
    }
  }
}

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
export class Bank implements Behaviour {
  private openedAt = -Infinity;
  private opened = false;
  private askedAt = -Infinity;
  private total = -1;
  private readonly walker = new Walker();
  private readonly visit: boolean;

  constructor(visit = false) {
    this.visit = visit;
  }

  private depositable(ctx: Ctx): { slot: number; quantity: number }[] {
    const self = ctx.view.self!;
    let food = 0;
    const out: { slot: number; quantity: number }[] = [];
    for (const s of self.inventory) {
      if (ctx.know.keep.has(s.itemId)) continue;
      const heals = (ctx.know.registry.item(s.itemId)?.healAmount ?? 0) > 0;
      if (heals && food < FOOD_KEPT) {
        food++;
        continue;
      }
      out.push({ slot: s.slot, quantity: s.quantity });
    }
    return out;
  }

  step(ctx: Ctx): Outcome {
    const todo = this.depositable(ctx);
    if (this.total < 0) this.total = todo.length;
    if (todo.length === 0 && (!this.visit || this.opened)) return ended("done", this.visit && this.total === 0 ? "at the bank" : "banked");
    const progress = pct(this.total - todo.length, this.total);
    if (ctx.tick - this.openedAt < STALL_TICKS * 2) {
      // Within reach of the bank: a few deposits a tick (the server's per-tick item cap is 5).
      for (const d of todo.slice(0, 4)) ctx.send("bank:deposit", d);
      return going(progress);
    }
    const refs = new Set(ctx.know.banks.map((b) => b.npcRef));
    const banker = ctx.view.find("npc", (e) => e.ref !== undefined && refs.has(e.ref))[0];
    if (banker !== undefined) {
      if (ctx.tick - this.askedAt >= STALL_TICKS) {
        this.askedAt = ctx.tick;
        ctx.send("player:action", { action: "interact", targetId: banker.id });
        ctx.note(`talk to ${banker.name ?? "the banker"}`);
      }
    } else {
      const bank = nearest(ctx.view.position, ctx.know.banks);
      if (bank === undefined) return ended("failed", "no bank in this world", progress);
      this.walker.walk(ctx, bank);
    }
    return going(progress);
  }

  onEvent(type: string, data: Record<string, unknown>, ctx: Ctx): void {
    if (type === "interface:open" && data.type === "bank") {
      this.openedAt = ctx.tick;
      this.opened = true;
    }
    if (type === "error" && data.event === "bank:deposit" && data.code === "TOO_FAR") this.openedAt = -Infinity;
  }
}

/** Cooking: cook every raw food the agent can, on a fire in view or the nearest range. */
export class Cook implements Behaviour {
  private issuedAt = -Infinity;
  private lastGain = -Infinity;
  private total = -1;
  private failures = 0;
  private heat: string | undefined;

  private raws(ctx: Ctx) {
    const level = ctx.view.self!.skills.cooking?.level ?? 1;
    const recipes = ctx.know.registry.recipes.cooking.filter((r) => r.level <= level);
    return ctx.view.self!.inventory.filter((s) => recipes.some((r) => r.raw === s.itemId));
  }

  step(ctx: Ctx): Outcome {
    const raws = this.raws(ctx);
    if (this.total < 0) this.total = raws.length;
    if (raws.length === 0) return ended("done", "nothing left to cook");
    if (this.failures >= 5) return ended("failed", "nowhere to cook", pct(this.total - raws.length, this.total));
    const progress = pct(this.total - raws.length, this.total);
    if (ctx.tick - Math.max(this.issuedAt, this.lastGain) < STALL_TICKS) return going(progress);
    const fire = ctx.view.find("object", (e) => e.ref === "fire" && dist(e, ctx.view.position) <= 8)[0];
    const heat = fire?.id ?? nearest(ctx.view.position, ctx.know.ranges)?.id;
    if (heat === undefined) return ended("failed", "no fire or range", progress);
    this.heat = heat;
    this.issuedAt = ctx.tick;
    ctx.send("inventory:use", { slot: raws[0]!.slot, targetId: heat });
    ctx.note(`cook ${nameOf(ctx.know, raws[0]!.itemId)} on ${fire !== undefined ? "a fire" : "a range"}`);
    return going(progress);
  }

  onEvent(type: string, data: Record<string, unknown>, ctx: Ctx): void {
    if (type === "skill:xp" && data.skill === "cooking") this.lastGain = ctx.tick;
    const err = errorOf(type, data);
    if (err !== undefined && (err.event === "inventory:use" || err.event === "player:action") && this.heat !== undefined) {
      this.failures++;
      this.issuedAt = -Infinity;
    }
  }
}

/** Firemaking: light the logs the agent carries, one fire per tile, stepping aside after each. */
export class Firemake implements Behaviour {
  private issuedAt = -Infinity;
  private moveNext = false;
  private total = -1;
  private failures = 0;

  private logs(ctx: Ctx) {
    const level = ctx.view.self!.skills.firemaking?.level ?? 1;
    const recipes = ctx.know.registry.recipes.firemaking.filter((r) => r.level <= level);
    return ctx.view.self!.inventory.filter((s) => recipes.some((r) => r.log === s.itemId));
  }

  step(ctx: Ctx): Outcome {
    const logs = this.logs(ctx);
    if (this.total < 0) this.total = logs.length;
    if (logs.length === 0) return ended("done", "no logs left");
    if (!ctx.view.has("tinderbox")) return ended("failed", "no tinderbox", 0);
    if (this.failures >= 8) return ended("failed", "cannot light a fire here", pct(this.total - logs.length, this.total));
    const progress = pct(this.total - logs.length, this.total);
    if (ctx.tick - this.issuedAt < 3) return going(progress);
    const here = ctx.view.position;
    const onFire = ctx.view.find("object", (e) => e.x === here.x && e.z === here.z).length > 0;
    if (this.moveNext || onFire) {
      this.moveNext = false;
      const [dx, dz] = ctx.rng.pick([[-1, 0], [1, 0], [0, -1], [0, 1]] as const)!;
      ctx.send("player:move", { x: here.x + dx, z: here.z + dz });
      this.issuedAt = ctx.tick;
      return going(progress);
    }
    this.issuedAt = ctx.tick;
    ctx.send("player:action", { action: "light", slot: logs[0]!.slot });
    ctx.note(`light ${nameOf(ctx.know, logs[0]!.itemId)}`);
    return going(progress);
  }

  onEvent(type: string, data: Record<string, unknown>): void {
    if (type === "skill:xp" && data.skill === "firemaking") this.moveNext = true;
    const err = errorOf(type, data);
    if (err !== undefined && err.event === "player:action") {
      this.failures++;
      this.moveNext = true;
    }
  }
}

/** Exploring: walk to a random tile of an area (the chosen one, or any). */
export class Explore implements Behaviour {
  private dest: Spot | undefined;
  private from: Spot | undefined;
  private lastMoved = 0;
  private lastPos: Spot | undefined;
  private attempts = 0;
  private issuedAt = -Infinity;
  private readonly areaId: string | undefined;

  constructor(areaId: string | undefined) {
    this.areaId = areaId;
  }

  private pickDest(ctx: Ctx): void {
    const area = ctx.know.areas.find((a) => a.id === this.areaId) ?? ctx.rng.pick(ctx.know.areas);
    const b = area?.bounds ?? { minX: -10, maxX: 10, minZ: -10, maxZ: 10 };
    this.dest = { x: ctx.rng.int(b.minX, b.maxX), z: ctx.rng.int(b.minZ, b.maxZ) };
    this.from = ctx.view.position;
    this.attempts++;
    this.issuedAt = ctx.tick;
    this.lastMoved = ctx.tick;
    ctx.send("player:move", this.dest);
    ctx.note(`explore toward ${this.dest.x},${this.dest.z}${area !== undefined ? ` (${area.name})` : ""}`);
  }

  step(ctx: Ctx): Outcome {
    const here = ctx.view.position;
    if (this.dest === undefined) this.pickDest(ctx);
    const dest = this.dest!;
    const total = Math.max(1, dist(this.from!, dest));
    const progress = pct(total - dist(here, dest), total);
    if (dist(here, dest) <= 1) return ended("done", `reached ${dest.x},${dest.z}`);
    if (this.lastPos === undefined || dist(this.lastPos, here) > 0) {
      this.lastPos = here;
      this.lastMoved = ctx.tick;
    }
    if (ctx.tick - this.lastMoved >= STALL_TICKS || this.issuedAt === -Infinity) {
      if (this.attempts >= 5) return ended("failed", "no way through", progress);
      this.pickDest(ctx);
    }
    return going(progress);
  }

  onEvent(type: string, data: Record<string, unknown>, ctx: Ctx): void {
    // An unreachable or too distant tile: choose another on the next step.
    if (type === "error" && data.event === "player:move") this.issuedAt = -Infinity;
    void ctx;
  }
}

/**
 * Shopping: walk to the keeper of a store, open it and buy what is wanted (one of a tool by
 * default; runes by the hundred), done when it carries that many more than when it set out.
 */
export class Shop implements Behaviour {
  private askedAt = -Infinity;
  private failure: string | undefined;
  private readonly walker = new Walker();
  private readonly storeId: string;
  private readonly items: { itemId: string; quantity: number }[];
  /** How many of each it should carry when done (counted at the first step). */
  private goal: Map<string, number> | undefined;

  constructor(storeId: string, items: string | { itemId: string; quantity: number }[]) {
    this.storeId = storeId;
    this.items = typeof items === "string" ? [{ itemId: items, quantity: 1 }] : items;
  }

  private left(ctx: Ctx): { itemId: string; quantity: number }[] {
    this.goal ??= new Map(this.items.map((i) => [i.itemId, ctx.view.count(i.itemId) + i.quantity]));
    return [...this.goal].flatMap(([itemId, want]) => {
      // A tool wielded counts as carried.
      const have = ctx.view.count(itemId) + (ctx.view.count(itemId) === 0 && ctx.view.has(itemId) ? 1 : 0);
      return have < want ? [{ itemId, quantity: want - have }] : [];
    });
  }

  step(ctx: Ctx): Outcome {
    const left = this.left(ctx);
    const what = this.items.map((i) => nameOf(ctx.know, i.itemId)).join(", ");
    if (left.length === 0) return ended("done", `bought ${this.items.map((i) => i.itemId).join(", ")}`);
    if (this.failure !== undefined) return ended("failed", this.failure, 0);
    const keeper = ctx.know.keepers.find((k) => k.storeId === this.storeId);
    if (keeper === undefined) return ended("failed", `no keeper for ${this.storeId}`, 0);
    const seen = ctx.view.find("npc", (e) => e.ref === keeper.npcRef)[0];
    if (seen === undefined) {
      this.walker.walk(ctx, keeper);
      return going(10);
    }
    if (ctx.tick - this.askedAt >= STALL_TICKS) {
      this.askedAt = ctx.tick;
      ctx.send("player:action", { action: "interact", targetId: seen.id });
      ctx.note(`talk to ${seen.name ?? nameOf(ctx.know, keeper.npcRef)} for ${what}`);
    }
    return going(50);
  }

  onEvent(type: string, data: Record<string, unknown>, ctx: Ctx): void {
    if (type === "interface:open" && data.type === "store" && data.storeId === this.storeId) {
      for (const { itemId, quantity } of this.left(ctx)) {
        ctx.send("store:buy", { storeId: this.storeId, itemId, quantity });
        ctx.note(`buy ${quantity > 1 ? `${quantity} × ` : ""}${nameOf(ctx.know, itemId)}`);
      }
    }
    if (type === "error" && data.event === "store:buy") this.failure = `could not buy: ${String(data.message)}`;
  }
}

/** Walks to a spot (commands `go home`, `go to bank` without a bank goal). */
export class GoTo implements Behaviour {
  private readonly walker = new Walker();
  private readonly to: Spot;
  private readonly label: string;
  private from: Spot | undefined;

  constructor(to: Spot, label: string) {
    this.to = to;
    this.label = label;
  }

  step(ctx: Ctx): Outcome {
    const here = ctx.view.position;
    this.from ??= here;
    if (dist(here, this.to) <= 1) return ended("done", `arrived ${this.label}`);
    this.walker.walk(ctx, this.to);
    const total = Math.max(1, dist(this.from, this.to));
    return going(pct(total - dist(here, this.to), total));
  }
}

/** Follows a player by name while it is in view. */
export class Follow implements Behaviour {
  private lastSeen: number | undefined;
  private issuedAt = -Infinity;
  private readonly name: string;

  constructor(name: string) {
    this.name = name.toLowerCase();
  }

  step(ctx: Ctx): Outcome {
    this.lastSeen ??= ctx.tick;
    const leader: Seen | undefined = ctx.view.find("player", (e) => e.name?.toLowerCase() === this.name)[0];
    if (leader === undefined) {
      if (ctx.tick - this.lastSeen > 3 * STALL_TICKS) return ended("failed", `lost sight of ${this.name}`, 0);
      return going(0);
    }
    this.lastSeen = ctx.tick;
    if (dist(leader, ctx.view.position) > 1 && ctx.tick - this.issuedAt >= 2) {
      this.issuedAt = ctx.tick;
      ctx.send("player:move", { x: leader.x, z: leader.z });
    }
    return going(50);
  }
}

/** Stands still for a while (the `idle` goal), then lets the policy choose again. */
export class Idle implements Behaviour {
  private start: number | undefined;
  step(ctx: Ctx): Outcome {
    this.start ??= ctx.tick;
    return ctx.tick - this.start >= 2 * STALL_TICKS ? ended("done", "rested") : going(pct(ctx.tick - this.start, 2 * STALL_TICKS));
  }
}
