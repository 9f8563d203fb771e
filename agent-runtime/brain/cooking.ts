/** Cooking and firemaking, the scripted agent's behaviours at a fire or a range (see behaviours.ts for the others). */
import { dist, type AgentView } from "../AgentView.ts";
import { nameOf, nearest, type Knowledge } from "../knowledge.ts";
import { ended, errorOf, going, pct, type Behaviour, type BehaviourEventArgs, type Ctx, type Outcome, STALL_TICKS } from "./behaviourKit.ts";

/**
 * With no range within this many tiles, a log it can light and a tinderbox, the cook lights a fire
 * where it stands and cooks on that, as a genre player does in the field: the cows' field is 36
 * tiles from the Kettle's range, and a fighter under `focus melee` walked there and back after
 * every few kills (nine trips in the first 3,000 ticks of two runs of 15:47, some 70 ticks each).
 */
export const FIRE_OVER_RANGE_TILES = 12;
/** Fire lightings tried before it walks to the range instead (each succeeds 40 % of the time at Firemaking 1: src/game/items.ts). */
const LIGHT_TRIES = 6;

/**
 * The log to light a fire with where it stands: no range within FIRE_OVER_RANGE_TILES, a tinderbox,
 * and a log its Firemaking level lights; undefined otherwise (it cooks on the range).
 */
export function fieldFireLog(view: AgentView, know: Knowledge): { slot: number; itemId: string } | undefined {
  const range = nearest(view.position, know.ranges);
  if (range !== undefined && dist(range, view.position) <= FIRE_OVER_RANGE_TILES) return undefined;
  if (!view.has("tinderbox")) return undefined;
  const logs = lightableLogs(know, view.self!.skills.firemaking?.level ?? 1);
  return view.self!.inventory.find((s) => logs.has(s.itemId));
}

/** The logs it can light at its Firemaking level (the first tier: normal logs). */
export function lightableLogs(know: Knowledge, firemaking: number): Set<string> {
  return new Set(know.registry.recipes.firemaking.filter((r) => r.level <= firemaking).map((r) => r.log));
}

/** What the cooking recipes burn food into (burnt meat, burnt fish): nothing to eat, nothing a store wants. */
export function burntFood(know: Knowledge): Set<string> {
  return new Set(know.registry.recipes.cooking.flatMap((r) => (r.burnt !== undefined ? [r.burnt] : [])));
}

/** Cooking: cook every raw food the agent can, on a fire in view, one it lights when the range is far (FIRE_OVER_RANGE_TILES), or the nearest range. */
export class Cook implements Behaviour {
  private issuedAt = -Infinity;
  private lastGain = -Infinity;
  private total = -1;
  private failures = 0;
  private heat: string | undefined;
  private lightAskedAt = -Infinity;
  private lightTries = 0;
  private droppedAt = -Infinity;

  private raws(ctx: Ctx) {
    const level = ctx.view.self!.skills.cooking?.level ?? 1;
    const recipes = ctx.know.registry.recipes.cooking.filter((r) => r.level <= level);
    return ctx.view.self!.inventory.filter((s) => recipes.some((r) => r.raw === s.itemId));
  }

  step(ctx: Ctx): Outcome {
    const raws = this.raws(ctx);
    if (this.total < 0) this.total = raws.length;
    if (raws.length === 0) {
      // What it burnt is dropped, as a genre player does: it heals nothing and took a slot of the
      // next load (four burnt meats rode along to the bank in a run of 19:02).
      const burnt = burntFood(ctx.know);
      const waste = ctx.view.self!.inventory.find((s) => burnt.has(s.itemId));
      if (waste !== undefined && ctx.tick - this.droppedAt >= 1) {
        this.droppedAt = ctx.tick;
        ctx.send("player:action", { action: "dropAll", targetId: waste.itemId });
        ctx.note(`drop the ${nameOf(ctx.know, waste.itemId)}`);
        return going(100);
      }
      if (waste !== undefined) return going(100);
      return ended("done", "nothing left to cook");
    }
    if (this.failures >= 5) return ended("failed", "nowhere to cook", pct(this.total - raws.length, this.total));
    const progress = pct(this.total - raws.length, this.total);
    if (ctx.tick - Math.max(this.issuedAt, this.lastGain) < STALL_TICKS) return going(progress);
    const fire = ctx.view.find("object", (e) => e.ref === "fire" && dist(e, ctx.view.position) <= 8)[0];
    const log = fire === undefined && this.lightTries < LIGHT_TRIES ? fieldFireLog(ctx.view, ctx.know) : undefined;
    if (log !== undefined) {
      // One try at a time: the server's roll takes the log's ticks (src/game/items.ts lightFire).
      if (ctx.tick - this.lightAskedAt < 4) return going(progress);
      this.lightAskedAt = ctx.tick;
      this.lightTries++;
      ctx.send("player:action", { action: "light", slot: log.slot });
      ctx.note(`light ${nameOf(ctx.know, log.itemId)} to cook on`);
      return going(progress);
    }
    const heat = fire?.id ?? nearest(ctx.view.position, ctx.know.ranges)?.id;
    if (heat === undefined) return ended("failed", "no fire or range", progress);
    this.heat = heat;
    this.issuedAt = ctx.tick;
    ctx.send("inventory:use", { slot: raws[0]!.slot, targetId: heat });
    ctx.note(`cook ${nameOf(ctx.know, raws[0]!.itemId)} on ${fire !== undefined ? "a fire" : "a range"}`);
    return going(progress);
  }

  onEvent(...[type, data, ctx]: BehaviourEventArgs): void {
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
      const [dx, dz] = ctx.rng.pick([
        [-1, 0],
        [1, 0],
        [0, -1],
        [0, 1],
      ] as const)!;
      ctx.send("player:move", { x: here.x + dx, z: here.z + dz });
      this.issuedAt = ctx.tick;
      return going(progress);
    }
    this.issuedAt = ctx.tick;
    ctx.send("player:action", { action: "light", slot: logs[0]!.slot });
    ctx.note(`light ${nameOf(ctx.know, logs[0]!.itemId)}`);
    return going(progress);
  }

  onEvent(...[type, data]: BehaviourEventArgs): void {
    if (type === "skill:xp" && data.skill === "firemaking") this.moveNext = true;
    const err = errorOf(type, data);
    if (err !== undefined && err.event === "player:action") {
      this.failures++;
      this.moveNext = true;
    }
  }
}
