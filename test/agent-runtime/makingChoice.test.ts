/**
 * The scripted policy's side of making on its own (agent-runtime/brain/makingChoice.ts), with the
 * default world's content: a making goal comes before training and before banking a full
 * inventory, and a tool of making (a hammer, a knife) is bought only when it carries something to
 * make with it.
 */
import assert from "node:assert/strict";
import type { GoalOption, Observation } from "../../agent-runtime/brain/Brain.ts";
import type { Self } from "../../agent-runtime/AgentView.ts";
import type { Ctx } from "../../agent-runtime/brain/behaviourKit.ts";
import { roomForPartner } from "../../agent-runtime/brain/making.ts";
import { Shop } from "../../agent-runtime/brain/behaviours.ts";
import { FOCUSED_MAKING, makingScore, makingToolPurchases, tierUpgrade } from "../../agent-runtime/brain/makingChoice.ts";
import {
  HIDE_BUY_MIN,
  HIDE_LOAD,
  hideInputs,
  hidePurchase,
  hideSources,
  makingCombat,
  MAKING_PURSE,
  makingPurse,
  makingStuck,
} from "../../agent-runtime/brain/makingFocus.ts";
import { QUEST_DOING } from "../../agent-runtime/brain/questChoice.ts";
import { FOCUS_BONUS, focusBonus } from "../../agent-runtime/brain/focus.ts";
import { Random } from "../../agent-runtime/brain/random.ts";
import { ScriptedBrain, toolPurchases } from "../../agent-runtime/brain/scripted.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import { bundledKnowledge, carrying, ctxOf, observation, viewOf } from "./support.ts";

describe("agent brain: making", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });

  const obs = (inventory: string[], goals: GoalOption[], over: Partial<Observation> = {}): Observation =>
    observation({
      coins: 100,
      skills: { mining: { level: 1, xp: 0 }, smithing: { level: 1, xp: 0 } },
      inventory: carrying(inventory),
      freeSlots: 28 - inventory.length,
      availableGoals: goals,
      ...over,
    });
  const training: GoalOption[] = [
    { type: "mining", description: "Mine rocks", targets: ["ore_copper", "ore_tin"] },
    { type: "banking", description: "Bank items", targets: [] },
    { type: "idle", description: "Stand still", targets: [] },
  ];

  it("the tools of making are the hammer (implied at the anvil), the knife and the needle, each at its cheapest placed store", () => {
    const tools = makingToolPurchases(know);
    for (const id of ["hammer", "knife", "needle"])
      assert.ok(
        tools.some((t) => t.itemId === id),
        `${id}: ${JSON.stringify(tools.map((t) => t.itemId))}`,
      );
    const hammer = tools.find((t) => t.itemId === "hammer")!;
    assert.ok(hammer.inputs.includes("copper_ore") && hammer.inputs.includes("bronze_bar"), JSON.stringify(hammer.inputs));
    assert.ok(
      toolPurchases(know).some((t) => t.itemId === "knife"),
      "toolPurchases lists them with the gathering tools",
    );
  });

  it("makes what it can before training, and before banking a full inventory", () => {
    const making: GoalOption = { type: "making", description: "Make things", targets: ["smithing:bronze_dagger", "smelting:bronze_bar"] };
    const some = new ScriptedBrain(know, "m").choose(obs(["copper_ore", "tin_ore", "hammer"], [...training, making]));
    assert.equal(some.type, "making");
    assert.equal(some.target, "smelting:bronze_bar", "smelting first: the bars it makes are smithed next");
    const ores = Array.from({ length: 28 }, (_, i) => (i % 2 === 0 ? "copper_ore" : "tin_ore"));
    assert.equal(new ScriptedBrain(know, "m").choose(obs(ores, [...training, making], { freeSlots: 0 })).type, "making");
  });

  it("buys a hammer when it carries ore for the furnace and anvil, and not with nothing to smith", () => {
    const shopping: GoalOption = { type: "shopping", description: "Buy a tool", targets: ["hammer"] };
    const withOre = new ScriptedBrain(know, "m").choose(obs(["copper_ore", "tin_ore"], [...training, shopping]));
    assert.deepEqual([withOre.type, withOre.target], ["shopping", "hammer"]);
    const without = new ScriptedBrain(know, "m").choose(obs([], [...training, shopping]));
    assert.notEqual(without.type, "shopping");
  });

  it("mines the ore it carries least of (tin after copper), and a copper trip leaves room for the tin", () => {
    const copper = Array.from({ length: 10 }, () => "copper_ore");
    const next = new ScriptedBrain(know, "m").choose(obs(copper, [{ type: "mining", description: "Mine rocks", targets: ["ore_copper", "ore_tin"] }]));
    assert.deepEqual([next.type, next.target], ["mining", "ore_tin"]);
    const ctxWith = (items: string[]): Ctx =>
      ctxOf(know, viewOf({ inventory: carrying(items), equipment: {}, skills: { smithing: { level: 1, xp: 0 } } } as unknown as Self), "m").ctx;
    // 3 tools and 12 copper: 13 slots left, more than the 12 copper over the tin: mine on.
    assert.equal(roomForPartner(ctxWith(["hammer", "bronze_pickaxe", "tinderbox", ...Array.from({ length: 12 }, () => "copper_ore")]), "copper_ore"), false);
    // 13 copper: 12 slots left, at most the 13 over the tin: stop, the rest is the tin's.
    assert.equal(roomForPartner(ctxWith(["hammer", "bronze_pickaxe", "tinderbox", ...Array.from({ length: 13 }, () => "copper_ore")]), "copper_ore"), true);
    // The tin trip that follows fills the inventory (it carries less tin than copper).
    assert.equal(
      roomForPartner(ctxWith(["bronze_pickaxe", ...Array.from({ length: 13 }, () => "copper_ore"), ...Array.from({ length: 13 }, () => "tin_ore")]), "tin_ore"),
      false,
    );
  });

  describe("focus making (makingFocus.ts)", () => {
    const combat: GoalOption = { type: "combat", description: "Fight", targets: ["meadow_rat", "mossback_toad", "brindle_cow"] };
    const making: GoalOption = { type: "making", description: "Make things", targets: ["tanning:leather"] };
    const skills = { mining: { level: 1, xp: 0 }, smithing: { level: 1, xp: 0 }, crafting: { level: 1, xp: 0 } };
    const focused = (inventory: string[], goals: GoalOption[], over: Partial<Observation> = {}) =>
      new ScriptedBrain(know, "f").choose(obs(inventory, goals, { focus: "making", skills, ...over }));

    it("the hides for Crafting are the tanner's cowhide, which brindle cows always drop", () => {
      assert.deepEqual([...hideInputs(know)], ["cowhide"]);
      assert.deepEqual(hideSources(know, combat.targets), ["brindle_cow"]);
    });

    it("fights cows for hides before mining while Crafting lags, and not for levels once it carries a load", () => {
      const c = focused(["bronze_pickaxe"], [...training, combat]);
      assert.deepEqual([c.type, c.target], ["combat", "brindle_cow"]);
      assert.equal(focusBonus(c, obs(["bronze_pickaxe"], [], { focus: "making", skills }), know), FOCUS_BONUS);
      // Unfocused, the same agent fights what its levels suit, not for hides.
      assert.notEqual(new ScriptedBrain(know, "f").choose(obs(["bronze_pickaxe"], [combat], { skills })).target, undefined);
      const hides = Array.from({ length: HIDE_LOAD }, () => "cowhide");
      const loaded = focused(["bronze_pickaxe", ...hides], [...training, combat]);
      assert.equal(loaded.type, "mining", "a load of hides: no more fighting");
      assert.equal(focused(["bronze_pickaxe", ...hides], [...training, combat, making]).type, "making", "it tans them");
    });

    it("mines when Crafting is ahead of Smithing, and fights for hides again when Smithing catches up", () => {
      const ahead = { ...skills, crafting: { level: 4, xp: 0 }, smithing: { level: 3, xp: 0 } };
      assert.equal(focused(["bronze_pickaxe"], [...training, combat], { skills: ahead }).type, "mining");
      assert.equal(makingCombat(combat.targets, obs(["bronze_pickaxe"], [], { focus: "making", skills: ahead }), know), null);
      // Without a pickaxe Smithing cannot be trained: hides it is.
      assert.equal(makingCombat(combat.targets, obs([], [], { focus: "making", skills: ahead }), know), "brindle_cow");
      const level = { ...skills, crafting: { level: 4, xp: 0 }, smithing: { level: 4, xp: 0 } };
      assert.equal(focused(["bronze_pickaxe"], [...training, combat], { skills: level }).target, "brindle_cow");
      assert.equal(makingCombat(combat.targets, obs([], [], { skills }), know), undefined, "no focus: the ordinary choice");
    });

    it("buys a needle and thread for its hides before fighting for more, and a pickaxe with the coins for one", () => {
      const shopping: GoalOption = { type: "shopping", description: "Buy a tool", targets: ["needle", "thread", "bronze_pickaxe"] };
      const c = focused(["cowhide"], [...training, combat, shopping], { coins: 10 });
      assert.equal(c.type, "shopping");
      assert.ok(c.target === "needle" || c.target === "thread", c.target);
      const p = focused(["needle", "thread"], [...training, combat, shopping], { coins: 80 });
      assert.deepEqual([p.type, p.target], ["shopping", "bronze_pickaxe"]);
    });

    it("buys a load of hides at Tawney's before fighting cows for them, keeping the tanner's fee and the needle and thread", () => {
      const shopping: GoalOption = { type: "shopping", description: "Buy a tool or making supplies", targets: ["needle", "thread", "cowhide"] };
      const tools = ["bronze_pickaxe", "needle", "thread"];
      const c = focused(tools, [...training, combat, shopping], { coins: 100 });
      assert.deepEqual([c.type, c.target], ["shopping", "cowhide"]);
      assert.equal(focusBonus(c, obs(tools, [], { focus: "making", skills }), know), FOCUS_BONUS);
      // A load less what it carries, at 4 coins a hide and the tanner's fee each.
      const fee = know.registry.production.get("tanning:leather")!.coins;
      const buy = hidePurchase(obs([...tools, "cowhide", "leather"], [], { focus: "making", skills, coins: 100 }), know, shopping.targets)!;
      assert.deepEqual([buy.itemId, buy.storeId, buy.price, buy.quantity], ["cowhide", "tawney_leatherworks", 4, HIDE_LOAD - 2]);
      // Coins for 4 hides with their fees; without a needle and thread their price is kept back first.
      assert.equal(hidePurchase(obs(tools, [], { focus: "making", skills, coins: 4 * (4 + fee) }), know, shopping.targets)!.quantity, 4);
      assert.equal(hidePurchase(obs(["bronze_pickaxe"], [], { focus: "making", skills, coins: 4 * (4 + fee) }), know, shopping.targets)?.quantity ?? 0, 3);
      // Fewer than HIDE_BUY_MIN affordable: it fights cows for them.
      const poor = focused(tools, [...training, combat, shopping], { coins: (HIDE_BUY_MIN - 1) * (4 + fee) });
      assert.deepEqual([poor.type, poor.target], ["combat", "brindle_cow"]);
      // No room, no load wanted, no focus, or no hide on offer: no purchase.
      assert.equal(hidePurchase(obs(tools, [], { focus: "making", skills, coins: 100, freeSlots: 0 }), know, shopping.targets), undefined);
      const load = Array.from({ length: HIDE_LOAD }, () => "cowhide");
      assert.equal(hidePurchase(obs([...tools, ...load], [], { focus: "making", skills, coins: 100 }), know, shopping.targets), undefined);
      assert.equal(hidePurchase(obs(tools, [], { skills, coins: 100 }), know, shopping.targets), undefined);
      assert.equal(hidePurchase(obs(tools, [], { focus: "making", skills, coins: 100 }), know, ["needle"]), undefined);
    });

    it("buys the hides the store holds when it holds fewer than the load (a buy of more is refused whole), and fails on none", () => {
      const ctx = (sent: { itemId: string; quantity: number }[]): Ctx => {
        const view = viewOf({ inventory: [{ slot: 0, itemId: "needle", quantity: 1 }], equipment: {}, skills: {} } as unknown as Self);
        const send = (event: string, data: unknown) => void (event === "store:buy" && sent.push(data as { itemId: string; quantity: number }));
        return { view, know, rng: new Random("m"), tick: 0, send, note: () => {} };
      };
      const open = (stock: number | null) => ({
        type: "store" as const,
        npcId: "n1",
        name: "Tawney's Leatherworks",
        storeId: "tawney_leatherworks",
        items: [{ itemId: "cowhide", price: 4, stock }],
        sell: [],
      });
      const sent: { itemId: string; quantity: number }[] = [];
      const c = ctx(sent);
      const shop = new Shop("tawney_leatherworks", [{ itemId: "cowhide", quantity: 8 }]);
      shop.onEvent("interface:open", open(4), c);
      assert.deepEqual(sent, [{ storeId: "tawney_leatherworks", itemId: "cowhide", quantity: 4 }]);
      c.view.sync({ inventory: [0, 1, 2, 3, 4].map((slot) => ({ slot, itemId: slot === 0 ? "needle" : "cowhide", quantity: 1 })) } as unknown as Self);
      assert.equal(shop.step(c).end, "done", "done with the 4 there were");
      const none: { itemId: string; quantity: number }[] = [];
      const c2 = ctx(none);
      const empty = new Shop("tawney_leatherworks", [{ itemId: "cowhide", quantity: 8 }]);
      empty.onEvent("interface:open", open(0), c2);
      assert.deepEqual(none, []);
      assert.equal(empty.step(c2).end, "failed");
      // Unlimited stock (null): the whole quantity.
      const all: { itemId: string; quantity: number }[] = [];
      const c3 = ctx(all);
      const thread = new Shop("tawney_leatherworks", [{ itemId: "cowhide", quantity: 8 }]);
      thread.onEvent("interface:open", open(null), c3);
      assert.equal(all[0]?.quantity, 8);
    });

    it("sells its gloves first when the sale pays for a load of hides it cannot buy now", () => {
      const shopping: GoalOption = { type: "shopping", description: "Buy a tool or making supplies", targets: ["cowhide"] };
      const selling: GoalOption = { type: "selling", description: "Sell items", targets: ["brackenford_general", "tawney_leatherworks"] };
      const gloves = Array.from({ length: 12 }, () => "leather_gloves");
      const c = focused(["bronze_pickaxe", "needle", "thread", ...gloves], [...training, combat, shopping, selling], { coins: 2 });
      assert.deepEqual([c.type, c.target], ["selling", "tawney_leatherworks"]);
    });

    it("keeps its hides, ores and bars from a sale, and sells spare gloves when short of coins", () => {
      const selling: GoalOption = { type: "selling", description: "Sell items", targets: ["brackenford_general", "tawney_leatherworks"] };
      const brain = new ScriptedBrain(know, "f");
      const gloves = Array.from({ length: 5 }, () => "leather_gloves");
      const c = brain.choose(
        obs(["needle", "thread", "cowhide", "copper_ore", ...gloves], [selling, { type: "idle", description: "Stand still", targets: [] }], {
          focus: "making",
          skills,
          coins: 5,
        }),
      );
      assert.deepEqual([c.type, c.target], ["selling", "tawney_leatherworks"]);
      assert.ok(brain.keep("cowhide") && brain.keep("copper_ore") && brain.keep("bronze_bar") && brain.keep("leather"));
      assert.equal(brain.keep("leather_gloves"), false);
      // Unfocused, it keeps none of them and makes no trip for 16 coins of spare gloves.
      const plain = new ScriptedBrain(know, "f");
      assert.equal(plain.choose(obs(gloves, [selling, { type: "idle", description: "Stand still", targets: [] }], { skills, coins: 5 })).type, "idle");
      assert.equal(plain.keep("cowhide"), false);
    });

    it("makes before a quest (the focus's score passes a quest in progress), and sells first when stuck for the tanner's fee or thread", () => {
      const scored = makingScore(making, obs(["cowhide"], [], { focus: "making", skills }), know)!;
      assert.equal(scored.score, FOCUSED_MAKING);
      assert.ok(scored.score + FOCUS_BONUS > QUEST_DOING, `${scored.score} + ${FOCUS_BONUS} against ${QUEST_DOING}`);
      assert.equal(makingScore(making, obs(["cowhide"], [], { skills }), know)!.score, 70, "unfocused: as before");

      const stuck = (inv: string[], coins: number, focused = true) => makingStuck(obs(inv, [], { focus: focused ? "making" : undefined, skills, coins }), know);
      assert.equal(stuck(["cowhide"], 0), true, "a hide and not a coin for the tanner");
      assert.equal(stuck(["cowhide"], 1), false);
      assert.equal(stuck(["needle", "leather"], 1), true, "leather, no thread, and not the 2 coins of one");
      assert.equal(stuck(["needle", "leather", "thread"], 0), false);
      assert.equal(stuck(["cowhide"], 0, false), false, "no focus: never");

      const selling: GoalOption = { type: "selling", description: "Sell items", targets: ["brackenford_general", "tawney_leatherworks"] };
      const gloves = ["leather_gloves", "leather_gloves", "leather_gloves"];
      const c = focused(["bronze_pickaxe", "needle", "cowhide", ...gloves], [...training, combat, selling], { coins: 0 });
      assert.deepEqual([c.type, c.target], ["selling", "tawney_leatherworks"]);
      // Nothing but its inputs to sell: stuck, it sells them too (hides and logs), or it would never have a coin again.
      const brain = new ScriptedBrain(know, "f");
      const hides = Array.from({ length: HIDE_LOAD }, () => "cowhide");
      const s2 = brain.choose(obs(["needle", ...hides, "logs", "logs"], [...training, combat, selling], { focus: "making", skills, coins: 0 }));
      assert.equal(s2.type, "selling");
      assert.equal(brain.keep("cowhide"), false);
      brain.choose(obs(["needle", ...hides], [...training, combat, selling], { focus: "making", skills, coins: 5 }));
      assert.equal(brain.keep("cowhide"), true, "with a coin for the tanner: kept");
    });

    it("keeps coins for its chains before buying a tool of no making chain (a fishing net, a better hatchet), not before a pickaxe", () => {
      assert.equal(makingPurse(obs([], [], { focus: "making" }), know, "small_fishing_net"), MAKING_PURSE);
      assert.equal(makingPurse(obs([], [], { focus: "making" }), know, "bronze_pickaxe"), 0);
      assert.equal(makingPurse(obs([], [], {}), know, "small_fishing_net"), 0);
      const shopping: GoalOption = { type: "shopping", description: "Buy a tool", targets: ["small_fishing_net"] };
      const idle: GoalOption = { type: "idle", description: "Stand still", targets: [] };
      assert.equal(focused([], [shopping, idle], { coins: 30 }).type, "idle", "30 coins: the net waits");
      assert.equal(new ScriptedBrain(know, "f").choose(obs([], [shopping, idle], { coins: 30 })).type, "shopping", "unfocused: bought");
      // A better hatchet neither: an iron one at woodcutting 10 with 200 coins is bought unfocused only.
      const tiers = ["iron_hatchet"];
      const wc = { ...skills, woodcutting: { level: 10, xp: 0 } };
      assert.equal(tierUpgrade(know, obs(["bronze_hatchet"], [], { skills: wc, coins: 200 }), tiers)?.itemId, "iron_hatchet");
      assert.equal(tierUpgrade(know, obs(["bronze_hatchet"], [], { skills: wc, coins: 200, focus: "making" }), tiers), undefined);
    });
  });
});
