/**
 * The default world's content lets a new character train every skill but Agility from level 1
 * (issue #47): every item a level-1 way needs can be had (starter kit, a store, a placed monster's
 * drop, a placed resource node, or made from such things), and every station a recipe names is a
 * type of stations.json placed somewhere on the map. Content only: the rules that use it are tested
 * in test/gameplay.
 */
import assert from "node:assert/strict";
import { pino } from "pino";
import { loadContent } from "../../src/manifests/loader.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import type { CraftingRecipe } from "../../src/manifests/schemas/recipes.ts";
import { readManifestDir } from "../../src/manifests/validate.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { BUNDLED_MANIFESTS } from "../support/world.ts";

interface RunecraftingRecipe {
  runeType: string;
  runeItemId: string;
  levelRequired: number;
  xpPerEssence: number;
  essenceTypes: string[];
}
interface TanningRecipe {
  input: string;
  output: string;
  cost: number;
}

/** What a character can come by in the world, without regard to levels: the closure of the sources. */
function obtainable(content: ContentRegistry, runecrafting: RunecraftingRecipe[], tanning: TanningRecipe[], placedStations: Set<string>): Set<string> {
  const have = new Set<string>(content.world.starterKit.map((s) => s.itemId));
  const placedKeepers = new Set(content.areas.flatMap((a) => a.npcs.map((n) => n.storeId)).filter((s) => s !== undefined));
  for (const id of placedKeepers) for (const s of content.stores.get(id)?.items ?? []) have.add(s.itemId);
  for (const mob of new Set(content.areas.flatMap((a) => a.mobSpawns.map((m) => m.mobId)))) {
    const drops = content.npcs.get(mob)?.drops;
    if (drops?.defaultDrop?.enabled) have.add(drops.defaultDrop.itemId);
    for (const tier of ["always", "common", "uncommon", "rare", "veryRare"] as const) for (const d of drops?.[tier] ?? []) have.add(d.itemId);
  }
  const placedNodes = new Set(content.areas.flatMap((a) => a.resources.map((r) => r.resourceId)));
  const toolFor = (skill: string) => content.tools.filter((t) => t.skill === skill).map((t) => t.itemId);
  const station = (s: string | undefined) => s === undefined || s === "none" || placedStations.has(s);
  const all = (ids: string[]) => ids.every((id) => have.has(id));
  for (let grew = true; grew;) {
    const before = have.size;
    for (const id of placedNodes) {
      const node = content.resources.get(id)!;
      const tools = [node.toolRequired, ...toolFor(node.harvestSkill)];
      if (!tools.some((t) => have.has(t))) continue;
      for (const y of node.harvestYield) if (y.secondaryRequired === undefined || have.has(y.secondaryRequired)) have.add(y.itemId);
    }
    const { cooking, smelting, smithing, firemaking, crafting, fletching } = content.recipes;
    for (const r of cooking) if (have.has(r.raw) && (have.has("tinderbox") || placedStations.has("range"))) have.add(r.cooked);
    for (const r of firemaking) if (have.has(r.log) && have.has("tinderbox")) have.add("ashes");
    for (const r of smelting) if (all(r.inputs.map((i) => i.item)) && placedStations.has("furnace")) have.add(r.output);
    for (const r of smithing) if (have.has(r.bar) && have.has("hammer") && placedStations.has("anvil")) have.add(r.output);
    for (const r of [...crafting, ...fletching] as CraftingRecipe[]) {
      if (all([...r.inputs.map((i) => i.item), ...r.tools, ...r.consumables.map((c) => c.item)]) && station(r.station)) have.add(r.output);
    }
    for (const r of runecrafting) if (r.essenceTypes.some((e) => have.has(e)) && placedStations.has(`${r.runeType}_altar`)) have.add(r.runeItemId);
    for (const r of tanning) if (have.has(r.input) && (r.cost === 0 || have.has("coins")) && placedStations.has("tanner")) have.add(r.output);
    grew = have.size > before;
  }
  return have;
}

describe("the default world trains every skill but Agility from level 1", () => {
  let content: ContentRegistry;
  let runecrafting: RunecraftingRecipe[];
  let tanning: TanningRecipe[];
  let placedStations: Set<string>;
  let have: Set<string>;
  before(async () => {
    content = (
      await loadContent({
        dir: BUNDLED_MANIFESTS,
        cdnUrl: "http://unused.invalid",
        fallbackCdnUrl: undefined,
        alwaysFetch: false,
        skip: false,
        strictReferences: true,
        logger: pino({ level: "silent" }),
      })
    ).registry;
    const parsed = readManifestDir(BUNDLED_MANIFESTS);
    assert.deepEqual(parsed.problems, []);
    runecrafting = (parsed.data.get("recipes/runecrafting.json") as { recipes: RunecraftingRecipe[] }).recipes;
    tanning = (parsed.data.get("recipes/tanning.json") as { recipes: TanningRecipe[] }).recipes;
    placedStations = new Set(content.areas.flatMap((a) => a.stations.map((s) => s.type)));
    have = obtainable(content, runecrafting, tanning, placedStations);
  });

  it("names only items that exist and station types that stations.json defines and the map places, in every recipe", () => {
    const defined = new Set(content.stations.map((s) => s.type));
    for (const type of placedStations) assert.ok(defined.has(type), `placed station type ${type} is defined`);
    const { crafting, fletching } = content.recipes;
    for (const r of [...crafting, ...fletching]) {
      if (r.station !== undefined && r.station !== "none") assert.ok(placedStations.has(r.station), `${r.output}: station ${r.station}`);
    }
    for (const r of fletching) assert.equal(r.skill, "fletching", `${r.output} is a fletching recipe`);
    for (const r of runecrafting) {
      assert.ok(content.hasItem(r.runeItemId), r.runeItemId);
      for (const e of r.essenceTypes) assert.ok(content.hasItem(e), e);
      assert.ok(placedStations.has(`${r.runeType}_altar`), `an ${r.runeType}_altar is placed`);
    }
    for (const r of tanning) assert.ok(content.hasItem(r.input) && content.hasItem(r.output), `${r.input} → ${r.output}`);
    if (tanning.length > 0) assert.ok(placedStations.has("tanner"), "a tanner is placed");
    for (const s of content.stations) assert.ok(s.name.length > 0 && (s.examine ?? "").length > 0, `station ${s.type} has a name and an examine text`);
  });

  it("has a few recipes of each kind, starting at level 1", () => {
    const { cooking, smelting, smithing, firemaking, crafting, fletching } = content.recipes;
    const levels: Record<string, number[]> = {
      cooking: cooking.map((r) => r.level),
      firemaking: firemaking.map((r) => r.level),
      smelting: smelting.map((r) => r.level),
      smithing: smithing.map((r) => r.level),
      crafting: crafting.map((r) => r.level),
      fletching: fletching.map((r) => r.level),
      runecrafting: runecrafting.map((r) => r.levelRequired),
    };
    for (const [kind, list] of Object.entries(levels)) {
      assert.ok(list.length >= 3, `${kind}: ${list.length} recipes`);
      assert.equal(Math.min(...list), 1, `${kind} starts at level 1`);
    }
    assert.ok(tanning.length >= 1);
  });

  it("sells the tools a new character needs to start crafting and fletching, and places both stores", () => {
    const sells = (storeId: string) => new Set(content.stores.get(storeId)?.items.map((i) => i.itemId));
    const placed = new Set(content.areas.flatMap((a) => a.npcs.map((n) => n.storeId)));
    const withTool = (tool: string) => [...content.stores.keys()].filter((id) => placed.has(id) && sells(id).has(tool));
    for (const tool of ["needle", "thread", "knife"]) assert.ok(withTool(tool).length > 0, `a placed store sells ${tool}`);
    const crafting = [...content.stores.keys()].filter((id) => placed.has(id) && sells(id).has("needle") && sells(id).has("thread"));
    const fletching = [...content.stores.keys()].filter((id) => placed.has(id) && sells(id).has("knife") && sells(id).has("bowstring"));
    assert.ok(crafting.length > 0 && fletching.length > 0 && crafting.some((c) => !fletching.includes(c)), `crafting ${crafting}, fletching ${fletching}`);
    for (const id of [...crafting, ...fletching]) {
      const keeper = content.areas.flatMap((a) => a.npcs).find((n) => n.storeId === id)!;
      assert.ok(content.npcs.has(keeper.id), `${id}'s keeper ${keeper.id} is an NPC of npcs.json`);
    }
  });

  it("has a level-1 way, with every item it needs obtainable, for each skill", () => {
    const { cooking, smelting, smithing, firemaking, crafting, fletching } = content.recipes;
    const all = (ids: string[]) => ids.every((id) => have.has(id));
    const craftable = (list: CraftingRecipe[]) =>
      list.some(
        (r) =>
          r.level === 1 &&
          all([...r.inputs.map((i) => i.item), ...r.tools, ...r.consumables.map((c) => c.item)]) &&
          (r.station === undefined || r.station === "none" || placedStations.has(r.station)),
      );
    const placedMobs = content.areas.flatMap((a) => a.mobSpawns.map((m) => content.npcs.get(m.mobId)!));
    const beatable = placedMobs.some((m) => m.combat?.attackable === true && (m.stats?.level ?? 1) <= 3);
    const node = (skill: string) =>
      content.areas.some((a) =>
        a.resources.some((p) => {
          const r = content.resources.get(p.resourceId)!;
          return (
            r.gathering === skill && r.levelRequired === 1 && (have.has(r.toolRequired) || content.tools.some((t) => t.skill === skill && have.has(t.itemId)))
          );
        }),
      );
    const ways: Record<string, boolean> = {
      attack: beatable,
      strength: beatable,
      defense: beatable,
      constitution: beatable,
      ranged: beatable && [...have].some((id) => content.item(id)?.weaponType === "BOW") && [...have].some((id) => content.item(id)?.equipSlot === "arrows"),
      magic: beatable && [...content.magic.spells.values()].some((s) => s.level === 1 && s.runes.every((r) => have.has(r.runeId))),
      prayer: [...have].some((id) => (content.item(id)?.prayerXp ?? 0) > 0),
      woodcutting: node("woodcutting"),
      mining: node("mining"),
      fishing: node("fishing"),
      cooking: cooking.some((r) => r.level === 1 && have.has(r.raw)) && (have.has("tinderbox") || placedStations.has("range")),
      firemaking: firemaking.some((r) => r.level === 1 && have.has(r.log)) && have.has("tinderbox"),
      smithing:
        placedStations.has("furnace") &&
        smelting.some((r) => r.level === 1 && all(r.inputs.map((i) => i.item))) &&
        placedStations.has("anvil") &&
        smithing.some((r) => r.level === 1 && have.has(r.bar) && have.has("hammer")),
      crafting: craftable(crafting),
      fletching: craftable(fletching),
      runecrafting: runecrafting.some((r) => r.levelRequired === 1 && r.essenceTypes.some((e) => have.has(e)) && placedStations.has(`${r.runeType}_altar`)),
    };
    for (const skill of SKILLS.filter((s) => s !== "agility")) assert.equal(ways[skill], true, `${skill} can be trained from level 1`);
  });

  it("makes every item of every recipe obtainable, so no recipe is a dead end", () => {
    const { crafting, fletching, smithing, smelting } = content.recipes;
    for (const r of [...crafting, ...fletching, ...smithing, ...smelting]) assert.ok(have.has(r.output), `${r.output} can be made`);
    for (const r of runecrafting) assert.ok(have.has(r.runeItemId), `${r.runeItemId} can be crafted`);
    for (const r of tanning) assert.ok(have.has(r.output), `${r.output} can be tanned`);
  });
});
