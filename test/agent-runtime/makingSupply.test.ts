/**
 * The making focus's supply rules (agent-runtime/brain/makingFocus.ts, making.ts), with the default
 * world's content: leather bought at Tawney's when its cowhide is sold out, the anvil's item that
 * sells best a bar (all bronze items give 12.5 xp a bar), and a make that never starts ending its
 * goal rather than holding it until the runtime's watchdog.
 */
import assert from "node:assert/strict";
import type { GoalOption, Observation } from "../../agent-runtime/brain/Brain.ts";
import type { Self } from "../../agent-runtime/AgentView.ts";
import type { Ctx } from "../../agent-runtime/brain/behaviourKit.ts";
import { Make, MAX_STARTS, salePerInput } from "../../agent-runtime/brain/making.ts";
import { FetchInputs } from "../../agent-runtime/brain/makingBank.ts";
import { makingScore } from "../../agent-runtime/brain/makingChoice.ts";
import { anvilPays, craftLeather, HIDE_LOAD, hidePurchase, makingCombat, makingRocks, tanningDue, threadsFor } from "../../agent-runtime/brain/makingFocus.ts";
import { Random } from "../../agent-runtime/brain/random.ts";
import { ScriptedBrain } from "../../agent-runtime/brain/scripted.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import { bundledKnowledge, carrying, ctxOf, observation, viewOf } from "./support.ts";

describe("agent brain: making supplies", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });

  const skills = { mining: { level: 5, xp: 0 }, smithing: { level: 5, xp: 0 }, crafting: { level: 3, xp: 0 } };
  const obs = (inventory: string[], goals: GoalOption[], over: Partial<Observation> = {}): Observation =>
    observation({
      coins: 100,
      skills,
      inventory: carrying(inventory),
      freeSlots: 28 - inventory.length,
      availableGoals: goals,
      focus: "making",
      ...over,
    });
  const tools = ["bronze_pickaxe", "needle", "thread", "hammer"];
  const soldOut: Observation["recentGoals"] = [{ type: "shopping", target: "cowhide", outcome: "failed" }];

  it("buys Tawney's leather when its cowhide was sold out in its last goals, the cowhide first otherwise", () => {
    const targets = ["needle", "thread", "cowhide", "leather"];
    assert.ok(craftLeather(know, obs([], [])).has("leather"));
    const hides = hidePurchase(obs(tools, []), know, targets)!;
    assert.deepEqual([hides.itemId, hides.quantity], ["cowhide", HIDE_LOAD]);
    const leather = hidePurchase(obs(tools, [], { recentGoals: soldOut, coins: 40 }), know, targets)!;
    // At 6 coins and no tanner's fee: 6 of them for 40 coins.
    assert.deepEqual([leather.itemId, leather.storeId, leather.price, leather.quantity], ["leather", "tawney_leatherworks", 6, 6]);
    // Sold out four goals ago: the hides again (one back every 120 s).
    const older: Observation["recentGoals"] = [...Array.from({ length: 3 }, () => ({ type: "mining", outcome: "done" as const })), ...soldOut];
    assert.equal(hidePurchase(obs(tools, [], { recentGoals: older }), know, targets)?.itemId, "cowhide");
    // The brain's choice: the leather, not a fight with cows at Attack 1.
    const brain = new ScriptedBrain(know, "s");
    const options: GoalOption[] = [
      { type: "shopping", description: "Buy a tool or making supplies", targets },
      { type: "combat", description: "Fight", targets: ["brindle_cow"] },
      { type: "mining", description: "Mine rocks", targets: ["ore_copper", "ore_tin"] },
      { type: "idle", description: "Stand still", targets: [] },
    ];
    const c = brain.choose(obs(tools, options, { recentGoals: soldOut }));
    assert.deepEqual([c.type, c.target], ["shopping", "leather"]);
  });

  it("earns its hides at the anvil rather than fight cows at Attack 1 once a bar smithed sells for 20 coins or more", () => {
    const options: GoalOption[] = [
      { type: "shopping", description: "Buy a tool or making supplies", targets: ["needle", "thread", "cowhide", "leather"] },
      { type: "combat", description: "Fight", targets: ["brindle_cow"] },
      { type: "mining", description: "Mine rocks", targets: ["ore_copper", "ore_tin"] },
      { type: "woodcutting", description: "Chop trees", targets: ["tree_normal"] },
      { type: "idle", description: "Stand still", targets: [] },
    ];
    const poor = { coins: 3, skills: { ...skills, mining: { level: 12, xp: 0 } } };
    assert.equal(anvilPays(obs(tools, options, poor), know), true, "a sword at Smithing 5: 30 coins a bar");
    const brain = new ScriptedBrain(know, "s");
    const c = brain.choose(obs(tools, options, poor));
    assert.deepEqual([c.type, c.target === undefined ? undefined : c.target.startsWith("ore_")], ["mining", true]);
    assert.equal(makingCombat(["brindle_cow"], obs(tools, options, poor), know), null);
    // Below Smithing 5 (a hatchet's 16 coins a bar), or without a hammer: the cows, as before.
    const low = { ...poor, skills: { ...poor.skills, smithing: { level: 4, xp: 0 } } };
    assert.equal(anvilPays(obs(tools, options, low), know), false);
    assert.equal(makingCombat(["brindle_cow"], obs(tools, options, low), know), "brindle_cow");
    assert.equal(anvilPays(obs(["bronze_pickaxe", "needle"], options, poor), know), false);
    assert.equal(anvilPays(obs(tools, options, { ...poor, focus: undefined }), know), false);
  });

  it("mines the ores it can smelt at its Smithing level: copper and tin, not iron at Smithing 9", () => {
    const rocks = ["ore_copper", "ore_tin", "ore_iron"];
    assert.deepEqual(makingRocks(rocks, obs([], [], { skills: { ...skills, smithing: { level: 9, xp: 0 } } }), know), ["ore_copper", "ore_tin"]);
    assert.deepEqual(makingRocks(rocks, obs([], [], { focus: undefined }), know), rocks);
    const brain = new ScriptedBrain(know, "s");
    const mining: GoalOption = { type: "mining", description: "Mine rocks", targets: rocks };
    const c = brain.choose(
      obs(tools, [mining], { skills: { ...skills, mining: { level: 16, xp: 0 }, smithing: { level: 9, xp: 0 }, crafting: { level: 10, xp: 0 } } }),
    );
    assert.deepEqual([c.type, c.target === "ore_iron"], ["mining", false]);
  });

  it("buys thread for a load of leather (five makes a thread), as its coins allow, besides what it carries", () => {
    assert.deepEqual(
      threadsFor(
        obs(
          tools.filter((t) => t !== "thread"),
          [],
        ),
        know,
        HIDE_LOAD,
        100,
      ),
      [{ itemId: "thread", quantity: 2 }],
    );
    assert.deepEqual(threadsFor(obs(tools, []), know, HIDE_LOAD, 100), [{ itemId: "thread", quantity: 1 }]);
    assert.deepEqual(threadsFor(obs(tools, []), know, 4, 100), []);
    assert.deepEqual(threadsFor(obs([], []), know, HIDE_LOAD, 3), [{ itemId: "thread", quantity: 1 }]);
    assert.deepEqual(threadsFor(obs([], [], { focus: undefined }), know, HIDE_LOAD, 100), []);
    // The tanner's fee of each hide carried is kept back from the thread's coins.
    assert.equal(tanningDue(obs(["cowhide", "cowhide", "leather"], []), know), 2);
  });

  it("smiths what sells best a bar at equal xp a bar: a sword (30 at Flintwright Arms) over a full helm, a hatchet over a dagger", () => {
    assert.equal(salePerInput(know, know.registry.production.get("smithing:bronze_sword")!), 30);
    assert.ok(salePerInput(know, know.registry.production.get("smithing:bronze_full_helm")!) < 10);
    const making: GoalOption = {
      type: "making",
      description: "Make things",
      targets: ["smithing:bronze_dagger", "smithing:bronze_hatchet", "smithing:bronze_pickaxe", "smithing:bronze_sword", "smithing:bronze_full_helm"],
    };
    // The server offers the recipes at its level (AgentService makeableRecipes).
    const at = (level: number) => {
      const offered = { ...making, targets: making.targets.filter((id) => know.registry.production.get(id)!.level <= level) };
      return makingScore(offered, obs(["hammer", "bronze_bar", "bronze_bar"], [offered], { skills: { ...skills, smithing: { level, xp: 0 } } }), know)?.target;
    };
    assert.equal(at(9), "smithing:bronze_sword");
    assert.equal(at(5), "smithing:bronze_sword");
    // Below 5: the hatchet (16 at the general store) over the dagger (11) and the pickaxe.
    assert.equal(at(3), "smithing:bronze_hatchet");
  });

  it("leaves a spare sword (30 coins at Flintwright Arms) with it on a bank trip for ores, and deposits the logs", () => {
    const carried = ["hammer", "bronze_sword", "bronze_sword", "logs"];
    const view = viewOf({
      id: "me",
      position: { x: 0, z: 0 },
      inventory: carrying(carried),
      equipment: {},
      skills: { smithing: { level: 5, xp: 0 } },
      coins: 0,
    } as unknown as Self);
    const { ctx, sent } = ctxOf(know, view, "m");
    const fetch = new FetchInputs(know.registry.production.get("smelting:bronze_bar")!, 0);
    const bank = [
      { itemId: "copper_ore", quantity: 20 },
      { itemId: "tin_ore", quantity: 20 },
    ];
    fetch.onEvent("interface:open", { type: "bank", bank }, ctx);
    for (let t = 0; t < 5; t++) fetch.step({ ...ctx, tick: t });
    const deposited = sent.filter((s) => s.type === "bank:deposit").map((s) => carried[s.data.slot as number]);
    assert.deepEqual(deposited, ["logs"]);
    const withdrawn = sent.filter((s) => s.type === "bank:withdraw").map((s) => s.data);
    // 25 free slots: 12 of each ore.
    assert.deepEqual(withdrawn, [
      { itemId: "copper_ore", quantity: 12 },
      { itemId: "tin_ore", quantity: 12 },
    ]);
  });

  describe("a make that never starts", () => {
    const makerCtx = (sent: string[], carried = ["needle", "leather"]): Ctx => {
      const view = viewOf({
        id: "me",
        position: { x: 0, z: 0 },
        inventory: carrying(carried),
        equipment: {},
        skills: { crafting: { level: 1, xp: 0 } },
        coins: 0,
      } as unknown as Self);
      return { view, know, rng: new Random("m"), tick: 0, send: (event: string) => void sent.push(event), note: () => {} };
    };

    it(`ends the goal after ${MAX_STARTS} tries with nothing made (interrupted over and over)`, () => {
      const sent: string[] = [];
      const ctx = makerCtx(sent);
      const make = new Make("crafting:leather_gloves");
      let end: string | undefined;
      for (let t = 0; t < 200 && end === undefined; t++) {
        ctx.tick = t;
        end = make.step(ctx).end;
        if (sent.at(-1) === "skill:make") {
          sent.push("stopped");
          make.onEvent("skill:makeStopped", { recipeId: "crafting:leather_gloves", made: 0, reason: "interrupted" }, ctx);
        }
      }
      assert.equal(end, "failed");
      assert.equal(sent.filter((e) => e === "skill:make").length, MAX_STARTS);
    });

    it("counts a station's refusal (its recipes' answer: not makeable here) as a failure, not a wait", () => {
      const notes: string[] = [];
      const sent: string[] = [];
      const ctx = { ...makerCtx(sent, ["cowhide"]), note: (t: string) => void notes.push(t) };
      const make = new Make("tanning:leather");
      assert.equal(make.step(ctx).end, undefined);
      assert.deepEqual(sent, ["player:action"], "on its way to the tanner");
      make.onEvent(
        "skill:recipes",
        {
          station: "tanner",
          recipes: [{ id: "tanning:leather", makeable: false, refusal: { code: "NOT_ENOUGH_COINS", message: "that costs 1 coins" } }],
        } as never,
        ctx,
      );
      assert.ok(
        notes.some((n) => n.startsWith("could not make Leather")),
        notes.join("; "),
      );
      // The other tanning next (hard leather, 3 coins), refused too: nothing else to make, and the goal ends.
      ctx.tick = 15;
      assert.equal(make.step(ctx).end, undefined);
      make.onEvent(
        "skill:recipes",
        {
          station: "tanner",
          recipes: [{ id: "tanning:hard_leather", makeable: false, refusal: { code: "NOT_ENOUGH_COINS", message: "that costs 3 coins" } }],
        } as never,
        ctx,
      );
      ctx.tick = 16;
      assert.equal(make.step(ctx).end, "failed", "nothing else to make: the goal ends");
    });
  });
});
