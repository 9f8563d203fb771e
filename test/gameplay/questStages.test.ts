/**
 * The stage types `make`, `reach`, `give` and `interact` on a place (docs/gameplay.md "Quests"),
 * on the game harness with the default world's quests, each from a saved state as its starting
 * point (as a login loads it): a make counts only the target made by `skill:make` at the stage; a
 * reach is done on entering the area, or at once when the player already stands in it; a give
 * takes the items in the talk that completes it, and nothing when the count is short; a place's
 * use counts, a fall from an obstacle and an obstacle out of order do not.
 */
import assert from "node:assert/strict";
import type { Player } from "../../src/game/world/Player.ts";
import { copyData } from "../../src/game/world/World.ts";
import { count, gameWorld, type GameHarness } from "../support/game.ts";
import { harnessActor, talkAndChoose } from "../support/questDriver.ts";
import { applyAdvance } from "../../src/game/quests.ts";
import type { Quest } from "../../src/manifests/questContent.ts";

type Stack = { itemId: string; quantity: number };

/** A player at the quest's stage (by id), standing at `at`, carrying `items`. */
function atStage(g: GameHarness, questId: string, stageId: string, at: { x: number; z: number }, items: Stack[]): Player {
  const quest = g.world.content.quests.quests.get(questId)!;
  const stage = quest.stages.findIndex((s) => s.id === stageId);
  assert.ok(stage >= 0);
  const p = g.add({ ...at, quests: { [questId]: { status: "in_progress", stage, progress: 0, completions: 0 } } }, items);
  return p;
}

const state = (p: Player, questId: string) => p.data.quests![questId]!;
const stageId = (g: GameHarness, p: Player, questId: string) => g.world.content.quests.quests.get(questId)!.stages[state(p, questId).stage]!.id;

/** A walkable tile beside the station. */
function beside(g: GameHarness, stationId: string): { x: number; z: number } {
  const s = g.world.stations.find((st) => st.id === stationId)!;
  for (const [dx, dz] of [
    [-1, 0],
    [1, 0],
    [0, -1],
    [0, 1],
  ] as const)
    if (g.world.collision.isWalkable(s.x + dx, s.z + dz)) return { x: s.x + dx, z: s.z + dz };
  throw new Error(`no free tile beside ${stationId}`);
}

describe("quest stages: make, reach, give, interact on a place", function () {
  this.timeout(60_000);

  it("make: counts the target made with skill:make at its stage only, not another item nor an earlier make", async () => {
    const g = await gameWorld();
    const ores = [
      { itemId: "copper_ore", quantity: 1 },
      { itemId: "copper_ore", quantity: 1 },
      { itemId: "tin_ore", quantity: 1 },
      { itemId: "tin_ore", quantity: 1 },
    ];
    const p = atStage(g, "orlas_commission", "smelt_bars", beside(g, "flintwright_furnace"), [
      { itemId: "hammer", quantity: 1 },
      { itemId: "bronze_bar", quantity: 1 },
      ...ores,
    ]);
    // Bars carried already count for nothing: only bars made from now on.
    assert.equal(state(p, "orlas_commission").progress, 0);
    g.send(p, "skill:make", { recipeId: "smelting:bronze_bar", quantity: 1 });
    g.tick(3);
    assert.equal(count(p, "bronze_bar"), 2);
    assert.deepEqual([stageId(g, p, "orlas_commission"), state(p, "orlas_commission").progress], ["smelt_bars", 1]);
    assert.deepEqual(g.events(p, "quest:progress").at(-1)!.progress, { count: 1, required: 2 });
    g.send(p, "skill:make", { recipeId: "smelting:bronze_bar", quantity: 1 });
    g.tick(6);
    assert.deepEqual([stageId(g, p, "orlas_commission"), state(p, "orlas_commission").progress], ["forge_daggers", 0]);
  });

  it("make: a make for a later stage counts for nothing", async () => {
    const g = await gameWorld();
    const p = atStage(g, "orlas_commission", "smelt_bars", beside(g, "flintwright_anvil"), [
      { itemId: "hammer", quantity: 1 },
      { itemId: "bronze_bar", quantity: 1 },
    ]);
    const before = state(p, "orlas_commission");
    g.send(p, "skill:make", { recipeId: "smithing:bronze_dagger", quantity: 1 });
    g.tick(4);
    assert.equal(count(p, "bronze_dagger"), 1, "the dagger was made");
    assert.deepEqual(state(p, "orlas_commission"), { ...before, progress: 0 }, "but counted for nothing: the bars come first");
  });

  it("reach: done when the player walks into the area, and at once when already in it as the stage begins", async () => {
    const g = await gameWorld();
    const yard = g.world.content.areas.find((a) => a.id === "thornwick_yard")!.bounds;
    const p = atStage(g, "keeping_your_footing", "go_yard", { x: 30, z: 34 }, []);
    g.tick(2);
    assert.equal(stageId(g, p, "keeping_your_footing"), "go_yard", "not there yet");
    g.send(p, "player:move", { x: 47, z: 35 });
    for (let i = 0; i < 60 && stageId(g, p, "keeping_your_footing") === "go_yard"; i++) g.tick();
    assert.ok(p.x >= yard.minX && p.x <= yard.maxX, `in the yard at ${p.x},${p.z}`);
    assert.equal(stageId(g, p, "keeping_your_footing"), "cross_log");
    // Already in the yard as the stage begins (the talk before it done there): the reach is done at once, in the same step.
    const q = g.add({ x: 48, z: 35, quests: { keeping_your_footing: { status: "in_progress", stage: 0, progress: 0, completions: 0 } } });
    assert.deepEqual([q.x, q.z], [48, 35], "placed in the yard");
    applyAdvance(g.world, q, g.world.content.quests.quests.get("keeping_your_footing")!);
    assert.equal(stageId(g, q, "keeping_your_footing"), "cross_log");
    assert.deepEqual(
      g.world
        .drainOutbox()
        .filter((m) => m.to === q.id && m.type === "quest:progress")
        .map((m) => (m.data as { stage: string }).stage),
      ["go_yard", "cross_log"],
    );
  });

  it("reach as the last stage with no room for the rewards: told once, completed once there is room", async () => {
    const g = await gameWorld();
    const quests = g.world.content.quests.quests as Map<string, Quest>;
    const base = quests.get("keeping_your_footing")!;
    quests.set("yard_errand", {
      ...base,
      id: "yard_errand",
      name: "Yard Errand",
      stages: [base.stages[1]!],
      rewards: { questPoints: 0, items: [{ itemId: "bronze_dagger", quantity: 1 }], xp: {} },
    });
    try {
      const full = Array.from({ length: 28 }, () => ({ itemId: "logs", quantity: 1 }));
      const p = g.add({ x: 48, z: 35, quests: { yard_errand: { status: "in_progress", stage: 0, progress: 0, completions: 0 } } }, full);
      g.tick(5);
      assert.deepEqual(
        g.errors(p).map((e) => e.code),
        ["INVENTORY_FULL"],
        "told once, not each tick",
      );
      assert.equal(state(p, "yard_errand").status, "in_progress");
      p.data.inventory[27] = null;
      g.tick();
      assert.equal(state(p, "yard_errand").status, "completed");
      assert.equal(count(p, "bronze_dagger"), 1);
    } finally {
      quests.delete("yard_errand");
    }
  });

  it("give: takes the items in the talk that completes it; short, refused with nothing taken", async () => {
    const g = await gameWorld();
    const dagger = { itemId: "bronze_dagger", quantity: 1 };
    const p = atStage(g, "orlas_commission", "deliver", { x: 3, z: 0 }, [dagger]);
    const a = harnessActor(g, p);
    const held = () => JSON.stringify({ inventory: copyData(p.data).inventory, coins: p.data.coins, quests: p.data.quests, skills: p.data.skills });
    const before = held();
    const refused = await talkAndChoose(a, "warden_tamsin", (t) => t === "Orla's First Commission: it's done.");
    assert.equal(refused.code, "MISSING_ITEM");
    assert.equal(refused.message, "You need 2 × Bronze dagger to hand over.");
    assert.equal(held(), before, "nothing taken, nothing changed (the walk to her aside)");
    // With three, two go; the quest completes with its rewards in the same step.
    p.data.inventory[1] = { ...dagger };
    p.data.inventory[2] = { ...dagger };
    const coins = p.data.coins;
    await talkAndChoose(a, "warden_tamsin", (t) => t === "Orla's First Commission: it's done.");
    assert.equal(count(p, "bronze_dagger"), 1);
    assert.equal(state(p, "orlas_commission").status, "completed");
    assert.equal(p.data.coins, coins + 60);
  });

  it("give: Tamsin's own tree hands the daggers over too, once, only at that stage", async () => {
    const g = await gameWorld();
    const daggers = [
      { itemId: "bronze_dagger", quantity: 1 },
      { itemId: "bronze_dagger", quantity: 1 },
    ];
    const p = atStage(g, "orlas_commission", "forge_daggers", { x: 3, z: 0 }, daggers);
    const a = harnessActor(g, p);
    const opened = await talkAndChoose(a, "warden_tamsin", (t) => t === "Maybe later.");
    const offered = (a.events.filter((e) => e.type === "dialogue:open").at(-2)!.data.options as { text: string }[]).map((o) => o.text);
    assert.ok(!offered.includes("I've brought Orla's daggers for the watch."), "not before the deliver stage");
    assert.equal(opened.text, "Stay inside the fences until you can hold a sword properly.");
    p.data.quests!.orlas_commission!.stage = 5;
    await talkAndChoose(a, "warden_tamsin", (t) => t === "I've brought Orla's daggers for the watch.");
    const done = a.events.filter((e) => e.type === "dialogue:open").at(-1)!.data.options as { id: string; text: string }[];
    g.send(p, "dialogue:choose", { optionId: done.find((o) => o.text === "Here you are.")!.id });
    await a.step();
    assert.equal(count(p, "bronze_dagger"), 0);
    assert.equal(state(p, "orlas_commission").status, "completed");
  });

  it("interact on a place: the obstacle of the stage counts when crossed, not one out of order nor a fall", async () => {
    const g = await gameWorld();
    const p = atStage(g, "keeping_your_footing", "cross_log", { x: 55, z: 35 }, []);
    // The net first: crossed, but it is the log's turn.
    g.send(p, "player:action", { action: "interact", targetId: "yard_net" });
    const random = g.world.random;
    (g.world as { random: () => number }).random = () => 0;
    g.tick(4);
    assert.equal(p.x, 57, "over the net");
    assert.deepEqual([stageId(g, p, "keeping_your_footing"), state(p, "keeping_your_footing").progress], ["cross_log", 0]);
    g.send(p, "player:action", { action: "interact", targetId: "yard_log" });
    for (let i = 0; i < 30 && stageId(g, p, "keeping_your_footing") === "cross_log"; i++) g.tick();
    assert.equal(stageId(g, p, "keeping_your_footing"), "climb_net");
    // A fall from the net (the roll fails) counts for nothing; the next crossing does.
    (g.world as { random: () => number }).random = () => 0.999;
    g.send(p, "player:action", { action: "interact", targetId: "yard_net" });
    for (let i = 0; i < 30 && !g.events(p, "combat:hit").length; i++) g.tick();
    assert.ok(g.events(p, "combat:hit").length > 0, "a fall");
    assert.equal(stageId(g, p, "keeping_your_footing"), "climb_net");
    (g.world as { random: () => number }).random = random;
    (g.world as { random: () => number }).random = () => 0;
    g.send(p, "player:action", { action: "interact", targetId: "yard_net" });
    for (let i = 0; i < 30 && stageId(g, p, "keeping_your_footing") === "climb_net"; i++) g.tick();
    assert.equal(stageId(g, p, "keeping_your_footing"), "report");
  });
});
