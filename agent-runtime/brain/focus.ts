/**
 * An owner's standing instruction to an agent: what to train above all ("focus melee", "focus
 * quests", "focus off"), as a player of the genre sets out to get 10/10/10 or a quest cape. The
 * scripted brain lifts the goals that serve the focus by FOCUS_BONUS over its ordinary choices; the
 * upkeep that keeps it alive and able (banking a full inventory, cooking when hurt, a missing tool)
 * scores on as before, and a focused goal it cannot pursue now (no food to fight with, no runes)
 * is not offered, so the focus never stalls it. The runtime keeps the focus with the agent (store.ts).
 */
import type { Knowledge } from "../knowledge.ts";
import { FOCUSES, type Focus, type GoalChoice, type Observation } from "./Brain.ts";
import { armourWorth, castableSpell, meleeWorth } from "./fighting.ts";
import { castingKit, essenceTarget, minesEssenceWith } from "./magicFocus.ts";
import { servesMaking } from "./makingFocus.ts";
import { needsFood, provisionShort } from "./meleeFood.ts";
import { servesMeleeQuest } from "./meleeFocus.ts";

// The kinds of focus are defined with the brain's types (Brain.ts), which every focus module imports.
export { FOCUSES, type Focus };

/** Whether a resource yields what a runecrafting recipe binds into runes (rune essence: the recipes' essence types, not inputs). */
function minesEssence(know: Knowledge, resourceId: string): boolean {
  return essenceTarget(know, [resourceId]) !== undefined;
}

/** What a focused goal gains: enough to pass ordinary training and quests (at most 88), not upkeep past 95. */
export const FOCUS_BONUS = 15;

/** Whether a chosen goal serves the focus. */
const SERVES: Record<Focus, (choice: GoalChoice, obs: Observation, know: Knowledge) => boolean> = {
  // Fighting, a better weapon and armour, and cooking the meat the monsters drop (the food that lets it fight on hurt).
  // And the quests giving melee xp or a lamp, or opening one that does (meleeFocus.ts).
  melee: (c, obs, know) =>
    c.type === "combat" ||
    c.type === "cooking" ||
    (c.type === "shopping" &&
      ((meleeWorth(know, c.target) ?? 0) > 0 || (armourWorth(know, c.target) ?? 0) > 0 || (know.registry.item(c.target ?? "")?.healAmount ?? 0) > 0)) ||
    (c.type === "quest" && servesMeleeQuest(know, obs, c.target)) ||
    (c.type === "fishing" && (needsFood(know, obs) || (provisionShort(know, obs)?.lifepoints ?? 0) > 0)),
  // Casting (a fight with runes for a spell; without, a fight trains melee, not Magic), runes bought
  // or crafted, and the essence they are crafted from mined (the runes it can earn in this world).
  // A staff standing for runes and the pickaxe for essence serve it too (magicFocus.ts).
  magic: (c, obs, know) =>
    (c.type === "combat" &&
      castableSpell(castingKit({ skills: obs.skills, inventory: obs.inventory, weaponId: obs.equipment.weapon, coins: obs.coins }, know), know) !==
        undefined) ||
    (c.type === "mining" && c.target !== undefined && minesEssence(know, c.target)) ||
    (c.type === "shopping" &&
      c.target !== undefined &&
      (know.registry.magic.runes.has(c.target) || know.registry.magic.staves.has(c.target) || minesEssenceWith(know, c.target))) ||
    (c.type === "making" && c.target !== undefined && know.registry.production.get(c.target)?.skill === "runecrafting"),
  // Mining, making but runecrafting, cows for hides, its tools and a pickaxe bought, surplus sold when short (makingFocus.ts).
  making: (c, obs, know) => servesMaking(c, obs, know),
  quests: (c) => c.type === "quest",
};

/** The bonus a chosen goal gets from the agent's focus (0 without one, or for a goal that does not serve it). */
export function focusBonus(choice: GoalChoice, obs: Observation, know: Knowledge): number {
  return obs.focus !== undefined && SERVES[obs.focus](choice, obs, know) ? FOCUS_BONUS : 0;
}

/** Reads a focus from an owner's words ("melee", "combat", "quests", "off"); undefined when none fits. */
export function parseFocus(word: string): Focus | null | undefined {
  const w = word.trim().toLowerCase();
  if (w === "off" || w === "none" || w === "nothing") return null;
  if (/^(melee|combat|fighting|attack|strength|defen[cs]e)$/.test(w)) return "melee";
  if (/^(magic|spells?|casting)$/.test(w)) return "magic";
  if (/^(making|smithing|crafting|fletching|production|skilling)$/.test(w)) return "making";
  if (/^(quests?|questing)$/.test(w)) return "quests";
  return undefined;
}
