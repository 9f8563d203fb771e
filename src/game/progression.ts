/**
 * Experience: `skill:xp` events, level-ups, and the combat level, for every skill the character
 * stores. Content names skills as RuneScape spells them ("defence"); the character column is
 * `defense`.
 */
import { combatLevel, exactXp, levelForTenths, MAX_XP_TENTHS, SKILLS, wholeXp, XP_TENTHS, type Skill } from "./skills.ts";
import { prayerLevelsGained } from "./prayer.ts";
import type { Player } from "./world/Player.ts";
import type { World } from "./world/World.ts";

const ALIASES: Record<string, Skill> = { defence: "defense", hitpoints: "constitution", hp: "constitution" };

/** The character skill a content skill name means, if any. */
export function toSkill(name: string): Skill | undefined {
  const n = name.toLowerCase();
  return (SKILLS as readonly string[]).includes(n) ? (n as Skill) : ALIASES[n];
}

/**
 * The part of a tenth each player's skill has earned but not yet been credited (an award of
 * 0.6667 xp credits 6 tenths and keeps 0.667 of a tenth for the next award), so fractional awards
 * (Constitution's 1⅓ a hitpoint, controlled's thirds) add up exactly within a session. Not stored:
 * a reload loses under a tenth of an xp per skill.
 */
const pending = new WeakMap<Player, Partial<Record<Skill, number>>>();
/** Tenths rounded down, float noise first rounded off (3 × 6.666… tenths is 20, not 19.999…). */
const floorTenths = (t: number) => Math.floor(Math.round(t * 1e6) / 1e6);

/**
 * Adds `amount` xp (any positive amount, 17.5 or 1.333…; capped at 200M), kept in tenths,
 * announcing it (`skill:xp`: whole xp and gain as before, plus the exact ones) and any level-up.
 */
export function addXp(world: World, player: Player, skill: Skill, amount: number): void {
  if (!(amount > 0) || !Number.isFinite(amount)) return;
  const carried = pending.get(player) ?? {};
  const total = (carried[skill] ?? 0) + amount * XP_TENTHS;
  const credit = floorTenths(total);
  carried[skill] = Math.max(0, total - credit);
  pending.set(player, carried);
  if (credit <= 0) return;
  const s = player.data.skills[skill];
  const before = { level: s.level, tenths: s.xpTenths };
  s.xpTenths = Math.min(MAX_XP_TENTHS, s.xpTenths + credit);
  if (s.xpTenths === before.tenths) return;
  s.level = levelForTenths(s.xpTenths);
  const levelUp = s.level > before.level;
  if (levelUp) {
    const d = player.data.skills;
    player.data.combatLevel = combatLevel({
      attack: d.attack.level,
      strength: d.strength.level,
      defense: d.defense.level,
      constitution: d.constitution.level,
      ranged: d.ranged.level,
      magic: d.magic.level,
      prayer: d.prayer.level,
    });
    player.publicVersion++;
    if (skill === "prayer") prayerLevelsGained(player, s.level - before.level);
  }
  player.syncDue = true;
  player.saveDue = true;
  world.send(player.id, "skill:xp", {
    skill,
    xp: wholeXp(s.xpTenths),
    gained: wholeXp(s.xpTenths) - wholeXp(before.tenths),
    xpExact: exactXp(s.xpTenths),
    gainedExact: exactXp(s.xpTenths - before.tenths),
    level: s.level,
    levelUp,
  });
}

export function levelOf(player: Player, skill: Skill): number {
  return player.data.skills[skill].level;
}
