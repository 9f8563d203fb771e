/**
 * Gathering as players know it (docs/gameplay.md "Gathering"): tool level requirements (the best
 * usable tool, a better one skipped), better pickaxes rolling sooner, fishing's catch chances per
 * level (the OSRS wiki's skilling success rate) rolled highest fish first so lower fish keep
 * coming, and bait and feathers used up per catch. Rolls are scripted where the rule is a chance.
 */
import assert from "node:assert/strict";
import { skillingChance } from "../../src/game/gathering.ts";
import { XP_FOR_LEVEL } from "../../src/game/skills.ts";
import type { Skill } from "../../src/game/skills.ts";
import type { ItemStack, Player } from "../../src/game/world/Player.ts";
import { buildRegistry } from "../../src/manifests/registry.ts";
import { besideTile, count, gameWorld, resourceNear, type GameHarness } from "../support/game.ts";

const one = (itemId: string, quantity = 1): ItemStack => ({ itemId, quantity });

function setLevel(p: Player, skill: Skill, level: number): void {
  p.data.skills[skill] = { level, xpTenths: XP_FOR_LEVEL[level]! * 10 };
}

/** Replaces the world's random source: these values first, then `rest` forever. */
function script(g: GameHarness, values: number[], rest = 0.999): void {
  const queue = [...values];
  (g.world as unknown as { random: () => number }).random = () => queue.shift() ?? rest;
}

/** Ticks up to the player's next roll and scripts it (NPCs draw from the same source on other ticks, after the actions). */
function rollNext(g: GameHarness, p: Player, values: number[]): void {
  g.tick(p.nextActionTick - g.world.tick - 1);
  script(g, values);
  g.tick();
}

/** Starts gathering at a node next to the player; returns the ticks until the next roll after the first. */
function startAt(g: GameHarness, p: Player, nodeId: string): number {
  const res = resourceNear(g.world, nodeId, { x: 0, z: 0 });
  g.world.teleport(p, besideTile(g.world, res));
  g.send(p, "player:action", { action: "gather", targetId: res.id });
  g.tick();
  return p.nextActionTick - g.world.tick;
}

describe("skilling success rate (OSRS wiki)", () => {
  it("matches the wiki's published monkfish point and its ends", () => {
    // Raw monkfish, low 48, high 90: 29.296875% (75/256) at level 62, the wiki's chart.
    assert.equal(skillingChance(48, 90, 62), 75 / 256);
    assert.equal(skillingChance(48, 90, 1), 49 / 256, "low + 1 at level 1");
    assert.equal(skillingChance(48, 90, 99), 91 / 256, "high + 1 at level 99");
    assert.equal(skillingChance(255, 255, 50), 1, "never above 1");
  });
});

describe("gathering tools", () => {
  it("skips a pickaxe the player cannot use yet for the best one they can, and a better pickaxe rolls sooner", async () => {
    const g = await gameWorld();
    const p = g.add({}, [one("steel_pickaxe"), one("bronze_pickaxe")]);
    script(g, [], 0.999);
    assert.equal(startAt(g, p, "ore_copper"), 8, "mining 1: the steel pickaxe (level 6) is skipped for bronze, 8 ticks a roll");
    assert.deepEqual(g.errors(p), []);
    setLevel(p, "mining", 6);
    g.tick(10);
    const steel = p.nextActionTick;
    g.tick(steel - g.world.tick);
    assert.equal(p.nextActionTick - g.world.tick, 6, "mining 6: the steel pickaxe, 6 ticks a roll");
    const q = g.add({}, [one("iron_pickaxe")]);
    assert.equal(startAt(g, q, "ore_copper"), 7, "iron: 7 ticks");
  });

  it("refuses when the only tool carried needs a higher level, naming it, and changes nothing", async () => {
    const g = await gameWorld();
    const p = g.add({}, [one("steel_hatchet")]);
    startAt(g, p, "tree_normal");
    const e = g.errors(p).at(-1)!;
    assert.equal(e.code, "NO_TOOL");
    assert.equal(e.message, "You need Woodcutting level 6 to use a steel hatchet.");
    assert.equal(p.action, undefined);
    assert.equal(count(p, "logs"), 0);
    const q = g.add({});
    startAt(g, q, "ore_copper");
    assert.equal(g.errors(q).at(-1)!.message, "You need a bronze pickaxe.");
  });

  it("takes fishing's own tool only: a fly fishing rod does not bait-fish", async () => {
    const g = await gameWorld();
    const p = g.add({}, [one("fly_fishing_rod"), one("fishing_bait", 10)]);
    setLevel(p, "fishing", 30);
    startAt(g, p, "fishing_spot_bait");
    assert.equal(g.errors(p).at(-1)!.code, "NO_TOOL");
  });

  it("raises a tool's level to its tier's in tier-requirements.json", () => {
    const item = (id: string) => ({ id, name: id, type: "tool", value: 1, tradeable: true, stackable: false });
    const { registry } = buildRegistry(
      new Map<string, unknown>([
        ["items/tools.json", [item("steel_pickaxe"), item("bronze_pickaxe")]],
        [
          "tools.json",
          [
            { itemId: "steel_pickaxe", skill: "mining", tier: "steel", levelRequired: 1, priority: 1 },
            { itemId: "bronze_pickaxe", skill: "mining", tier: "bronze", levelRequired: 1, priority: 2 },
          ],
        ],
        ["tier-requirements.json", { tools: { steel: { mining: 6 } } }],
      ]),
    );
    assert.deepEqual(
      registry.tools.map((t) => [t.itemId, t.levelRequired]),
      [
        ["steel_pickaxe", 6],
        ["bronze_pickaxe", 1],
      ],
    );
  });
});

describe("fishing catches", () => {
  it("rolls the highest catchable fish first at its chance for the level, then the lower ones", async () => {
    const g = await gameWorld();
    const spot = g.world.content.resources.get("fishing_spot_net")!;
    const anchovy = spot.harvestYield.find((y) => y.itemId === "raw_anchovies")!;
    const shrimp = spot.harvestYield.find((y) => y.itemId === "raw_shrimp")!;
    const p = g.add({}, [one("small_fishing_net")]);
    setLevel(p, "fishing", 40);
    const pa = skillingChance(anchovy.catchLow!, anchovy.catchHigh!, 40);
    const ps = skillingChance(shrimp.catchLow!, shrimp.catchHigh!, 40);
    // First roll: anchovies just under their chance: caught.
    script(g, [pa - 1e-9]);
    startAt(g, p, "fishing_spot_net");
    assert.equal(count(p, "raw_anchovies"), 1);
    // Next roll: anchovies miss (at their chance), shrimp just under theirs: a shrimp.
    rollNext(g, p, [pa, ps - 1e-9]);
    assert.equal(count(p, "raw_shrimp"), 1, "a lower fish still comes at a higher level");
    // Next: both miss: nothing this roll.
    rollNext(g, p, [pa, ps]);
    assert.deepEqual([count(p, "raw_anchovies"), count(p, "raw_shrimp")], [1, 1]);
    assert.deepEqual(g.errors(p), []);
  });

  it("does not roll a fish above the player's level", async () => {
    const g = await gameWorld();
    const p = g.add({}, [one("small_fishing_net")]);
    script(g, [0]);
    startAt(g, p, "fishing_spot_net");
    assert.equal(count(p, "raw_shrimp"), 1, "level 1: the first roll is the shrimp's");
    assert.equal(count(p, "raw_anchovies"), 0);
  });

  it("uses up one bait per catch and stops with a message when there is none left", async () => {
    const g = await gameWorld();
    const p = g.add({}, [one("fishing_rod"), one("fishing_bait", 2)]);
    setLevel(p, "fishing", 5);
    script(g, [], 0);
    startAt(g, p, "fishing_spot_bait");
    assert.equal(count(p, "raw_sardine"), 1);
    assert.equal(count(p, "fishing_bait"), 1);
    g.tick(p.nextActionTick - g.world.tick);
    assert.equal(count(p, "raw_sardine"), 2);
    assert.equal(count(p, "fishing_bait"), 0);
    g.tick(10);
    const e = g.errors(p).at(-1)!;
    assert.deepEqual([e.code, e.message], ["NO_BAIT", "You have no fishing bait left."]);
    assert.equal(p.action, undefined, "the fishing stopped");
    assert.equal(count(p, "raw_sardine"), 2);
  });

  it("uses up a feather per fly-fishing catch", async () => {
    const g = await gameWorld();
    const p = g.add({}, [one("fly_fishing_rod"), one("feathers", 5)]);
    setLevel(p, "fishing", 20);
    script(g, [], 0);
    startAt(g, p, "fishing_spot_fly");
    assert.equal(count(p, "raw_trout"), 1);
    assert.equal(count(p, "feathers"), 4);
  });
});

describe("starting to gather (docs/playtest.md 2026-11-29)", () => {
  const said = (g: GameHarness, p: Player) => g.events(p, "chat:message").map((m) => m.message as string);

  it("says at once what the player does, before any catch: axe, pick, net, line", async () => {
    for (const [nodeId, tool, skill, line] of [
      ["tree_normal", "bronze_hatchet", "woodcutting", "You swing your axe at the tree."],
      ["ore_copper", "bronze_pickaxe", "mining", "You swing your pick at the rock."],
      ["fishing_spot_net", "small_fishing_net", "fishing", "You cast out your net."],
      ["fishing_spot_bait", "fishing_rod", "fishing", "You cast out your line."],
    ] as const) {
      const g = await gameWorld();
      const p = g.add({}, [one(tool), one("fishing_bait", 5)]);
      setLevel(p, skill, 20);
      script(g, [], 0.999); // every roll fails: nothing caught
      startAt(g, p, nodeId);
      assert.deepEqual(said(g, p), [line], nodeId);
      g.tick(20);
      assert.deepEqual(said(g, p), [line], `${nodeId}: said once, not again each roll`);
      assert.equal(p.action?.kind, "gather", `${nodeId}: still gathering`);
    }
  });
});
