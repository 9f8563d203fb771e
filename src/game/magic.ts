/**
 * Magic: combat spells cast on monsters, with runes, as Old School RuneScape has them for the
 * standard spellbook's Strike and Bolt spells (the spells, their levels, runes, max hits and xp
 * come from the content, `combat-spells.json`; src/manifests/magicContent.ts).
 * - A cast needs the spell's Magic level and its runes; a wielded elemental staff stands for
 *   unlimited runes of its element (`runes.json` `elementalStaves`). The runes are used up when the
 *   spell is cast, hit or splash (OSRS wiki "Runes"), in one inventory change.
 * - Accuracy (OSRS wiki "Damage per second/Magic"): attack roll = effective magic level × (magic
 *   attack bonus + 64), effective magic level = Magic level + 8 (standard spells give no style
 *   bonus); an NPC's defence roll = (its Magic level + 9) × (its magic defence bonus + 64), "NPC
 *   magic defence is 100 % based on the magic level and bonus" (the official combat formulas
 *   thread); without a Magic level in the content its Defence level stands in, without a magic
 *   defence bonus its `defenseBonus`. Hit chance as in melee (combat.ts `hitChance`).
 * - Damage: a uniform 0..the spell's max hit (hitpoints; OSRS wiki "Maximum magic hit": Strike and
 *   Bolt spells have a fixed max hit), in lifepoints (×10) as every hit of this game.
 * - Xp (OSRS wiki "Magic" / "Combat spells"): the spell's base xp for every cast, a splash too, plus
 *   2 Magic xp per hitpoint of damage; Constitution 1⅓ per hitpoint of damage, as every combat hit.
 * - Range 10 tiles (OSRS wiki "Attack range": spells reach 10); the next attack after the spell's
 *   attack speed (5 ticks for these spells).
 * - Autocast: with a staff wielded, a chosen spell is cast by every attack (`player:setAutocast`);
 *   taking the staff off clears it, as in the genre.
 * Pure rules: no transport, no database.
 */
import { announce, fightBack, hitChance, npcDies, weapon } from "./combat.ts";
import { singleCombatRefusal } from "./singleCombat.ts";
import { transact } from "./inventory.ts";
import { addXp, levelOf } from "./progression.ts";
import { invError, tradeLock } from "./rules.ts";
import { LIFEPOINTS_PER_HITPOINT, type NpcInstance } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { GameError, HandlerResult, World } from "./world/World.ts";
import type { Spell } from "../manifests/magicContent.ts";
import type { ItemDef } from "../manifests/schemas/items.ts";

/** Tiles a spell reaches (Chebyshev), OSRS's 10. */
export const MAGIC_RANGE = 10;
/** Magic xp per hitpoint of damage (OSRS: 2, on top of the spell's base xp). */
export const MAGIC_XP_PER_HITPOINT = 2;
/** Constitution xp per hitpoint of damage, as every combat hit (combat.ts). */
const CONSTITUTION_XP_PER_HITPOINT = 4 / 3;

export function spellOf(world: World, spellId: string): Spell | undefined {
  return world.content.magic.spells.get(spellId);
}

/** A staff: content calls its weapon type a staff, or lists it among the elemental staves. */
export function isStaff(world: World, item: ItemDef | undefined): boolean {
  return item !== undefined && (/staff/i.test(item.weaponType ?? "") || world.content.magic.staves.has(item.id));
}

/** The runes the wielded staff stands for without limit (none without an elemental staff). */
export function staffRunes(world: World, player: Player): readonly string[] {
  const w = player.data.equipment.weapon;
  return w === undefined ? [] : (world.content.magic.staves.get(w.itemId) ?? []);
}

export interface MissingRune {
  runeId: string;
  name: string;
  need: number;
  have: number;
}

/** The spell's runes the player lacks (carried in the inventory, or given by the wielded staff). */
export function missingRunes(world: World, player: Player, spell: Spell): MissingRune[] {
  const free = staffRunes(world, player);
  const missing: MissingRune[] = [];
  for (const r of spell.runes) {
    if (free.includes(r.runeId)) continue;
    const have = player.data.inventory.reduce((n, s) => n + (s?.itemId === r.runeId ? s.quantity : 0), 0);
    if (have < r.quantity) missing.push({ runeId: r.runeId, name: world.content.item(r.runeId)?.name ?? r.runeId, need: r.quantity, have });
  }
  return missing;
}

/** Why the player cannot cast the spell now (level, runes), if it cannot. */
export function castRefusal(world: World, player: Player, spell: Spell): GameError | undefined {
  if (levelOf(player, "magic") < spell.level) return { code: "LEVEL_TOO_LOW", message: `you need Magic level ${spell.level} to cast ${spell.name}` };
  const missing = missingRunes(world, player, spell);
  if (missing.length > 0) {
    const list = missing.map((m) => `${m.need - m.have} more ${m.name}${m.need - m.have > 1 ? "s" : ""}`).join(", ");
    return { code: "NO_RUNES", message: `you need ${list} to cast ${spell.name}` };
  }
  return undefined;
}

/** The worn items' magic attack bonus (`attackMagic`, or `magic`). */
export function magicAttackBonus(world: World, player: Player): number {
  let sum = 0;
  for (const worn of Object.values(player.data.equipment)) {
    const b = world.content.item(worn.itemId)?.bonuses ?? {};
    sum += b.attackMagic ?? b.magic ?? 0;
  }
  return sum;
}

/** The player's magic attack roll: (Magic level + 8) × (magic attack bonus + 64). */
export function magicAttackRoll(magicLevel: number, attackBonus: number): number {
  return (magicLevel + 8) * (attackBonus + 64);
}

/** An NPC's magic defence roll: (its Magic level, else Defence, + 9) × (its magic defence bonus, else `defenseBonus`, + 64). */
export function npcMagicDefenceRoll(npc: NpcInstance): number {
  const stats = npc.def.stats;
  const level = stats?.magic ?? stats?.defense ?? 1;
  const bonus = stats?.defenseMagic ?? stats?.defenseBonus ?? 0;
  return (level + 9) * (bonus + 64);
}

/** Magic xp for a cast that dealt `damage` lifepoints: the base xp plus 2 per hitpoint (exact, not rounded). */
export function spellXp(spell: Spell, damage: number): number {
  return spell.baseXp + (damage / LIFEPOINTS_PER_HITPOINT) * MAGIC_XP_PER_HITPOINT;
}

/** The spell attacks cast: the chosen autocast spell while a staff is wielded. */
export function autocastSpell(world: World, player: Player): Spell | undefined {
  const id = player.data.autocast;
  if (id === undefined || id === null || !isStaff(world, weapon(world, player))) return undefined;
  return spellOf(world, id);
}

/** Casts a spell on an NPC (in range, attack timer ready): runes used once, the hit rolled, xp given. */
export function castOnNpc(world: World, player: Player, npc: NpcInstance, spell: Spell): GameError | undefined {
  if (!npc.def.combat?.attackable) return { code: "NOT_ATTACKABLE", message: `you can't attack ${npc.def.name}` };
  const refused = singleCombatRefusal(world, player, npc) ?? castRefusal(world, player, spell);
  if (refused) return refused;
  const free = staffRunes(world, player);
  const paid = transact(player, world.content, (tx) => {
    for (const r of spell.runes) if (!free.includes(r.runeId)) tx.inv.remove(r.runeId, r.quantity);
  });
  if (!paid.ok) return invError(paid.error);
  const attackRoll = magicAttackRoll(levelOf(player, "magic"), magicAttackBonus(world, player));
  const hit = world.random() < hitChance(attackRoll, npcMagicDefenceRoll(npc));
  const damage = hit ? Math.min(npc.health, Math.floor(world.random() * (spell.maxHit * LIFEPOINTS_PER_HITPOINT + 1))) : 0;
  player.nextActionTick = world.tick + spell.attackSpeed;
  npc.health -= damage;
  npc.damageBy.set(player.id, (npc.damageBy.get(player.id) ?? 0) + damage);
  npc.version++;
  fightBack(world, player, npc);
  announce(world, player.id, npc, damage, "magic", npc.health, npc.maxHealth);
  addXp(world, player, "magic", spellXp(spell, damage));
  if (damage > 0) addXp(world, player, "constitution", (damage / LIFEPOINTS_PER_HITPOINT) * CONSTITUTION_XP_PER_HITPOINT);
  if (npc.health <= 0) npcDies(world, npc);
  return undefined;
}

/**
 * `player:action {action: "cast", spellId, targetId}`: checked now (the spell, the level, the runes,
 * the target), refused with nothing changed; then the player walks into range and casts once.
 */
export function beginCast(world: World, player: Player, data: { spellId?: string | undefined; targetId?: string | undefined }): HandlerResult {
  if (data.spellId === undefined || data.targetId === undefined) return { code: "INVALID_PAYLOAD", message: "cast needs a spellId and a targetId" };
  const spell = spellOf(world, data.spellId);
  if (spell === undefined) return { code: "UNKNOWN_SPELL", message: `there is no spell "${data.spellId}"` };
  const busy = tradeLock(player);
  if (busy) return busy;
  const npc = world.npcs.get(data.targetId);
  if (npc === undefined || npc.deadUntil !== 0) return { code: "INVALID_TARGET", message: "that target is gone" };
  if (npc.def.combat?.attackable !== true) return { code: "NOT_ATTACKABLE", message: "you can't attack that" };
  const refused = singleCombatRefusal(world, player, npc) ?? castRefusal(world, player, spell);
  if (refused) return refused;
  player.action = { kind: "cast", targetId: npc.id, spellId: spell.id };
  player.moveTarget = undefined;
}

/** `player:setAutocast {spellId | null}`: a spell the player can cast, with a staff wielded; null stops autocasting. */
export function setAutocast(world: World, player: Player, data: { spellId: string | null }): HandlerResult {
  if (data.spellId !== null) {
    const spell = spellOf(world, data.spellId);
    if (spell === undefined) return { code: "UNKNOWN_SPELL", message: `there is no spell "${data.spellId}"` };
    if (!isStaff(world, weapon(world, player))) return { code: "NO_STAFF", message: "you need to wield a staff to autocast" };
    if (levelOf(player, "magic") < spell.level) return { code: "LEVEL_TOO_LOW", message: `you need Magic level ${spell.level} to cast ${spell.name}` };
  }
  if ((player.data.autocast ?? null) === data.spellId) return;
  player.data.autocast = data.spellId;
  player.syncDue = true;
  player.saveDue = true;
}

/** After the weapon changed: autocasting ends without a staff, as the genre clears it on a weapon switch. */
export function fitAutocast(world: World, player: Player): void {
  if (player.data.autocast === undefined || player.data.autocast === null || isStaff(world, weapon(world, player))) return;
  player.data.autocast = null;
  player.syncDue = true;
  player.saveDue = true;
}
