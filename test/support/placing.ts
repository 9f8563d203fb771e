/**
 * Putting things where a test needs them, for the gameplay and the browser tests alike: a free
 * tile beside something (an NPC, a station, a resource), and an NPC held still where it stands.
 */
import type { NpcDef } from "../../src/manifests/schemas/npcs.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { World } from "../../src/game/world/World.ts";

export interface Tile {
  x: number;
  z: number;
}

/** The four tiles `d` from a tile along the axes, in the order the tests try them: east, west, south, north. */
export function sides(d = 1): [number, number][] {
  return [
    [d, 0],
    [-d, 0],
    [0, d],
    [0, -d],
  ];
}

/** The first walkable tile of `offsets` from `at` (the four beside it unless given); undefined when none is. */
export function freeTile(world: World, at: Tile, offsets: readonly (readonly [number, number])[] = sides(1)): Tile | undefined {
  return offsets.map(([dx, dz]) => ({ x: at.x + dx, z: at.z + dz })).find((tile) => world.collision.isWalkable(tile.x, tile.z));
}

export interface Hold {
  /** Moved there first (its home too). */
  at?: Tile;
  /** Its health (many hits to take, or one) and its maximum, each left as it is unless given. */
  health?: number;
  maxHealth?: number;
  /** Its combat definition's fields overridden (a copy of the definition: other NPCs of its kind keep theirs). */
  combat?: Partial<NonNullable<NpcDef["combat"]>>;
}

/**
 * Holds an NPC still: its instance's wander radius 0 and its home where it stands (or at `hold.at`),
 * so that it neither wanders nor walks home. Both are the instance's, copied from the content at
 * spawn (src/game/world/spawn.ts): the content's `movement` is read only then, and setting it on a
 * live NPC left it wandering (commit 4fe7f18). Returns the NPC.
 */
export function holdStill<N extends NpcInstance>(npc: N, hold: Hold = {}): N {
  const at = hold.at ?? { x: npc.x, z: npc.z };
  Object.assign(npc, { x: at.x, z: at.z, spawnX: at.x, spawnZ: at.z, wanderRadius: 0 });
  if (hold.health !== undefined) npc.health = hold.health;
  if (hold.maxHealth !== undefined) npc.maxHealth = hold.maxHealth;
  if (hold.combat !== undefined) npc.def = { ...npc.def, combat: { ...npc.def.combat!, ...hold.combat } };
  return npc;
}
