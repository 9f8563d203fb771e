/**
 * Interest management for one connection: what it sees, as references to the entities
 * themselves (so the per-tick check is a field read, not a lookup). Recomputing the set is the
 * expensive part, so it happens every {@link REFRESH_TICKS} ticks (staggered between
 * connections) for others walking in and out, and sooner when the viewer itself has moved
 * {@link REFRESH_DISTANCE} tiles. An entity joins the view within {@link VIEW_RADIUS} tiles and
 * leaves it only beyond {@link KEEP_RADIUS}, so nothing in view is dropped between refreshes and
 * players walking along the edge do not flicker in and out.
 */
import type { Tile } from "../map/CollisionMap.ts";
import { VIEW_RADIUS, type Entity } from "./World.ts";

export const REFRESH_TICKS = 4;
export const REFRESH_DISTANCE = 3;
export const KEEP_RADIUS = VIEW_RADIUS + REFRESH_DISTANCE;

let stagger = 0;
/** The last mark handed out (see Interest.refresh); one sequence for all connections. */
let markToken = 0;

/** Something a view can hold: the world's own entities, or their `/ws` replicas (see ViewWorld). */
export interface Placed {
  readonly id: string;
  x: number;
  z: number;
  /** Scratch mark of the refresh running now. */
  mark?: number;
}

/** Where a view's contents come from: the World itself, or the `/ws` replica of it. */
export interface Spatial<E extends Placed> {
  readonly tick: number;
  /** Everything within `radius` of a tile that `viewerId` may see, players included. */
  forEachNear(at: Tile, viewerId: string, radius: number, fn: (entity: E) => void): void;
}

/** One entity in a connection's view. */
export interface Seen<E extends Placed = Entity> {
  readonly id: string;
  entity: E;
  /** `/ws` connections: the revisions last sent (see ViewTracker). */
  sentRev: number;
  sentInfoRev: number;
  /** `/ws` connections with compact updates: its handle in this view (-1: none yet; see ViewTracker). */
  handle: number;
}

export class Interest<E extends Placed = Entity> {
  readonly visible = new Map<string, Seen<E>>();
  private readonly phase: number;
  private refreshed = -1;
  private atX = 0;
  private atZ = 0;

  /** `phase`: which of every {@link REFRESH_TICKS} ticks its periodic refresh falls on (staggered by default). */
  constructor(phase = stagger++) {
    this.phase = phase % REFRESH_TICKS;
  }

  /** Recomputes the visible set when due; returns the ids that entered and left, or undefined. */
  refresh(world: Spatial<E>, viewer: Placed, force = false): { entered: string[]; left: string[] } | undefined {
    const vx = viewer.x;
    const vz = viewer.z;
    const walked = Math.max(Math.abs(vx - this.atX), Math.abs(vz - this.atZ));
    if (!force && this.refreshed >= 0 && walked < REFRESH_DISTANCE && (world.tick + this.phase) % REFRESH_TICKS !== 0) return undefined;
    this.refreshed = world.tick;
    this.atX = vx;
    this.atZ = vz;
    // Marks on the entities themselves instead of set lookups: everything in view now gets
    // `before`; the scan turns what it finds in range into `kept`, or adds it when it is new;
    // what still carries `before` afterwards has left. Tokens are unique across all refreshes.
    const before = ++markToken;
    const kept = ++markToken;
    const visible = this.visible;
    for (const seen of visible.values()) seen.entity.mark = before;
    const entered: string[] = [];
    const consider = (e: E) => {
      const mark = e.mark;
      if (mark === before) e.mark = kept;
      else if (mark !== kept && Math.max(Math.abs(e.x - vx), Math.abs(e.z - vz)) <= VIEW_RADIUS) {
        e.mark = kept;
        visible.set(e.id, { id: e.id, entity: e, sentRev: -1, sentInfoRev: -1, handle: -1 });
        entered.push(e.id);
      }
    };
    world.forEachNear(viewer, viewer.id, KEEP_RADIUS, consider);
    const left: string[] = [];
    for (const seen of visible.values()) {
      if (seen.entity.mark === kept) continue;
      left.push(seen.id);
      visible.delete(seen.id);
    }
    return { entered, left };
  }
}
