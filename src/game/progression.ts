/**
 * Experience: `skill:xp` events, level-ups, and the combat level, for every skill the character
 * stores. Content names skills as RuneScape spells them ("defence"); the character column is
 * `defense`.
 */
import { combatLevel, levelForXp, MAX_XP, SKILLS, type Skill } from "./skills.ts";
import { prayerLevelsGained } from "./prayer.ts";
import type { Player } from "./world/Player.ts";
import type { World } from "./world/World.ts";

const ALIASES: Record<string, Skill> = { defence: "defense", hitpoints: "constitution", hp: "constitution" };

/** The character skill a content skill name means, if any. */
export function toSkill(name: string): Skill | undefined {
  const n = name.toLowerCase();
  return (SKILLS as readonly string[]).includes(n) ? (n as Skill) : ALIASES[n];
}

/** Adds xp (rounded down to whole xp, capped at 200M), announcing it and any level-up. */
export function addXp(world: World, player: Player, skill: Skill, amount: number): void {
  const gained = Math.floor(amount);
  if (!(gained > 0)) return;
  const s = player.data.skills[skill];
  const before = s.level;
  s.xp = Math.min(MAX_XP, s.xp + gained);
  s.level = levelForXp(s.xp);
  const levelUp = s.level > before;
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
    if (skill === "prayer") prayerLevelsGained(player, s.level - before);
  }
  player.syncDue = true;
  player.saveDue = true;
  world.send(player.id, "skill:xp", { skill, xp: s.xp, gained, level: s.level, levelUp });
}

export function levelOf(player: Player, skill: Skill): number {
  return player.data.skills[skill].level;
}
