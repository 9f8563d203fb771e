/**
 * Making things (the `making` goal): the scripted agent turns what it gathered into products with
 * the production engine's events (docs/gameplay.md "Making things"): ores into bars at a furnace,
 * bars into items at an anvil (with a hammer), logs into arrow shafts with a knife, essence into
 * runes at the rune's altar, hides into leather at the tanner. It makes one recipe at a time with
 * `skill:make {recipeId, quantity: "all"}` next to the recipe's station (reached with `interact`,
 * which the server answers with `skill:recipes`), waits for `skill:makeStopped`, then chains into
 * the next recipe its inventory now allows (the bars it smelted are smithed), until nothing is left.
 * When the goal's recipe takes inputs it banked rather than carries, it fetches them from the bank
 * first (makingBank.ts), once a goal.
 */
import { dist } from "../AgentView.ts";
import { nameOf, nearest, type Spot } from "../knowledge.ts";
import { Avoid, ended, errorOf, going, Walker, type Behaviour, type BehaviourEventArgs, type Ctx, type Outcome, STALL_TICKS } from "./behaviourKit.ts";
import type { ProductionRecipe } from "../../src/manifests/production.ts";
import { FetchInputs } from "./makingBank.ts";
import { basePay } from "./selling.ts";
import type { Knowledge } from "../knowledge.ts";

/** The kinds the goal covers, in the order a chain runs them (smelt before smithing the bars). */
export const MAKING_ORDER = ["smelting", "smithing", "tanning", "crafting", "fletching", "runecrafting"] as const;

/** How many makes of a recipe the agent's inventory holds the inputs for (runecrafting: the essence carried). */
function makesCarried(ctx: Ctx, r: ProductionRecipe): number {
  if (r.essence !== undefined) return r.essence.types.reduce((n, t) => n + ctx.view.count(t), 0);
  if (r.inputs.length === 0) return 0;
  return Math.min(...r.inputs.map((i) => Math.floor(ctx.view.count(i.itemId) / i.quantity)));
}

/** Stations of a type placed in the world, with their ids (for `interact`). */
export function stationSpots(ctx: Ctx, type: string): (Spot & { id: string | undefined })[] {
  return ctx.know.registry.areas.flatMap((a) => a.stations.filter((s) => s.type === type).map((s) => ({ id: s.id, x: s.position.x, z: s.position.z })));
}

/** The most a placed store pays for a make's output (selling.ts basePay), per unit of its inputs (a sword's 30 coins a bar). */
export function salePerInput(know: Knowledge, r: ProductionRecipe): number {
  if (r.output === null) return 0;
  const units = r.inputs.reduce((n, i) => n + i.quantity, 0) || 1;
  const pay = Math.max(0, ...know.keepers.map((k) => basePay(know, k.storeId, r.output!)));
  return (pay * r.outputQuantity) / units;
}

/**
 * The order making recipes are made in: by MAKING_ORDER, then the highest level (the most xp a
 * make), as a player trains; but at the anvil, where every bronze item gives the same 12.5 xp a bar,
 * the most xp a bar first, then what sells best a bar (a sword's 30 coins at Flintwright Arms over a
 * full helm's 7.5): the coins that pay for hides and the tanner.
 */
export function recipeOrder(know: Knowledge): (a: ProductionRecipe, b: ProductionRecipe) => number {
  const order = (k: string) => MAKING_ORDER.indexOf(k as (typeof MAKING_ORDER)[number]);
  const xpPer = (r: ProductionRecipe) => r.xp / (r.inputs.reduce((n, i) => n + i.quantity, 0) || 1);
  return (a, b) =>
    order(a.kind) - order(b.kind) ||
    (a.kind === "smithing" && b.kind === "smithing" ? xpPer(b) - xpPer(a) || salePerInput(know, b) - salePerInput(know, a) : 0) ||
    b.level - a.level;
}

/**
 * The recipe to make next from what the agent carries: supported, at its level, with its tools and
 * the inputs for at least one make, and a station of its type in the world; `prefer` first, then in
 * recipeOrder (MAKING_ORDER, then the highest level; at the anvil what sells best a bar).
 */
export function nextRecipe(ctx: Ctx, prefer?: string, skip?: (id: string) => boolean): ProductionRecipe | undefined {
  const self = ctx.view.self;
  if (self === undefined) return undefined;
  const order = (k: string) => MAKING_ORDER.indexOf(k as (typeof MAKING_ORDER)[number]);
  const ok = [...ctx.know.registry.production.values()].filter(
    (r) =>
      order(r.kind) >= 0 &&
      r.unsupported === undefined &&
      !(skip?.(r.id) ?? false) &&
      (r.skill === null || (self.skills[r.skill]?.level ?? 1) >= r.level) &&
      r.tools.every((t) => ctx.view.has(t)) &&
      makesCarried(ctx, r) > 0 &&
      (r.station === null || stationSpots(ctx, r.station).length > 0),
  );
  const by = recipeOrder(ctx.know);
  ok.sort((a, b) => Number(b.id === prefer) - Number(a.id === prefer) || by(a, b));
  return ok[0];
}

/** `skill:make`s sent with nothing made in between after which a making goal ends (makeStopped "interrupted" over and over). */
export const MAX_STARTS = 4;

export class Make implements Behaviour {
  private readonly prefer: string | undefined;
  private readonly walker = new Walker();
  private readonly avoid = new Avoid();
  private recipe: ProductionRecipe | undefined;
  /** The tick `skill:make` was sent for `recipe` (undefined: not making). */
  private makingSince: number | undefined;
  private lastProgress = -Infinity;
  private askedAt = -Infinity;
  private made = 0;
  private failures = 0;
  /** `skill:make`s sent since the last make that gave something: a loop that never starts ends the goal. */
  private startsSinceProgress = 0;
  /** The tick of the first step (the view may lag the goal by a tick: what was given to make it). */
  private startedAt: number | undefined;
  /** The bank trip for the goal's recipe's inputs: undefined before, null once over. */
  private fetch: FetchInputs | null | undefined;

  constructor(prefer?: string) {
    this.prefer = prefer;
  }

  private progress(): number {
    return Math.min(95, this.made * 5);
  }

  step(ctx: Ctx): Outcome {
    if (this.makingSince !== undefined) {
      // The loop goes on by itself; a silent one (a lost answer) is asked again after a while.
      const quiet = ctx.tick - Math.max(this.makingSince, this.lastProgress);
      if (quiet < 3 * STALL_TICKS) return going(this.progress());
      this.makingSince = undefined;
    }
    if (this.failures >= 5) return ended("failed", "cannot make anything here", this.progress());
    // Sent again and again with nothing made (interrupted, or unanswered): not a goal to wait 600 ticks on.
    if (this.startsSinceProgress >= MAX_STARTS) return ended("failed", `the make did not start (${this.startsSinceProgress} tries)`, this.progress());
    const recipe = nextRecipe(ctx, this.prefer, (id) => this.avoid.has(id, ctx));
    this.startedAt ??= ctx.tick;
    // The server offered the goal from the character's state; the agent's view of it may come a tick later.
    if (recipe === undefined && ctx.tick - this.startedAt < 3) return going(0);
    if (recipe === undefined && this.fetching(ctx)) return going(this.progress());
    if (recipe === undefined) return this.made > 0 ? ended("done", `made ${this.made}; nothing left to make`) : ended("failed", "nothing to make", 0);
    this.recipe = recipe;
    const station = recipe.station === null ? undefined : nearest(ctx.view.position, stationSpots(ctx, recipe.station));
    if (station === undefined || dist(station, ctx.view.position) <= 1) {
      this.start(ctx, recipe);
      return going(this.progress());
    }
    // `interact` walks next to the station; the server answers with its recipes (onEvent starts the make).
    if (station.id !== undefined) {
      if (ctx.tick - this.askedAt >= STALL_TICKS) {
        this.askedAt = ctx.tick;
        ctx.send("player:action", { action: "interact", targetId: station.id });
        ctx.note(`go to the ${recipe.station} for ${recipe.name}`);
      }
    } else this.walker.walk(ctx, station);
    return going(this.progress());
  }

  /**
   * Whether it is (still) on its way to the bank for the goal's recipe's inputs: once a goal, for a
   * recipe whose tools it carries and which it has a station for (the server offered it as makeable
   * from what it carries and banked).
   */
  private fetching(ctx: Ctx): boolean {
    if (this.fetch === null) return false;
    if (this.fetch === undefined) {
      const want = this.prefer === undefined ? undefined : ctx.know.registry.production.get(this.prefer);
      if (want === undefined || this.avoid.has(want.id, ctx) || !want.tools.every((t) => ctx.view.has(t))) {
        this.fetch = null;
        return false;
      }
      this.fetch = new FetchInputs(want, ctx.tick);
    }
    const state = this.fetch.step(ctx);
    if (state === "going") return true;
    this.fetch = null;
    return false;
  }

  private start(ctx: Ctx, recipe: ProductionRecipe): void {
    if (this.makingSince !== undefined) return;
    this.makingSince = ctx.tick;
    this.startsSinceProgress++;
    ctx.send("skill:make", { recipeId: recipe.id, quantity: "all" });
    ctx.note(`make ${recipe.name}${recipe.output !== null ? ` (${nameOf(ctx.know, recipe.output)})` : ""}`);
  }

  onEvent(...[type, data, ctx]: BehaviourEventArgs): void {
    if (this.fetch != null) {
      this.fetch.onEvent(type, data, ctx);
      return;
    }
    if (type === "skill:recipes" && this.recipe !== undefined && this.makingSince === undefined) {
      // At the station: make the recipe if the server agrees it can be made here.
      const listed = (data.recipes as { id: string; makeable: boolean; refusal?: { code: string; message: string } | null }[] | undefined)?.find(
        (r) => r.id === this.recipe!.id,
      );
      if (listed?.makeable === true) this.start(ctx, this.recipe);
      else if (listed !== undefined && listed.refusal?.code !== "NO_STATION") {
        // At the station and refused (the tanner's fee, a thread): another recipe, or the goal ends.
        this.failures++;
        this.avoid.add(this.recipe.id, ctx, 60);
        ctx.note(`could not make ${this.recipe.name}: ${listed.refusal?.message ?? "not makeable here"}`);
      }
      return;
    }
    if (type === "skill:makeProgress") {
      this.lastProgress = ctx.tick;
      this.startsSinceProgress = 0;
      if (Number(data.quantity) > 0) this.made++;
      return;
    }
    if (type === "skill:makeStopped") {
      this.makingSince = undefined;
      const reason = String(data.reason);
      // Refused, or out of what the inventory does not show (a thread's makes, the tanner's coins): not again for a while.
      if (reason === "refused" || reason === "no_station" || data.code === "MISSING_CONSUMABLE" || data.code === "NOT_ENOUGH_COINS") {
        this.failures++;
        this.avoid.add(String(data.recipeId), ctx, 60);
        ctx.note(`could not make ${String(data.recipeId)}: ${String(data.message ?? reason)}`);
      }
      return;
    }
    const err = errorOf(type, data);
    if (err !== undefined && err.event === "skill:make") {
      this.makingSince = undefined;
      this.failures++;
      if (this.recipe !== undefined) this.avoid.add(this.recipe.id, ctx, 60);
      ctx.note(`could not make ${this.recipe?.name ?? "it"}: ${err.message}`);
    }
  }
}

/**
 * The ores a smelting recipe at the agent's level takes besides `itemId` (copper's partner is tin),
 * for a mining trip that leaves room for them.
 */
export function partnerOres(ctx: Ctx, itemId: string): string[] {
  const level = ctx.view.self?.skills.smithing?.level ?? 1;
  const recipes = [...ctx.know.registry.production.values()].filter(
    (r) => r.kind === "smelting" && r.unsupported === undefined && r.level <= level && r.inputs.some((i) => i.itemId === itemId),
  );
  return [...new Set(recipes.flatMap((r) => r.inputs.map((i) => i.itemId)).filter((id) => id !== itemId))];
}

/**
 * Whether a mining trip for `itemId` should end to leave room for its partner ore: it carries more
 * of it than of the partner, by at least the slots left (copper stops near half the room; the tin
 * trip that follows fills the rest, and the ores are smelted together).
 */
export function roomForPartner(ctx: Ctx, itemId: string): boolean {
  const partners = partnerOres(ctx, itemId);
  if (partners.length === 0) return false;
  const mine = ctx.view.count(itemId);
  const partner = Math.min(...partners.map((p) => ctx.view.count(p)));
  return mine > partner && ctx.view.freeSlots() <= mine - partner;
}
