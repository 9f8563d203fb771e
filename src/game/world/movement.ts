/**
 * The movement phase of the tick (World.step, phase 2): the paths of requested walks, searched
 * within the tick's search budget (oldest request first, cheapest first), then one step per tick
 * walking, two running, each re-checked against collision. Every path search of the tick (walks
 * and the gameplay layer's approaches) goes through {@link Movement.search}.
 */
import { chebyshev, type CollisionMap, type Tile } from "../map/CollisionMap.ts";
import { findPath, MAX_PATH_LENGTH, type PathResult, type SearchWork } from "../map/pathfinding.ts";
import type { Player } from "./Player.ts";
import type { RunEnergy } from "./runEnergy.ts";
import type { ContentRegistry } from "../../manifests/registry.ts";

/**
 * Path-search work of one tick, across every player (A* node expansions, about 0.5 µs each here,
 * so ~10 ms: see bench/README.md). Walks beyond it wait for the next tick, so a flood of expensive
 * moves delays walks (the dearest first) instead of the tick. One search may overshoot it by at
 * most its own node budget (MAX_EXPANSIONS).
 */
export const PATH_BUDGET_PER_TICK = 20_000;
/** Tiles per tick. */
export const WALK_SPEED = 1;
export const RUN_SPEED = 2;

/** What of the world movement needs. */
export interface MovementHost {
  readonly collision: CollisionMap;
  readonly content: ContentRegistry;
  readonly tick: number;
  readonly players: ReadonlyMap<string, Player>;
  readonly runEnergy: RunEnergy;
  tell(to: string, message: string): void;
  sendError(to: string, code: string, message: string, event?: string): void;
}

/** A refusal a walk request may get (World's HandlerResult, without importing the World). */
type Refusal = void | { code: string; message: string };

export class Movement {
  private readonly world: MovementHost;
  /** The player moved: its spatial cell may have changed. */
  private readonly reindex: (player: Player) => void;
  /** Players whose requested walk waits for its path, oldest request first. */
  private queue: Player[] = [];
  /** Search work done this tick, against PATH_BUDGET_PER_TICK. */
  private readonly work: SearchWork = { expansions: 0 };
  /** Path searches of the last tick: how many ran, their node expansions, and the walks left waiting. */
  readonly stats = { searches: 0, expansions: 0, deferred: 0 };

  constructor(world: MovementHost, reindex: (player: Player) => void) {
    this.world = world;
    this.reindex = reindex;
  }

  /** A new tick: its search budget is whole again. */
  startTick(): void {
    this.work.expansions = 0;
    this.stats.searches = 0;
  }

  /** The tick's searches are over (after the gameplay phases): their work goes to the stats. */
  endTick(): void {
    this.stats.expansions = this.work.expansions;
  }

  /**
   * A path search for a player, charged to this tick's budget and to the player's search debt, or
   * undefined once the budget is spent (the caller tries again next tick). Every search of the
   * tick goes through here.
   */
  search(player: Player, to: Tile, maxLength = MAX_PATH_LENGTH): PathResult | undefined {
    if (this.work.expansions >= PATH_BUDGET_PER_TICK) return undefined;
    this.stats.searches++;
    const before = this.work.expansions;
    const result = findPath(this.world.collision, player, to, maxLength, this.work);
    const cost = this.work.expansions - before;
    // A running mean over its searches, the last one weighing half.
    player.searchCost = player.searchCost === undefined ? cost : (player.searchCost + cost) / 2;
    return result;
  }

  /**
   * Walks to a tile: the path is searched in this tick's movement phase (or a later one, when the
   * tick's search budget is spent), so however many moves arrive in a tick, each player costs at
   * most one search, for its last one. The current action stops now; the old path is walked until
   * the new one is found.
   */
  request(player: Player, target: Tile, run: boolean): Refusal {
    if (chebyshev(player, target) > MAX_PATH_LENGTH) return { code: "TOO_FAR", message: "that tile is more than 200 tiles away" };
    player.moveTarget = { x: target.x, z: target.z, run };
    if (player.action?.kind === "make") player.makeInterruptedBy = "moved";
    player.action = undefined;
    if (!player.moveQueued) {
      player.moveQueued = true;
      player.moveQueuedTick = this.world.tick;
      this.queue.push(player);
    }
  }

  /** Phase 2: the waiting walks' paths, then everyone's steps, then run energy's restoring. */
  run(): void {
    this.resolve();
    this.advance();
    this.world.runEnergy.restore();
  }

  /**
   * Phase 2a: the paths of requested walks while the tick's budget lasts, cheapest first (see
   * queueKey): a flood of expensive walks from a few players waits behind everyone else's walks,
   * instead of delaying them or the tick.
   */
  private resolve(): void {
    if (this.queue.length === 0) return;
    const world = this.world;
    const key = new Map<Player, number>();
    for (const p of this.queue) key.set(p, p.moveTarget === undefined ? 0 : queueKey(p, p.moveTarget, world.tick));
    this.queue.sort((a, b) => key.get(a)! - key.get(b)!);
    let served = 0;
    for (; served < this.queue.length; served++) {
      const player = this.queue[served]!;
      const target = player.moveTarget;
      if (target === undefined || player.gone) {
        player.moveQueued = false;
        continue;
      }
      const result = this.search(player, target);
      if (result === undefined) break;
      player.moveQueued = false;
      player.moveTarget = undefined;
      if (!result.ok) {
        world.sendError(player.id, result.reason, result.reason === "TOO_FAR" ? "that tile is more than 200 tiles away" : "no way there from here", "player:move");
        continue;
      }
      player.path = result.path;
      player.running = result.path.length > 0 && world.runEnergy.canRun(world, player, target.run);
    }
    this.queue = served === this.queue.length ? [] : this.queue.slice(served);
    this.stats.deferred = this.queue.length;
  }

  /** Phase 2b: walkers advance one tile, runners two, re-checking each step against collision. */
  private advance(): void {
    const world = this.world;
    for (const player of world.players.values()) {
      player.moved = false;
      if (player.path.length === 0) continue;
      const steps = player.running ? RUN_SPEED : WALK_SPEED;
      let i = 0;
      for (; i < steps && player.path.length > 0; i++) {
        const next = player.path[0]!;
        const dx = next.x - player.x;
        const dz = next.z - player.z;
        if (Math.abs(dx) > 1 || Math.abs(dz) > 1 || !world.collision.canStep(player.x, player.z, dx, dz)) {
          player.path = [];
          break;
        }
        player.path.shift();
        player.place(next.x, next.z);
        player.moved = true;
      }
      if (player.running) world.runEnergy.moved(world, player, i);
      if (player.moved) {
        player.saveDue = true;
        player.publicVersion++;
        player.walkVersion++;
        this.reindex(player);
      }
      if (player.path.length === 0) player.running = false;
    }
  }
}

/**
 * Where a waiting walk stands in the queue (lowest first): what the player's searches usually cost
 * (node expansions; before its first search, the walk's length in tiles, about what an open-ground
 * search costs), divided by the ticks it has waited plus one. Cheap walks go first; an expensive
 * one waits in proportion to its cost, but never forever.
 */
function queueKey(player: Player, target: Tile, tick: number): number {
  return (player.searchCost ?? chebyshev(player, target)) / (1 + tick - player.moveQueuedTick);
}
