/**
 * The chance of burning food, as the server rolls it when a player cooks (items.ts cookOnce) and as
 * the agents reckon a catch's worth (agent-runtime/brain/meleeFood.ts): 60 % at the recipe's level,
 * falling linearly to 0 at its stop-burn level for the heat (`stopBurnLevel.fire` or `.range`;
 * the recipe's level + 30 when the content gives none). OSRS wiki "Cooking": raw meat and shrimp
 * burn about half the time at low levels and stop burning near level 30 on a fire, less on a range.
 */
export interface BurnRule {
  level: number;
  stopBurnLevel?: { fire?: number | undefined; range?: number | undefined } | undefined;
}

/** The burn chance at Cooking `level` on a fire or a range. */
export function burnChance(recipe: BurnRule, level: number, heat: "fire" | "range"): number {
  const stopBurn = recipe.stopBurnLevel?.[heat] ?? recipe.level + 30;
  return level >= stopBurn ? 0 : 0.6 * ((stopBurn - level) / Math.max(1, stopBurn - recipe.level));
}
