/**
 * Agility obstacles: a level to try one, Agility xp for getting past, and for some a chance to
 * fail that costs hitpoints.
 *
 * The chance is the genre's skilling success rate (OSRS wiki "Skilling success rate", the
 * formula gathering uses too): (1 + ⌊low × (99 − L)/98 + high × (L − 1)/98 + 0.5⌋) / 256 at
 * Agility level L, with the obstacle's `successLow` and `successHigh`. In OSRS most obstacles of a
 * course fail more often near their level and rarely when far above it, and a failure deals a
 * few hitpoints and leaves the player where it fell (the wiki's obstacle pages, e.g. the Draynor
 * Village Rooftop's "Tightrope": 1-3 damage); obstacles without the two numbers never fail, as
 * the Gnome Stronghold course's do not. No xp for a failure.
 */
import { killPlayer } from "../death.ts";
import { skillingChance } from "../gathering.ts";
import { LIFEPOINTS_PER_HITPOINT } from "../world/entities.ts";
import { addXp, levelOf } from "../progression.ts";
import type { ObstacleDef } from "../../manifests/schemas/places.ts";
import type { Player } from "../world/Player.ts";
import type { GameError, World } from "../world/World.ts";

/** The chance (0..1) to get past an obstacle at an Agility level; 1 for one that never fails. */
export function obstacleChance(def: ObstacleDef, level: number): number {
  if (def.successLow === undefined && def.successHigh === undefined) return 1;
  const low = def.successLow ?? def.successHigh!;
  return skillingChance(low, def.successHigh ?? low, level);
}

/** Why the player may not try the obstacle, if it may not. */
export function obstacleRefusal(player: Player, def: ObstacleDef): GameError | undefined {
  const level = levelOf(player, "agility");
  return level < def.level ? { code: "LEVEL_TOO_LOW", message: `you need Agility level ${def.level} to try the ${def.name.toLowerCase()}` } : undefined;
}

/** One attempt, from where the player stands: across and xp, or a fall and its damage. */
export function attemptObstacle(world: World, player: Player, id: string, def: ObstacleDef): GameError | undefined {
  const refused = obstacleRefusal(player, def);
  if (refused) return refused;
  if (world.random() < obstacleChance(def, levelOf(player, "agility"))) {
    if (!world.teleport(player, def.to)) return { code: "NO_PATH", message: "the way across is blocked" };
    addXp(world, player, "agility", def.xp);
    world.tell(player.id, def.successText ?? `You make it past the ${def.name.toLowerCase()}.`);
    return undefined;
  }
  const dmg = def.failDamage ?? { min: 0, max: 0 };
  const hitpoints = dmg.min + Math.floor(world.random() * (dmg.max - dmg.min + 1));
  const damage = Math.min(player.data.health, hitpoints * LIFEPOINTS_PER_HITPOINT);
  if (def.failTo !== undefined) world.teleport(player, def.failTo);
  player.data.health -= damage;
  player.publicVersion++;
  player.syncDue = true;
  player.saveDue = true;
  world.tell(player.id, def.failText ?? `You slip on the ${def.name.toLowerCase()} and hurt yourself.`);
  const hit = { attackerId: id, targetId: player.id, damage, style: "typeless" as const, targetHealth: player.data.health, targetMaxHealth: player.maxHealth };
  for (const p of world.playersNear(player)) world.send(p.id, "combat:hit", hit);
  if (player.data.health <= 0) killPlayer(world, player, id);
  return undefined;
}
