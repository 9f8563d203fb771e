/**
 * Combat (RuneScape's classic formulas, in lifepoints = 10 per hitpoint):
 * - effective level = level + 8; attack roll = effective attack × (attack bonus + 64);
 *   defence roll = effective defence × (defence bonus + 64);
 * - hit chance = A > D ? 1 − (D + 2) / (2(A + 1)) : A / (2(D + 1));
 * - max hit (hitpoints) = ⌊0.5 + effective strength × (strength bonus + 64) / 640⌋, at least 1;
 *   a hit deals a uniform 0..max hit × 10 lifepoints;
 * - xp per 10 lifepoints of damage: 4 in the attack skill (attack for melee, ranged for ranged)
 *   and 1⅓ in constitution;
 * - attack speed is the weapon's, in ticks (4 unarmed). Ranged needs a bow and arrows, and
 *   uses one arrow a shot.
 */
import { spawnGroundItem } from "./groundItems.ts";
import { addXp, levelOf } from "./progression.ts";
import { LIFEPOINTS_PER_HITPOINT, type NpcInstance } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { GameError, World } from "./world/World.ts";
import { DROP_TIERS } from "../manifests/schemas/npcs.ts";
import { killPlayer } from "./death.ts";

export const UNARMED_SPEED_TICKS = 4;
export const DEFAULT_RANGED_RANGE = 7;

export function hitChance(attackRoll: number, defenceRoll: number): number {
  return attackRoll > defenceRoll ? 1 - (defenceRoll + 2) / (2 * (attackRoll + 1)) : attackRoll / (2 * (defenceRoll + 1));
}

export function maxHitHitpoints(strengthLevel: number, strengthBonus: number): number {
  return Math.max(1, Math.floor(0.5 + ((strengthLevel + 8) * (strengthBonus + 64)) / 640));
}

interface Bonuses {
  attack: number;
  strength: number;
  defence: number;
  ranged: number;
  rangedStrength: number;
}

export function playerBonuses(world: World, player: Player): Bonuses {
  const b: Bonuses = { attack: 0, strength: 0, defence: 0, ranged: 0, rangedStrength: 0 };
  for (const worn of Object.values(player.data.equipment)) {
    const bon = world.content.item(worn.itemId)?.bonuses ?? {};
    b.attack += (bon.attack ?? 0) + Math.max(bon.attackStab ?? 0, bon.attackSlash ?? 0, bon.attackCrush ?? 0);
    b.strength += bon.strength ?? 0;
    b.defence += (bon.defense ?? 0) + Math.round(((bon.defenseStab ?? 0) + (bon.defenseSlash ?? 0) + (bon.defenseCrush ?? 0)) / 3);
    b.ranged += (bon.ranged ?? 0) + (bon.attackRanged ?? 0);
    b.rangedStrength += bon.rangedStrength ?? 0;
  }
  return b;
}

function weapon(world: World, player: Player) {
  const w = player.data.equipment.weapon;
  return w === undefined ? undefined : world.content.item(w.itemId);
}

export function isRanged(world: World, player: Player): boolean {
  const w = weapon(world, player);
  return w !== undefined && (w.attackType?.toLowerCase() === "ranged" || /bow/i.test(w.weaponType ?? ""));
}

export function attackRange(world: World, player: Player): number {
  return isRanged(world, player) ? (weapon(world, player)?.attackRange ?? DEFAULT_RANGED_RANGE) : 1;
}

function announce(world: World, attackerId: string, target: { id: string; x: number; z: number }, damage: number, health: number, maxHealth: number): void {
  const data = { attackerId, targetId: target.id, damage, targetHealth: health, targetMaxHealth: maxHealth };
  for (const p of world.playersNear(target)) world.send(p.id, "combat:hit", data);
}

/** A player's attack on an NPC (the player is in range and its attack timer is ready). */
export function playerAttacksNpc(world: World, player: Player, npc: NpcInstance): GameError | undefined {
  if (!npc.def.combat?.attackable) return { code: "NOT_ATTACKABLE", message: `you can't attack ${npc.def.name}` };
  const ranged = isRanged(world, player);
  if (ranged) {
    const ammo = player.data.equipment.arrows;
    if (ammo === undefined) return { code: "NO_AMMO", message: "you have no arrows equipped" };
    if (--ammo.quantity === 0) delete player.data.equipment.arrows;
    player.syncDue = true;
    player.saveDue = true;
  }
  const b = playerBonuses(world, player);
  const attackSkill = ranged ? "ranged" : "attack";
  const attackRoll = (levelOf(player, attackSkill) + 8) * ((ranged ? b.ranged : b.attack) + 64);
  const stats = npc.def.stats;
  const defenceRoll = ((stats?.defense ?? 1) + 8) * ((stats?.defenseBonus ?? 0) + 64);
  const max = ranged ? maxHitHitpoints(levelOf(player, "ranged"), b.rangedStrength) : maxHitHitpoints(levelOf(player, "strength"), b.strength);
  const damage = world.random() < hitChance(attackRoll, defenceRoll) ? Math.min(npc.health, Math.floor(world.random() * (max * LIFEPOINTS_PER_HITPOINT + 1))) : 0;
  player.nextActionTick = world.tick + (weapon(world, player)?.attackSpeed ?? UNARMED_SPEED_TICKS);
  npc.health -= damage;
  npc.damageBy.set(player.id, (npc.damageBy.get(player.id) ?? 0) + damage);
  npc.version++;
  if (npc.def.combat.retaliates && npc.targetId === undefined) npc.targetId = player.id;
  announce(world, player.id, npc, damage, npc.health, npc.maxHealth);
  if (damage > 0) {
    addXp(world, player, attackSkill, (damage / LIFEPOINTS_PER_HITPOINT) * 4);
    addXp(world, player, "constitution", (damage / LIFEPOINTS_PER_HITPOINT) * (4 / 3));
  }
  if (npc.health <= 0) npcDies(world, npc);
  return undefined;
}

/** An NPC's attack on a player (in range, timer ready). */
export function npcAttacksPlayer(world: World, npc: NpcInstance, player: Player): void {
  const stats = npc.def.stats;
  const attackRoll = ((stats?.attack ?? 1) + 8) * 64;
  const defenceRoll = (levelOf(player, "defense") + 8) * (playerBonuses(world, player).defence + 64);
  const max = maxHitHitpoints(stats?.strength ?? 1, 0);
  const damage = world.random() < hitChance(attackRoll, defenceRoll) ? Math.min(player.data.health, Math.floor(world.random() * (max * LIFEPOINTS_PER_HITPOINT + 1))) : 0;
  npc.nextAttackTick = world.tick + (npc.def.combat?.attackSpeedTicks ?? UNARMED_SPEED_TICKS);
  player.data.health -= damage;
  player.publicVersion++;
  player.syncDue = true;
  player.saveDue = true;
  announce(world, npc.id, player, damage, player.data.health, player.maxHealth);
  if (damage > 0) addXp(world, player, "defense", (damage / LIFEPOINTS_PER_HITPOINT) * 1);
  if (player.data.health <= 0) killPlayer(world, player, npc.def.id);
}

/** Drops for the player who dealt the most damage, the kill counted, the respawn scheduled. */
export function npcDies(world: World, npc: NpcInstance): void {
  let killer: Player | undefined;
  let most = -1;
  for (const [id, dmg] of npc.damageBy) {
    const p = world.players.get(id);
    if (p !== undefined && dmg > most) {
      killer = p;
      most = dmg;
    }
  }
  npc.deadUntil = world.tick + (npc.def.combat?.respawnTicks ?? 25);
  npc.targetId = undefined;
  npc.damageBy.clear();
  npc.version++;
  for (const p of world.players.values()) if (p.action?.kind === "attack" && p.action.targetId === npc.id) p.action = undefined;
  const drops = npc.def.drops;
  if (killer !== undefined) {
    killer.pendingKills.set(npc.def.id, (killer.pendingKills.get(npc.def.id) ?? 0) + 1);
    world.tell(killer.id, `You have defeated the ${npc.def.name}.`);
  }
  if (drops === undefined) return;
  const owner = killer?.id;
  if (drops.defaultDrop?.enabled) spawnGroundItem(world, drops.defaultDrop.itemId, drops.defaultDrop.quantity, npc, owner);
  for (const tier of DROP_TIERS) {
    for (const d of drops[tier]) {
      if (tier !== "always" && world.random() >= d.chance) continue;
      const quantity = d.minQuantity + Math.floor(world.random() * (d.maxQuantity - d.minQuantity + 1));
      spawnGroundItem(world, d.itemId, quantity, npc, owner);
    }
  }
}
