import assert from "node:assert/strict";
import { XP_FOR_LEVEL, type Skill } from "../../src/game/skills.ts";
import { npcAttacksPlayer } from "../../src/game/combat.ts";
import type { ItemStack, Player } from "../../src/game/world/Player.ts";
import { BENCH, workshopContent } from "../support/workshop.ts";
import { count, gameWorld, type GameHarness } from "../support/game.ts";

const stack = (itemId: string, quantity = 1): ItemStack => ({ itemId, quantity });
const many = (itemId: string, n: number): ItemStack[] => Array.from({ length: n }, () => stack(itemId));

async function workshop(seed = 42): Promise<GameHarness> {
  return gameWorld(seed, workshopContent().registry);
}

function withLevel(p: Player, skill: Skill, level: number): Player {
  p.data.skills[skill] = { level, xpTenths: XP_FOR_LEVEL[level]! * 10 };
  return p;
}

/** Ticks until the player's make loop has ended; its `skill:makeStopped`. */
function runMake(g: GameHarness, p: Player, recipeId: string, quantity: number | "all", maxTicks = 200): Record<string, unknown> {
  const before = g.events(p, "skill:makeStopped").length;
  g.send(p, "skill:make", { recipeId, quantity });
  for (let i = 0; i < maxTicks && g.events(p, "skill:makeStopped").length === before; i++) g.tick();
  const stopped = g.events(p, "skill:makeStopped")[before];
  assert.ok(stopped, `the make of ${recipeId} ended within ${maxTicks} ticks; errors: ${JSON.stringify(g.errors(p))}`);
  return stopped;
}

const tenths = (p: Player, skill: Skill) => p.data.skills[skill].xpTenths - XP_FOR_LEVEL[p.data.skills[skill].level]! * 10;

describe("production: making things", () => {
  it("lists every recipe kind with a stable id, and reports an unsupported one in one line", () => {
    const { registry, problems } = workshopContent();
    assert.deepEqual([...registry.production.keys()].sort(), [
      "crafting:leather_body",
      "crafting:leather_gloves",
      "fletching:arrow_shaft",
      "runecrafting:air_rune",
      "smelting:bronze_bar",
      "smelting:iron_bar",
      "smithing:bronze_arrowtips",
      "smithing:bronze_dagger",
      "tanning:leather",
    ]);
    assert.deepEqual(problems, ['recipes/crafting.json $.recipes[1]: unknown item "leather_body": recipe "crafting:leather_body" cannot be made']);
    assert.deepEqual(registry.production.get("smithing:bronze_dagger")!.tools, ["hammer"], "smithing needs the hammer the content defines");
    assert.deepEqual(registry.production.get("runecrafting:air_rune")!.essence!.types, ["rune_essence"], "an undefined essence type is left out");
    assert.equal(registry.production.get("runecrafting:air_rune")!.station, "air_altar");
  });

  it("smelts a bronze bar at the furnace, one per 4 ticks, and smiths it into a dagger with a hammer at the anvil (Smithing xp in tenths)", async () => {
    const g = await workshop();
    const p = g.add({ ...BENCH }, [...many("copper_ore", 3), ...many("tin_ore", 3), stack("hammer")]);
    const stopped = runMake(g, p, "smelting:bronze_bar", 3);
    assert.deepEqual(stopped, { recipeId: "smelting:bronze_bar", made: 3, reason: "done" });
    assert.deepEqual([count(p, "copper_ore"), count(p, "tin_ore"), count(p, "bronze_bar")], [0, 0, 3]);
    assert.equal(p.data.skills.smithing.xpTenths, 3 * 62);
    const progress = g.events(p, "skill:makeProgress");
    assert.deepEqual(
      progress.map((e) => e.remaining),
      [2, 1, 0],
    );
    const ticks = g.sent.filter((m) => m.to === p.id && m.type === "skill:makeProgress");
    assert.equal(ticks.length, 3);
    assert.equal(runMake(g, p, "smithing:bronze_dagger", 1).reason, "done");
    assert.deepEqual([count(p, "bronze_bar"), count(p, "bronze_dagger"), count(p, "hammer")], [2, 1, 1], "the hammer is kept");
    assert.equal(p.data.skills.smithing.xpTenths, 3 * 62 + 125);
  });

  it("makes one item every recipe-tick: three bars take 8 ticks after the first", async () => {
    const g = await workshop();
    const p = g.add({ ...BENCH }, [...many("copper_ore", 3), ...many("tin_ore", 3)]);
    g.send(p, "skill:make", { recipeId: "smelting:bronze_bar", quantity: "all" });
    const at: number[] = [];
    for (let i = 0; i < 20; i++) {
      const n = count(p, "bronze_bar");
      g.tick();
      if (count(p, "bronze_bar") > n) at.push(g.world.tick);
    }
    assert.deepEqual(
      at.map((t) => t - at[0]!),
      [0, 4, 8],
    );
    assert.equal(g.events(p, "skill:makeStopped")[0]!.reason, "done", "all: the inputs used up is done");
  });

  it("fails iron sometimes (successRate 0.5): the ore goes, no bar, no xp, a message", async () => {
    const g = await workshop(7);
    const p = withLevel(g.add({ ...BENCH }, many("iron_ore", 20)), "smithing", 15);
    const stopped = runMake(g, p, "smelting:iron_bar", "all", 400);
    assert.equal(stopped.made, 20);
    const bars = count(p, "iron_bar");
    assert.equal(count(p, "iron_ore"), 0);
    assert.ok(bars > 2 && bars < 18, `about half the ore gives a bar: ${bars} of 20`);
    assert.equal(tenths(p, "smithing"), bars * 125, "xp only for the bars");
    const failed = g.events(p, "chat:message").filter((m) => m.message === "The ore is too impure and you fail to refine it.");
    assert.equal(failed.length, 20 - bars);
    assert.equal(g.events(p, "skill:makeProgress").filter((e) => e.quantity === 0).length, 20 - bars);
  });

  it("uses a thread for five makes: taken at the first, the next spool at the sixth (Crafting xp)", async () => {
    const g = await workshop();
    const p = g.add({ ...BENCH }, [stack("needle"), stack("thread", 2), ...many("leather", 7)]);
    const stopped = runMake(g, p, "crafting:leather_gloves", 6);
    assert.deepEqual(stopped, { recipeId: "crafting:leather_gloves", made: 6, reason: "done" });
    assert.equal(count(p, "thread"), 0, "two spools begun");
    assert.equal(p.data.consumableUses?.thread, 4, "four makes left on the second");
    assert.equal(count(p, "leather_gloves"), 6);
    assert.equal(p.data.skills.crafting.xpTenths, 6 * 138);
    assert.equal(runMake(g, p, "crafting:leather_gloves", 1).reason, "done", "the spool begun makes the seventh without any thread carried");
    assert.equal(count(p, "leather"), 0);
  });

  it("fletches 15 arrow shafts a log with a knife (Fletching xp) until the logs run out", async () => {
    const g = await workshop();
    const p = g.add({ x: 5, z: 5 }, [stack("knife"), ...many("logs", 3)]);
    const stopped = runMake(g, p, "fletching:arrow_shaft", 10);
    assert.equal(stopped.made, 3);
    assert.equal(stopped.reason, "no_materials", "a numbered quantity cut short by the inputs");
    assert.equal(stopped.code, "MISSING_INPUT");
    assert.equal(count(p, "arrow_shaft"), 45);
    assert.equal(count(p, "knife"), 1);
    assert.equal(p.data.skills.fletching.xpTenths, 150);
  });

  it("crafts every carried essence into runes at once at the air altar, more per essence at the multi-rune levels (Runecrafting xp)", async () => {
    const g = await workshop();
    const p = g.add({ ...BENCH }, many("rune_essence", 5));
    assert.deepEqual(runMake(g, p, "runecrafting:air_rune", 1), { recipeId: "runecrafting:air_rune", made: 1, reason: "done" });
    assert.equal(count(p, "air_rune"), 5);
    assert.equal(p.data.skills.runecrafting.xpTenths, 250);
    for (const [level, per] of [
      [10, 1],
      [11, 2],
      [21, 2],
      [22, 3],
      [99, 4],
    ] as const) {
      const q = withLevel(g.add({ ...BENCH }, many("rune_essence", 4)), "runecrafting", level);
      runMake(g, q, "runecrafting:air_rune", "all");
      assert.equal(count(q, "air_rune"), 4 * per, `level ${level}: ${per} runes an essence`);
      assert.equal(count(q, "rune_essence"), 0);
      assert.equal(tenths(q, "runecrafting"), 200, "xp per essence, not per rune");
    }
  });

  it("tans a hide for its coins at the tanner, no xp", async () => {
    const g = await workshop();
    const p = g.add({ ...BENCH, coins: 7 }, many("cowhide", 3));
    const stopped = runMake(g, p, "tanning:leather", "all");
    assert.equal(stopped.made, 2);
    assert.equal(stopped.code, "NOT_ENOUGH_COINS");
    assert.deepEqual([count(p, "leather"), count(p, "cowhide"), p.data.coins], [2, 1, 1]);
    assert.ok(
      Object.values(p.data.skills).every((s) => s.xpTenths === XP_FOR_LEVEL[s.level]! * 10),
      "no xp anywhere",
    );
  });

  it("refuses with a code and changes nothing: unknown, unsupported, level, station, tool, input, consumable, coins, room", async () => {
    const g = await workshop();
    const full = [...many("leather", 26), stack("needle"), stack("thread")];
    const cases: [string, Player, string, string][] = [
      ["UNKNOWN_RECIPE", g.add({ ...BENCH }), "smelting:gold_bar", "no recipe"],
      ["UNSUPPORTED_RECIPE", g.add({ ...BENCH }, [stack("leather"), stack("needle")]), "crafting:leather_body", "cannot be made in this world"],
      ["LEVEL_TOO_LOW", g.add({ ...BENCH }, [stack("iron_ore")]), "smelting:iron_bar", "smithing level 15"],
      ["NO_STATION", g.add({ x: 5, z: 5 }, [stack("copper_ore"), stack("tin_ore")]), "smelting:bronze_bar", "furnace"],
      ["MISSING_TOOL", g.add({ ...BENCH }, [stack("bronze_bar")]), "smithing:bronze_dagger", "hammer"],
      ["MISSING_INPUT", g.add({ ...BENCH }, [stack("copper_ore")]), "smelting:bronze_bar", "tin ore"],
      ["MISSING_INPUT", g.add({ ...BENCH }), "runecrafting:air_rune", "rune essence"],
      ["MISSING_CONSUMABLE", g.add({ ...BENCH }, [stack("leather"), stack("needle")]), "crafting:leather_gloves", "thread"],
      ["NOT_ENOUGH_COINS", g.add({ ...BENCH, coins: 2 }, [stack("cowhide")]), "tanning:leather", "3 coins"],
      ["INVENTORY_FULL", g.add({ ...BENCH }, [...full.slice(0, 27), stack("bronze_arrowtips", 2_147_483_647)]), "smithing:bronze_arrowtips", "room"],
    ];
    const inventoryFull = cases.at(-1)![1];
    inventoryFull.data.inventory[0] = stack("bronze_bar");
    inventoryFull.data.inventory[1] = stack("hammer");
    withLevel(inventoryFull, "smithing", 5);
    const snapshot = (p: Player) => JSON.stringify([p.data.inventory, p.data.coins, p.data.skills, p.data.consumableUses ?? null]);
    const before = cases.map(([, p]) => snapshot(p));
    for (const [, p, recipeId] of cases) g.send(p, "skill:make", { recipeId, quantity: 1 });
    g.tick(6);
    cases.forEach(([code, p, recipeId, words], i) => {
      const errors = g.errors(p);
      assert.equal(errors.length, 1, `${recipeId}: one refusal, ${JSON.stringify(errors)}`);
      assert.equal(errors[0]!.code, code, `${recipeId}: ${errors[0]!.message}`);
      assert.match(errors[0]!.message, new RegExp(words, "i"), recipeId);
      assert.equal(errors[0]!.event, "skill:make");
      assert.equal(snapshot(p), before[i], `${code} changed nothing`);
      assert.equal(p.action, undefined);
      assert.equal(g.events(p, "skill:makeProgress").length, 0);
    });
    assert.equal(g.validate("skill:make", { recipeId: "smelting:bronze_bar", quantity: 29 }).ok, false, "at most 28");
    assert.equal(g.validate("skill:make", { recipeId: "smelting:bronze_bar", quantity: 0 }).ok, false);
    assert.equal(g.validate("skill:make", { recipeId: "smelting:bronze_bar", quantity: "some" }).ok, false);
  });

  it("stops when the player walks, acts, makes something else, trades or is attacked, and says why", async () => {
    const g = await workshop();
    const load = () => [...many("copper_ore", 5), ...many("tin_ore", 5), stack("hammer"), stack("bronze_bar")];
    const walker = g.add({ ...BENCH }, load());
    g.send(walker, "skill:make", { recipeId: "smelting:bronze_bar", quantity: 5 });
    g.tick(2);
    g.send(walker, "player:move", { x: 4, z: 4 });
    g.tick(2);
    assert.deepEqual(g.events(walker, "skill:makeStopped"), [{ recipeId: "smelting:bronze_bar", made: 1, reason: "moved" }]);

    const switcher = g.add({ ...BENCH }, load());
    g.send(switcher, "skill:make", { recipeId: "smelting:bronze_bar", quantity: 5 });
    g.tick(2);
    g.send(switcher, "skill:make", { recipeId: "smithing:bronze_dagger", quantity: 1 });
    g.tick(6);
    assert.deepEqual(
      g.events(switcher, "skill:makeStopped").map((e) => [e.recipeId, e.reason]),
      [
        ["smelting:bronze_bar", "interrupted"],
        ["smithing:bronze_dagger", "done"],
      ],
    );

    const actor = g.add({ ...BENCH }, load());
    g.send(actor, "skill:make", { recipeId: "smelting:bronze_bar", quantity: 5 });
    g.tick(2);
    g.send(actor, "player:action", { action: "stop" });
    g.tick();
    assert.equal(g.events(actor, "skill:makeStopped")[0]!.reason, "interrupted");
    assert.equal(count(actor, "bronze_bar"), 2, "one bar made before the stop, one carried");

    const fighter = g.add({ ...BENCH }, load());
    g.send(fighter, "skill:make", { recipeId: "smelting:bronze_bar", quantity: 5 });
    g.tick(2);
    const npc = { id: "npc-test", def: { id: "rat", name: "Rat", stats: { attack: 1, strength: 1 } }, x: 1, z: 1, nextAttackTick: 0 };
    npcAttacksPlayer(g.world, npc as never, fighter);
    g.tick();
    assert.equal(g.events(fighter, "skill:makeStopped")[0]!.reason, "combat");

    const trader = g.add({ ...BENCH }, load());
    const other = g.add({ x: 1, z: 1 });
    g.send(trader, "skill:make", { recipeId: "smelting:bronze_bar", quantity: 5 });
    g.tick(2);
    g.send(other, "tradeRequest", { targetPlayerId: trader.id });
    g.tick();
    const tradeId = String(g.events(trader, "tradeIncoming")[0]!.tradeId);
    g.send(trader, "tradeRequestRespond", { tradeId, accept: true });
    g.tick(2);
    assert.equal(g.events(trader, "skill:makeStopped")[0]!.reason, "trade");
    g.send(trader, "skill:make", { recipeId: "smelting:bronze_bar", quantity: 1 });
    g.tick();
    assert.equal(g.errors(trader).at(-1)!.event, "skill:make", "no make while trading");
  });

  it("lists the recipes of a station with what each needs and whether it can be made now", async () => {
    const g = await workshop();
    const p = g.add({ ...BENCH }, [stack("copper_ore"), stack("tin_ore")]);
    g.send(p, "skill:getRecipes", { station: "furnace-1" });
    g.send(p, "skill:getRecipes", {});
    g.tick();
    const [furnace, all] = g.events(p, "skill:recipes") as {
      station: string | null;
      recipes: { id: string; makeable: boolean; refusal: { code: string } | null; inputs: unknown[]; ticks: number; xp: number }[];
    }[];
    assert.equal(furnace!.station, "furnace");
    assert.deepEqual(
      furnace!.recipes.map((r) => [r.id, r.makeable, r.refusal?.code ?? null]),
      [
        ["smelting:bronze_bar", true, null],
        ["smelting:iron_bar", false, "LEVEL_TOO_LOW"],
      ],
    );
    assert.deepEqual(furnace!.recipes[0]!.inputs, [stack("copper_ore"), stack("tin_ore")]);
    assert.equal(furnace!.recipes[0]!.ticks, 4);
    assert.equal(all!.recipes.length, workshopContent().registry.production.size);
    assert.equal(all!.recipes.find((r) => r.id === "crafting:leather_body")!.refusal!.code, "UNSUPPORTED_RECIPE");
    // Interacting with a production station walks to it and lists its recipes.
    const q = g.add({ x: 5, z: 5 });
    g.send(q, "player:action", { action: "interact", targetId: "anvil-1" });
    g.tick(20);
    const listed = g.events(q, "skill:recipes");
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.station, "anvil");
  });
});
