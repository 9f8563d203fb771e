/**
 * Combat (RuneScape's classic formulas, in lifepoints = 10 per hitpoint):
 * - effective level = ⌊level × prayer⌋ + style bonus + 8 (combatStyles.ts, prayer.ts; a monster's: level + 9); attack roll =
 *   effective attack ×
 *   (attack bonus + 64); defence roll = effective defence × (defence bonus + 64);
 * - the attack bonus is the one of the style's attack type (stab, slash, crush or ranged) and meets
 *   the target's defence bonus of that type (an NPC without one: its `defenseBonus`);
 * - hit chance = A > D ? 1 − (D + 2) / (2(A + 1)) : A / (2(D + 1));
 * - max hit (hitpoints) = ⌊0.5 + effective strength × (strength bonus + 64) / 640⌋, at least 1;
 *   a hit deals a uniform 0..max hit × 10 lifepoints;
 * - xp per 10 lifepoints of damage: 4 to the style's skill or split (combatStyles.ts), and 1⅓ in
 *   constitution;
 * - attack speed is the weapon's, in ticks (4 unarmed), one faster on rapid. Ranged needs a bow
 *   and arrows, and uses one arrow a shot.
 */
import { spawnGroundItem } from "./groundItems.ts";
import { addXp } from "./progression.ts";
import { LIFEPOINTS_PER_HITPOINT, type NpcInstance } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { GameError, HandlerResult, World } from "./world/World.ts";
import { rollDrops } from "./drops.ts";
import {
  attackTypeOf,
  DEFAULT_COMBAT_STYLE,
  effectiveStyle,
  stylesOffered,
  styleAfterSwitch,
  isRangedWeapon,
  styleAttackRange,
  styleAttackSpeed,
  styleBonus,
  styleXp,
  type AttackType,
  type CombatStyle,
} from "./combatStyles.ts";
import type { Skill } from "./skills.ts";
import type { ItemDef } from "../manifests/schemas/items.ts";
import { killPlayer } from "./death.ts";
import { retaliate } from "./retaliate.ts";
import { prayedLevel, protectionFactor } from "./prayer.ts";
import { questStep } from "./quests.ts";
import type { HitStyle } from "./serverEvents.ts";
import { endFightsOf, markAttack, markFight, npcFoe, singleCombatRefusal } from "./singleCombat.ts";

export const UNARMED_SPEED_TICKS = 4;
export const DEFAULT_RANGED_RANGE = 7;
/**
 * A monster's effective level is its level + 9 (the 8 and an invisible +1 style), in its attack,
 * strength and defence rolls (OSRS wiki "Damage per second/Melee": defence roll = (defence level
 * + 9) × (defence bonus + 64); the wiki DPS calculator's monster rolls likewise).
 */
export const NPC_STYLE_BONUS = 1;

export function hitChance(attackRoll: number, defenceRoll: number): number {
  return attackRoll > defenceRoll ? 1 - (defenceRoll + 2) / (2 * (attackRoll + 1)) : attackRoll / (2 * (defenceRoll + 1));
}

/** `styleBonus`: the attack style's invisible strength (or ranged) levels (OSRS "Maximum melee hit"). */
export function maxHitHitpoints(strengthLevel: number, strengthBonus: number, styleBonus = 0): number {
  return Math.max(1, Math.floor(0.5 + ((strengthLevel + styleBonus + 8) * (strengthBonus + 64)) / 640));
}

interface Bonuses {
  attack: number;
  strength: number;
  defence: number;
  ranged: number;
  rangedStrength: number;
}

const capitalized = (t: AttackType) => `${t[0]!.toUpperCase()}${t.slice(1)}`;

/**
 * The sums of the worn items' bonuses; `attack` is the melee attack bonus of the given attack type
 * (the generic `attack` plus `attackStab`/`attackSlash`/`attackCrush`). Defence averages the three
 * melee types: NPCs' attacks have no type in the content. (In OSRS a monster's attack has a type
 * and meets the player's defence bonus of that type; once content gives NPCs an attack type, pass
 * it here and use that type's bonus instead of the average.)
 */
export function playerBonuses(
  world: World,
  player: Player,
  attackType: AttackType = attackTypeOf(combatStyleOf(world, player), weapon(world, player)),
): Bonuses {
  const b: Bonuses = { attack: 0, strength: 0, defence: 0, ranged: 0, rangedStrength: 0 };
  const typed = attackType === "ranged" ? undefined : `attack${capitalized(attackType)}`;
  for (const worn of Object.values(player.data.equipment)) {
    const bon = world.content.item(worn.itemId)?.bonuses ?? {};
    b.attack += (bon.attack ?? 0) + (typed === undefined ? 0 : (bon[typed] ?? 0));
    b.strength += bon.strength ?? 0;
    b.defence += (bon.defense ?? 0) + Math.round(((bon.defenseStab ?? 0) + (bon.defenseSlash ?? 0) + (bon.defenseCrush ?? 0)) / 3);
    b.ranged += (bon.ranged ?? 0) + (bon.attackRanged ?? 0);
    b.rangedStrength += bon.rangedStrength ?? 0;
  }
  return b;
}

export function weapon(world: World, player: Player) {
  const w = player.data.equipment.weapon;
  return w === undefined ? undefined : world.content.item(w.itemId);
}

export function isRanged(world: World, player: Player): boolean {
  return isRangedWeapon(weapon(world, player));
}

/** `player:setCombatStyle`: a style the wielded weapon offers (refused otherwise, changing nothing). */
export function setCombatStyle(world: World, player: Player, data: { style: CombatStyle }): HandlerResult {
  const offered = [...stylesOffered(weapon(world, player)).keys()];
  if (!offered.includes(data.style)) {
    const wielding = weapon(world, player)?.name ?? "no weapon";
    return { code: "INVALID_COMBAT_STYLE", message: `${wielding} offers ${offered.join(", ")}, not ${data.style}` };
  }
  if (player.data.combatStyle === data.style) return;
  player.data.combatStyle = data.style;
  player.syncDue = true;
  player.saveDue = true;
}

/**
 * After the weapon changed (`before`: the weapon wielded until now, undefined unarmed): the style in
 * the same button slot of the new weapon, as the genre keeps the slot (combatStyles.ts `styleAfterSwitch`).
 */
export function fitCombatStyle(world: World, player: Player, before: ItemDef | undefined): void {
  const style = styleAfterSwitch(player.data.combatStyle, before, weapon(world, player));
  if (style === (player.data.combatStyle ?? DEFAULT_COMBAT_STYLE)) return;
  player.data.combatStyle = style;
  player.syncDue = true;
  player.saveDue = true;
}

/** The attack style in force: the chosen one if the wielded weapon offers it, else accurate. */
export function combatStyleOf(world: World, player: Player): CombatStyle {
  return effectiveStyle(player.data.combatStyle, weapon(world, player));
}

export function attackRange(world: World, player: Player): number {
  return styleAttackRange(combatStyleOf(world, player), weapon(world, player), DEFAULT_RANGED_RANGE);
}

/** The target's defence bonus against an attack type: the NPC's typed bonus if content gives one, else its `defenseBonus`. */
export function npcDefenceBonus(npc: NpcInstance, attackType: AttackType): number {
  const stats = npc.def.stats;
  const key = `defense${capitalized(attackType)}` as "defenseStab" | "defenseSlash" | "defenseCrush" | "defenseRanged";
  return stats?.[key] ?? stats?.defenseBonus ?? 0;
}

/** A `combat:hit` to every player in view of the target. */
export function announce(
  world: World,
  attackerId: string,
  target: { id: string; x: number; z: number },
  damage: number,
  style: HitStyle,
  health: number,
  maxHealth: number,
): void {
  const data = { attackerId, targetId: target.id, damage, style, targetHealth: health, targetMaxHealth: maxHealth };
  for (const p of world.playersNear(target)) world.send(p.id, "combat:hit", data);
}

/** A player's attack on an NPC (the player is in range and its attack timer is ready). */
export function playerAttacksNpc(world: World, player: Player, npc: NpcInstance): GameError | undefined {
  if (!npc.def.combat?.attackable) return { code: "NOT_ATTACKABLE", message: `you can't attack ${npc.def.name}` };
  const taken = singleCombatRefusal(world, player, npc);
  if (taken) return taken;
  const ranged = isRanged(world, player);
  if (ranged) {
    const ammo = player.data.equipment.arrows;
    if (ammo === undefined) return { code: "NO_AMMO", message: "you have no arrows equipped" };
    if (--ammo.quantity === 0) delete player.data.equipment.arrows;
    player.syncDue = true;
    player.saveDue = true;
  }
  const w = weapon(world, player);
  const style = combatStyleOf(world, player);
  const type = attackTypeOf(style, w);
  const sb = styleBonus(style, w);
  const b = playerBonuses(world, player, type);
  const attackRoll = ranged
    ? (prayedLevel(world, player, "ranged") + sb.ranged + 8) * (b.ranged + 64)
    : (prayedLevel(world, player, "attack") + sb.attack + 8) * (b.attack + 64);
  const defenceRoll = ((npc.def.stats?.defense ?? 1) + NPC_STYLE_BONUS + 8) * (npcDefenceBonus(npc, type) + 64);
  const max = ranged
    ? maxHitHitpoints(prayedLevel(world, player, "ranged"), b.rangedStrength, sb.ranged)
    : maxHitHitpoints(prayedLevel(world, player, "strength"), b.strength, sb.strength);
  const damage =
    world.random() < hitChance(attackRoll, defenceRoll) ? Math.min(npc.health, Math.floor(world.random() * (max * LIFEPOINTS_PER_HITPOINT + 1))) : 0;
  player.nextActionTick = world.tick + styleAttackSpeed(style, w, UNARMED_SPEED_TICKS);
  npc.health -= damage;
  npc.damageBy.set(player.id, (npc.damageBy.get(player.id) ?? 0) + damage);
  npc.version++;
  fightBack(world, player, npc);
  announce(world, player.id, npc, damage, ranged ? "ranged" : "melee", npc.health, npc.maxHealth);
  if (damage > 0) {
    for (const [skill, perHitpoint] of Object.entries(styleXp(style, w)) as [Skill, number][])
      addXp(world, player, skill, (damage / LIFEPOINTS_PER_HITPOINT) * perHitpoint);
    addXp(world, player, "constitution", (damage / LIFEPOINTS_PER_HITPOINT) * (4 / 3));
  }
  if (npc.health <= 0) npcDies(world, npc);
  return undefined;
}

/**
 * After a player's hit on an NPC: the NPC, if it fights back, turns on the player unless it still
 * fights someone else (its fight with them over, it turns); the two now fight (singleCombat.ts).
 */
export function fightBack(world: World, player: Player, npc: NpcInstance): void {
  if (npc.def.combat?.retaliates === true && (npc.targetId === undefined || npcFoe(world, npc) === undefined)) npc.targetId = player.id;
  markFight(world, player, npc);
}

/** An NPC's attack on a player (in range, timer ready). */
export function npcAttacksPlayer(world: World, npc: NpcInstance, player: Player): void {
  const stats = npc.def.stats;
  const attackRoll = ((stats?.attack ?? 1) + NPC_STYLE_BONUS + 8) * 64;
  const defenceRoll =
    (prayedLevel(world, player, "defense") + styleBonus(combatStyleOf(world, player), weapon(world, player)).defence + 8) *
    (playerBonuses(world, player).defence + 64);
  const max = maxHitHitpoints(stats?.strength ?? 1, 0, NPC_STYLE_BONUS);
  const rolled = world.random() < hitChance(attackRoll, defenceRoll) ? Math.floor(world.random() * (max * LIFEPOINTS_PER_HITPOINT + 1)) : 0;
  // NPCs attack in melee: a protection prayer against melee takes its share off (prayer.ts).
  const damage = Math.min(player.data.health, Math.floor(rolled * protectionFactor(world, player, "melee")));
  npc.nextAttackTick = world.tick + (npc.def.combat?.attackSpeedTicks ?? UNARMED_SPEED_TICKS);
  markAttack(world, npc, player);
  player.data.health -= damage;
  // Being attacked stops a make loop (production.ts announces it).
  if (player.action?.kind === "make") {
    player.action = undefined;
    player.makeInterruptedBy = "combat";
  }
  player.publicVersion++;
  player.syncDue = true;
  player.saveDue = true;
  announce(world, npc.id, player, damage, "melee", player.data.health, player.maxHealth);
  // No xp for a hit taken: Defence is trained by a defensive or controlled style, as in OSRS.
  if (player.data.health <= 0) killPlayer(world, player, npc.def.id);
  else retaliate(world, player, npc);
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
  endFightsOf(world, npc);
  npc.damageBy.clear();
  npc.version++;
  for (const p of world.players.values()) if (p.action?.kind === "attack" && p.action.targetId === npc.id) p.action = undefined;
  const drops = npc.def.drops;
  if (killer !== undefined) {
    killer.pendingKills.set(npc.def.id, (killer.pendingKills.get(npc.def.id) ?? 0) + 1);
    world.tell(killer.id, `You have defeated the ${npc.def.name}.`);
    questStep(world, killer, "kill", npc.def.id);
  }
  if (drops === undefined) return;
  const owner = killer?.id;
  for (const stack of rollDrops(drops, world.random)) spawnGroundItem(world, stack.itemId, stack.quantity, npc, owner);
}
