/**
 * Interest management for one connection: what it sees, as references to the entities
 * themselves (so the per-tick check is a field read, not a lookup). Recomputing the set is the
 * expensive part, so it happens {@link REFRESH_TICKS} ticks after the last refresh (staggered
 * between connections) for others walking in and out, and sooner when the viewer itself has moved
 * {@link REFRESH_DISTANCE} tiles. An entity joins the view within {@link VIEW_RADIUS} tiles and
 * leaves it only beyond {@link KEEP_RADIUS}, so nothing in view is dropped between refreshes and
 * players walking along the edge do not flicker in and out. A view holds at most
 * {@link MAX_PLAYERS_IN_VIEW} players: in a crowd, the nearest, so the work of a crowded spot grows
 * with its size, not with its square. The cap has the same hysteresis: a player already in view
 * keeps its place while within KEEP_RADIUS, until a newcomer within {@link CLAIM_RADIUS} tiles
 * comes more than {@link CAP_MARGIN} tiles nearer than it; a newcomer farther out only takes a
 * free place. So a walker's view does not trade the players behind it for those ahead at every
 * step, nor do players walking about at the cut's distance take each other's places at every
 * refresh (each swap costs a whole entry on `/ws` and a view add and remove on Colyseus), while
 * whoever comes near is seen.
 */
import type { Tile } from "../map/CollisionMap.ts";
import { MAX_PLAYERS_IN_VIEW, VIEW_RADIUS, type Entity } from "./World.ts";

export const REFRESH_TICKS = 4;
export const REFRESH_DISTANCE = 3;
export const KEEP_RADIUS = VIEW_RADIUS + REFRESH_DISTANCE;
/** A newcomer takes the place of a player in a full view only when it is more than this many tiles nearer. */
export const CAP_MARGIN = REFRESH_DISTANCE;
/** In a full view, only a newcomer within this many tiles takes a player's place (farther ones wait for a free one). */
export const CLAIM_RADIUS = VIEW_RADIUS / 2;
/** Added to the ranking distance of a newcomer beyond CLAIM_RADIUS: it ranks behind everyone in view. */
const WAITS = KEEP_RADIUS + 1;

let stagger = 0;
/** The last mark handed out (see Interest.refresh); one sequence for all connections. */
let markToken = 0;

/**
 * One refresh's players that may be in view, the first `candidateCount` of these (reused, never
 * shortened: refreshes never overlap, and emptying an array frees what it had grown to).
 */
const candidates: Placed[] = [];
const candidateDistance: number[] = [];
const candidateWasVisible: boolean[] = [];
let candidateCount = 0;
/** Candidates per ranking distance (0 … KEEP_RADIUS for those in view; a newcomer's is at most VIEW_RADIUS + WAITS). */
const perDistance = new Int32Array(Math.max(KEEP_RADIUS, VIEW_RADIUS + WAITS) + 1);

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
  /** Everything within `radius` of a tile that `viewerId` may see, players included (and said to be). */
  forEachNear(at: Tile, viewerId: string, radius: number, fn: (entity: E, isPlayer: boolean) => void): void;
}

/** What entered and left a view at a refresh (ids). */
export interface ViewChange {
  entered: string[];
  left: string[];
}

/** What entered and left one interest viewer's view (see WsDeltas.addInterest), by the World's own id strings. */
export interface InterestChange extends ViewChange {
  viewer: number;
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
  /** The tick its next periodic refresh is due at (-1: it has never refreshed). */
  private due = -1;
  private atX = 0;
  private atZ = 0;

  /** `phase`: how many ticks sooner than REFRESH_TICKS after the first its second refresh comes (staggered by default). */
  constructor(phase = stagger++) {
    this.phase = phase % REFRESH_TICKS;
  }

  /**
   * Recomputes the visible set when due; returns the ids that entered and left, or undefined.
   * `gone`: where the entities that left are put too (their ids may no longer name anything).
   */
  refresh(world: Spatial<E>, viewer: Placed, force = false, gone?: E[]): ViewChange | undefined {
    const vx = viewer.x;
    const vz = viewer.z;
    const walked = Math.max(Math.abs(vx - this.atX), Math.abs(vz - this.atZ));
    if (!force && this.due >= 0 && walked < REFRESH_DISTANCE && world.tick < this.due) return undefined;
    // Every refresh puts the next periodic one REFRESH_TICKS ahead (a walker's refreshes make its
    // periodic ones needless); the first is staggered by the phase, so that connections that came
    // in together do not all refresh on the same ticks.
    this.due = world.tick + (this.due < 0 ? REFRESH_TICKS - this.phase : REFRESH_TICKS);
    this.atX = vx;
    this.atZ = vz;
    // Marks on the entities themselves instead of set lookups: everything in view now gets
    // `before`; the scan turns what it finds in range into `kept`, or adds it when it is new;
    // what still carries `before` afterwards has left. Tokens are unique across all refreshes.
    const before = ++markToken;
    const kept = ++markToken;
    const visible = this.visible;
    for (const seen of visible.values()) seen.entity.mark = before;
    // Players are only candidates at first (marked `maybe`): the cap chooses among them below.
    const maybe = ++markToken;
    const entered: string[] = [];
    candidateCount = 0;
    const consider = (e: E, isPlayer: boolean) => {
      const mark = e.mark;
      if (mark === kept || mark === maybe) return;
      const d = Math.max(Math.abs(e.x - vx), Math.abs(e.z - vz));
      if (mark !== before && d > VIEW_RADIUS) return;
      if (isPlayer) {
        e.mark = maybe;
        const i = candidateCount++;
        candidates[i] = e;
        // Ranked by distance: a newcomer CAP_MARGIN tiles behind those already in view, and one
        // beyond CLAIM_RADIUS behind all of them.
        candidateDistance[i] = mark === before ? d : d <= CLAIM_RADIUS ? d + CAP_MARGIN : d + WAITS;
        candidateWasVisible[i] = mark === before;
        return;
      }
      e.mark = kept;
      if (mark !== before) this.enter(e, entered);
    };
    world.forEachNear(viewer, viewer.id, KEEP_RADIUS, consider);
    this.admitPlayers(kept, entered);
    const left: string[] = [];
    for (const seen of visible.values()) {
      if (seen.entity.mark === kept) continue;
      left.push(seen.id);
      gone?.push(seen.entity);
      visible.delete(seen.id);
    }
    return { entered, left };
  }

  /**
   * Starts an empty view with these entities in it, as another Interest found them (a view taken
   * over by a worker: see ViewTracker's InterestViewer): its first refresh then says what entered
   * and left since.
   */
  seed(entities: Iterable<E>): void {
    if (this.visible.size > 0) throw new Error("Interest.seed: the view is not empty");
    for (const e of entities) this.visible.set(e.id, { id: e.id, entity: e, sentRev: -1, sentInfoRev: -1, handle: -1 });
  }

  /** A new entry of the view: nothing of it sent yet. */
  private enter(e: E, entered: string[]): void {
    this.visible.set(e.id, { id: e.id, entity: e, sentRev: -1, sentInfoRev: -1, handle: -1 });
    entered.push(e.id);
  }

  /**
   * Of this refresh's candidate players, the MAX_PLAYERS_IN_VIEW nearest by ranking distance (a
   * newcomer's distance plus CAP_MARGIN, or plus WAITS beyond CLAIM_RADIUS) get `kept` (and enter the view when new); the rest keep
   * `maybe` and so leave it. Linear: candidates are counted by distance (whole tiles), not sorted.
   */
  private admitPlayers(kept: number, entered: string[]): void {
    const n = candidateCount;
    const take = (i: number) => {
      const e = candidates[i]! as E;
      e.mark = kept;
      if (!candidateWasVisible[i]) this.enter(e, entered);
    };
    if (n <= MAX_PLAYERS_IN_VIEW) {
      for (let i = 0; i < n; i++) take(i);
      return;
    }
    // The distance `cut` at which the cap is reached: everyone nearer is in, and `room` of those at it.
    perDistance.fill(0);
    for (let i = 0; i < n; i++) perDistance[candidateDistance[i]!]!++;
    let room = MAX_PLAYERS_IN_VIEW;
    let cut = 0;
    while (room >= perDistance[cut]!) room -= perDistance[cut++]!;
    for (let i = 0; i < n; i++) if (candidateDistance[i]! < cut) take(i);
    // At the cut, those already in view stay first (no flicker between refreshes), then newcomers.
    for (let i = 0; i < n && room > 0; i++) {
      if (candidateDistance[i] === cut && candidateWasVisible[i]) {
        take(i);
        room--;
      }
    }
    for (let i = 0; i < n && room > 0; i++) {
      if (candidateDistance[i] === cut && !candidateWasVisible[i]) {
        take(i);
        room--;
      }
    }
  }
}
