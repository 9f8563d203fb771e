/**
 * Health regeneration (run with the respawns, tick phase 5): a living player or NPC below its
 * maximum regains one hitpoint ({@link LIFEPOINTS_PER_HITPOINT} lifepoints) every
 * {@link HITPOINT_REGEN_TICKS} ticks, up to its maximum, as in Old School RuneScape (OSRS wiki
 * "Hitpoints": "1 Hitpoint is restored every minute", i.e. 100 game ticks; monsters heal at the
 * same rate). The content defines no regeneration boost yet (its prayers carry no regeneration
 * bonus; Rapid Heal is only named in skill-unlocks.json), so the rate is the base rate.
 *
 * Cost: each tick looks at one hundredth of the players (the world's regeneration turns, by a hash
 * of their ids) and of the NPCs (every hundredth from the tick's offset), never at all of them.
 */
import { HITPOINT_REGEN_TICKS, LIFEPOINTS_PER_HITPOINT, type NpcInstance } from "./world/entities.ts";
import type { World } from "./world/World.ts";

/** Lifepoints regained at each turn. */
export const REGEN_LIFEPOINTS = LIFEPOINTS_PER_HITPOINT;

const npcLists = new WeakMap<World, NpcInstance[]>();

/** The world's NPCs as a list, in a fixed order (built again only if the set of NPCs changes). */
function npcList(world: World): NpcInstance[] {
  let list = npcLists.get(world);
  if (list === undefined || list.length !== world.npcs.size) {
    list = [...world.npcs.values()];
    npcLists.set(world, list);
  }
  return list;
}

/** This tick's share of the players and NPCs regain a hitpoint each, if hurt and alive. */
export function regenerate(world: World): void {
  for (const player of world.regenTurns.due(world.tick)) {
    const d = player.data;
    if (player.gone || d.health <= 0 || d.health >= player.maxHealth) continue;
    d.health = Math.min(player.maxHealth, d.health + REGEN_LIFEPOINTS);
    player.publicVersion++;
    player.syncDue = true;
    player.saveDue = true;
  }
  const npcs = npcList(world);
  for (let i = world.tick % HITPOINT_REGEN_TICKS; i < npcs.length; i += HITPOINT_REGEN_TICKS) {
    const npc = npcs[i]!;
    if (npc.deadUntil !== 0 || npc.health <= 0 || npc.health >= npc.maxHealth) continue;
    npc.health = Math.min(npc.maxHealth, npc.health + REGEN_LIFEPOINTS);
    npc.version++;
  }
}
