/** A copy of the default world whose new characters start beside its furnace with ore to smelt (the production tests over real servers). */
import fs from "node:fs";
import path from "node:path";
import { BUNDLED_MANIFESTS, makeWorldDir } from "./world.ts";

/** Ore of each kind a character starts with: 13 bars' worth, 26 of the 28 slots. */
export const ORE = 13;
/** Beside the default world's furnace (flintwright_furnace at 16,4). */
const BESIDE_FURNACE = { x: 16, y: 10, z: 5 };
/** The bronze bar's xp in tenths, as the content gives it. */
export const BAR_XP_TENTHS = Math.round(
  (JSON.parse(fs.readFileSync(path.join(BUNDLED_MANIFESTS, "recipes", "smelting.json"), "utf8")) as { recipes: { output: string; xp: number }[] }).recipes.find(
    (r) => r.output === "bronze_bar",
  )!.xp * 10,
);

/** A world directory (the caller removes it) with the spawn beside the furnace and a starter kit of copper and tin ore. */
export function smeltingWorld(): string {
  const world = makeWorldDir();
  const file = path.join(world, "assets", "manifests", "world-config.json");
  const config = JSON.parse(fs.readFileSync(file, "utf8")) as { game: Record<string, unknown> };
  config.game.spawn = BESIDE_FURNACE;
  config.game.starterKit = [
    { itemId: "copper_ore", quantity: ORE },
    { itemId: "tin_ore", quantity: ORE },
  ];
  fs.writeFileSync(file, JSON.stringify(config));
  return world;
}
