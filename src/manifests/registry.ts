/**
 * The typed, in-memory content registry the rest of the server reads. It is built from schema-valid
 * manifests; cross-references are checked while building (every item id used by stores, drops,
 * gathering yields and tools, recipes, the starter kit; every store, mob and resource an area
 * places). A dangling reference is reported and the entry that holds it is left out, so the game
 * never sees it.
 */
import type { ItemDef } from "./schemas/items.ts";
import type { DropEntry, NpcDef } from "./schemas/npcs.ts";
import { DROP_TIERS } from "./schemas/npcs.ts";
import type { ResourceNodeDef } from "./schemas/gathering.ts";
import type { CookingRecipe, CraftingRecipe, FiremakingRecipe, SmeltingRecipe, SmithingRecipe } from "./schemas/recipes.ts";
import type { AreaDef, GameSettings } from "./schemas/world.ts";
import type { PrayerDef, SkillUnlock, StoreDef, ToolDef } from "./schemas/misc.ts";
import { ITEM_FILES } from "./catalog.ts";
import { buildMagic, type MagicContent } from "./magicContent.ts";
import { buildQuests, type QuestContent } from "./questContent.ts";
import type { QuestDef } from "./schemas/quests.ts";
import { buildPlaces, type PlacesContent } from "./placesContent.ts";
import type { Bounds } from "./bounds.ts";
import type { WorldObjectsFile } from "./schemas/places.ts";
import type { ManifestProblem } from "./validate.ts";
import { buildProduction, type ProductionRecipe } from "./production.ts";

export type { Bounds } from "./bounds.ts";

export interface CharacterTemplate {
  id: string;
  name: string;
  description: string;
  starterKit: { itemId: string; quantity: number }[];
}

export interface WorldSettings {
  spawn: { x: number; y: number; z: number };
  starterKit: { itemId: string; quantity: number }[];
  /** The default template ("adventurer", the starter kit) first, then the content's. */
  templates: CharacterTemplate[];
  /** Extent of the map (inclusive tiles): the surface and every underground area. */
  bounds: Bounds;
  /**
   * The surface's extent: the declared bounds (else the surface areas'). Tiles of `bounds` outside
   * it and outside every underground area are solid rock (src/game/world/setup.ts).
   */
  surface: Bounds;
  /** Tiles no one can walk on (inclusive rectangles). */
  blocked: Bounds[];
}

export type PlacedArea = AreaDef & { group: string };
export type GatheringSkill = "woodcutting" | "mining" | "fishing";
export type ResourceNode = ResourceNodeDef & { gathering: GatheringSkill };

export interface StationDef {
  type: string;
  name: string;
  examine?: string | undefined;
}

export interface Recipes {
  cooking: CookingRecipe[];
  smelting: SmeltingRecipe[];
  smithing: SmithingRecipe[];
  firemaking: FiremakingRecipe[];
  crafting: CraftingRecipe[];
  fletching: CraftingRecipe[];
}

/** The default spawn (PROTOCOL.md: tile 0,0 at height 10). */
export const DEFAULT_SPAWN = { x: 0, y: 10, z: 0 };
/** World extent around the spawn when the content declares none. */
export const DEFAULT_HALF_EXTENT = 100;

export class ContentRegistry {
  readonly files: readonly string[];
  readonly items: ReadonlyMap<string, ItemDef>;
  readonly npcs: ReadonlyMap<string, NpcDef>;
  readonly areas: readonly PlacedArea[];
  readonly resources: ReadonlyMap<string, ResourceNode>;
  readonly recipes: Readonly<Recipes>;
  readonly stores: ReadonlyMap<string, StoreDef>;
  readonly stations: readonly StationDef[];
  readonly tools: readonly ToolDef[];
  readonly skillUnlocks: Readonly<Record<string, readonly SkillUnlock[]>>;
  /** `prayers.json`, in the content's order (src/game/prayer.ts). */
  readonly prayers: ReadonlyMap<string, PrayerDef>;
  readonly world: Readonly<WorldSettings>;
  /** Runes, elemental staves and combat spells (magicContent.ts); empty without `runes.json` and `combat-spells.json`. */
  readonly magic: MagicContent;
  /** Every recipe of every kind by its id (production.ts), the unsupported ones marked. */
  readonly production: ReadonlyMap<string, ProductionRecipe>;
  /** Quests and NPC dialogue trees (questContent.ts); empty without `quests.json` and dialogue. */
  readonly quests: QuestContent;
  /** Doors, ladders and stairs, agility obstacles (`world-objects.json`; placesContent.ts). */
  readonly places: PlacesContent;

  constructor(parts: Omit<ContentRegistry, "item" | "hasItem">) {
    this.files = parts.files;
    this.items = parts.items;
    this.npcs = parts.npcs;
    this.areas = parts.areas;
    this.resources = parts.resources;
    this.recipes = parts.recipes;
    this.stores = parts.stores;
    this.stations = parts.stations;
    this.tools = parts.tools;
    this.skillUnlocks = parts.skillUnlocks;
    this.prayers = parts.prayers;
    this.world = parts.world;
    this.magic = parts.magic;
    this.production = parts.production;
    this.quests = parts.quests;
    this.places = parts.places;
  }

  item(id: string): ItemDef | undefined {
    return this.items.get(id);
  }

  hasItem(id: string): boolean {
    return this.items.has(id);
  }
}

type Get = <T>(file: string) => T | undefined;

/** Builds the registry from schema-valid data; returns the reference problems it found. */
export function buildRegistry(data: ReadonlyMap<string, unknown>): { registry: ContentRegistry; problems: ManifestProblem[] } {
  const get: Get = <T>(file: string) => data.get(file) as T | undefined;
  const problems: ManifestProblem[] = [];
  const report = (file: string, path: string, message: string) => problems.push({ file, path, message });
  /** Keeps an entry when `ok`; otherwise reports it (and the caller drops it). */
  const check = (ok: boolean, file: string, path: string, message: string): boolean => {
    if (!ok) report(file, path, message);
    return ok;
  };

  // Items: `items.json` and every `items/*.json`; an id defined twice keeps its first definition.
  const items = new Map<string, ItemDef>();
  const itemFiles = [...data.keys()].filter((f) => f === "items.json" || /^items\/[^/]+\.json$/.test(f));
  itemFiles.sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  for (const file of itemFiles) {
    get<ItemDef[]>(file)!.forEach((item, i) => {
      if (items.has(item.id)) report(file, `$[${i}].id`, `duplicate item id "${item.id}"`);
      else items.set(item.id, item);
    });
  }
  const known = (id: string) => items.has(id);
  const unknownItem = (id: string) => `unknown item "${id}"`;

  // NPCs and their drop tables.
  const npcs = new Map<string, NpcDef>();
  get<NpcDef[]>("npcs.json")?.forEach((npc, i) => {
    if (npcs.has(npc.id)) {
      report("npcs.json", `$[${i}].id`, `duplicate NPC id "${npc.id}"`);
      return;
    }
    if (npc.drops) {
      const drops = npc.drops;
      for (const tier of DROP_TIERS) {
        drops[tier] = drops[tier].filter((d: DropEntry, j: number) => {
          if (known(d.itemId)) return true;
          report("npcs.json", `$[${i}].drops.${tier}[${j}].itemId`, unknownItem(d.itemId));
          return false;
        });
      }
      if (drops.defaultDrop && !known(drops.defaultDrop.itemId)) {
        report("npcs.json", `$[${i}].drops.defaultDrop.itemId`, unknownItem(drops.defaultDrop.itemId));
        drops.defaultDrop = { ...drops.defaultDrop, enabled: false };
      }
    }
    npcs.set(npc.id, npc);
  });

  // Gathering nodes: yields and consumables must be items; the tool an item or a tool family.
  const toolFamilyExists = (tool: string) => known(tool) || [...items.keys()].some((id) => id.endsWith(`_${tool}`));
  const resources = new Map<string, ResourceNode>();
  for (const [file, key, gathering] of [
    ["gathering/woodcutting.json", "trees", "woodcutting"],
    ["gathering/mining.json", "rocks", "mining"],
    ["gathering/fishing.json", "spots", "fishing"],
  ] as const) {
    const nodes = get<Record<string, ResourceNodeDef[]>>(file)?.[key] ?? [];
    nodes.forEach((node, i) => {
      const at = `$.${key}[${i}]`;
      if (!check(!resources.has(node.id), file, `${at}.id`, `duplicate resource id "${node.id}"`)) return;
      if (
        !check(
          toolFamilyExists(node.toolRequired),
          file,
          `${at}.toolRequired`,
          `no item is or ends in "${node.toolRequired}": the node could never be gathered`,
        )
      )
        return;
      if (node.secondaryRequired !== undefined && !check(known(node.secondaryRequired), file, `${at}.secondaryRequired`, unknownItem(node.secondaryRequired)))
        return;
      const yields = node.harvestYield.filter(
        (y, j) =>
          check(known(y.itemId), file, `${at}.harvestYield[${j}].itemId`, unknownItem(y.itemId)) &&
          (y.secondaryRequired === undefined ||
            check(known(y.secondaryRequired), file, `${at}.harvestYield[${j}].secondaryRequired`, unknownItem(y.secondaryRequired))),
      );
      if (yields.length > 0) resources.set(node.id, { ...node, harvestYield: yields, gathering });
    });
  }

  // Recipes: every item they name must exist (the production catalogue below reports the others, one line each).
  const recipeList = <T>(file: string, ids: (r: T) => [string, string][]): T[] => {
    const list = get<{ recipes: T[] }>(file)?.recipes ?? [];
    return list.filter((r) => ids(r).every(([, id]) => known(id)));
  };
  const craftIds = (r: CraftingRecipe): [string, string][] => [
    ["output", r.output],
    ...r.inputs.map((x, j): [string, string] => [`inputs[${j}].item`, x.item]),
    ...r.tools.map((t, j): [string, string] => [`tools[${j}]`, t]),
    ...r.consumables.map((c, j): [string, string] => [`consumables[${j}].item`, c.item]),
  ];
  const recipes: Recipes = {
    cooking: recipeList<CookingRecipe>("recipes/cooking.json", (r) => [
      ["raw", r.raw],
      ["cooked", r.cooked],
      ...(r.burnt !== undefined ? ([["burnt", r.burnt]] as [string, string][]) : []),
    ]),
    smelting: recipeList<SmeltingRecipe>("recipes/smelting.json", (r) => [
      ["output", r.output],
      ...r.inputs.map((x, j): [string, string] => [`inputs[${j}].item`, x.item]),
    ]),
    smithing: recipeList<SmithingRecipe>("recipes/smithing.json", (r) => [
      ["output", r.output],
      ["bar", r.bar],
    ]),
    firemaking: recipeList<FiremakingRecipe>("recipes/firemaking.json", (r) => [["log", r.log]]),
    crafting: recipeList<CraftingRecipe>("recipes/crafting.json", craftIds),
    fletching: recipeList<CraftingRecipe>("recipes/fletching.json", craftIds),
  };

  // Stores: only items that exist are sold.
  const stores = new Map<string, StoreDef>();
  get<StoreDef[]>("stores.json")?.forEach((store, i) => {
    if (!check(!stores.has(store.id), "stores.json", `$[${i}].id`, `duplicate store id "${store.id}"`)) return;
    const stock = store.items.filter((s, j) => check(known(s.itemId), "stores.json", `$[${i}].items[${j}].itemId`, unknownItem(s.itemId)));
    stores.set(store.id, { ...store, items: stock });
  });

  // Areas: the stores, mobs and resources they place must exist.
  const areas: PlacedArea[] = [];
  const groups = get<Record<string, Record<string, AreaDef>>>("world-areas.json") ?? {};
  for (const [group, byId] of Object.entries(groups)) {
    for (const [key, area] of Object.entries(byId)) {
      const at = `$.${group}.${key}`;
      areas.push({
        ...area,
        group,
        npcs: area.npcs.filter(
          (n, j) => n.storeId === undefined || check(stores.has(n.storeId), "world-areas.json", `${at}.npcs[${j}].storeId`, `unknown store "${n.storeId}"`),
        ),
        mobSpawns: area.mobSpawns.filter((m, j) => check(npcs.has(m.mobId), "world-areas.json", `${at}.mobSpawns[${j}].mobId`, `unknown NPC "${m.mobId}"`)),
        resources: area.resources.filter((r, j) =>
          check(resources.has(r.resourceId), "world-areas.json", `${at}.resources[${j}].resourceId`, `unknown resource "${r.resourceId}"`),
        ),
      });
    }
  }

  // A tool needs the higher of its own level and its tier's in tier-requirements.json (`tools.<tier>.<skill>`).
  const tierLevels = get<{ tools?: Record<string, Record<string, number>> }>("tier-requirements.json")?.tools ?? {};
  const tools = (get<ToolDef[]>("tools.json") ?? [])
    .filter((t, i) => check(known(t.itemId), "tools.json", `$[${i}].itemId`, unknownItem(t.itemId)))
    .map((t) => ({ ...t, levelRequired: Math.max(t.levelRequired, (t.tier !== undefined ? tierLevels[t.tier]?.[t.skill] : undefined) ?? 1) }));
  get<{ arrows: { id: string }[] }>("ammunition.json")?.arrows.forEach((a, i) => check(known(a.id), "ammunition.json", `$.arrows[${i}].id`, unknownItem(a.id)));

  const stations: StationDef[] = (get<{ stations: StationDef[] }>("stations.json")?.stations ?? []).map((s) => ({
    type: s.type,
    name: s.name,
    examine: s.examine,
  }));
  const production = new Map<string, ProductionRecipe>();
  for (const r of buildProduction(get, (id) => items.get(id)?.name, new Set(stations.map((s) => s.type)), report)) production.set(r.id, r);

  // Skill unlocks, sorted by level (stable, so equal levels keep the file's order).
  const unlockFile = get<{ skills: Record<string, SkillUnlock[]> }>("skill-unlocks.json");
  const skillUnlocks: Record<string, SkillUnlock[]> = {};
  for (const [skill, list] of Object.entries(unlockFile?.skills ?? {})) {
    skillUnlocks[skill] = [...list].sort((a, b) => a.level - b.level).map((u) => ({ level: u.level, description: u.description, type: u.type }));
  }

  const game = get<{ game?: GameSettings }>("world-config.json")?.game;
  const starterKit = (game?.starterKit ?? []).filter((s, i) =>
    check(known(s.itemId), "world-config.json", `$.game.starterKit[${i}].itemId`, unknownItem(s.itemId)),
  );
  const templates: CharacterTemplate[] = [
    {
      id: "adventurer",
      name: "Adventurer",
      description: "The standard starter kit.",
      starterKit: starterKit.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
    },
  ];
  (game?.templates ?? []).forEach((t, i) => {
    const kit = t.starterKit.filter((s, j) =>
      check(known(s.itemId), "world-config.json", `$.game.templates[${i}].starterKit[${j}].itemId`, unknownItem(s.itemId)),
    );
    if (check(!templates.some((x) => x.id === t.id), "world-config.json", `$.game.templates[${i}].id`, `duplicate template id "${t.id}"`)) {
      templates.push({ id: t.id, name: t.name, description: t.description, starterKit: kit.map((s) => ({ itemId: s.itemId, quantity: s.quantity })) });
    }
  });
  const spawn = game?.spawn ? { x: game.spawn.x, y: game.spawn.y ?? DEFAULT_SPAWN.y, z: game.spawn.z } : DEFAULT_SPAWN;
  const surface = game?.bounds
    ? pickBounds(game.bounds)
    : unionBounds(
        areas.filter((a) => !a.underground).map((a) => a.bounds),
        spawn,
      );
  const world: WorldSettings = {
    spawn,
    starterKit: starterKit.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
    templates,
    bounds: unionBounds([surface, ...areas.filter((a) => a.underground).map((a) => pickBounds(a.bounds))], spawn),
    surface,
    blocked: (game?.blocked ?? []).map(pickBounds),
  };

  const prayers = new Map<string, PrayerDef>();
  get<{ prayers: PrayerDef[] }>("prayers.json")?.prayers.forEach((p, i) => {
    if (check(!prayers.has(p.id), "prayers.json", `$.prayers[${i}].id`, `duplicate prayer id "${p.id}"`)) prayers.set(p.id, p);
  });

  const places = buildPlaces(
    get<WorldObjectsFile>("world-objects.json"),
    world.bounds,
    new Set(areas.flatMap((a) => a.stations.flatMap((s) => (s.id !== undefined ? [s.id] : [])))),
    check,
  );
  const registry = new ContentRegistry({
    files: [...data.keys()].sort(),
    items,
    npcs,
    areas,
    resources,
    recipes,
    stores,
    stations,
    tools,
    skillUnlocks,
    prayers,
    world,
    magic: buildMagic(get("runes.json"), get("combat-spells.json"), known, check),
    production,
    quests: buildQuests(get<Record<string, QuestDef>>("quests.json"), npcs, new Set(areas.flatMap((a) => a.npcs.map((n) => n.id))), known, check, {
      areas: new Set(areas.map((a) => a.id)),
      places: new Set([...places.doors, ...places.ladders, ...places.obstacles].map((p) => p.id)),
    }),
    places,
  });
  return { registry, problems };
}

/** `items.json` first, then the split files in the spec's order, then any other. */
function order(file: string): number {
  if (file === "items.json") return -1;
  const i = ITEM_FILES.indexOf(file);
  return i < 0 ? ITEM_FILES.length : i;
}

function pickBounds(b: Bounds): Bounds {
  return { minX: b.minX, maxX: b.maxX, minZ: b.minZ, maxZ: b.maxZ };
}

function unionBounds(list: Bounds[], spawn: { x: number; z: number }): Bounds {
  if (list.length === 0) {
    return {
      minX: spawn.x - DEFAULT_HALF_EXTENT,
      maxX: spawn.x + DEFAULT_HALF_EXTENT,
      minZ: spawn.z - DEFAULT_HALF_EXTENT,
      maxZ: spawn.z + DEFAULT_HALF_EXTENT,
    };
  }
  return {
    minX: Math.min(...list.map((b) => b.minX)),
    maxX: Math.max(...list.map((b) => b.maxX)),
    minZ: Math.min(...list.map((b) => b.minZ)),
    maxZ: Math.max(...list.map((b) => b.maxZ)),
  };
}
