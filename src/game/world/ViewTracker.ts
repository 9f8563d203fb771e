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
import { Interest, KEEP_RADIUS, type ViewChange } from "./Interest.ts";
import { cellKey } from "./cells.ts";
import { VIEW_RADIUS } from "../serverEvents.ts";
import { ViewWorld, type Shown, type WorldDiff } from "./ViewWorld.ts";

/** One connection's compact-update handles: a handle freed in a frame is given out again only from the next one on. */
class Handles {
  private readonly free: number[] = [];
  private freeing: number[] = [];
  private next = 0;

  take(): number {
    return this.free.pop() ?? this.next++;
  }

  release(h: number): void {
    this.freeing.push(h);
  }

  /** A new frame: the handles freed in the last one may be given out again. */
  turn(): void {
    if (this.freeing.length === 0) return;
    for (const h of this.freeing) this.free.push(h);
    this.freeing = [];
  }
}

export class ViewTracker {
  readonly interest: Interest<Shown>;
  private started = false;
  /** Compact updates: the handles, and which entity holds which (by id: an entity that left the view is known by its id only). */
  private readonly handles: Handles | undefined;
  private readonly handleOf: Map<string, number> | undefined;

  /** `phase`: see Interest (staggered by default); `compact`: handles and `moved` (see the file comment). */
  constructor(phase?: number, compact = false) {
    this.interest = new Interest<Shown>(phase);
    this.handles = compact ? new Handles() : undefined;
    this.handleOf = compact ? new Map() : undefined;
  }

  /** Frees the handle of an entity that left the view (usable from the next frame on). */
  private release(id: string): void {
    const h = this.handleOf!.get(id);
    if (h === undefined) return;
    this.handleOf!.delete(id);
    this.handles!.release(h);
  }

  /**
   * The `world:update` frame for this tick, or undefined when nothing changed in view (`always`:
   * the full first one) or the viewer is not in the world.
   */
  frame(world: ViewWorld, viewerId: string, always = false): string | undefined {
    const viewer = world.byId.get(viewerId);
    if (viewer === undefined) return undefined;
    const handles = this.handles;
    handles?.turn();
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
      const had = seen.handle;
      moved = writeEntry(e, seen, parts, moved, handles);
      if (had !== seen.handle) this.handleOf!.set(seen.id, seen.handle);
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
 * Adds what changed of `e` since `sent` to a frame: its whole entry (in compact form with its
 * handle, given here if it has none yet), or only its move; returns the frame's `moved` list.
 */
function writeEntry(e: Shown, sent: Sent, parts: string[], moved: string, handles: Handles | undefined): string {
  const onlyMoved = sent.sentRev >= 0 && sent.sentInfoRev === e.infoRev;
  if (handles === undefined) parts.push(onlyMoved ? e.compact : e.full);
  else if (onlyMoved) moved += moved === "" ? `${sent.handle}${e.movedXZ}` : `,${sent.handle}${e.movedXZ}`;
  else {
    if (sent.handle < 0) sent.handle = handles.take();
    parts.push(`{"h":${sent.handle},${e.full.slice(1)}`);
  }
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

/** One entity in a group's view: what was sent of it, and the frame that last kept it in view. */
interface Shared extends Sent {
  kept: number;
}

/** Side of the cells members are placed in: an entity within KEEP_RADIUS of a member is in the 3 × 3 cells around its own. */
const MEMBER_CELL = KEEP_RADIUS + 1;

/** The members standing in one member cell (at cx, cz), and the box around them. */
interface MemberCell {
  cx: number;
  cz: number;
  players: Shown[];
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

let groupMarks = 0;

/**
 * The views of several viewers sent as one (a multiplexed `/ws` connection, src/ws/mux.ts): each
 * frame is worked out for the group as a whole, every tick, from where its members stand, with no
 * view of each member kept: an entity joins the group's view within VIEW_RADIUS of a member (a
 * private ground item: of its owner) and stays in it while within KEEP_RADIUS of one, as a plain
 * view's entries do. The cost is one pass over what lies near the members, however many they are
 * and however crowded; a viewer of its own refreshes its view every few ticks, and a thousand of
 * them in one crowd each rank the whole crowd. There is no cap on players (MAX_PLAYERS_IN_VIEW):
 * the members of a crowd see all of it between them anyway. What each member sees of the frame
 * (within VIEW_RADIUS of its player) is the client's to work out.
 */
export class GroupView {
  /** By the replica's object, not its id: an id that comes back is a new object. */
  private readonly union = new Map<Shown, Shared>();
  /** Player ids by viewer id. */
  private readonly members = new Map<number, string>();
  /** Compact updates' handles (none: the documented form). */
  private readonly handles: Handles | undefined;
  private first = true;

  constructor(compact: boolean) {
    this.handles = compact ? new Handles() : undefined;
  }

  join(viewerId: number, playerId: string): void {
    this.members.set(viewerId, playerId);
  }

  leave(viewerId: number): void {
    this.members.delete(viewerId);
  }

  /** This tick's frame of the group's view (the first one even if the view is empty). */
  frame(world: ViewWorld): string | undefined {
    const tick = world.tick;
    const handles = this.handles;
    handles?.turn();
    // Where the members stand, by member cell.
    const cells = new Map<number, MemberCell>();
    const ids = new Set<string>();
    for (const playerId of this.members.values()) {
      const p = world.byId.get(playerId);
      if (p === undefined) continue;
      ids.add(playerId);
      const cx = Math.floor(p.x / MEMBER_CELL);
      const cz = Math.floor(p.z / MEMBER_CELL);
      const key = cellKey(cx, cz);
      const c = cells.get(key);
      if (c === undefined) cells.set(key, { cx, cz, players: [p], minX: p.x, maxX: p.x, minZ: p.z, maxZ: p.z });
      else {
        c.players.push(p);
        if (p.x < c.minX) c.minX = p.x;
        if (p.x > c.maxX) c.maxX = p.x;
        if (p.z < c.minZ) c.minZ = p.z;
        if (p.z > c.maxZ) c.maxZ = p.z;
      }
    }
    /** Whether a member (`owner`: that one only) stands within `radius` of `e`. */
    const seenBy = (e: Shown, radius: number, owner: string | undefined): boolean => {
      const mcx = Math.floor(e.x / MEMBER_CELL);
      const mcz = Math.floor(e.z / MEMBER_CELL);
      for (let cx = mcx - 1; cx <= mcx + 1; cx++) {
        for (let cz = mcz - 1; cz <= mcz + 1; cz++) {
          const c = cells.get(cellKey(cx, cz));
          if (c === undefined || e.x < c.minX - radius || e.x > c.maxX + radius || e.z < c.minZ - radius || e.z > c.maxZ + radius) continue;
          for (const p of c.players) {
            if (Math.abs(p.x - e.x) <= radius && Math.abs(p.z - e.z) <= radius && (owner === undefined || p.id === owner)) return true;
          }
        }
      }
      return false;
    };
    const mark = ++groupMarks;
    const parts: string[] = [];
    let moved = "";
    const union = this.union;
    const consider = (e: Shown): void => {
      if (e.groupMark === mark) return;
      e.groupMark = mark;
      const s = union.get(e);
      const owner = e.ownerId !== undefined && tick < e.publicAtTick ? e.ownerId : undefined;
      if (owner !== undefined && !ids.has(owner)) return;
      if (!seenBy(e, s === undefined ? VIEW_RADIUS : KEEP_RADIUS, owner)) return;
      let sent = s;
      if (sent === undefined) union.set(e, (sent = { sentRev: -1, sentInfoRev: -1, handle: -1, kept: mark }));
      sent.kept = mark;
      if (sent.sentRev === e.rev) return;
      moved = writeEntry(e, sent, parts, moved, handles);
    };
    // Everything within KEEP_RADIUS of a member cell, once each.
    const half = MEMBER_CELL / 2;
    for (const { cx, cz } of cells.values()) world.forEachAround({ x: Math.floor(cx * MEMBER_CELL + half), z: Math.floor(cz * MEMBER_CELL + half) }, Math.ceil(half) + KEEP_RADIUS, consider);
    // What was in view and was not kept has left it (or the world).
    const removed: string[] = [];
    for (const [e, s] of union) {
      if (s.kept === mark) continue;
      union.delete(e);
      if (s.handle >= 0) handles?.release(s.handle);
      if (s.sentRev >= 0) removed.push(e.id);
    }
    const text = frameText(tick, parts, moved, removed, handles !== undefined, this.first);
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
  /**
   * Interest viewers (see InterestViewer) that came: [viewer id, player id, the ids already in its
   * view]; and those that went. Absent: none.
   */
  interestJoined?: [number, string, string[]][];
  interestLeft?: number[];
}

/**
 * What entered and left the interest viewers' views in one tick, flat (only the viewers whose view
 * changed): viewer id, how many entered, how many left, the numbers of those that entered, then of
 * those that left (entities are named by their numbers: see ViewFeed.idOf), the next viewer, …
 */
export type InterestChanges = Int32Array;

/**
 * A view whose contents are worked out here but sent by someone else: a Colyseus client's, whose
 * StateView is changed on the World's thread (rooms/WorldRoom.ts) with what entered and left it.
 * The same Interest as every other view, on the replica; it starts from what was already in the
 * view when it came here (its first view was filled on the World's thread at the join).
 */
class InterestViewer {
  readonly playerId: string;
  readonly interest: Interest<Shown>;
  private seed: string[] | undefined;
  /**
   * Ids of its seed that were no longer in the replica when it was seeded (they left the world
   * between the join and the worker's next tick): they never enter its Interest, so nothing else
   * would say that they left. Said with its first answer, by id (see DeltaBuilder.interests).
   */
  unseeded: string[] | undefined;
  constructor(playerId: string, phase: number, seed: string[]) {
    this.playerId = playerId;
    this.interest = new Interest<Shown>(phase);
    this.seed = seed;
  }

  /**
   * What entered and left its view, when a refresh was due and its player is in the replica;
   * `gone`: the entities that left are put there too.
   */
  changes(world: ViewWorld, gone: Shown[]): ViewChange | undefined {
    const viewer = world.byId.get(this.playerId);
    if (viewer === undefined) return undefined;
    if (this.seed !== undefined) {
      const seeded: Shown[] = [];
      for (const id of this.seed) {
        const e = world.byId.get(id);
        if (e !== undefined) seeded.push(e);
        else (this.unseeded ??= []).push(id);
      }
      this.interest.seed(seeded);
      this.seed = undefined;
    }
    const change = this.interest.refresh(world, viewer, false, gone);
    if (change === undefined || (change.entered.length === 0 && change.left.length === 0)) return undefined;
    return change;
  }
}

/** A growable Int32Array's room for `need` values. */
function room(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

interface Viewer {
  playerId: string;
  tracker: ViewTracker;
  /** Its first frame (everything in view, even if that is nothing) is still to come. */
  first: boolean;
}

/**
 * The replica and every viewer's tracker: one tick's diff in ({@link apply}), every viewer's and
 * group's frame out ({@link frames}), and every interest viewer's changes ({@link interests}).
 */
export class DeltaBuilder {
  readonly world = new ViewWorld();
  private readonly viewers = new Map<number, Viewer>();
  private readonly interestViewers = new Map<number, InterestViewer>();
  private readonly groups = new Map<number, GroupView>();
  /** Group members' groups, by viewer id. */
  private readonly memberOf = new Map<number, GroupView>();

  /** {@link apply}, then {@link frames}. */
  step(input: DeltaInput): (number | string)[] {
    this.apply(input);
    return this.frames();
  }

  /** One tick's diff into the replica, and the viewers, groups and interest viewers that came and went. */
  apply(input: DeltaInput): void {
    this.world.apply(input);
    for (const [id, playerId, seed] of input.interestJoined ?? []) this.interestViewers.set(id, new InterestViewer(playerId, id, seed));
    for (const id of input.interestLeft ?? []) this.interestViewers.delete(id);
    // Periodic refreshes staggered by viewer id: the same frames wherever this runs. Joins before
    // leaves: a viewer that came and went since the last step is in both.
    for (const [id, compact] of input.groupsJoined) this.groups.set(id, new GroupView(compact));
    for (const [id, playerId, compact, groupId] of input.joined) {
      if (groupId === 0) {
        this.viewers.set(id, { playerId, tracker: new ViewTracker(id, compact), first: true });
        continue;
      }
      const group = this.groups.get(groupId);
      if (group === undefined) continue;
      group.join(id, playerId);
      this.memberOf.set(id, group);
    }
    for (const id of input.left) {
      this.viewers.delete(id);
      this.memberOf.get(id)?.leave(id);
      this.memberOf.delete(id);
    }
    for (const id of input.groupsLeft) {
      const group = this.groups.get(id);
      if (group === undefined) continue;
      this.groups.delete(id);
      for (const [member, g] of this.memberOf) if (g === group) this.memberOf.delete(member);
    }
  }

  /** Scratch of {@link interests}: the answer being written, and the entities that left a view. */
  private interestOut = new Int32Array(4096);
  private readonly gone: Shown[] = [];

  /**
   * What entered and left each interest viewer's view this tick (see InterestChanges): a new array,
   * to hand over; and, by id, what left the views before the replica knew it (`unseeded`: viewer id,
   * ids, …; see InterestViewer.unseeded). Of part `part` of `parts` (the viewers in join order,
   * cut in `parts` runs of about the same size), so that the first can be handed over while the
   * next is worked out.
   */
  interests(part = 0, parts = 1): { changes: InterestChanges; unseeded: (number | string[])[] } {
    let out = this.interestOut;
    let n = 0;
    const gone = this.gone;
    const byId = this.world.byId;
    const unseeded: (number | string[])[] = [];
    const count = this.interestViewers.size;
    const from = Math.floor((part * count) / parts);
    const to = Math.floor(((part + 1) * count) / parts);
    let i = -1;
    for (const [id, v] of this.interestViewers) {
      if (++i < from) continue;
      if (i >= to) break;
      gone.length = 0;
      const change = v.changes(this.world, gone);
      if (v.unseeded !== undefined) {
        unseeded.push(id, v.unseeded);
        v.unseeded = undefined;
      }
      if (change === undefined) continue;
      out = room(out, n + 3 + change.entered.length + gone.length);
      out[n++] = id;
      out[n++] = change.entered.length;
      out[n++] = gone.length;
      for (const e of change.entered) out[n++] = (v.interest.visible.get(e)?.entity ?? byId.get(e)!).num;
      for (const e of gone) out[n++] = e.num;
    }
    this.interestOut = out;
    return { changes: out.slice(0, n), unseeded };
  }

  /** Every viewer's and group's frame as a flat list: viewer id, frame, …; a group's frame under its id negated. */
  frames(): (number | string)[] {
    const out: (number | string)[] = [];
    for (const [id, v] of this.viewers) {
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
}
