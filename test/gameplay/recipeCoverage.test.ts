/**
 * Every recipe is makeable (issue #47 item 2): for each recipe the content loads (the default
 * world's, and every complete one of the real public set), a character is given the inputs, tools,
 * consumables, coins, level and a station of the recipe's type beside it, makes it once through
 * `skill:make`, and the inventory and xp are checked. The counts come from the loaded content.
 */
import assert from "node:assert/strict";
import type { ProductionRecipe } from "../../src/manifests/production.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import { runesPerEssence } from "../../src/game/productionRules.ts";
import { XP_FOR_LEVEL } from "../../src/game/skills.ts";
import type { ItemStack } from "../../src/game/world/Player.ts";
import type { World } from "../../src/game/world/World.ts";
import { bundledContent } from "../support/content.ts";
import { fixtureContent } from "../support/fixtureContent.ts";
import { count, gameWorld } from "../support/game.ts";

/** Walkable tiles with a walkable east neighbour and nothing on either, 3 apart, nearest the spawn first. */
function workbenches(world: World, n: number): { x: number; z: number }[] {
  const taken = (x: number, z: number) =>
    !world.collision.isWalkable(x, z) || world.stations.some((s) => s.x === x && s.z === z) || [...world.objects.values()].some((o) => o.x === x && o.z === z);
  const { spawn } = world.content.world;
  const out: { x: number; z: number }[] = [];
  for (let r = 0; out.length < n && r < 200; r += 3) {
    for (let dx = -r; dx <= r && out.length < n; dx += 3) {
      for (const dz of r === 0 ? [0] : [-r, r]) {
        const x = spawn.x + dx;
        const z = spawn.z + dz;
        if (!taken(x, z) && !taken(x + 1, z) && !out.some((t) => Math.max(Math.abs(t.x - x), Math.abs(t.z - z)) < 3)) out.push({ x, z });
      }
    }
  }
  assert.equal(out.length, n, "enough open tiles to work at");
  return out;
}

/** What a character is given to make the recipe once. */
function kit(recipe: ProductionRecipe): ItemStack[] {
  const items: ItemStack[] = [];
  for (const i of recipe.inputs) items.push({ itemId: i.itemId, quantity: i.quantity });
  if (recipe.essence !== undefined) items.push({ itemId: recipe.essence.types[0]!, quantity: 1 });
  for (const t of recipe.tools) items.push({ itemId: t, quantity: 1 });
  for (const c of recipe.consumables) items.push({ itemId: c.itemId, quantity: 1 });
  return items;
}

async function makeEveryRecipe(content: ContentRegistry, label: string): Promise<{ tested: number; loaded: number; byKind: Record<string, number> }> {
  const g = await gameWorld(11, content);
  // Every roll succeeds (smelting's successRate, a fire's lighting, the cook's burn at level 99).
  (g.world as { random: () => number }).random = () => 0;
  const recipes = [...content.production.values()].filter((r) => r.unsupported === undefined);
  const benches = workbenches(g.world, recipes.length);
  const byKind: Record<string, number> = {};
  let tested = 0;
  recipes.forEach((recipe, i) => {
    const at = benches[i]!;
    if (recipe.station !== null) g.world.stations.push({ id: `bench-${i}`, type: recipe.station, x: at.x + 1, z: at.z });
    // Stackable items given one by one (inputs) must fit: give stacks as the inventory holds them.
    const p = g.add({ ...at, coins: recipe.coins });
    for (const s of kit(recipe)) {
      const stackable = content.item(s.itemId)!.stackable;
      for (let q = 0; q < (stackable ? 1 : s.quantity); q++)
        p.data.inventory[p.data.inventory.indexOf(null)] = { itemId: s.itemId, quantity: stackable ? s.quantity : 1 };
    }
    const level = recipe.kind === "cooking" ? 99 : recipe.level;
    if (recipe.skill !== null) p.data.skills[recipe.skill] = { level, xpTenths: XP_FOR_LEVEL[level]! * 10 };
    const before = JSON.stringify(p.data.skills);
    g.send(p, "skill:make", { recipeId: recipe.id, quantity: 1 });
    for (let t = 0; t < 40 && g.events(p, "skill:makeStopped").length === 0; t++) g.tick();
    const why = `${label} ${recipe.id}: ${JSON.stringify({ errors: g.errors(p), stopped: g.events(p, "skill:makeStopped") })}`;
    assert.deepEqual(g.events(p, "skill:makeStopped"), [{ recipeId: recipe.id, made: 1, reason: "done" }], why);
    for (const input of recipe.inputs) assert.equal(count(p, input.itemId), 0, `${why}: ${input.itemId} used`);
    for (const tool of recipe.tools) assert.equal(count(p, tool), 1, `${why}: ${tool} kept`);
    for (const c of recipe.consumables) assert.equal(count(p, c.itemId), 0, `${why}: ${c.itemId} begun`);
    assert.equal(p.data.coins, 0, `${why}: paid`);
    const made = recipe.essence !== undefined ? runesPerEssence(recipe, level) : recipe.outputQuantity;
    if (recipe.output !== null) assert.equal(count(p, recipe.output), made, `${why}: ${made} ${recipe.output}`);
    else
      assert.ok(
        [...g.world.objects.values()].some((o) => o.type === "fire" && o.x === at.x && o.z === at.z),
        `${why}: a fire`,
      );
    if (recipe.skill !== null) {
      const gained = p.data.skills[recipe.skill].xpTenths - XP_FOR_LEVEL[level]! * 10;
      assert.equal(gained, Math.floor(Math.round(recipe.xp * 10 * 1e6) / 1e6), `${why}: ${recipe.xp} xp`);
    } else assert.equal(JSON.stringify(p.data.skills), before, `${why}: no xp`);
    byKind[recipe.kind] = (byKind[recipe.kind] ?? 0) + 1;
    tested++;
  });
  process.stdout.write(`      (${label}: ${tested} of ${content.production.size} recipes made, ${JSON.stringify(byKind)})\n`);
  return { tested, loaded: recipes.length, byKind };
}

describe("every recipe is makeable", () => {
  it("in the default world: every recipe it loads, each made once with its inventory and xp checked", async function () {
    this.timeout(60_000);
    const content = await bundledContent();
    const unsupported = [...content.production.values()].filter((r) => r.unsupported !== undefined).map((r) => `${r.id}: ${r.unsupported}`);
    assert.deepEqual(unsupported, [], "the default world supports all its recipes");
    const { tested, loaded } = await makeEveryRecipe(content, "default world");
    assert.equal(tested, content.production.size);
    assert.equal(tested, loaded);
  });

  it("in the real public set: every complete recipe (43 of 113) made once", async function () {
    this.timeout(60_000);
    const content = await fixtureContent();
    const { tested, byKind } = await makeEveryRecipe(content, "real set");
    assert.equal(content.production.size, 113);
    assert.equal(tested, 43);
    assert.deepEqual(byKind, { cooking: 11, firemaking: 8, smelting: 6, smithing: 18 });
  });
});
