/**
 * `world:update` deltas for `/ws` connections: what entered, changed or left a viewer's view
 * since its last update. An entity is sent whole when it enters the view or its details change,
 * and as `{id, kind, x, z}` when only its position changed.
 *
 * Everything here works on a {@link ViewWorld} (the replica of what clients see), not on the
 * World, so it can run in a worker thread while the World's thread encodes the Colyseus patches
 * (see src/ws/WsDeltas.ts). The work that does not depend on the viewer (serialising what
 * changed) happens once per tick in the replica; what is left per viewer is a walk over its view
 * comparing two integers per entity, and the frame assembled as text from the shared strings.
 *
 * Compact updates (a connection's choice, `/ws?updates=compact`): an entity's whole entry also
 * carries `h`, a small number naming it in this connection's view, and a move is three numbers in
 * `moved` (`[h, x, z, h, x, z, …]`) instead of `{id, kind, x, z}`: about 12 bytes instead of 75
 * with UUID ids, for the updates that are most of a crowded view's traffic. A handle names one
 * entity from its whole entry until its id is in `removed`; a freed handle is given out again
 * only in a later frame, so within a frame every handle means one entity.
 */
import { Interest } from "./Interest.ts";
import { ViewWorld, type Shown, type WorldDiff } from "./ViewWorld.ts";

export class ViewTracker {
  readonly interest: Interest<Shown>;
  private started = false;
  /** Compact updates: handles by entity id, free handles, and the ones freed in this frame. */
  private readonly handles: Map<string, number> | undefined;
  private readonly free: number[] = [];
  private freeing: number[] = [];
  private nextHandle = 0;

  /** `phase`: see Interest (staggered by default); `compact`: handles and `moved` (see the file comment). */
  constructor(phase?: number, compact = false) {
    this.interest = new Interest<Shown>(phase);
    this.handles = compact ? new Map() : undefined;
  }

  /** Frees the handle of an entity that left the view (usable from the next frame on). */
  private release(id: string): void {
    const h = this.handles!.get(id);
    if (h === undefined) return;
    this.handles!.delete(id);
    this.freeing.push(h);
  }

  /**
   * The `world:update` frame for this tick, or undefined when nothing changed in view (`always`:
   * the full first one) or the viewer is not in the world.
   */
  frame(world: ViewWorld, viewerId: string, always = false): string | undefined {
    const viewer = world.byId.get(viewerId);
    if (viewer === undefined) return undefined;
    const handles = this.handles;
    if (handles !== undefined && this.freeing.length > 0) {
      for (const h of this.freeing) this.free.push(h);
      this.freeing = [];
    }
    const change = this.interest.refresh(world, viewer, !this.started);
    this.started = true;
    const removed: string[] = change?.left ?? [];
    if (handles !== undefined) for (const id of removed) this.release(id);
    const visible = this.interest.visible;
    const tick = world.tick;
    const parts: string[] = [];
    let moved = "";
    for (const seen of visible.values()) {
      const e = seen.entity;
      if (!e.live || (e.ownerId !== undefined && e.ownerId !== viewerId && tick < e.publicAtTick)) {
        // Gone or hidden: out of the view, so that it enters again (whole) if it comes back.
        visible.delete(seen.id);
        if (seen.sentRev >= 0) removed.push(seen.id);
        if (handles !== undefined) this.release(seen.id);
        continue;
      }
      if (seen.sentRev === e.rev) continue;
      const onlyMoved = seen.sentRev >= 0 && seen.sentInfoRev === e.infoRev;
      if (handles === undefined) parts.push(onlyMoved ? e.compact : e.full);
      else if (onlyMoved) moved += moved === "" ? `${seen.handle}${e.movedXZ}` : `,${seen.handle}${e.movedXZ}`;
      else {
        if (seen.handle < 0) {
          seen.handle = this.free.pop() ?? this.nextHandle++;
          handles.set(seen.id, seen.handle);
        }
        parts.push(`{"h":${seen.handle},${e.full.slice(1)}`);
      }
      seen.sentRev = e.rev;
      seen.sentInfoRev = e.infoRev;
    }
    if (!always && parts.length === 0 && moved === "" && removed.length === 0) return undefined;
    const movedPart = handles === undefined ? "" : `,"moved":[${moved}]`;
    return `{"type":"world:update","data":{"tick":${tick},"entities":[${parts.join(",")}]${movedPart},"removed":${JSON.stringify(removed)}}}`;
  }
}

/** One tick's input to a {@link DeltaBuilder}: the world's diff, and viewers that came and went. */
export interface DeltaInput extends WorldDiff {
  /** [viewer id, player id, compact updates] triples. */
  joined: [number, string, boolean][];
  left: number[];
}

interface Viewer {
  playerId: string;
  tracker: ViewTracker;
  /** Its first frame (everything in view, even if that is nothing) is still to come. */
  first: boolean;
}

/** The replica and every viewer's tracker: one tick's diff in, every viewer's frame out. */
export class DeltaBuilder {
  readonly world = new ViewWorld();
  private readonly viewers = new Map<number, Viewer>();

  /** Frames as a flat list: viewer id, frame, viewer id, frame, … */
  step(input: DeltaInput): (number | string)[] {
    this.world.apply(input);
    // Periodic refreshes staggered by viewer id: the same frames wherever this runs. Joins before
    // leaves: a viewer that came and went since the last step is in both.
    for (const [id, playerId, compact] of input.joined) this.viewers.set(id, { playerId, tracker: new ViewTracker(id, compact), first: true });
    for (const id of input.left) this.viewers.delete(id);
    const out: (number | string)[] = [];
    for (const [id, v] of this.viewers) {
      const frame = v.tracker.frame(this.world, v.playerId, v.first);
      if (frame === undefined) continue;
      v.first = false;
      out.push(id, frame);
    }
    return out;
  }
}
