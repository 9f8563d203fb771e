/**
 * What `/ws` clients can see of a world, as a replica that can live in another thread.
 *
 * The World's thread walks its entities once per tick ({@link ViewFeed.diff}) and sends what
 * changed as a flat list of primitives (cheap to copy between threads). A {@link ViewWorld} applies
 * those diffs and holds every visible entity in the form every viewer is sent (serialised once),
 * with a spatial index, so that interest and `world:update` frames (see ViewTracker) can be built
 * without touching the World.
 */
import type { Tile } from "../map/CollisionMap.ts";
import type { Spatial } from "./Interest.ts";
import { forEachInCells, indexInCell, unindexFromCell } from "./cells.ts";
import { Player } from "./Player.ts";
import { describe, type Entity, type World } from "./World.ts";

/** Values per changed entity in {@link WorldDiff.changes}. */
export const CHANGE_STRIDE = 8;

/**
 * One tick's changes. `changes` holds {@link CHANGE_STRIDE} values per entity: id, kind, x, z,
 * info (the entity's JSON without its position, or null when that did not change since the last
 * diff), the owner of a private ground item (or null), the tick it becomes public, and its number
 * (see ViewFeed.idOf).
 */
export interface WorldDiff {
  tick: number;
  changes: (string | number | null)[];
  /** Ids that left the world (or are hidden, like a dead NPC) since the last diff. */
  removed: string[];
}

interface Sent {
  entity: Entity;
  version: number;
  /** A player's walkVersion and running flag at that version (0 and false for other entities). */
  walks: number;
  running: boolean;
  info: string;
  tick: number;
  num: number;
}

/**
 * Diffs an entity's number is kept for after it left (see ViewFeed.idOf). A view holding it learns
 * that it left at its next refresh (up to REFRESH_TICKS later), and an answer may come a tick or so
 * late; beyond that, the margin is for a worker falling behind. Only the entities that left in
 * this many ticks are kept.
 */
export const NUM_KEPT_DIFFS = 32;

/** Builds the diffs of one World, on its thread. */
export class ViewFeed {
  private readonly sent = new Map<string, Sent>();
  /**
   * The entities' numbers, given here as they are first sent and never given again: a replica's
   * answers name entities by them (see InterestChanges), and this thread reads them back as the
   * World's own id strings (a Map keyed by those finds them without hashing and comparing another
   * copy of the text, as it did with ids copied over from the worker).
   */
  private readonly ids = new Map<number, string>();
  private nextNum = 1;
  /** Numbers of entities gone, with the diff after which they are forgotten. */
  private retired: [number, number][] = [];
  private diffs = 0;

  /** The id of the entity numbered `num` (undefined once forgotten, see NUM_KEPT_DIFFS). */
  idOf(num: number): string | undefined {
    return this.ids.get(num);
  }

  /** What changed since the last call (everything, the first time). */
  diff(world: World): WorldDiff {
    const tick = world.tick;
    const diffs = ++this.diffs;
    while (this.retired.length > 0 && this.retired[0]![1] <= diffs) this.ids.delete(this.retired.shift()![0]);
    const changes: WorldDiff["changes"] = [];
    const sent = this.sent;
    world.forEachShown(true, (e, version) => {
      const s = sent.get(e.id);
      if (s !== undefined && s.entity === e) {
        if (s.version === version) {
          s.tick = tick;
          return;
        }
        // A player that only walked since (every change a step, its running flag the same): its
        // info is the same, so it is not serialised again (most of a crowd's changes a tick).
        if (e instanceof Player && version - s.version === e.walkVersion - s.walks && e.running === s.running) {
          s.version = version;
          s.walks = e.walkVersion;
          s.tick = tick;
          changes.push(e.id, "player", e.x, e.z, null, null, 0, s.num);
          return;
        }
      }
      const { x, z, ...rest } = describe(e);
      const info = JSON.stringify(rest);
      const infoChanged = s === undefined || s.info !== info;
      const walks = e instanceof Player ? e.walkVersion : 0;
      const running = e instanceof Player && e.running;
      let num: number;
      if (s === undefined) {
        num = this.nextNum++;
        this.ids.set(num, e.id);
        sent.set(e.id, { entity: e, version, walks, running, info, tick, num });
      } else {
        s.entity = e;
        s.version = version;
        s.walks = walks;
        s.running = running;
        s.info = info;
        s.tick = tick;
        num = s.num;
      }
      const owned = "ownerId" in e ? e : undefined;
      changes.push(e.id, rest.kind, x, z, infoChanged ? info : null, owned?.ownerId ?? null, owned?.publicAtTick ?? 0, num);
    });
    const removed: string[] = [];
    for (const [id, s] of sent) {
      if (s.tick === tick) continue;
      sent.delete(id);
      removed.push(id);
      this.retired.push([s.num, diffs + NUM_KEPT_DIFFS]);
    }
    return { tick, changes, removed };
  }
}

/** One entity as every viewer sees it. */
export interface Shown {
  readonly id: string;
  kind: string;
  x: number;
  z: number;
  /** Changes whenever what is sent of it does (unique within its ViewWorld). */
  rev: number;
  /** Changes whenever anything but the position does. */
  infoRev: number;
  /** Everything but the position. */
  info: string;
  /** The whole entity. */
  full: string;
  /** `{id, kind, x, z}`. */
  compact: string;
  /** `,x,z`: its part of a compact update's `moved` after its handle (see ViewTracker). */
  movedXZ: string;
  /** Ground items: only this player sees it until `publicAtTick`. */
  ownerId: string | undefined;
  publicAtTick: number;
  /** Its number on the World's thread (see ViewFeed.idOf). */
  num: number;
  /** False once it has left the world: every view drops it. */
  live: boolean;
  mark?: number;
  /** Scratch mark of the GroupView frame running now (apart from Interest's). */
  groupMark?: number;
  cellKey: number;
  cellSlot: number;
}

/** The replica: every entity clients may see, indexed by cell. */
export class ViewWorld implements Spatial<Shown> {
  tick = -1;
  readonly byId = new Map<string, Shown>();
  private readonly cells = new Map<number, Shown[]>();
  private nextRev = 0;

  apply(diff: WorldDiff): void {
    this.tick = diff.tick;
    for (const id of diff.removed) {
      const e = this.byId.get(id);
      if (e === undefined) continue;
      e.live = false;
      unindexFromCell(this.cells, e);
      this.byId.delete(id);
    }
    const c = diff.changes;
    for (let i = 0; i < c.length; i += CHANGE_STRIDE) {
      const id = c[i] as string;
      const x = c[i + 2] as number;
      const z = c[i + 3] as number;
      const info = c[i + 4] as string | null;
      let e = this.byId.get(id);
      if (e === undefined) {
        if (info === null) throw new Error(`ViewWorld: a change to unknown entity ${id} without its info`);
        e = { id, kind: c[i + 1] as string, x, z, rev: -1, infoRev: -1, info, full: "", compact: "", movedXZ: "", ownerId: undefined, publicAtTick: 0, num: c[i + 7] as number, live: true, cellKey: -1, cellSlot: -1 };
        this.byId.set(id, e);
      }
      e.x = x;
      e.z = z;
      const rev = this.nextRev++;
      if (info !== null) {
        e.info = info;
        e.infoRev = rev;
      }
      e.rev = rev;
      e.full = `${e.info.slice(0, -1)},"x":${x},"z":${z}}`;
      e.compact = `{"id":${JSON.stringify(id)},"kind":"${e.kind}","x":${x},"z":${z}}`;
      e.movedXZ = `,${x},${z}`;
      e.ownerId = (c[i + 5] as string | null) ?? undefined;
      e.publicAtTick = c[i + 6] as number;
      indexInCell(this.cells, e);
    }
  }

  /** Everything within `radius` of a tile, private ground items included (their owners are for the caller to check). */
  forEachAround(at: Tile, radius: number, fn: (entity: Shown) => void): void {
    forEachInCells(this.cells, at, radius, fn);
  }

  forEachNear(at: Tile, viewerId: string, radius: number, fn: (entity: Shown, isPlayer: boolean) => void): void {
    const tick = this.tick;
    forEachInCells(this.cells, at, radius, (e) => {
      if (e.ownerId === undefined || e.ownerId === viewerId || tick >= e.publicAtTick) fn(e, e.kind === "player");
    });
  }
}
