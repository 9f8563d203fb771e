/**
 * The micro-benchmarks' crowd (bench/publish, bench/views): players on random walkable tiles of a
 * test gameplay world, drawn from a seeded source that the bench goes on using for their walks, so
 * that runs of different code compare the same positions and walks.
 */
import type { Player } from "../src/game/world/Player.ts";
import type { GameHarness } from "../test/support/game.ts";

export function crowd(g: GameHarness, players: number, seed = 12345): { all: Player[]; rnd: () => number } {
  const b = g.world.collision.bounds;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const walkable = (): { x: number; z: number } => {
    for (;;) {
      const x = b.minX + Math.floor(rnd() * (b.maxX - b.minX + 1));
      const z = b.minZ + Math.floor(rnd() * (b.maxZ - b.minZ + 1));
      if (g.world.collision.isWalkable(x, z)) return { x, z };
    }
  };
  return { all: Array.from({ length: players }, () => g.add(walkable())), rnd };
}
