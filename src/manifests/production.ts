/**
 * The production catalogue: every recipe of every kind the content defines (`recipes/*.json`), in
 * one shape, each with a stable id, whether or not the server can support it. The game's
 * production engine (src/game/production.ts) reads only this.
 *
 * Ids: `<skill>:<output>` (`smelting` for smelting recipes, whose xp is Smithing's; `cooking:`
 * the cooked item, `firemaking:` the log, `runecrafting:` the rune, `tanning:` the leather). When
 * a kind has several recipes of one output, the first in file order keeps the plain id and the
 * others add their first input (`fletching:arrow_shaft:oak_logs`), then a number if that is still
 * taken: ids stay the same as long as the content's order does.
 *
 * Stations (docs/content.md): a recipe's `station` names a station type of stations.json
 * (`none` or absent: anywhere). Smelting needs a `furnace`, smithing an `anvil`, cooking a
 * `range` (or a lit fire), tanning a `tanner`, and the runecrafting recipe of rune type R a station
 * of type `R_altar` (`air_altar`). Smithing also needs a `hammer` (a kept tool) when the content
 * defines that item, as in the genre.
 *
 * A recipe the server cannot support (an item it names is not defined, or its station type is not
 * in stations.json) stays in the catalogue with `unsupported` set, so the game refuses it by name
 * (UNSUPPORTED_RECIPE); each is reported once, one line, as any dangling reference is.
 */
import type { CookingRecipe, CraftingRecipe, FiremakingRecipe, SmeltingRecipe, SmithingRecipe } from "./schemas/recipes.ts";

export const PRODUCTION_KINDS = ["cooking", "firemaking", "smelting", "smithing", "crafting", "fletching", "runecrafting", "tanning"] as const;
export type ProductionKind = (typeof PRODUCTION_KINDS)[number];

/** Ticks of a runecrafting action (every essence carried at once) and of tanning one hide: neither kind gives them. */
export const RUNECRAFTING_TICKS = 3;
export const TANNING_TICKS = 1;
/** The genre's smithing hammer: required at the anvil when the content defines it. */
export const HAMMER = "hammer";

export interface ItemAmount {
  itemId: string;
  quantity: number;
}

export interface ProductionRecipe {
  id: string;
  kind: ProductionKind;
  /** The skill whose level it needs and which gains its xp; null for tanning (no skill, no xp). */
  skill: "cooking" | "firemaking" | "smithing" | "crafting" | "fletching" | "runecrafting" | null;
  name: string;
  /** What one make gives (null for firemaking: a fire under the player). */
  output: string | null;
  outputQuantity: number;
  inputs: ItemAmount[];
  /** Kept, never consumed. */
  tools: string[];
  /** Used up one item every `uses` makes (src/game/production.ts). */
  consumables: { itemId: string; uses: number }[];
  level: number;
  /** Per make (runecrafting: per essence). */
  xp: number;
  ticks: number;
  /** A station type of stations.json, or null: anywhere. */
  station: string | null;
  /** Smelting's chance to get the bar (the inputs go either way). */
  successRate: number;
  /** Coins per make (tanning). */
  coins: number;
  /** Runecrafting: the essence taken (every one carried), and the levels at which each gives one more rune. */
  essence?: { types: string[]; multiRuneLevels: number[] } | undefined;
  /** Cooking: what a burn gives. */
  burnt?: string | undefined;
  /** Where the content defines it. */
  source: { file: string; index: number };
  /** Why the server cannot support it (undefined: it can). */
  unsupported?: string | undefined;
}

interface RunecraftingDef {
  runeType: string;
  runeItemId: string;
  levelRequired: number;
  xpPerEssence: number;
  essenceTypes: string[];
  multiRuneLevels: number[];
}
interface TanningDef {
  input: string;
  output: string;
  cost: number;
  name?: string | undefined;
}

type Draft = Omit<ProductionRecipe, "id" | "name" | "unsupported">;

const amount = (l: { item: string; amount: number }[]): ItemAmount[] => l.map((x) => ({ itemId: x.item, quantity: x.amount }));
const noStation = (s: string | undefined): string | null => (s === undefined || s === "" || s === "none" ? null : s);

/**
 * Builds the catalogue from schema-valid data; `report` gets one line per unsupported recipe.
 * `itemName` is the display name of a defined item (undefined: not defined).
 */
export function buildProduction(
  get: <T>(file: string) => T | undefined,
  itemName: (id: string) => string | undefined,
  stationTypes: ReadonlySet<string>,
  report: (file: string, path: string, message: string) => void,
): ProductionRecipe[] {
  const drafts: Draft[] = [];
  const list = <T>(file: string) => get<{ recipes: T[] }>(file)?.recipes ?? [];
  const base = { tools: [], consumables: [], successRate: 1, coins: 0, outputQuantity: 1 };

  list<CookingRecipe>("recipes/cooking.json").forEach((r, index) =>
    drafts.push({
      ...base,
      kind: "cooking",
      skill: "cooking",
      output: r.cooked,
      inputs: [{ itemId: r.raw, quantity: 1 }],
      level: r.level,
      xp: r.xp,
      ticks: r.ticks,
      station: "range",
      burnt: r.burnt,
      source: { file: "recipes/cooking.json", index },
    }),
  );
  list<FiremakingRecipe>("recipes/firemaking.json").forEach((r, index) =>
    drafts.push({
      ...base,
      kind: "firemaking",
      skill: "firemaking",
      output: null,
      inputs: [{ itemId: r.log, quantity: 1 }],
      tools: ["tinderbox"],
      level: r.level,
      xp: r.xp,
      ticks: r.ticks,
      station: null,
      source: { file: "recipes/firemaking.json", index },
    }),
  );
  list<SmeltingRecipe>("recipes/smelting.json").forEach((r, index) =>
    drafts.push({
      ...base,
      kind: "smelting",
      skill: "smithing",
      output: r.output,
      inputs: amount(r.inputs),
      level: r.level,
      xp: r.xp,
      ticks: r.ticks,
      station: "furnace",
      successRate: r.successRate,
      source: { file: "recipes/smelting.json", index },
    }),
  );
  const hammer = itemName(HAMMER) !== undefined ? [HAMMER] : [];
  list<SmithingRecipe>("recipes/smithing.json").forEach((r, index) =>
    drafts.push({
      ...base,
      kind: "smithing",
      skill: "smithing",
      output: r.output,
      outputQuantity: r.outputQuantity ?? 1,
      inputs: [{ itemId: r.bar, quantity: r.barsRequired }],
      tools: hammer,
      level: r.level,
      xp: r.xp,
      ticks: r.ticks,
      station: "anvil",
      source: { file: "recipes/smithing.json", index },
    }),
  );
  for (const file of ["recipes/crafting.json", "recipes/fletching.json"] as const) {
    list<CraftingRecipe>(file).forEach((r, index) => {
      const skill = r.skill === "fletching" || (r.skill === undefined && file === "recipes/fletching.json") ? "fletching" : "crafting";
      drafts.push({
        ...base,
        kind: skill,
        skill,
        output: r.output,
        outputQuantity: r.outputQuantity ?? 1,
        inputs: amount(r.inputs),
        tools: [...r.tools],
        consumables: r.consumables.map((c) => ({ itemId: c.item, uses: c.uses })),
        level: r.level,
        xp: r.xp,
        ticks: r.ticks,
        station: noStation(r.station),
        source: { file, index },
      });
    });
  }
  list<RunecraftingDef>("recipes/runecrafting.json").forEach((r, index) =>
    drafts.push({
      ...base,
      kind: "runecrafting",
      skill: "runecrafting",
      output: r.runeItemId,
      inputs: [],
      level: r.levelRequired,
      xp: r.xpPerEssence,
      ticks: RUNECRAFTING_TICKS,
      station: `${r.runeType}_altar`,
      essence: { types: [...r.essenceTypes], multiRuneLevels: [...r.multiRuneLevels].sort((a, b) => a - b) },
      source: { file: "recipes/runecrafting.json", index },
    }),
  );
  list<TanningDef>("recipes/tanning.json").forEach((r, index) =>
    drafts.push({
      ...base,
      kind: "tanning",
      skill: null,
      output: r.output,
      inputs: [{ itemId: r.input, quantity: 1 }],
      level: 1,
      xp: 0,
      ticks: TANNING_TICKS,
      station: "tanner",
      coins: r.cost,
      source: { file: "recipes/tanning.json", index },
    }),
  );

  const taken = new Set<string>();
  const out: ProductionRecipe[] = [];
  for (const d of drafts) {
    const prefix = d.kind === "smelting" ? "smelting" : d.kind;
    const key = d.kind === "firemaking" ? d.inputs[0]!.itemId : d.output!;
    let id = `${prefix}:${key}`;
    if (taken.has(id) && d.inputs.length > 0) id = `${id}:${d.inputs[0]!.itemId}`;
    for (let n = 2; taken.has(id); n++) id = `${prefix}:${key}:${n}`;
    taken.add(id);
    const unsupported = unsupportedReason(d, itemName, stationTypes);
    if (unsupported !== undefined) report(d.source.file, `$.recipes[${d.source.index}]`, `${unsupported}: recipe "${id}" cannot be made`);
    const name = d.kind === "firemaking" ? `Burn ${itemName(key) ?? key}` : (itemName(key) ?? key);
    out.push({ ...d, id, name, ...(unsupported !== undefined ? { unsupported } : {}) });
  }
  return out;
}

/**
 * What keeps a recipe from being made: an item it names that is not defined, or a station type
 * stations.json does not declare. A runecrafting recipe needs its rune and at least one of its
 * essence types (an undefined one is left out). Cooking can always use a fire, so a missing
 * `range` type does not stop it.
 */
function unsupportedReason(d: Draft, itemName: (id: string) => string | undefined, stationTypes: ReadonlySet<string>): string | undefined {
  const named = [
    ...(d.output !== null ? [d.output] : []),
    ...d.inputs.map((i) => i.itemId),
    ...d.tools,
    ...d.consumables.map((c) => c.itemId),
    ...(d.burnt !== undefined ? [d.burnt] : []),
  ];
  const missing = named.find((id) => itemName(id) === undefined);
  if (missing !== undefined) return `unknown item "${missing}"`;
  if (d.essence !== undefined) {
    const known = d.essence.types.filter((t) => itemName(t) !== undefined);
    if (known.length === 0) return `unknown item "${d.essence.types[0]}" (no essence type of it is defined)`;
    d.essence.types = known;
  }
  // Cooking needs no station of its own: a lit fire does as well as a range.
  if (d.station !== null && d.kind !== "cooking" && !stationTypes.has(d.station)) return `unknown station "${d.station}" (no such type in stations.json)`;
  return undefined;
}
