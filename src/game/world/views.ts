/**
 * What clients see of the world's players and entities (`world:update` entities, the Colyseus
 * state), and the versions that tell an interest refresh what changed.
 */
import { Player } from "./Player.ts";
import type { EntityView, GroundItem, NpcInstance, ResourceInstance, WorldObject } from "./entities.ts";
import type { PlaceInstance } from "../places/PlaceState.ts";
import { wornOf, type Worn } from "../worn.ts";

/** Anything in the world a client can see. */
export type Entity = Player | NpcInstance | GroundItem | ResourceInstance | WorldObject | PlaceInstance;

/** The public view of a player, as `world:update` entities carry it (`worn` only when something shows: worn.ts). */
export function publicPlayer(player: Player): { id: string; kind: "player"; x: number; z: number; name: string; health: number; maxHealth: number; combatLevel: number; running: boolean; worn?: Worn } {
  const worn = wornOf(player.data.equipment, player.worn).worn;
  const view: ReturnType<typeof publicPlayer> = {
    id: player.id,
    kind: "player",
    x: player.x,
    z: player.z,
    name: player.data.name,
    health: player.data.health,
    maxHealth: player.maxHealth,
    combatLevel: player.data.combatLevel,
    running: player.running,
  };
  if (worn !== undefined) view.worn = worn;
  return view;
}

/** What clients see of an entity. */
export function describe(e: Entity): ReturnType<typeof publicPlayer> | EntityView {
  if (e instanceof Player) return publicPlayer(e);
  if ("deadUntil" in e) {
    return { id: e.id, kind: "npc", x: e.x, z: e.z, ref: e.def.id, name: e.def.name, health: e.health, maxHealth: e.maxHealth, level: e.def.stats?.level ?? 1, dead: false };
  }
  if ("ownerId" in e) return { id: e.id, kind: "item", x: e.x, z: e.z, ref: e.itemId, quantity: e.quantity };
  if ("node" in e) return { id: e.id, kind: "resource", x: e.x, z: e.z, ref: e.node.id, depleted: e.depletedUntil !== 0 };
  // A place: its kind (`door`, `ladder` or `stairs`, `obstacle`) as the ref, a door's state; the
  // id is the content's, where the client finds its name and verbs.
  if ("placeKind" in e) {
    if (e.placeKind === "door") return { id: e.id, kind: "object", x: e.x, z: e.z, ref: "door", open: e.open };
    return { id: e.id, kind: "object", x: e.x, z: e.z, ref: e.placeKind === "ladder" ? e.def.kind : "obstacle" };
  }
  return { id: e.id, kind: "object", x: e.x, z: e.z, ref: e.type };
}

/** The version of what clients see of an entity, or -1 while it is gone or hidden (a dead NPC). */
export function versionOf(e: Entity): number {
  if (e instanceof Player) return e.gone ? -1 : e.publicVersion;
  if ("deadUntil" in e) return e.deadUntil !== 0 ? -1 : e.version;
  if ("gone" in e && e.gone) return -1;
  return e.version;
}
