/**
 * How the scripted agent pursues each goal: one behaviour per goal type, stepped once a game tick,
 * playing the goal through the game's own events (`player:move`, `player:action`, `inventory:use`,
 * `bank:deposit`, `store:buy`) from what the agent sees (AgentView) and knows of the content
 * (Knowledge). A behaviour waits while the server carries an action out (a gathering or a fight
 * goes on by itself) and issues the next command when that action has ended or stalled.
 */
import { dist, type Seen } from "../AgentView.ts";
import { countOf, nameOf, nearest, type Spot } from "../knowledge.ts";
import { roomForPartner } from "./making.ts";
import {
  Avoid,
  Crowd,
  crowded,
  ended,
  errorOf,
  going,
  pct,
  Walker,
  type Behaviour,
  type BehaviourEventArgs,
  type Ctx,
  type Outcome,
  FOOD_KEPT,
  CROWDED_TICKS,
  STALL_TICKS,
} from "./behaviourKit.ts";

export {
  CROWDED_TICKS,
  FOE_SPREAD,
  FOOD_KEPT,
  KILLS_PER_GOAL,
  PLAYERS_PER_MONSTER,
  RUN_ABOVE,
  shouldRun,
  STALL_TICKS,
  WALK_BELOW,
  type Behaviour,
  type Ctx,
  type Outcome,
} from "./behaviourKit.ts";
export { Fight } from "./fight.ts";
export { Cook, fieldFireLog, Firemake, FIRE_OVER_RANGE_TILES, lightableLogs } from "./cooking.ts";

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

  /** When it has gathered enough (a fighter's fishing for food: meleeFocus.ts enoughFood); else it gathers until the pack is full. */
  private readonly enough: (() => boolean) | undefined;

  constructor(skill: string, resourceType: string, enough?: () => boolean) {
    this.skill = skill;
    this.resourceType = resourceType;
    this.enough = enough;
  }

  private yields(ctx: Ctx): string[] {
    return (ctx.know.registry.resources.get(this.resourceType)?.harvestYield ?? []).map((y) => y.itemId);
  }

  step(ctx: Ctx): Outcome {
    if (this.room < 0) this.room = ctx.view.freeSlots();
    if (this.failure !== undefined) return ended("failed", this.failure, pct(this.gained, this.room));
    if (ctx.view.freeSlots() === 0) return ended("done", "inventory full");
    if (this.enough?.() === true) return ended("done", "enough gathered");
    if (this.skill === "mining" && this.yields(ctx).some((id) => roomForPartner(ctx, id))) return ended("done", "room left for the ore it smelts with");
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
      const measure = () => ({
        need: Math.max(
          2,
          ctx.view.countSeen("resource", (e) => e.ref === this.resourceType),
        ),
        patience: CROWDED_TICKS,
      });
      if (this.crowd.taken(ctx, nearest(here, all), measure)) return crowded(`every ${this.resourceType} in view taken`, pct(this.gained, this.room));
      const spot = nearest(
        here,
        all.filter((s) => dist(s, here) > 8),
      );
      if (spot !== undefined) this.walker.walk(ctx, spot);
    }
    return going(pct(this.gained, this.room));
  }

  onEvent(...[type, data, ctx]: BehaviourEventArgs): void {
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

export class Bank implements Behaviour {
  private openedAt = -Infinity;
  private opened = false;
  private askedAt = -Infinity;
  private total = -1;
  private readonly walker = new Walker();
  private readonly visit: boolean;
  /** What it keeps instead of the ordinary (one of each tool and weapon, runes, thread; FOOD_KEPT food): a caster's (magicFocus.ts casterKeep). */
  private readonly keep: { item: (itemId: string) => boolean; food: number } | undefined;
  /** Raw food it can cook counts as food kept (under `focus melee`: the cows' meat is its food). */
  private readonly keepRaw: boolean;

  /** Items kept up to a count (a quest's inputs under `focus melee`: meleeFocus.ts questMakeInputs). */
  private readonly keepAll: ReadonlyMap<string, number>;

  constructor(visit = false, keep?: { item: (itemId: string) => boolean; food: number }, keepRaw = false, keepAll: ReadonlyMap<string, number> = new Map()) {
    this.visit = visit;
    this.keep = keep;
    this.keepRaw = keepRaw;
    this.keepAll = keepAll;
  }

  private depositable(ctx: Ctx): { slot: number; quantity: number }[] {
    const self = ctx.view.self!;
    let food = 0;
    const out: { slot: number; quantity: number }[] = [];
    const kept = new Set<string>();
    const held = new Map<string, number>();
    for (const s of self.inventory) {
      const upTo = this.keepAll.get(s.itemId) ?? 0;
      if ((held.get(s.itemId) ?? 0) < upTo) {
        held.set(s.itemId, (held.get(s.itemId) ?? 0) + s.quantity);
        continue;
      }
      // One of each kept item: a second (the daggers it smiths) is banked, or they would fill the inventory.
      if ((this.keep?.item(s.itemId) ?? ctx.know.keep.has(s.itemId)) && !kept.has(s.itemId)) {
        kept.add(s.itemId);
        continue;
      }
      const heals =
        (ctx.know.registry.item(s.itemId)?.healAmount ?? 0) > 0 || (this.keepRaw && ctx.know.registry.recipes.cooking.some((r) => r.raw === s.itemId));
      if (heals && food < (this.keep?.food ?? FOOD_KEPT)) {
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

  onEvent(...[type, data, ctx]: BehaviourEventArgs): void {
    if (type === "interface:open" && data.type === "bank") {
      this.openedAt = ctx.tick;
      this.opened = true;
    }
    if (type === "error" && data.event === "bank:deposit" && data.code === "TOO_FAR") this.openedAt = -Infinity;
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

  onEvent(...[type, data, ctx]: BehaviourEventArgs): void {
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

  onEvent(...[type, data, ctx]: BehaviourEventArgs): void {
    if (type === "interface:open" && data.type === "store" && data.storeId === this.storeId) {
      // The store's stock (null: unlimited): a buy of more than it holds is refused whole, so it
      // buys what is there and is done with that (a load of hides from a stock of 4), or fails on none.
      const stock = new Map(data.items.map((i) => [i.itemId, i.stock]));
      for (const { itemId, quantity: wanted } of this.left(ctx)) {
        const held = stock.get(itemId);
        const quantity = typeof held === "number" ? Math.min(wanted, held) : wanted;
        if (quantity <= 0) {
          this.failure = `${nameOf(ctx.know, itemId)} is out of stock`;
          continue;
        }
        if (quantity < wanted) this.goal!.set(itemId, this.goal!.get(itemId)! - (wanted - quantity));
        ctx.send("store:buy", { storeId: this.storeId, itemId, quantity });
        ctx.note(`buy ${quantity > 1 ? countOf(ctx.know, quantity, itemId) : nameOf(ctx.know, itemId)}`);
      }
    }
    if (type === "error" && data.event === "store:buy") this.failure = `could not buy: ${String(data.message)}`;
  }
}

/** Walks to a spot (commands `go home`, `go to bank` without a bank goal). */
/** Ticks a walk may stand still before it is given up. */
export const GOTO_STUCK_TICKS = 5 * STALL_TICKS;

export class GoTo implements Behaviour {
  private readonly walker = new Walker();
  private readonly to: Spot;
  private readonly label: string;
  private from: Spot | undefined;
  private last: Spot | undefined;
  private movedAt = 0;

  constructor(to: Spot, label: string) {
    this.to = to;
    this.label = label;
  }

  step(ctx: Ctx): Outcome {
    const here = ctx.view.position;
    this.from ??= here;
    if (dist(here, this.to) <= 1) return ended("done", `arrived ${this.label}`);
    // Standing still GOTO_STUCK_TICKS: no way there (a flight home from under the cistern held a
    // ladder run's agent for 3,000 ticks, its goals never chosen again).
    if (this.last === undefined || this.last.x !== here.x || this.last.z !== here.z) {
      this.last = { x: here.x, z: here.z };
      this.movedAt = ctx.tick;
    } else if (ctx.tick - this.movedAt > GOTO_STUCK_TICKS) return ended("failed", `no way ${this.label}`);
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
