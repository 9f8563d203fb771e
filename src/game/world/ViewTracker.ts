/**
 * `world:update` deltas for one `/ws` connection: what entered, changed or left its view since
 * the last update. An entity is sent whole when it enters the view or its details change, and as
 * `{id, kind, x, z}` when only its position changed.
 *
 * The work that does not depend on the viewer happens once per tick for the whole world (see
 * {@link publishedEntities}): every entity whose visible version changed is serialised again and
 * given a new revision. What is left per viewer is a walk over its view comparing two integers per
 * entity, and the frame assembled as text from the shared strings.
 */
import { Interest } from "./Interest.ts";
import type { Player } from "./Player.ts";
import { describe, versionOf, type Entity, type World } from "./World.ts";

/** One entity as every viewer sees it this tick, serialised once. */
export interface Published {
  readonly id: string;
  entity: Entity;
  /** The entity's own version this was serialised at. */
  version: number;
  /** Changes whenever the serialised entity does (a new revision, world-wide unique). */
  rev: number;
  /** Changes whenever anything but the position does. */
  infoRev: number;
  /** The whole entity. */
  full: string;
  /** `{id, kind, x, z}`. */
  compact: string;
  /** Everything but the position. */
  info: string;
  /** Ground items: only this player sees it until `publicAtTick`. */
  ownerId: string | undefined;
  publicAtTick: number;
  /** False once the entity has left the world (or is hidden: a dead NPC). */
  live: boolean;
  /** The tick whose pass last found it in the world. */
  seen: number;
}

interface Cache {
  tick: number;
  nextRev: number;
  byId: Map<string, Published>;
}

const caches = new WeakMap<World, Cache>();

function serialiseInto(c: Cache, pub: Published, e: Entity, version: number): void {
  const view = describe(e);
  const { x, z, ...rest } = view;
  const info = JSON.stringify(rest);
  pub.entity = e;
  pub.version = version;
  pub.full = JSON.stringify(view);
  pub.compact = `{"id":${JSON.stringify(view.id)},"kind":"${view.kind}","x":${x},"z":${z}}`;
  if (info !== pub.info) {
    pub.info = info;
    pub.infoRev = c.nextRev;
  }
  pub.rev = c.nextRev++;
  if ("ownerId" in e) {
    pub.ownerId = e.ownerId;
    pub.publicAtTick = e.publicAtTick;
  }
}

function publish(c: Cache, e: Entity, version: number, tick: number): Published {
  let pub = c.byId.get(e.id);
  if (pub === undefined) {
    pub = { id: e.id, entity: e, version: -1, rev: -1, infoRev: -1, full: "", compact: "", info: "", ownerId: undefined, publicAtTick: 0, live: true, seen: tick };
    c.byId.set(e.id, pub);
    serialiseInto(c, pub, e, version);
  } else if (pub.version !== version || pub.entity !== e) {
    serialiseInto(c, pub, e, version);
  }
  pub.seen = tick;
  return pub;
}

/**
 * Every visible entity of the world, serialised as of this tick. The first call in a tick walks
 * the world once: what changed is serialised again, what left is marked so every view drops it.
 */
export function publishedEntities(world: World): Map<string, Published> {
  let c = caches.get(world);
  if (c === undefined) caches.set(world, (c = { tick: -1, nextRev: 0, byId: new Map() }));
  if (c.tick === world.tick) return c.byId;
  const tick = (c.tick = world.tick);
  const cache = c;
  world.forEachShown(true, (e, version) => publish(cache, e, version, tick));
  for (const [id, pub] of c.byId) {
    if (pub.seen === tick) continue;
    pub.live = false;
    c.byId.delete(id);
  }
  return c.byId;
}

/** The published form of an entity that joined since this tick's pass (a player logging in). */
function publishedOf(world: World, byId: Map<string, Published>, e: Entity): Published | undefined {
  const pub = byId.get(e.id);
  if (pub !== undefined && pub.entity === e) return pub;
  const version = versionOf(e);
  return version < 0 ? undefined : publish(caches.get(world)!, e, version, world.tick);
}

export class ViewTracker {
  readonly interest = new Interest();
  private started = false;

  /** The `world:update` frame for this tick, or undefined when nothing changed in view (`always`: the full first one). */
  frame(world: World, viewer: Player, always = false): string | undefined {
    const byId = publishedEntities(world);
    const change = this.interest.refresh(world, viewer, !this.started);
    this.started = true;
    const removed: string[] = change?.left ?? [];
    const visible = this.interest.visible;
    const tick = world.tick;
    const viewerId = viewer.id;
    const parts: string[] = [];
    for (const seen of visible.values()) {
      let pub = seen.pub;
      if (pub === undefined) pub = seen.pub = publishedOf(world, byId, seen.entity);
      if (pub === undefined || !pub.live || (pub.ownerId !== undefined && pub.ownerId !== viewerId && tick < pub.publicAtTick)) {
        // Gone or hidden: out of the view, so that it enters again (whole) if it comes back.
        visible.delete(seen.id);
        if (seen.sentRev >= 0) removed.push(seen.id);
        continue;
      }
      if (seen.sentRev === pub.rev) continue;
      parts.push(seen.sentRev >= 0 && seen.sentInfoRev === pub.infoRev ? pub.compact : pub.full);
      seen.sentRev = pub.rev;
      seen.sentInfoRev = pub.infoRev;
    }
    if (!always && parts.length === 0 && removed.length === 0) return undefined;
    return `{"type":"world:update","data":{"tick":${tick},"entities":[${parts.join(",")}],"removed":${JSON.stringify(removed)}}}`;
  }
}
