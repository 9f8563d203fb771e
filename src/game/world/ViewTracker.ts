/**
 * `world:update` deltas for one `/ws` connection: what entered, changed or left its view since
 * the last update. An entity is sent whole when it enters the view or its details change, and as
 * `{id, kind, x, z}` when only its position changed. Each changed entity is serialised once per
 * version and the JSON reused for every viewer, and the frame is assembled as text, so the cost
 * per viewer is a few map lookups and a string join.
 */
import { describe, Interest, visibleVersion } from "./Interest.ts";
import type { Player } from "./Player.ts";
import type { World } from "./World.ts";

interface Serialised {
  version: number;
  /** The whole entity. */
  full: string;
  /** `{id, kind, x, z}`. */
  compact: string;
  /** Everything but the position: equal info means a compact entry will do. */
  info: string;
}

/** Serialised entities by id, per world, with the version they were serialised at. */
const jsonCache = new WeakMap<World, { tick: number; byId: Map<string, Serialised> }>();

function serialise(version: number, view: { id: string; kind: string; x: number; z: number }): Serialised {
  const { x, z, ...rest } = view;
  return { version, full: JSON.stringify(view), compact: `{"id":${JSON.stringify(view.id)},"kind":"${view.kind}","x":${x},"z":${z}}`, info: JSON.stringify(rest) };
}
/** How often the cache drops entries of entities that no longer exist. */
const PRUNE_TICKS = 100;

function cacheOf(world: World): Map<string, Serialised> {
  let c = jsonCache.get(world);
  if (c === undefined) jsonCache.set(world, (c = { tick: world.tick, byId: new Map() }));
  if (world.tick - c.tick >= PRUNE_TICKS) {
    c.tick = world.tick;
    for (const id of c.byId.keys()) {
      if (!world.players.has(id) && !world.npcs.has(id) && !world.groundItems.has(id) && !world.resources.has(id) && !world.objects.has(id)) c.byId.delete(id);
    }
  }
  return c.byId;
}

export class ViewTracker {
  readonly interest = new Interest();
  /** Entity id → the version and the details last sent. */
  private readonly sent = new Map<string, { version: number; info: string }>();
  private started = false;

  /** The `world:update` frame for this tick, or undefined when nothing changed in view (`always`: the full first one). */
  frame(world: World, viewer: Player, always = false): string | undefined {
    const change = this.interest.refresh(world, viewer, !this.started);
    this.started = true;
    const removed: string[] = change?.left ?? [];
    for (const id of removed) this.sent.delete(id);
    const cache = cacheOf(world);
    const parts: string[] = [];
    for (const [id, e] of this.interest.visible) {
      const version = visibleVersion(world, e, viewer.id);
      if (version < 0) {
        removed.push(id);
        this.interest.visible.delete(id);
        this.sent.delete(id);
        continue;
      }
      const last = this.sent.get(id);
      if (last?.version === version) continue;
      let hit = cache.get(id);
      if (hit === undefined || hit.version !== version) cache.set(id, (hit = serialise(version, describe(e))));
      parts.push(last !== undefined && last.info === hit.info ? hit.compact : hit.full);
      this.sent.set(id, { version, info: hit.info });
    }
    if (!always && parts.length === 0 && removed.length === 0) return undefined;
    return `{"type":"world:update","data":{"tick":${world.tick},"entities":[${parts.join(",")}],"removed":${JSON.stringify(removed)}}}`;
  }
}
