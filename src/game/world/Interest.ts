/**
 * Interest management for one connection: what it sees, as references to the entities
 * themselves (so the per-tick check is a field read, not a lookup). Recomputing the set is the
 * expensive part, so it happens every {@link REFRESH_TICKS} ticks (staggered between
 * connections) for others walking in and out, and sooner when the viewer itself has moved
 * {@link REFRESH_DISTANCE} tiles. An entity joins the view within {@link VIEW_RADIUS} tiles and
 * leaves it only beyond {@link KEEP_RADIUS}, so nothing in view is dropped between refreshes and
 * players walking along the edge do not flicker in and out.
 */
import type { EntityView } from "./entities.ts";
import { Player } from "./Player.ts";
import { publicPlayer, VIEW_RADIUS, type Entity, type World } from "./World.ts";

export const REFRESH_TICKS = 4;
export const REFRESH_DISTANCE = 3;
export const KEEP_RADIUS = VIEW_RADIUS + REFRESH_DISTANCE;

let stagger = 0;

export class Interest {
  readonly visible = new Map<string, Entity>();
  private readonly phase = stagger++ % REFRESH_TICKS;
  private refreshed = -1;
  private at = { x: 0, z: 0 };

  /** Recomputes the visible set when due; returns the ids that entered and left, or undefined. */
  refresh(world: World, viewer: Player, force = false): { entered: string[]; left: string[] } | undefined {
    const walked = Math.max(Math.abs(viewer.x - this.at.x), Math.abs(viewer.z - this.at.z));
    if (!force && this.refreshed >= 0 && walked < REFRESH_DISTANCE && (world.tick + this.phase) % REFRESH_TICKS !== 0) return undefined;
    this.refreshed = world.tick;
    this.at = { x: viewer.x, z: viewer.z };
    const keep = new Set<string>();
    const entered: string[] = [];
    const vx = viewer.x;
    const vz = viewer.z;
    const consider = (e: Entity) => {
      const id = e.id;
      if (this.visible.has(id)) keep.add(id);
      else if (Math.max(Math.abs(e.x - vx), Math.abs(e.z - vz)) <= VIEW_RADIUS) {
        keep.add(id);
        entered.push(id);
        this.visible.set(id, e);
      }
    };
    for (const p of world.playersNear(viewer, KEEP_RADIUS)) consider(p);
    world.forEachEntityNear(viewer, viewer.id, KEEP_RADIUS, consider);
    const left: string[] = [];
    for (const id of this.visible.keys()) if (!keep.has(id)) left.push(id);
    for (const id of left) this.visible.delete(id);
    return { entered, left };
  }
}

/** The version of what clients see of an entity, or -1 when it is gone (or hidden) for this viewer. */
export function visibleVersion(world: World, e: Entity, viewerId: string): number {
  if (e instanceof Player) return e.gone ? -1 : e.publicVersion;
  if ("deadUntil" in e) return e.deadUntil !== 0 ? -1 : e.version;
  if ("ownerId" in e) return e.gone || (e.ownerId !== undefined && e.ownerId !== viewerId && world.tick < e.publicAtTick) ? -1 : e.version;
  if ("gone" in e && e.gone) return -1;
  return e.version;
}

/** What clients see of an entity. */
export function describe(e: Entity): ReturnType<typeof publicPlayer> | EntityView {
  if (e instanceof Player) return publicPlayer(e);
  if ("deadUntil" in e) {
    return { id: e.id, kind: "npc", x: e.x, z: e.z, npcId: e.def.id, name: e.def.name, health: e.health, maxHealth: e.maxHealth, level: e.def.stats?.level ?? 1, dead: false };
  }
  if ("ownerId" in e) return { id: e.id, kind: "item", x: e.x, z: e.z, itemId: e.itemId, quantity: e.quantity };
  if ("node" in e) return { id: e.id, kind: "resource", x: e.x, z: e.z, resourceId: e.node.id, depleted: e.depletedUntil !== 0 };
  return { id: e.id, kind: "object", x: e.x, z: e.z, type: e.type };
}
