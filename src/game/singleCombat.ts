/**
 * Single-way combat, as the genre's world has it outside multi-combat areas (OSRS wiki
 * "Single-way combat": "a player or monster can be attacked by only one player or monster at a
 * time"): a monster fighting one player cannot be attacked by another ("Someone else is fighting
 * that.", the game's words), a player a monster is attacking cannot attack another ("I'm already
 * under attack.": another monster hit it in the last 10 ticks and is still after it; the player's own
 * hits make no attacker), and a monster does not set on a player already fighting another monster.
 *
 * "Fighting" lasts {@link SINGLE_COMBAT_TICKS} after the last hit either dealt the other (a miss
 * counts): the genre's single-way combat timer, about 10 ticks (6 s) after the last hit (OSRS wiki
 * "Combat": out of combat some seconds after the last hit; the wiki's "PJ timer"). An NPC's death
 * or the other's leaving (death, logout) ends it at once. Ranged and magic count as melee does.
 *
 * Areas flagged `multiCombat` in `world-areas.json` are the genre's multi-combat areas: there, none
 * of this applies (judged by where the monster stands).
 */
import type { NpcInstance } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { GameError, World } from "./world/World.ts";

/** Ticks a fight lasts after the last hit between the two (OSRS: about 10 ticks, 6 s). */
export const SINGLE_COMBAT_TICKS = 10;

export const SOMEONE_ELSE_FIGHTING: GameError = { code: "IN_COMBAT", message: "Someone else is fighting that." };

/** Whether the tile lies in an area the content marks as multi-combat. */
export function inMultiCombat(world: World, at: { x: number; z: number }): boolean {
  return world.content.areas.some(
    (a) => a.multiCombat === true && at.x >= a.bounds.minX && at.x <= a.bounds.maxX && at.z >= a.bounds.minZ && at.z <= a.bounds.maxZ,
  );
}

/** A hit between the two (either way, a miss too): each is the other's foe for the next ticks. */
export function markFight(world: World, player: Player, npc: NpcInstance): void {
  const until = world.tick + SINGLE_COMBAT_TICKS;
  npc.foe = { id: player.id, until };
  player.foe = { id: npc.id, until };
}

/**
 * An NPC's hit on a player (a miss too): besides the fight ({@link markFight}), the NPC is the
 * player's attacker for the next {@link SINGLE_COMBAT_TICKS}.
 */
export function markAttack(world: World, npc: NpcInstance, player: Player): void {
  markFight(world, player, npc);
  player.attackedBy = { id: npc.id, until: world.tick + SINGLE_COMBAT_TICKS };
}

/**
 * The NPC attacking the player now, if any: it hit the player in the last
 * {@link SINGLE_COMBAT_TICKS}, is alive and still after it. The player's own hits make no attacker:
 * a monster the player hit that has not hit back (not yet, or not at all, from a safespot) leaves it
 * free to turn to another, as the genre's (docs/playtest.md session 30: "I'm already under attack."
 * on a first attack on a cow, the player's last hit on a rat that never hit it counting).
 */
export function playerAttacker(world: World, player: Player): NpcInstance | undefined {
  const by = player.attackedBy;
  if (by === undefined || world.tick >= by.until) return undefined;
  const npc = world.npcs.get(by.id);
  return npc !== undefined && npc.deadUntil === 0 && npc.targetId === player.id ? npc : undefined;
}

/** The player the NPC is fighting now, if any (still in the world, the fight's timer running). */
export function npcFoe(world: World, npc: NpcInstance): Player | undefined {
  const foe = npc.foe;
  if (foe === undefined || world.tick >= foe.until || npc.deadUntil !== 0) return undefined;
  return world.players.get(foe.id);
}

/** The NPC the player is fighting now, if any (alive, the fight's timer running). */
export function playerFoe(world: World, player: Player): NpcInstance | undefined {
  const foe = player.foe;
  if (foe === undefined || world.tick >= foe.until) return undefined;
  const npc = world.npcs.get(foe.id);
  return npc !== undefined && npc.deadUntil === 0 ? npc : undefined;
}

export const UNDER_ATTACK: GameError = { code: "UNDER_ATTACK", message: "I'm already under attack." };

/**
 * A player's attack or cast on an NPC, refused (nothing changed) when another player is fighting
 * that NPC (`IN_COMBAT`), or when another NPC is attacking the player (`UNDER_ATTACK`, the genre's
 * "I'm already under attack.": in singles a player takes on the monster attacking it first; see
 * {@link playerAttacker}).
 */
export function singleCombatRefusal(world: World, player: Player, npc: NpcInstance): GameError | undefined {
  const other = npcFoe(world, npc);
  const attacker = playerAttacker(world, player);
  // Most attacks meet neither fight: the areas are looked at only when one is found.
  if (other !== undefined && other.id !== player.id && !inMultiCombat(world, npc)) return SOMEONE_ELSE_FIGHTING;
  if (attacker !== undefined && attacker.id !== npc.id && !inMultiCombat(world, npc)) return UNDER_ATTACK;
  return undefined;
}

/** Whether the NPC may attack the player: not while the player fights another NPC (outside multi-combat). */
export function npcMayAttack(world: World, npc: NpcInstance, player: Player): boolean {
  const other = playerFoe(world, player);
  return other === undefined || other.id === npc.id || inMultiCombat(world, npc);
}

/** The NPC died: its fight ends, and so does the player's with it (nor is it the player's attacker). */
export function endFightsOf(world: World, npc: NpcInstance): void {
  const player = npc.foe === undefined ? undefined : world.players.get(npc.foe.id);
  if (player?.foe?.id === npc.id) player.foe = undefined;
  if (player?.attackedBy?.id === npc.id) player.attackedBy = undefined;
  npc.foe = undefined;
}
