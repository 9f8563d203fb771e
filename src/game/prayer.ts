/**
 * Prayer, as Old School RuneScape has it (OSRS wiki "Prayer", "Prayer drain mechanics"):
 * - prayer points: at most the Prayer level; spent by active prayers, recharged to the level at
 *   an altar (`player:action {action: "interact", targetId: <altar>}`);
 * - drain: every tick the drain effects (`drainEffect`) of the active prayers are added to a
 *   counter; each time it reaches the drain resistance, 2 × prayer bonus + 60, the resistance is
 *   taken off it and one point is lost. A prayer of drain effect D so costs one point every
 *   (60 + 2 × bonus) / D ticks: with no bonus, drain effect 1 (Thick Skin) one every 60 ticks =
 *   36 s, 6 (Rock Skin) 6 s, 12 (Protect from Melee) 3 s, 24 (Piety) 1.5 s, the wiki's published
 *   rates. At 0 points every prayer switches off;
 * - effects: `bonuses` multiply a level before the style bonus and the +8: effective level =
 *   ⌊level × multiplier⌋ + style bonus + 8 (OSRS wiki "Maximum melee hit", "Accuracy");
 *   `protection` scales the damage NPCs of that attack style deal (0: none gets through, as the
 *   genre's protection prayers against monsters);
 * - conflicts: switching a prayer on switches off those it conflicts with: the ones either names
 *   in `conflicts`, the ones boosting the same level, and the other protection prayers;
 * - prayers are off after death and at logout (the points stay, and are saved).
 * Pure rules: no transport, no database.
 */
import type { PrayerDef } from "../manifests/schemas/misc.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, World } from "./world/World.ts";

/** OSRS: drain resistance = 2 × prayer bonus + 60. */
export const BASE_DRAIN_RESISTANCE = 60;

/** The levels a prayer can boost, each with the `bonuses` key that multiplies it. */
export const PRAYER_STATS = {
  attack: "attackMultiplier",
  strength: "strengthMultiplier",
  defense: "defenseMultiplier",
  ranged: "rangedMultiplier",
  magic: "magicMultiplier",
} as const;
export type PrayerStat = keyof typeof PRAYER_STATS;
export type AttackStyleKind = "melee" | "ranged" | "magic";

import { maxPrayerPoints, prayerPoints } from "./world/prayerPoints.ts";

export { maxPrayerPoints, prayerPoints };

/** The sum of the worn items' `prayer` bonuses. */
export function prayerBonus(world: World, player: Player): number {
  let b = 0;
  for (const worn of Object.values(player.data.equipment)) b += world.content.item(worn.itemId)?.bonuses?.prayer ?? 0;
  return b;
}

export function drainResistance(prayerBonus: number): number {
  return 2 * prayerBonus + BASE_DRAIN_RESISTANCE;
}

/** Ticks per prayer point drained by prayers whose drain effects sum to `drain` (Infinity: none). */
export function ticksPerPoint(drain: number, prayerBonus = 0): number {
  return drain > 0 ? drainResistance(prayerBonus) / drain : Infinity;
}

function conflicting(a: PrayerDef, b: PrayerDef): boolean {
  if (a.conflicts?.includes(b.id) || b.conflicts?.includes(a.id)) return true;
  if (a.protection !== undefined && b.protection !== undefined) return true;
  const boosts = (p: PrayerDef) => Object.values(PRAYER_STATS).filter((k) => p.bonuses?.[k] !== undefined);
  const other = boosts(b);
  return boosts(a).some((k) => other.includes(k));
}

/** `prayer:toggle {prayerId, active}`: refused (changing nothing) for an unknown prayer, one above the level, or with no points. */
export function togglePrayer(world: World, player: Player, data: { prayerId: string; active: boolean }): HandlerResult {
  const prayer = world.content.prayers.get(data.prayerId);
  if (prayer === undefined) return { code: "UNKNOWN_PRAYER", message: `there is no prayer "${data.prayerId}"` };
  const on = player.activePrayers.includes(prayer.id);
  if (!data.active) {
    if (!on) return;
    player.activePrayers = player.activePrayers.filter((id) => id !== prayer.id);
    if (player.activePrayers.length === 0) player.prayerDrain = 0;
    player.syncDue = true;
    return;
  }
  if (on) return;
  const level = player.data.skills.prayer.level;
  if (level < prayer.level) return { code: "PRAYER_LEVEL_TOO_LOW", message: `you need Prayer level ${prayer.level} to use ${prayer.name} (yours is ${level})` };
  if (prayerPoints(player) <= 0) return { code: "NO_PRAYER_POINTS", message: "you have run out of prayer points; recharge them at an altar" };
  player.activePrayers = [
    ...player.activePrayers.filter((id) => {
      const other = world.content.prayers.get(id);
      return other !== undefined && !conflicting(prayer, other);
    }),
    prayer.id,
  ];
  player.syncDue = true;
}

/** Every player's active prayers drain one tick's worth (see the drain model above). */
export function drainPrayers(world: World): void {
  for (const player of world.players.values()) {
    if (player.activePrayers.length === 0) continue;
    let drain = 0;
    for (const id of player.activePrayers) drain += world.content.prayers.get(id)?.drainEffect ?? 0;
    if (drain === 0) continue;
    player.prayerDrain += drain;
    const resistance = drainResistance(prayerBonus(world, player));
    let points = prayerPoints(player);
    const before = points;
    while (player.prayerDrain >= resistance && points > 0) {
      player.prayerDrain -= resistance;
      points--;
    }
    if (points === before) continue;
    player.data.prayerPoints = points;
    player.syncDue = true;
    player.saveDue = true;
    if (points === 0) {
      endPrayers(player);
      world.tell(player.id, "You have run out of prayer points, you can recharge at an altar.");
    }
  }
}

/** Switches every prayer off (out of points, death, logout); the points stay. */
export function endPrayers(player: Player): void {
  if (player.activePrayers.length > 0) player.syncDue = true;
  player.activePrayers = [];
  player.prayerDrain = 0;
}

/** Praying at an altar: the points back to the Prayer level. */
export function prayAtAltar(world: World, player: Player): void {
  if (prayerPoints(player) >= maxPrayerPoints(player)) {
    world.tell(player.id, "You already have full prayer points.");
    return;
  }
  player.data.prayerPoints = maxPrayerPoints(player);
  player.syncDue = true;
  player.saveDue = true;
  world.tell(player.id, "You recharge your prayer points.");
}

/** The level as prayers boost it: ⌊level × the highest active multiplier for it⌋ (the level itself without one). */
export function prayedLevel(world: World, player: Player, stat: PrayerStat): number {
  const level = player.data.skills[stat].level;
  if (player.activePrayers.length === 0) return level;
  let multiplier = 1;
  for (const id of player.activePrayers) multiplier = Math.max(multiplier, world.content.prayers.get(id)?.bonuses?.[PRAYER_STATS[stat]] ?? 1);
  // The epsilon keeps a product the float cannot hold (20 × 1.15 = 22.999…) on its whole value.
  return Math.floor(level * multiplier + 1e-9);
}

/** What part of an NPC's hit of this attack style gets through the active protection prayers (1: all). */
export function protectionFactor(world: World, player: Player, style: AttackStyleKind): number {
  let factor = 1;
  for (const id of player.activePrayers) {
    const p = world.content.prayers.get(id)?.protection;
    if (p?.style === style) factor = Math.min(factor, p.damageMultiplier);
  }
  return factor;
}

/**
 * Prayer levels gained add as many points (OSRS: a level-up raises the current level with the base
 * level), so a full bar stays full.
 */
export function prayerLevelsGained(player: Player, levels: number): void {
  if (player.data.prayerPoints !== undefined) player.data.prayerPoints = Math.min(player.data.prayerPoints + levels, maxPrayerPoints(player));
}

/** A stored point count read back: a whole number from 0 to the Prayer level (a stray value: full). */
export function parsePrayerPoints(value: unknown, prayerLevel: number): number {
  if (value === null || value === undefined || value === "") return prayerLevel;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, prayerLevel) : prayerLevel;
}
