/**
 * What `availableGoals` (AgentService.ts) reads from the content alone, derived once per content
 * registry rather than at every goal choice of every agent: the placed resources, monsters and
 * stations, the stores' keepers and what they sell (tools, runes, weapons, armour, making supplies, food), the
 * recipes a `making` goal may offer. The content does not change under a running server (a reload
 * builds a new registry, which gets its own entry).
 */
import { EQUIPMENT_SLOTS } from "../game/clientEvents.ts";
import type { ContentRegistry, ResourceNode } from "../manifests/registry.ts";
import type { ProductionRecipe } from "../manifests/production.ts";

/** The kinds of making an agent's `making` goal covers (cooking and firemaking have goals of their own). */
export const MAKING_KINDS: ReadonlySet<string> = new Set(["smelting", "smithing", "crafting", "fletching", "runecrafting", "tanning"]);

/** The worn slots that hold armour (src/game/clientEvents.ts EQUIPMENT_SLOTS but the weapon, ammunition, cape and jewellery). */
export const ARMOUR_SLOTS: ReadonlySet<string> = new Set(EQUIPMENT_SLOTS.filter((s) => !["weapon", "arrows", "cape", "amulet", "ring"].includes(s)));

export interface GoalContent {
  /** Every gathering resource of the content. */
  nodes: ResourceNode[];
  /** Resource ids placed in some area. */
  placed: Set<string>;
  /** Monster ids spawned in some area (no repeats, in the areas' order). */
  mobs: string[];
  /** Logs a firemaking recipe burns; raw food a cooking recipe cooks. */
  logs: Set<string>;
  raw: Set<string>;
  /** Whether a bank is placed. */
  bank: boolean;
  /** The stores with a keeper placed. */
  keepers: Set<string>;
  /** Tools of gathering and of making, making consumables (thread) and every tier of tools.json. */
  tools: Set<string>;
  /** What the placed stores sell (with repeats, in the stores' order). */
  forSale: string[];
  /** Runes sold there. */
  runes: string[];
  /** Weapons sold there that are neither tools nor staves (the agent's holding is checked per character). */
  weapons: string[];
  /** Armour sold there: worn items of a slot but the weapon's and the ammunition's (a helm, a shield, a platebody, leather). */
  armour: string[];
  /** The inputs of supported making recipes (not runecrafting's) sold there that are no tool nor rune. */
  supplies: string[];
  /** Food sold there: items that heal (bread, cooked meat, shrimp). */
  food: string[];
  /** Recipes of MAKING_KINDS, supported, whose station (if any) is placed. */
  recipes: ProductionRecipe[];
  /** Area ids (the explore goal's targets). */
  areas: string[];
}

/** Builds the content sets of `availableGoals` (uncached: `goalContent` is the cached one). */
export function deriveGoalContent(content: ContentRegistry): GoalContent {
  const nodes = [...content.resources.values()];
  const keepers = new Set(content.areas.flatMap((a) => a.npcs.flatMap((n) => (n.storeId !== undefined ? [n.storeId] : []))));
  const tools = new Set([
    ...nodes.map((n) => n.toolRequired),
    ...[...content.production.values()].flatMap((r) => (r.unsupported === undefined ? [...r.tools, ...r.consumables.map((c) => c.itemId)] : [])),
    ...content.tools.map((t) => t.itemId),
  ]);
  const forSale = [...content.stores.values()].filter((s) => keepers.has(s.id)).flatMap((s) => s.items.map((i) => i.itemId));
  const runes = [...new Set(forSale.filter((id) => content.magic.runes.has(id)))];
  const weapons = [...new Set(forSale.filter((id) => content.item(id)?.equipSlot === "weapon" && !tools.has(id) && !content.magic.staves.has(id)))];
  const armour = [...new Set(forSale.filter((id) => ARMOUR_SLOTS.has(content.item(id)?.equipSlot ?? "") && !tools.has(id)))];
  const made = new Set(
    [...content.production.values()].flatMap((r) => (r.unsupported === undefined && r.skill !== "runecrafting" ? r.inputs.map((i) => i.itemId) : [])),
  );
  const stations = new Set(content.areas.flatMap((a) => a.stations.map((s) => s.type)));
  return {
    nodes,
    placed: new Set(content.areas.flatMap((a) => a.resources.map((r) => r.resourceId))),
    mobs: [...new Set(content.areas.flatMap((a) => a.mobSpawns.map((m) => m.mobId)))],
    logs: new Set(content.recipes.firemaking.map((r) => r.log)),
    raw: new Set(content.recipes.cooking.map((r) => r.raw)),
    bank: content.areas.some((a) => a.npcs.some((n) => n.type === "bank")),
    keepers,
    tools,
    forSale,
    runes,
    weapons,
    armour,
    supplies: [...new Set(forSale.filter((id) => made.has(id) && !tools.has(id) && !runes.includes(id)))],
    food: [...new Set(forSale.filter((id) => (content.item(id)?.healAmount ?? 0) > 0))],
    recipes: [...content.production.values()].filter(
      (r) => MAKING_KINDS.has(r.kind) && r.unsupported === undefined && (r.station === null || stations.has(r.station)),
    ),
    areas: content.areas.map((a) => a.id),
  };
}

const cache = new WeakMap<ContentRegistry, GoalContent>();
/** The content sets of `availableGoals` for this registry, derived at its first use and kept with it. */
export function goalContent(content: ContentRegistry): GoalContent {
  let sets = cache.get(content);
  if (sets === undefined) {
    sets = deriveGoalContent(content);
    cache.set(content, sets);
  }
  return sets;
}
