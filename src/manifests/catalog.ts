/**
 * The manifest files the server knows, each with its schema. This list is also how the loader
 * knows what to fetch from `{PUBLIC_CDN_URL}/manifests/`: every file named here, plus any file a
 * content host lists in an optional `manifests/index.json` (`{"files": ["path.json", …]}`).
 * Files of the list that a host does not have (404) are simply absent.
 */
import { z } from "zod";
import { itemsFile } from "./schemas/items.ts";
import { npcsFile } from "./schemas/npcs.ts";
import { fishingFile, miningFile, woodcuttingFile } from "./schemas/gathering.ts";
import { cookingFile, craftingFile, firemakingFile, runecraftingFile, smeltingFile, smithingFile, tanningFile } from "./schemas/recipes.ts";
import { biomesFile, buildingsFile, stationsFile, worldAreasFile, worldConfigFile } from "./schemas/world.ts";
import {
  ammunitionFile,
  duelArenasFile,
  lodSettingsFile,
  modelBoundsFile,
  musicFile,
  prayersFile,
  skillUnlocksFile,
  storesFile,
  tierRequirementsFile,
  toolsFile,
  vegetationFile,
} from "./schemas/misc.ts";
import { combatSpellsFile, runesFile } from "./schemas/magic.ts";
import { questsFile } from "./schemas/quests.ts";
import { worldObjectsFile } from "./schemas/places.ts";

/** Any JSON document: for files the server serves but does not read. */
const anyJson = z.unknown();

export const ITEM_FILES = ["weapons", "tools", "resources", "food", "misc", "armor", "ammunition", "runes"].map((n) => `items/${n}.json`);

export const MANIFEST_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  "items.json": itemsFile,
  ...Object.fromEntries(ITEM_FILES.map((f) => [f, itemsFile])),
  "npcs.json": npcsFile,
  "world-areas.json": worldAreasFile,
  "world-config.json": worldConfigFile,
  "biomes.json": biomesFile,
  "stores.json": storesFile,
  "stations.json": stationsFile,
  "buildings.json": buildingsFile,
  "world-objects.json": worldObjectsFile,
  "prayers.json": prayersFile,
  "ammunition.json": ammunitionFile,
  "tools.json": toolsFile,
  "resources.json": anyJson,
  "skill-unlocks.json": skillUnlocksFile,
  "tier-requirements.json": tierRequirementsFile,
  "runes.json": runesFile,
  "combat-spells.json": combatSpellsFile,
  "duel-arenas.json": duelArenasFile,
  "lod-settings.json": lodSettingsFile,
  "quests.json": questsFile,
  "music.json": musicFile,
  "vegetation.json": vegetationFile,
  "model-bounds.json": modelBoundsFile,
  "gathering/woodcutting.json": woodcuttingFile,
  "gathering/mining.json": miningFile,
  "gathering/fishing.json": fishingFile,
  "recipes/cooking.json": cookingFile,
  "recipes/smelting.json": smeltingFile,
  "recipes/smithing.json": smithingFile,
  "recipes/firemaking.json": firemakingFile,
  "recipes/crafting.json": craftingFile,
  "recipes/fletching.json": craftingFile,
  "recipes/runecrafting.json": runecraftingFile,
  "recipes/tanning.json": tanningFile,
};

export const KNOWN_MANIFESTS: readonly string[] = Object.keys(MANIFEST_SCHEMAS);

/** The spec's required set (development fallback): these four, and items in either layout. */
export const REQUIRED_MANIFESTS = ["npcs.json", "world-areas.json", "biomes.json", "stores.json"] as const;
export const REQUIRED_SPLIT_ITEMS = ["weapons", "tools", "resources", "food", "misc"].map((n) => `items/${n}.json`);

/** Which required files a set of present paths lacks (empty: complete). */
export function missingRequired(present: ReadonlySet<string>): string[] {
  const missing: string[] = REQUIRED_MANIFESTS.filter((f) => !present.has(f));
  const splitMissing = REQUIRED_SPLIT_ITEMS.filter((f) => !present.has(f));
  if (!present.has("items.json") && splitMissing.length > 0) {
    missing.push(`items.json (or ${splitMissing.join(", ")})`);
  }
  return missing;
}

/** Schema for a path: known files have their own; other `items/*.json` are item files. */
export function schemaFor(file: string): z.ZodType {
  return MANIFEST_SCHEMAS[file] ?? (/^items\/[^/]+\.json$/.test(file) ? itemsFile : anyJson);
}

/**
 * Served manifests (raw JSON, as a content host or `/manifests/` gives them) through their schemas,
 * so that a registry built from them has the defaults the server's has (a recipe's absent `tools` or
 * `consumables` is `[]`); a file that does not fit its schema is left out, as the server leaves it out.
 * For the browser client and the agent runtime, which build their registry from what the server serves.
 */
export function applySchemas(files: ReadonlyMap<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [file, json] of files) {
    const parsed = schemaFor(file).safeParse(json);
    if (parsed.success) out.set(file, parsed.data);
  }
  return out;
}

/** A safe relative manifest path: `name.json` or `dir/name.json`, no dot-segments or hidden files. */
export function isSafeManifestPath(file: string): boolean {
  const parts = file.split("/");
  return parts.length >= 1 && parts.length <= 3 && parts.every((p) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(p) && !p.includes("..")) && file.endsWith(".json");
}
