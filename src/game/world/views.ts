/**
 * What clients see of the world's players and entities (`world:update` entities, the Colyseus
 * state), and the versions that tell an interest refresh what changed.
 */
import { Player } from "./Player.ts";
import type { EntityView, GroundItem, NpcInstance, ResourceInstance, WorldObject } from "./entities.ts";

/** Anything in the world a client can see. */
export type Entity = Player | NpcInstance | GroundItem | ResourceInstance | WorldObject;

/** The public view of a player, as `world:update` entities carry it. */
export function publicPlayer(player: Player): { id: string; kind: "player"; x: number; z: number; name: string; health: number; maxHealth: number; combatLevel: number; running: boolean } {
  return {
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
}

/** What clients see of an entity. */
export function describe(e: Entity): ReturnType<typeof publicPlayer> | EntityView {
  if (e instanceof Player) return publicPlayer(e);
  if ("deadUntil" in e) {
    return { id: e.id, kind: "npc", x: e.x, z: e.z, ref: e.def.id, name: e.def.name, health: e.health, maxHealth: e.maxHealth, level: e.def.stats?.level ?? 1, dead: false };
  }
  if ("ownerId" in e) return { id: e.id, kind: "item", x: e.x, z: e.z, ref: e.itemId, quantity: e.quantity };
  if ("node" in e) return { id: e.id, kind: "resource", x: e.x, z: e.z, ref: e.node.id, depleted: e.depletedUntil !== 0 };
  return { id: e.id, kind: "object", x: e.x, z: e.z, ref: e.type };
}

/** The version of what clients see of an entity, or -1 while it is gone or hidden (a dead NPC). */
export function versionOf(e: Entity): number {
  if (e instanceof Player) return e.gone ? -1 : e.publicVersion;
  if ("deadUntil" in e) return e.deadUntil !== 0 ? -1 : e.version;
  if ("gone" in e && e.gone) return -1;
  return e.version;
}
