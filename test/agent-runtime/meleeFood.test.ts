/**
 * `focus melee`'s food (agent-runtime/brain/meleeFood.ts, and its use in scripted.ts, focus.ts and
 * goalBehaviour.ts), against the default world's content: the meat it carries is cooked before it
 * fights on; hurt with nothing to eat it buys food, else fishes for it; and it lays in the food a
 * quest's fights need (Tusks in the Hollow's boars), bought or fished and cooked, before the quest.
 */
import assert from "node:assert/strict";
import type { Observation } from "../../agent-runtime/brain/Brain.ts";
import { FOCUS_BONUS } from "../../agent-runtime/brain/focus.ts";
import {
  cookedWorth,
  cookForFight,
  enoughFood,
  needsFood,
  fishWorth,
  FOOD_TRIP_ROOM,
  foodCounts,
  foodPurchase,
  MELEE_FISH_STOCK,
  MELEE_FOOD_BUY,
  provisionShort,
  provisionTarget,
  burnSpread,
  questOpen,
  shortOfAKill,
  questProvision,
} from "../../agent-runtime/brain/meleeFood.ts";
import { killCost, questFees, questFoodShort } from "../../agent-runtime/brain/meleeFocus.ts";
import { QUEST_START } from "../../agent-runtime/brain/questChoice.ts";
import { COOK_FOR_FIGHT, PROVISION_BUY, PROVISION_SCORE, ScriptedBrain } from "../../agent-runtime/brain/scripted.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import { burnChance } from "../../src/game/cookingBurn.ts";
import { bundledKnowledge, fighterObservation, questList, questOptionOf, skillsAt } from "./support.ts";

describe("agent focus melee: food", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });

  const skills = skillsAt;
  const obs = (over: Partial<Observation> = {}): Observation => fighterObservation({ quests: allDone(), ...over });
  const quest = questOptionOf;
  // Every quest serving the focus done: what is left is the food of the fights themselves.
  const allDone = () => questList(know, [...know.registry.quests.quests.keys()]);
  const pack = (itemId: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ slot: from + i, itemId, quantity: 1 }));

  it("cooks the meat it carries before fighting on with little food", () => {
    assert.equal(cookForFight(obs(), 0, 4), true);
    assert.equal(cookForFight(obs(), 3, 1), true, "enough raw to make up the food it wants");
    assert.equal(cookForFight(obs(), 2, 1), false, "too little to be worth the walk while healthy");
    assert.equal(cookForFight(obs({ health: 60 }), 2, 1), true, "any raw food while hurt");
    assert.equal(cookForFight(obs(), 4, 5), false, "food enough");
    assert.equal(cookForFight(obs({ focus: undefined }), 0, 4), false, "only under the focus");
    const meat = [1, 2, 3, 4].map((slot) => ({ slot, itemId: "raw_meat", quantity: 1 }));
    for (let seed = 0; seed < 10; seed++) {
      const c = new ScriptedBrain(know, `s${seed}`).choose(
        obs({
          inventory: [{ slot: 0, itemId: "bronze_hatchet", quantity: 1 }, ...meat],
          availableGoals: [
            { type: "cooking", description: "", targets: [] },
            { type: "combat", description: "", targets: ["brindle_cow"] },
          ],
        }),
      );
      assert.equal(c.type, "cooking", `seed ${seed}`);
    }
    assert.ok(COOK_FOR_FIGHT + FOCUS_BONUS < QUEST_START + FOCUS_BONUS, "a melee quest still comes first");
  });

  it("buys food while hurt with nothing to eat: the most lifepoints a coin, as many as its coins and slots allow", () => {
    const targets = ["bread", "cooked_meat", "shrimp", "bronze_sword"];
    // Bread: 4 hitpoints for 12 coins beats cooked meat's and shrimp's 3 for 10 (stores.json, items/food.json).
    // The price rises about 3 % a loaf as the stock falls (src/game/store.ts purchaseCost): five cost 62, four 49.
    assert.deepEqual(foodPurchase(know, obs({ health: 40, coins: 60, freeSlots: 20 }), targets), {
      itemId: "bread",
      storeId: "brackenford_general",
      price: 12,
      quantity: 4,
    });
    assert.equal(foodPurchase(know, obs({ health: 40, coins: 62, freeSlots: 20 }), targets)?.quantity, 5);
    // Hides for the Vats still to do: its tanning fee (a coin a hide, two hides) and a needle for the gloves (1) are kept.
    const hides = questList(know, ["settlers_charter", "kettle_supper"]);
    assert.equal(questFees(know, obs({ quests: hides })), 3);
    assert.equal(questFees(know, obs()), 0, "its quests done: nothing to keep");
    // Supper at the Kettle to do without a fishing net: the net's 8 coins are kept too (a run of
    // 23:25 spent them on bread and a dagger, and the quest failed "nor the coins for one").
    const kettle = questList(know, ["settlers_charter", "hides_for_the_vats", "tusks_in_the_hollow", "the_drowned_watch", "keeping_your_footing"]);
    assert.equal(questFees(know, obs({ quests: kettle })), 8);
    assert.equal(questFees(know, obs({ quests: kettle, inventory: [{ slot: 0, itemId: "small_fishing_net", quantity: 1 }] })), 0, "the net in hand");
    assert.equal(
      foodPurchase(know, obs({ health: 40, coins: 49, freeSlots: 20, quests: kettle }), targets)?.quantity,
      3,
      "49 coins buy four loaves; less the net's 8, three",
    );
    assert.equal(foodPurchase(know, obs({ health: 40, coins: 62, freeSlots: 20, quests: hides }), targets)?.quantity, 4);
    assert.equal(foodPurchase(know, obs({ health: 40, coins: 500, freeSlots: 20 }), targets)?.quantity, MELEE_FOOD_BUY, "a few fights' worth");
    assert.equal(foodPurchase(know, obs({ health: 40, coins: 500, freeSlots: 3 }), targets)?.quantity, 3, "no more than its free slots");
    assert.equal(foodPurchase(know, obs({ health: 40, coins: 20, freeSlots: 20 }), targets), undefined, "one loaf is no trip");
    // Healthy enough to finish a cow (about 35 lifepoints at 3/4/2 with a sword: meleeFocus.ts killCost): it fights.
    const armed = { skills: skills({ attack: 3, strength: 4, defense: 2 }), equipment: { weapon: "bronze_sword" } };
    assert.equal(foodPurchase(know, obs({ health: 90, coins: 60, freeSlots: 20, ...armed }), targets), undefined, "healthy: it fights");
    assert.equal(shortOfAKill(know, obs({ health: 90, ...armed })), false);
    // At 1/1/1 unarmed a cow costs about 86, more than the 60 above where it would leave the fight: food first.
    assert.equal(shortOfAKill(know, obs({ health: 90 })), true);
    assert.equal(foodPurchase(know, obs({ health: 90, coins: 60, freeSlots: 20 }), targets)?.itemId, "bread");
    assert.equal(shortOfAKill(know, obs({ health: 100 })), false, "at full health it fights anyway");
    assert.equal(shortOfAKill(know, obs({ health: 90, inventory: pack("cooked_meat", 1) })), false, "a meat makes up the difference");
    // The brain fishes rather than begin a cow it would leave standing, under every seed.
    for (let seed = 0; seed < 10; seed++) {
      const c = new ScriptedBrain(know, `s${seed}`).choose(
        obs({
          health: 90,
          inventory: [{ slot: 0, itemId: "small_fishing_net", quantity: 1 }],
          availableGoals: [
            { type: "fishing", description: "", targets: ["fishing_spot_net"] },
            { type: "combat", description: "", targets: ["brindle_cow"] },
          ],
        }),
      );
      assert.equal(c.type, "fishing", `seed ${seed}: ${c.reason}`);
    }
    assert.equal(foodPurchase(know, obs({ health: 40, coins: 60, freeSlots: 20, focus: undefined }), targets), undefined, "only under the focus");
    assert.equal(foodPurchase(know, obs({ health: 40, coins: 60, freeSlots: 20 }), ["bronze_sword"]), undefined, "no food on offer");
    const carrying = obs({ health: 40, coins: 60, freeSlots: 20, inventory: [{ slot: 0, itemId: "raw_meat", quantity: 1 }] });
    assert.equal(foodPurchase(know, carrying, targets), undefined, "raw meat to cook first");
    // The brain buys it before fishing for it, under every seed.
    for (let seed = 0; seed < 10; seed++) {
      const c = new ScriptedBrain(know, `s${seed}`).choose({
        ...obs({ health: 40, coins: 60, freeSlots: 20, inventory: [{ slot: 0, itemId: "small_fishing_net", quantity: 1 }] }),
        availableGoals: [
          { type: "shopping", description: "", targets },
          { type: "fishing", description: "", targets: ["fishing_spot_net"] },
        ],
      });
      assert.deepEqual([c.type, c.target], ["shopping", "bread"], `seed ${seed}: ${c.reason}`);
    }
  });

  it("fishes for food until it carries MELEE_FISH_STOCK pieces, cooked or raw", () => {
    const pack = (n: number, itemId: string) => Array.from({ length: n }, (_, slot) => ({ slot, itemId, quantity: 1 }));
    assert.equal(enoughFood(obs({ inventory: pack(MELEE_FISH_STOCK - 1, "raw_shrimp") }), know), false);
    assert.equal(enoughFood(obs({ inventory: pack(MELEE_FISH_STOCK, "raw_shrimp") }), know), true);
    assert.equal(enoughFood(obs({ inventory: [...pack(5, "shrimp"), ...pack(5, "raw_meat").map((s) => ({ ...s, slot: s.slot + 5 }))] }), know), true);
    assert.equal(enoughFood(obs({ inventory: pack(MELEE_FISH_STOCK, "logs") }), know), false, "logs are no food");
  });

  it("fishes for food when short of a kill with nothing to cook, before a quest besides the focus", () => {
    assert.equal(needsFood(know, obs({ health: 50 })), true);
    assert.equal(
      needsFood(know, obs({ health: 50, inventory: [...pack("cooked_meat", 1), ...pack("raw_meat", 3, 1)] })),
      false,
      "the raw food it carries is cooked first",
    );
    assert.equal(needsFood(know, obs({ health: 50, inventory: pack("raw_meat", 1) })), false, "even one");
    assert.equal(needsFood(know, obs({ health: 100 })), false, "at full health it fights");
    assert.equal(needsFood(know, obs({ health: 50, focus: undefined })), false, "only under the focus");
    // A cow at 6/9/6 in leather with a sword costs some 20: at 60 % with nothing to eat it fights on
    // (the cows drop meat); before, below 70 % it went fishing.
    const leather = {
      skills: skills({ attack: 6, strength: 9, defense: 6 }),
      equipment: { weapon: "bronze_sword", body: "leather_body", gloves: "leather_gloves", boots: "leather_boots" },
    };
    assert.ok(killCost(know, obs(leather), "brindle_cow") < 30, `${killCost(know, obs(leather), "brindle_cow")}`);
    assert.equal(needsFood(know, obs({ health: 60, ...leather })), false);
    assert.equal(needsFood(know, obs({ health: 40, ...leather })), true, "below what a kill costs above the 30 % it leaves at");
    for (let seed = 0; seed < 10; seed++) {
      const fighting = new ScriptedBrain(know, `s${seed}`).choose(
        obs({
          health: 60,
          ...leather,
          inventory: pack("small_fishing_net", 1),
          availableGoals: [
            { type: "fishing", description: "", targets: ["fishing_spot_net"] },
            { type: "combat", description: "", targets: ["brindle_cow"] },
          ],
        }),
      );
      assert.equal(fighting.type, "combat", `seed ${seed}: ${fighting.reason}`);
    }
    // Below 40 %: no fight even with the one meat (scripted.ts).
    const hurt = obs({
      health: 35,
      inventory: [
        { slot: 0, itemId: "small_fishing_net", quantity: 1 },
        { slot: 1, itemId: "cooked_meat", quantity: 1 },
      ],
      // Hides for the Vats done: no quest's food to lay in, only its own.
      quests: questList(know, ["settlers_charter", "kettle_supper", "hides_for_the_vats"]),
      availableGoals: [
        { type: "fishing", description: "", targets: ["fishing_spot_net"] },
        quest("orlas_commission"),
        { type: "combat", description: "", targets: ["brindle_cow"] },
      ],
    });
    assert.deepEqual(foodCounts(hurt, know), { food: 1, raw: 0 });
    for (let seed = 0; seed < 10; seed++) {
      const c = new ScriptedBrain(know, `s${seed}`).choose(hurt);
      assert.deepEqual([c.type, c.reason], ["fishing", "fish for food (1 to eat)"], `seed ${seed}`);
    }
    assert.equal(new ScriptedBrain(know, "s1").choose({ ...hurt, focus: undefined }).type, "quest", "unfocused: the quest as before");
  });

  // A fighter at 5/8/6 in bronze, full at 110, Fishing and Cooking 5, its quests but Tusks in the
  // Hollow done: nothing left to buy for its coins below the iron full helm's 100 (gear first).
  const bronze = {
    weapon: "bronze_sword",
    helmet: "bronze_full_helm",
    body: "bronze_platebody",
    legs: "bronze_platelegs",
    shield: "bronze_kiteshield",
    boots: "leather_boots",
    gloves: "leather_vambraces",
    cape: "brackenford_cape",
  };
  const tusksReady = (over: Partial<Observation> = {}): Observation =>
    obs({
      health: 110,
      maxHealth: 110,
      coins: 0,
      freeSlots: 18,
      combatLevel: 8,
      skills: skills({ attack: 5, strength: 8, defense: 6, fishing: 5, cooking: 5 }),
      equipment: bronze,
      inventory: [{ slot: 0, itemId: "small_fishing_net", quantity: 1 }],
      quests: questList(know, ["settlers_charter", "kettle_supper", "hides_for_the_vats", "the_drowned_watch", "keeping_your_footing"]),
      ...over,
    });

  it("reckons raw food at its cooked worth: what the cooked food heals less the share that burns", () => {
    const meat = know.registry.recipes.cooking.find((r) => r.raw === "raw_meat")!;
    // src/game/cookingBurn.ts: 60 % at the recipe's level, none from its stop-burn level (raw meat: 30 on a fire, 28 on a range).
    assert.equal(burnChance(meat, 1, "fire"), 0.6);
    assert.equal(burnChance(meat, 30, "fire"), 0);
    assert.equal(burnChance(meat, 28, "range"), 0);
    assert.ok(burnChance(meat, 10, "range") < burnChance(meat, 10, "fire"), "a range burns less");
    assert.equal(cookedWorth(know, "raw_meat", 1), 30 * 0.4, "cooked meat heals 3 hitpoints; 60 % burns at Cooking 1");
    assert.equal(cookedWorth(know, "raw_meat", 30), 30);
    assert.equal(cookedWorth(know, "logs", 5), 0);
    // The net spot's shrimp and anchovies, their mean; with no net carried, the one it would buy.
    const net = fishWorth(know, tusksReady());
    assert.ok(Math.abs(net - (cookedWorth(know, "raw_shrimp", 5) + cookedWorth(know, "raw_anchovies", 5)) / 2) < 1e-9);
    assert.equal(fishWorth(know, tusksReady({ inventory: [] })), net);
    assert.ok(
      fishWorth(know, tusksReady({ inventory: [{ slot: 0, itemId: "fishing_rod", quantity: 1 }] })) > net,
      "the bait spot's herring and sardines, with a rod",
    );
  });

  it("lays in the food a quest's fights lack when it fits its pack and purse: Tusks in the Hollow's boars", () => {
    assert.equal(questOpen(know, tusksReady(), "tusks_in_the_hollow"), true);
    assert.equal(questOpen(know, tusksReady({ skills: skills({ attack: 2 }) }), "tusks_in_the_hollow"), false, "Attack 3 first");
    assert.equal(questOpen(know, tusksReady({ quests: questList(know, []) }), "tusks_in_the_hollow"), false, "Supper at the Kettle first");
    const short = questFoodShort(know, tusksReady(), "tusks_in_the_hollow");
    assert.ok(short > 100 && short < 200, `two boars at 5/8/6 cost more than its health: ${short}`);
    // In the hunt with one boar counted, half the fights are left.
    const hunting = tusksReady({
      quests: tusksReady().quests!.map((q) =>
        q.id === "tusks_in_the_hollow" ? { ...q, status: "in_progress" as const, stage: "hunt", progress: { count: 1, required: 2 } } : q,
      ),
    });
    const half = questFoodShort(know, hunting, "tusks_in_the_hollow", "hunt");
    assert.ok(Math.abs(half - ((short + 110 * 0.7) / 2 - 110 * 0.7)) < 1, `one boar left: ${half}`);
    assert.deepEqual(questProvision(know, tusksReady()), { questId: "tusks_in_the_hollow", lifepoints: Math.ceil(short) });
    // At 3/4/2, where the aggressive style hits 2, some 265: more than one trip's 15 slots of shrimp
    // (FOOD_TRIP_ROOM left) at their cooked worth (~180); with coins for bread, within reach. At 3/2/2
    // some 570: it trains first.
    const low = tusksReady({ skills: skills({ attack: 3, strength: 4, defense: 2, fishing: 5, cooking: 5 }) });
    const lowShort = questFoodShort(know, low, "tusks_in_the_hollow");
    assert.ok(lowShort > (18 - FOOD_TRIP_ROOM) * fishWorth(know, low), `${lowShort}`);
    assert.equal(questProvision(know, low), undefined);
    assert.equal(questProvision(know, { ...low, coins: 99 })?.questId, "tusks_in_the_hollow", "eight loaves and ten slots of shrimp");
    assert.equal(questProvision(know, tusksReady({ skills: skills({ attack: 3, strength: 2, defense: 2, fishing: 5, cooking: 5 }), coins: 99 })), undefined);
    // Gear first: with coins for a piece worth its coins in food (meleeArmourFloor: a leather body, 36 and WEAPON_RESERVE), no food is laid in yet.
    const { body: _body, ...noBody } = bronze;
    assert.equal(questProvision(know, tusksReady({ coins: 60, equipment: noBody })), undefined);
    // Not for one worth less than the food its coins buy: the iron full helm (+2 over the bronze one for 100 coins).
    assert.equal(questProvision(know, tusksReady({ coins: 120 }))?.questId, "tusks_in_the_hollow");
    // With the food in hand, nothing to lay in; nor under another focus.
    assert.equal(questProvision(know, tusksReady({ inventory: pack("bread", 10) })), undefined);
    assert.equal(questProvision(know, tusksReady({ focus: undefined })), undefined);
  });

  it("buys a quest's food to the last loaf its coins pay for, and fishes for the rest, before any fight", () => {
    const short = questFoodShort(know, tusksReady(), "tusks_in_the_hollow");
    assert.deepEqual(foodPurchase(know, tusksReady({ coins: 30 }), ["bread"]), {
      itemId: "bread",
      storeId: "brackenford_general",
      price: 12,
      quantity: 2,
      questId: "tusks_in_the_hollow",
    });
    assert.equal(foodPurchase(know, tusksReady({ coins: 99 }), ["bread"])?.quantity, Math.ceil(short / 40), "no more than it lacks");
    assert.equal(foodPurchase(know, tusksReady({ coins: 11 }), ["bread"]), undefined, "not a loaf");
    // Raw food carried counts at its cooked worth: the fishing trip stops there.
    assert.equal(provisionShort(know, tusksReady())?.lifepoints, Math.ceil(short));
    const target = provisionTarget(know, tusksReady())!;
    const worth = fishWorth(know, tusksReady());
    // What it lacks and one standard deviation of the burns (burnSpread: √(lacking × a catch's worth)), an ordinary trip at least.
    assert.equal(burnSpread(Math.ceil(short), worth), Math.sqrt(Math.ceil(short) * worth));
    assert.ok(burnSpread(Math.ceil(short), worth) > worth, "more than one catch");
    assert.equal(target, Math.max(Math.ceil(short) + burnSpread(Math.ceil(short), worth), MELEE_FISH_STOCK * worth));
    const fished = (n: number) => tusksReady({ inventory: [{ slot: 0, itemId: "small_fishing_net", quantity: 1 }, ...pack("raw_shrimp", n, 1)] });
    const enough = Math.ceil(target / cookedWorth(know, "raw_shrimp", 5) - 1e-9);
    assert.equal(enoughFood(fished(enough - 1), know, target), false);
    assert.equal(enoughFood(fished(enough), know, target), true);
    const fishing = { type: "fishing" as const, description: "", targets: ["fishing_spot_net"] };
    const fight = { type: "combat" as const, description: "", targets: ["brindle_cow"] };
    for (let seed = 0; seed < 10; seed++) {
      // With three meats in hand it would fight a cow; the quest's food comes first.
      const meat = pack("cooked_meat", 3, 1);
      const c = new ScriptedBrain(know, `s${seed}`).choose(
        tusksReady({ inventory: [{ slot: 0, itemId: "small_fishing_net", quantity: 1 }, ...meat], availableGoals: [fishing, fight] }),
      );
      assert.deepEqual([c.type, c.reason], ["fishing", `fish for food for Tusks in the Hollow (${Math.ceil(short) - 90} lifepoints short)`], `seed ${seed}`);
      // Bought when its coins pay for a loaf.
      const b = new ScriptedBrain(know, `s${seed}`).choose(
        tusksReady({ coins: 60, availableGoals: [fishing, fight, { type: "shopping", description: "", targets: ["bread"] }] }),
      );
      assert.deepEqual([b.type, b.target], ["shopping", "bread"], `seed ${seed}: ${b.reason}`);
      // The raw fish cooked before it sets out.
      const k = new ScriptedBrain(know, `s${seed}`).choose({
        ...fished(4),
        availableGoals: [fishing, fight, { type: "cooking", description: "", targets: [] }],
      });
      assert.equal(k.type, "cooking", `seed ${seed}: ${k.reason}`);
      // With the food in hand, the quest.
      const q = new ScriptedBrain(know, `s${seed}`).choose(
        tusksReady({ inventory: pack("bread", 10), availableGoals: [fishing, fight, quest("tusks_in_the_hollow")] }),
      );
      assert.deepEqual([q.type, q.target], ["quest", "tusks_in_the_hollow"], `seed ${seed}`);
    }
    assert.ok(PROVISION_SCORE < PROVISION_BUY);
  });
});
