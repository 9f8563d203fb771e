/**
 * The skills a character row stores (a level and an xp column each). The spec's character record
 * names attack … cooking; the rest are the skills the content uses (mining, smithing, prayer, …).
 * Content spells "defence"; the record's column is `defenseLevel`: the game layer maps the name.
 */
export const SKILLS = [
  "attack",
  "strength",
  "defense",
  "constitution",
  "ranged",
  "magic",
  "prayer",
  "woodcutting",
  "mining",
  "fishing",
  "firemaking",
  "cooking",
  "smithing",
  "crafting",
  "fletching",
  "runecrafting",
  "agility",
] as const;
export type Skill = (typeof SKILLS)[number];

/** Constitution starts at level 10 (spec default), which is 1,154 xp on the standard table. */
export const CONSTITUTION_START_LEVEL = 10;
export const CONSTITUTION_START_XP = 1154;
