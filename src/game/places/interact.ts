/**
 * `interact` on a place (`player:action {action: "interact", targetId: <place id>}`): the player
 * walks next to it (to an obstacle's `from` tile when it has one), then
 * - a door opens if shut, shuts if open, for everyone (refused while someone stands in the
 *   doorway, and once a tick per door);
 * - a ladder or stairs takes the player to its other end ("Climb-down", "Climb-up"): the only way
 *   between the surface and an underground area, which no walk joins (world/setup.ts);
 * - an agility obstacle is tried (agility.ts).
 * A use that goes through counts for a quest's `interact` stage naming the place (quests.ts).
 */
import { attemptObstacle, obstacleRefusal } from "./agility.ts";
import type { DoorInstance } from "./PlaceState.ts";
import { questStep } from "../quests.ts";
import type { Player } from "../world/Player.ts";
import type { GameError, World } from "../world/World.ts";

/** Where the player must stand to use a place: within `reach` tiles of (x, z). */
export function placeTarget(world: World, id: string): { x: number; z: number; reach: number } | undefined {
  const place = world.places.get(id);
  if (place === undefined) return undefined;
  if (place.placeKind === "obstacle" && place.def.from !== undefined) return { ...place.def.from, reach: 0 };
  return { x: place.x, z: place.z, reach: 1 };
}

/** Why the player may not start toward a place (checked when the action is given, and again on arrival). */
export function placeRefusal(world: World, player: Player, id: string): GameError | undefined {
  const place = world.places.get(id);
  return place?.placeKind === "obstacle" ? obstacleRefusal(player, place.def) : undefined;
}

/** The player has arrived: the place does what it does. */
export function usePlace(world: World, player: Player, id: string): GameError | undefined {
  const error = placeUsed(world, player, id);
  // A use that went through (a door moved, a ladder climbed, an obstacle crossed: not a fall) counts for `interact` stages naming the place.
  const place = world.places.get(id);
  const fell = place?.placeKind === "obstacle" && (player.x !== place.def.to.x || player.z !== place.def.to.z);
  if (error === undefined && !fell) questStep(world, player, "interact", id);
  return error;
}

function placeUsed(world: World, player: Player, id: string): GameError | undefined {
  const place = world.places.get(id);
  if (place === undefined) return { code: "INVALID_TARGET", message: "that is gone" };
  switch (place.placeKind) {
    case "door":
      return toggleDoor(world, player, place);
    case "ladder": {
      const { def } = place;
      if (!world.teleport(player, def.to)) return { code: "NO_PATH", message: `the ${def.kind === "stairs" ? "stairs are" : "ladder is"} blocked` };
      world.tell(player.id, `You climb ${def.direction} the ${def.kind === "stairs" ? "stairs" : "ladder"}.`);
      return undefined;
    }
    case "obstacle":
      return attemptObstacle(world, player, id, place.def);
  }
}

function toggleDoor(world: World, player: Player, door: DoorInstance): GameError | undefined {
  if (door.toggledAt === world.tick) return { code: "DOOR_BUSY", message: "the door is already moving" };
  if (door.open) {
    let inTheWay = world.playersNear(door, 0).length > 0;
    for (const npc of world.npcs.values()) if (npc.deadUntil === 0 && npc.x === door.x && npc.z === door.z) inTheWay = true;
    if (inTheWay) return { code: "DOORWAY_BLOCKED", message: "someone is standing in the doorway" };
  }
  world.places.setOpen(door, !door.open, world.tick);
  world.tell(player.id, door.open ? `You open the ${door.def.name.toLowerCase()}.` : `You close the ${door.def.name.toLowerCase()}.`);
  return undefined;
}
