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
      if (handles !== undefined && seen.handle < 0 && !(seen.sentRev >= 0 && seen.sentInfoRev === e.infoRev)) {
        seen.handle = this.free.pop() ?? this.nextHandle++;
        handles.set(seen.id, seen.handle);
      }
      moved = writeEntry(e, seen, parts, moved, handles !== undefined);
    }
    return frameText(tick, parts, moved, removed, handles !== undefined, always);
  }
}

/** What a view last sent of one entity (see Seen). */
interface Sent {
  sentRev: number;
  sentInfoRev: number;
  handle: number;
}

/**
 * Adds what changed of `e` since `sent` to a frame: its whole entry (with its handle in compact
 * form, which the caller has given it), or only its move; returns the frame's `moved` list.
 */
function writeEntry(e: Shown, sent: Sent, parts: string[], moved: string, compact: boolean): string {
  const onlyMoved = sent.sentRev >= 0 && sent.sentInfoRev === e.infoRev;
  if (!compact) parts.push(onlyMoved ? e.compact : e.full);
  else if (onlyMoved) moved += moved === "" ? `${sent.handle}${e.movedXZ}` : `,${sent.handle}${e.movedXZ}`;
  else parts.push(`{"h":${sent.handle},${e.full.slice(1)}`);
  sent.sentRev = e.rev;
  sent.sentInfoRev = e.infoRev;
  return moved;
}

/** The `world:update` frame, or undefined when there is nothing in it (unless `always`). */
function frameText(tick: number, parts: string[], moved: string, removed: string[], compact: boolean, always: boolean): string | undefined {
  if (!always && parts.length === 0 && moved === "" && removed.length === 0) return undefined;
  const movedPart = compact ? `,"moved":[${moved}]` : "";
  return `{"type":"world:update","data":{"tick":${tick},"entities":[${parts.join(",")}]${movedPart},"removed":${JSON.stringify(removed)}}}`;
}

/** One entity in a group's union of views: in how many of its members' views, and what was sent of it. */
interface Shared extends Sent {
  count: number;
}

/**
 * The views of several viewers sent as one (a multiplexed `/ws` connection, src/ws/mux.ts): each
 * member keeps its own Interest, as it would alone, and the group sends the union of their views,
 * each entity once. An entity is counted in as it enters a member's view and out as it leaves
 * it; the union holds it while any member sees it. What each member sees of the union is the
 * client's to work out (within VIEW_RADIUS of its player).
 */
export class GroupView {
  /** By the replica's object, not its id: an id that comes back is a new object, while members may still count the old one out. */
  private readonly union = new Map<Shown, Shared>();
  private readonly compact: boolean;
  private readonly free: number[] = [];
  private freeing: number[] = [];
  private nextHandle = 0;
  first = true;

  constructor(compact: boolean) {
    this.compact = compact;
  }

  /**
   * A member leaves: everything in its view is counted out. (A private ground item enters only
   * its owner's view, so it leaves the union with its owner.)
   */
  leave(interest: Interest<Shown>): void {
    for (const seen of interest.visible.values()) this.out(seen.entity);
  }

  in(e: Shown): void {
    const s = this.union.get(e);
    if (s !== undefined) s.count++;
    else this.union.set(e, { count: 1, sentRev: -1, sentInfoRev: -1, handle: -1 });
  }

  /** Counted out; it leaves the union at the next frame unless a member counts it in again meanwhile. */
  out(e: Shown): void {
    const s = this.union.get(e);
    if (s !== undefined) s.count--;
  }

  /** This tick's frame of the union (the first one even if its union is empty). */
  frame(world: ViewWorld): string | undefined {
    const tick = world.tick;
    const parts: string[] = [];
    let moved = "";
    const removed: string[] = [];
    for (const [e, s] of this.union) {
      if (!e.live || s.count <= 0) {
        // Out of every member's view, or gone from the world. (An id that comes back is a new
        // object in a later diff, so it is never both here and removed in one frame.)
        this.union.delete(e);
        if (s.handle >= 0) this.freeing.push(s.handle);
        if (s.sentRev >= 0) removed.push(e.id);
        continue;
      }
      if (s.sentRev === e.rev) continue;
      if (this.compact && s.handle < 0 && !(s.sentRev >= 0 && s.sentInfoRev === e.infoRev)) s.handle = this.free.pop() ?? this.nextHandle++;
      moved = writeEntry(e, s, parts, moved, this.compact);
    }
    // Handles freed in this frame are given out from the next one on.
    for (const h of this.freeing) this.free.push(h);
    this.freeing = [];
    const text = frameText(tick, parts, moved, removed, this.compact, this.first);
    if (text !== undefined) this.first = false;
    return text;
  }
}

/** One tick's input to a {@link DeltaBuilder}: the world's diff, and viewers and groups that came and went. */
export interface DeltaInput extends WorldDiff {
  /** [viewer id, player id, compact updates, group id (0: none, its own frames)]. */
  joined: [number, string, boolean, number][];
  left: number[];
  /** [group id, compact updates]: groups that came (before their members), see GroupView. */
  groupsJoined: [number, boolean][];
  /** Groups that went (their members go with them). */
  groupsLeft: number[];
}

interface Viewer {
  playerId: string;
  /** A viewer of its own: its frames; a group's member: its Interest only. */
  tracker: ViewTracker;
  group: GroupView | undefined;
  /** Its first frame (everything in view, even if that is nothing) is still to come. */
  first: boolean;
}

/** The replica and every viewer's tracker: one tick's diff in, every viewer's and group's frame out. */
export class DeltaBuilder {
  readonly world = new ViewWorld();
  private readonly viewers = new Map<number, Viewer>();
  private readonly groups = new Map<number, GroupView>();

  /** Frames as a flat list: viewer id, frame, …; a group's frame under its id negated. */
  step(input: DeltaInput): (number | string)[] {
    this.world.apply(input);
    // Periodic refreshes staggered by viewer id: the same frames wherever this runs. Joins before
    // leaves: a viewer that came and went since the last step is in both.
    for (const [id, compact] of input.groupsJoined) this.groups.set(id, new GroupView(compact));
    for (const [id, playerId, compact, groupId] of input.joined) {
      const group = groupId === 0 ? undefined : this.groups.get(groupId);
      if (groupId !== 0 && group === undefined) continue;
      this.viewers.set(id, { playerId, tracker: new ViewTracker(id, compact), group, first: true });
    }
    for (const id of input.left) this.leave(id);
    for (const id of input.groupsLeft) {
      const group = this.groups.get(id);
      if (group === undefined) continue;
      this.groups.delete(id);
      for (const [vid, v] of this.viewers) if (v.group === group) this.viewers.delete(vid);
    }
    const out: (number | string)[] = [];
    for (const [id, v] of this.viewers) {
      if (v.group !== undefined) {
        const viewer = this.world.byId.get(v.playerId);
        if (viewer === undefined) continue;
        const change = v.tracker.interest.refresh(this.world, viewer, v.first);
        v.first = false;
        if (change === undefined) continue;
        for (const entered of change.entered) v.group.in(v.tracker.interest.visible.get(entered)!.entity);
        for (const gone of change.gone) v.group.out(gone);
        continue;
      }
      const frame = v.tracker.frame(this.world, v.playerId, v.first);
      if (frame === undefined) continue;
      v.first = false;
      out.push(id, frame);
    }
    for (const [id, group] of this.groups) {
      const frame = group.frame(this.world);
      if (frame !== undefined) out.push(-id, frame);
    }
    return out;
  }

  private leave(id: number): void {
    const v = this.viewers.get(id);
    if (v === undefined) return;
    this.viewers.delete(id);
    v.group?.leave(v.tracker.interest);
  }
}
