/**
 * What every behaviour of the scripted agent shares (behaviours.ts, fight.ts): the context a
 * behaviour is stepped with, outcomes, walking (running with energy to spare), crowds and refused
 * targets.
 */
import type { ClientEvent, ClientEventName } from "../../src/game/clientEvents.ts";
import type { ServerEventArgs, ServerEventName } from "../../src/game/serverEvents.ts";
import { dist, type AgentView } from "../AgentView.ts";
import { type Knowledge, type Spot } from "../knowledge.ts";
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
  onEvent?(...event: BehaviourEventArgs): void;
}

/** A server event and the agent's context: a switch on the event's name narrows its payload (serverEvents.ts). */
export type BehaviourEventArgs = [...ServerEventArgs, ctx: Ctx];

export const pct = (part: number, whole: number) => Math.max(0, Math.min(100, Math.round((100 * part) / Math.max(1, whole))));
export const going = (progress: number): Outcome => ({ progress });
export const ended = (end: "done" | "failed", why: string, progress = 100): Outcome => ({ progress: end === "done" ? 100 : progress, end, why });

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
export class Crowd {
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

export const crowded = (why: string, progress: number): Outcome => ({ progress, end: "failed", why: `crowded: ${why}`, crowded: true });

/** Run energy (0-100) above which an agent runs, and below which it walks (between them it keeps what it did). */
export const RUN_ABOVE = 50;
export const WALK_BELOW = 30;

/**
 * Whether to run: only with energy to spare. `runEnergy` of player:sync (run energy: running
 * drains it, walking and standing restore it); undefined (no player:sync yet) walks. Between
 * WALK_BELOW and RUN_ABOVE it keeps what it did, so a runner does not flip at one threshold.
 */
export function shouldRun(runEnergy: number | undefined, wasRunning: boolean): boolean {
  if (runEnergy === undefined) return false;
  return wasRunning ? runEnergy >= WALK_BELOW : runEnergy > RUN_ABOVE;
}

/**
 * Walks toward a spot, at most once every few ticks (the server keeps walking the path); runs with
 * energy to spare. The run toggle (`player:setRun`) is kept to the same choice, because a walk to an
 * action's target (an `interact` or `attack` sent beside the walk, which replaces it) runs by the
 * toggle, not by the move's `run`.
 */
export class Walker {
  private issuedAt = -Infinity;
  private dest: Spot | undefined;
  private running = false;
  private toggleAskedAt = -Infinity;

  walk(ctx: Ctx, to: Spot): void {
    const same = this.dest !== undefined && this.dest.x === to.x && this.dest.z === to.z;
    const run = this.keepToggle(ctx);
    // Out of breath on the way: walk the rest (a new order with `run` off).
    if (same && ctx.tick - this.issuedAt < STALL_TICKS && run === this.running) return;
    this.dest = { x: to.x, z: to.z };
    this.issuedAt = ctx.tick;
    this.running = run;
    ctx.send("player:move", { x: to.x, z: to.z, ...(run ? { run: true } : {}) });
  }

  /**
   * Whether to run now (shouldRun), with the run toggle set to match: called on each walk, and on
   * every step by a behaviour whose walks are approaches (a fight's chase), so a toggle left on
   * goes off within a few ticks of the energy running low.
   */
  keepToggle(ctx: Ctx): boolean {
    const toggle = ctx.view.self?.runMode;
    const run = shouldRun(ctx.view.self?.runEnergy, toggle ?? this.running);
    if (toggle !== undefined && toggle !== run && ctx.tick - this.toggleAskedAt >= STALL_TICKS) {
      this.toggleAskedAt = ctx.tick;
      ctx.send("player:setRun", { run });
    }
    return run;
  }
}

/** Ids refused or unreachable lately, kept out of the choice for a while. */
export class Avoid {
  private readonly until = new Map<string, number>();
  add(id: string, ctx: Ctx, ticks = 30): void {
    this.until.set(id, ctx.tick + ticks);
  }
  has(id: string, ctx: Ctx): boolean {
    const t = this.until.get(id);
    return t !== undefined && t > ctx.tick;
  }
}

export const errorOf = (type: ServerEventName, data: Record<string, unknown>) =>
  type === "error" ? { code: String(data.code), event: String(data.event ?? ""), message: String(data.message) } : undefined;
