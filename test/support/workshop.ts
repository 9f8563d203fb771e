/**
 * A small hand-made content set with one recipe of every production kind (smelting, smithing with
 * the hammer, crafting with thread, fletching, runecrafting at an air altar, tanning), its stations
 * placed beside a workbench tile, and one recipe naming an item that does not exist.
 */
import { buildRegistry, type ContentRegistry } from "../../src/manifests/registry.ts";
import { parseManifest } from "../../src/manifests/validate.ts";

/** Where the workshop's player stands: every station is within reach of it. */
export const BENCH = { x: 0, z: 0 };

const item = (id: string, name: string, extra: Record<string, unknown> = {}) => ({ id, name, type: "misc", value: 1, ...extra });

const FILES: Record<string, unknown> = {
  "world-config.json": { game: { spawn: { x: 0, y: 10, z: 0 }, starterKit: [], bounds: { minX: -20, maxX: 20, minZ: -20, maxZ: 20 } } },
  "items.json": [
    item("copper_ore", "Copper ore"),
    item("tin_ore", "Tin ore"),
    item("iron_ore", "Iron ore"),
    item("bronze_bar", "Bronze bar"),
    item("iron_bar", "Iron bar"),
    item("bronze_dagger", "Bronze dagger"),
    item("bronze_arrowtips", "Bronze arrowtips", { stackable: true }),
    item("hammer", "Hammer"),
    item("needle", "Needle"),
    item("thread", "Thread", { stackable: true }),
    item("cowhide", "Cowhide"),
    item("leather", "Leather"),
    item("leather_gloves", "Leather gloves"),
    item("knife", "Knife"),
    item("logs", "Logs"),
    item("arrow_shaft", "Arrow shaft", { stackable: true }),
    item("rune_essence", "Rune essence"),
    item("air_rune", "Air rune", { stackable: true }),
  ],
  "stations.json": {
    stations: [
      { type: "furnace", name: "Furnace" },
      { type: "anvil", name: "Anvil" },
      { type: "tanner", name: "Tanning rack" },
      { type: "air_altar", name: "Air altar" },
    ],
  },
  "world-areas.json": {
    town: {
      workshop: {
        id: "workshop",
        name: "Workshop",
        bounds: { minX: -20, maxX: 20, minZ: -20, maxZ: 20 },
        stations: [
          { id: "furnace-1", type: "furnace", position: { x: 1, y: 0, z: 0 } },
          { id: "anvil-1", type: "anvil", position: { x: -1, y: 0, z: 0 } },
          { id: "tanner-1", type: "tanner", position: { x: 0, y: 0, z: 1 } },
          { id: "air-altar-1", type: "air_altar", position: { x: 0, y: 0, z: -1 } },
        ],
      },
    },
  },
  "recipes/smelting.json": {
    recipes: [
      {
        output: "bronze_bar",
        inputs: [
          { item: "copper_ore", amount: 1 },
          { item: "tin_ore", amount: 1 },
        ],
        level: 1,
        xp: 6.2,
        ticks: 4,
      },
      { output: "iron_bar", inputs: [{ item: "iron_ore", amount: 1 }], level: 15, xp: 12.5, ticks: 4, successRate: 0.5 },
    ],
  },
  "recipes/smithing.json": {
    recipes: [
      { output: "bronze_dagger", bar: "bronze_bar", barsRequired: 1, level: 1, xp: 12.5, ticks: 4 },
      { output: "bronze_arrowtips", bar: "bronze_bar", barsRequired: 1, level: 5, xp: 12.5, ticks: 4, outputQuantity: 15 },
    ],
  },
  "recipes/crafting.json": {
    recipes: [
      {
        output: "leather_gloves",
        inputs: [{ item: "leather", amount: 1 }],
        tools: ["needle"],
        consumables: [{ item: "thread", uses: 5 }],
        level: 1,
        xp: 13.8,
        ticks: 3,
        station: "none",
      },
      { output: "leather_body", inputs: [{ item: "leather", amount: 1 }], tools: ["needle"], level: 14, xp: 25, ticks: 3 },
    ],
  },
  "recipes/fletching.json": {
    recipes: [
      { output: "arrow_shaft", outputQuantity: 15, inputs: [{ item: "logs", amount: 1 }], tools: ["knife"], level: 1, xp: 5, ticks: 3, skill: "fletching" },
    ],
  },
  "recipes/runecrafting.json": {
    recipes: [
      {
        runeType: "air",
        runeItemId: "air_rune",
        levelRequired: 1,
        xpPerEssence: 5,
        essenceTypes: ["rune_essence", "pure_essence"],
        multiRuneLevels: [11, 22, 33],
      },
    ],
  },
  "recipes/tanning.json": { recipes: [{ input: "cowhide", output: "leather", cost: 3, name: "Leather" }] },
};

let built: { registry: ContentRegistry; problems: string[] } | undefined;

/** The workshop registry and the reference problems its build reported. */
export function workshopContent(): { registry: ContentRegistry; problems: string[] } {
  if (built !== undefined) return built;
  const data = new Map<string, unknown>();
  for (const [file, json] of Object.entries(FILES)) {
    const parsed = parseManifest(file, JSON.stringify(json));
    if (parsed.problems.length > 0) throw new Error(`${file}: ${JSON.stringify(parsed.problems)}`);
    data.set(file, parsed.data);
  }
  const { registry, problems } = buildRegistry(data);
  built = { registry, problems: problems.map((p) => `${p.file} ${p.path}: ${p.message}`) };
  return built;
}
