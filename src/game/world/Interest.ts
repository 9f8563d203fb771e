/**
 * Interest management for one connection: the set of entity ids it sees. Recomputing it is the
 * expensive part, so it happens every {@link REFRESH_TICKS} ticks (staggered between
 * connections) for others walking in and out, and sooner when the viewer itself has moved
 * {@link REFRESH_DISTANCE} tiles. An entity joins the view within {@link VIEW_RADIUS} tiles and
 * leaves it only beyond {@link KEEP_RADIUS}, so nothing in view is dropped between refreshes and
 * players walking along the edge do not flicker in and out.
 */
import type { EntityView } from "./entities.ts";
import { publicPlayer, VIEW_RADIUS, type World } from "./World.ts";
import type { Player } from "./Player.ts";

export const REFRESH_TICKS = 4;
export const REFRESH_DISTANCE = 3;
export const KEEP_RADIUS = VIEW_RADIUS + REFRESH_DISTANCE;

export type VisibleEntity = { view: ReturnType<typeof publicPlayer> | EntityView; version: number };

let stagger = 0;

export class Interest {
  readonly visible = new Set<string>();
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
    const consider = (id: string, distance: number) => {
      if (this.visible.has(id)) keep.add(id);
      else if (distance <= VIEW_RADIUS) {
        keep.add(id);
        entered.push(id);
      }
    };
    for (const p of world.playersNear(viewer, KEEP_RADIUS)) consider(p.id, Math.max(Math.abs(p.x - viewer.x), Math.abs(p.z - viewer.z)));
    world.forEachEntityNear(viewer, viewer.id, KEEP_RADIUS, (id, x, z) => consider(id, Math.max(Math.abs(x - viewer.x), Math.abs(z - viewer.z))));
    const left: string[] = [];
    for (const id of this.visible) if (!keep.has(id)) left.push(id);
    for (const id of left) this.visible.delete(id);
    for (const id of entered) this.visible.add(id);
    return { entered, left };
  }
}

/**
 * An entity's current version, and how to describe it (built only when needed); undefined when
 * it is gone or hidden from this viewer.
 */
export function lookupEntity(world: World, id: string, viewerId: string): { version: number; build: () => VisibleEntity["view"] } | undefined {
  // Entity ids carry their kind (`npc-`, `item-`, `res-`, `fire-`); players' are plain UUIDs.
  const kind = id.charCodeAt(0) === 110 /* n */ && id.startsWith("npc-") ? "npc" : id.startsWith("item-") ? "item" : id.startsWith("res-") ? "res" : id.startsWith("fire-") ? "fire" : "player";
  if (kind === "player") {
    const p = world.players.get(id);
    return p === undefined ? undefined : { version: p.publicVersion, build: () => publicPlayer(p) };
  }
  const n = kind === "npc" ? world.npcs.get(id) : undefined;
  if (n !== undefined) {
    if (n.deadUntil !== 0) return undefined;
    return {
      version: n.version,
      build: () => ({ id: n.id, kind: "npc", x: n.x, z: n.z, npcId: n.def.id, name: n.def.name, health: n.health, maxHealth: n.maxHealth, level: n.def.stats?.level ?? 1, dead: false }),
    };
  }
  const g = kind === "item" ? world.groundItems.get(id) : undefined;
  if (g !== undefined) {
    if (g.ownerId !== undefined && g.ownerId !== viewerId && world.tick < g.publicAtTick) return undefined;
    return { version: g.version, build: () => ({ id: g.id, kind: "item", x: g.x, z: g.z, itemId: g.itemId, quantity: g.quantity }) };
  }
  const r = kind === "res" ? world.resources.get(id) : undefined;
  if (r !== undefined) return { version: r.version, build: () => ({ id: r.id, kind: "resource", x: r.x, z: r.z, resourceId: r.node.id, depleted: r.depletedUntil !== 0 }) };
  const o = kind === "fire" ? world.objects.get(id) : undefined;
  if (o !== undefined) return { version: o.version, build: () => ({ id: o.id, kind: "object", x: o.x, z: o.z, type: o.type }) };
  return undefined;
}
