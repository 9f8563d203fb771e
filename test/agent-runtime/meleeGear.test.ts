/**
 * A fighter's armour (agent-runtime/brain/fighting.ts armourWorth, armourUpgrade, armourToWear; their
 * use in scripted.ts, focus.ts and fight.ts), against the default world's content: under `focus
 * melee` its coins buy a better weapon first, then the armour adding the most defence a coin, before
 * any tool; a Fight puts on the armour it carries that beats what it wears.
 */
import assert from "node:assert/strict";
import type { Self } from "../../agent-runtime/AgentView.ts";
import type { Observation } from "../../agent-runtime/brain/Brain.ts";
import { Fight } from "../../agent-runtime/brain/fight.ts";
import { armourToWear, armourUpgrade, armourWorth, WEAPON_RESERVE } from "../../agent-runtime/brain/fighting.ts";
import { FOCUS_BONUS, focusBonus } from "../../agent-runtime/brain/focus.ts";
import { pendingQuestXp, questBudgetStyle, questMakeInputs } from "../../agent-runtime/brain/meleeFocus.ts";
import { MELEE_BANK_SCORE, MELEE_ROOM, ScriptedBrain, WEAPON_SCORE } from "../../agent-runtime/brain/scripted.ts";
import { MELEE_QUEST_LIFT, QUEST_START } from "../../agent-runtime/brain/questChoice.ts";
import { knowledgeOf, type Knowledge } from "../../agent-runtime/knowledge.ts";
import { availableGoals } from "../../src/agents/AgentService.ts";
import type { PlayerData } from "../../src/game/world/Player.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { bundledContent } from "../support/content.ts";
import { LIFEPOINTS_PER_DEFENCE, meleeArmourFloor } from "../../agent-runtime/brain/meleeFood.ts";
import { ctxOf, observation, questList, selfOf, viewOf } from "./support.ts";

describe("agent focus melee: armour", () => {
  let know: Knowledge;
  let shopping: string[];
  before(async () => {
    const content = await bundledContent();
    know = knowledgeOf(content);
    const data = {
      skills: Object.fromEntries(SKILLS.map((k) => [k, { level: 1, xpTenths: 0 }])),
      inventory: [{ slot: 0, itemId: "bronze_hatchet", quantity: 1 }],
      equipment: {},
      bank: [],
      quests: {},
    } as unknown as PlayerData;
    shopping = availableGoals(content, data).find((g) => g.type === "shopping")!.targets;
  });

  const levels = { attack: { level: 1 }, strength: { level: 1 }, defense: { level: 1 } };
  const kit = (coins: number, inventory: string[] = [], equipment: Record<string, string> = {}) => ({
    skills: levels,
    coins,
    inventory: inventory.map((itemId) => ({ itemId })),
    equipment,
  });

  it("counts armour's melee defence as the server does, and buys the most defence a coin once it holds a weapon", () => {
    // The mean of stab, slash and crush, rounded (src/game/combat.ts playerBonuses).
    assert.equal(armourWorth(know, "bronze_full_helm"), 4);
    assert.equal(armourWorth(know, "leather_body"), 8);
    assert.equal(armourWorth(know, "bronze_platebody"), 12);
    assert.equal(armourWorth(know, "bronze_sword"), undefined, "a weapon is no armour");
    assert.equal(armourUpgrade(know, kit(500), shopping), undefined, "no weapon yet: the coins go to one first");
    // A leather body: 36 coins for +8, the most a coin; then the bronze helm (35 for +4).
    assert.equal(armourUpgrade(know, kit(40 + WEAPON_RESERVE, ["bronze_sword"]), shopping)?.itemId, "leather_body");
    assert.equal(armourUpgrade(know, kit(40 + WEAPON_RESERVE, [], { weapon: "bronze_sword", body: "leather_body" }), shopping)?.itemId, "bronze_full_helm");
    // 30 coins buy leather gloves (+1 for 10: 0.1 a coin), but it saves for the body (0.22 a coin).
    assert.equal(armourUpgrade(know, kit(30 + WEAPON_RESERVE, [], { weapon: "bronze_sword" }), shopping), undefined, "saves for the leather body");
    // With the body: the helm (0.114 a coin) is within ARMOUR_VALUE_SHARE of the kiteshield (7 for 60: 0.117).
    assert.equal(armourUpgrade(know, kit(35 + WEAPON_RESERVE, [], { weapon: "bronze_sword", body: "leather_body" }), shopping)?.itemId, "bronze_full_helm");
    // The vambraces a quest gave (+2) beat leather gloves (+1): not bought.
    const held = kit(12 + WEAPON_RESERVE, ["leather_vambraces", "leather_boots"], { weapon: "bronze_dagger" });
    assert.equal(armourUpgrade(know, held, shopping), undefined);
    // WEAPON_RESERVE kept, as for a weapon (a quest's fee, a loaf): 36 coins do not buy the 36-coin body.
    assert.equal(armourUpgrade(know, kit(36 + WEAPON_RESERVE - 1, [], { weapon: "bronze_sword" }), shopping), undefined);
  });

  const obs = (over: Partial<Observation> = {}): Observation =>
    observation({
      coins: 95,
      skills: Object.fromEntries(
        ["attack", "strength", "defense", "constitution", "fishing", "mining", "woodcutting"].map((s) => [s, { level: s === "constitution" ? 10 : 1, xp: 0 }]),
      ),
      inventory: [{ slot: 0, itemId: "bronze_hatchet", quantity: 1 }],
      freeSlots: 27,
      focus: "melee",
      // Its quests done: no quest's food to lay in (meleeFood.ts questProvision).
      quests: questList(know, [...know.registry.quests.quests.keys()]),
      ...over,
    });

  it("under focus melee, the shopping goal buys the weapon, then armour, before a tool (which hid the weapon: runs of 12:13, 95 coins and no sword)", () => {
    const options = [
      { type: "shopping" as const, description: "", targets: shopping },
      { type: "combat" as const, description: "", targets: ["brindle_cow"] },
    ];
    const c = new ScriptedBrain(know, "s1").choose(obs({ availableGoals: options }));
    assert.deepEqual([c.type, c.target], ["shopping", "bronze_sword"]);
    assert.equal(focusBonus({ type: "shopping", target: "leather_body", reason: "" }, obs(), know), FOCUS_BONUS);
    const armed = obs({ availableGoals: options, coins: 40 + WEAPON_RESERVE, equipment: { weapon: "bronze_sword" } });
    const d = new ScriptedBrain(know, "s1").choose(armed);
    assert.deepEqual([d.type, d.target], ["shopping", "leather_body"], d.reason);
    assert.ok(WEAPON_SCORE + FOCUS_BONUS > 95, "above fighting on");
    // 20 coins short of a sword and its reserve, and no weapon: it fights on.
    assert.equal(new ScriptedBrain(know, "s1").choose(obs({ availableGoals: options, coins: 25 + WEAPON_RESERVE - 1 })).type, "combat");
  });

  it("under focus melee, buys no armour worth less than the food its coins buy (meleeArmourFloor: a loaf's 40 lifepoints for 12 coins)", () => {
    // 40 / 12 lifepoints a coin, at LIFEPOINTS_PER_DEFENCE a point of defence: 0.139 defence a coin.
    assert.ok(Math.abs(meleeArmourFloor(know) - 40 / 12 / LIFEPOINTS_PER_DEFENCE) < 1e-9);
    const floor = meleeArmourFloor(know);
    // The leather body (+8 for 36: 0.22 a coin) is above it; the bronze helm (+4 for 35), leather gloves and boots (+1 for 10) below.
    assert.equal(armourUpgrade(know, kit(40 + WEAPON_RESERVE, ["bronze_sword"]), shopping, floor)?.itemId, "leather_body");
    assert.equal(armourUpgrade(know, kit(200, [], { weapon: "bronze_sword", body: "leather_body" }), shopping, floor), undefined);
    // Without the floor (another focus) the most defence a coin is bought: the kiteshield (+7 for 60).
    assert.equal(armourUpgrade(know, kit(200, [], { weapon: "bronze_sword", body: "leather_body" }), shopping)?.itemId, "bronze_kiteshield");
    // The shopping goal under focus melee: with the body on, 60 coins go to no armour (the combat it fights on instead).
    const options = [
      { type: "shopping" as const, description: "", targets: shopping },
      { type: "combat" as const, description: "", targets: ["brindle_cow"] },
    ];
    const c = new ScriptedBrain(know, "s1").choose(obs({ availableGoals: options, coins: 60, equipment: { weapon: "bronze_sword", body: "leather_body" } }));
    assert.equal(c.type, "combat", c.reason);
  });

  it("a fight puts on the armour it carries that beats what it wears, one piece at a time", () => {
    const self = selfOf({
      combatStyle: "aggressive",
      skills: { attack: { level: 1, xp: 0 }, strength: { level: 1, xp: 0 }, defense: { level: 1, xp: 0 } },
      inventory: [
        { slot: 2, itemId: "leather_gloves", quantity: 1 },
        { slot: 5, itemId: "leather_body", quantity: 1 },
      ],
      equipment: { weapon: { itemId: "bronze_sword", quantity: 1 }, gloves: { itemId: "leather_vambraces", quantity: 1 } },
    });
    assert.deepEqual(armourToWear(know, self), { slot: 5, itemId: "leather_body" }, "not the gloves: the vambraces are better");
    const spot = know.mobSpots.get("brindle_cow")![0]!;
    const view = viewOf(self, spot);
    const { ctx, sent } = ctxOf(know, view, "wear");
    const fight = new Fight("brindle_cow");
    for (let t = 0; t < 3; t++) {
      ctx.tick = t;
      fight.step(ctx);
    }
    assert.deepEqual(
      sent.filter((m) => m.type === "inventory:use"),
      [{ type: "inventory:use", data: { slot: 5 } }],
    );
    // Burnt food is dropped between blows (it heals nothing and no store buys it).
    view.sync({ ...self, inventory: [{ slot: 7, itemId: "burnt_fish", quantity: 1 }] });
    for (let t = 3; t < 6; t++) {
      ctx.tick = t;
      fight.step(ctx);
    }
    assert.ok(sent.some((m) => m.type === "player:action" && m.data.action === "dropAll" && m.data.targetId === "burnt_fish"));
  });

  it("under focus melee, makes nothing (a tanning goal stalled 600 ticks while it healed)", () => {
    const making = { type: "making" as const, description: "", targets: ["tanning:leather"] };
    const idle = { type: "idle" as const, description: "", targets: [] };
    const inventory = [{ slot: 0, itemId: "cowhide", quantity: 1 }];
    assert.equal(new ScriptedBrain(know, "s1").choose(obs({ availableGoals: [making, idle], inventory, coins: 20 })).type, "idle");
    assert.equal(new ScriptedBrain(know, "s1").choose(obs({ availableGoals: [making, idle], inventory, coins: 20, focus: undefined })).type, "making");
  });

  it("under focus melee, a crowd at the cows sends it to the next monster, not to a quest besides the focus", () => {
    const options = [
      { type: "combat" as const, description: "", targets: ["brindle_cow", "meadow_rat", "mossback_toad"] },
      { type: "quest" as const, description: "", targets: ["orlas_commission"] },
    ];
    const crowded = [{ type: "combat", target: "brindle_cow", outcome: "failed" as const, crowded: true }];
    for (const seed of ["s1", "s2", "s3"]) {
      const c = new ScriptedBrain(know, seed).choose(obs({ availableGoals: options, recentGoals: crowded }));
      assert.equal(c.type, "combat", `${seed}: ${c.reason}`);
      assert.notEqual(c.target, "brindle_cow");
    }
  });

  it("under focus melee, its first coins buy no tool of making (a needle, thread) but the net that catches its food", () => {
    const options = [{ type: "shopping" as const, description: "", targets: ["needle", "thread", "small_fishing_net"] }];
    const inventory = [
      { slot: 0, itemId: "bronze_hatchet", quantity: 1 },
      { slot: 1, itemId: "leather", quantity: 1 },
    ];
    const c = new ScriptedBrain(know, "s1").choose(obs({ availableGoals: options, coins: 10, inventory }));
    assert.deepEqual([c.type, c.target], ["shopping", "small_fishing_net"], c.reason);
    const net = [...inventory, { slot: 2, itemId: "small_fishing_net", quantity: 1 }];
    assert.notEqual(new ScriptedBrain(know, "s1").choose(obs({ availableGoals: options, coins: 10, inventory: net })).type, "shopping");
    const unfocused = new ScriptedBrain(know, "s1").choose(obs({ availableGoals: options, coins: 10, inventory: net, focus: undefined }));
    assert.equal(unfocused.type, "shopping", "unfocused: a tool of making as before");
  });

  it("under focus melee, banks for room before it fights or fishes on with MELEE_ROOM free slots or fewer", () => {
    const options = [
      { type: "banking" as const, description: "", targets: [] },
      { type: "combat" as const, description: "", targets: ["brindle_cow"] },
    ];
    const logs = Array.from({ length: 4 }, (_, i) => ({ slot: i + 1, itemId: "logs", quantity: 1 }));
    const inventory = [{ slot: 0, itemId: "bronze_hatchet", quantity: 1 }, ...logs];
    const food = Array.from({ length: 4 }, (_, i) => ({ slot: i + 1, itemId: "raw_meat", quantity: 1 }));
    for (const seed of ["s1", "s2", "s3"]) {
      assert.equal(new ScriptedBrain(know, seed).choose(obs({ availableGoals: options, inventory, freeSlots: MELEE_ROOM })).type, "banking", seed);
      assert.equal(new ScriptedBrain(know, seed).choose(obs({ availableGoals: options, inventory, freeSlots: MELEE_ROOM + 1 })).type, "combat", seed);
      // Nothing a trip frees (food and tools): no trip.
      const kept = [{ slot: 0, itemId: "bronze_hatchet", quantity: 1 }, ...food];
      assert.equal(new ScriptedBrain(know, seed).choose(obs({ availableGoals: options, inventory: kept, freeSlots: 2 })).type, "combat", seed);
    }
    // What its quests still make things from is kept at the bank: Hides for the Vats' two cowhides.
    assert.equal(questMakeInputs(know, { quests: [] }).get("cowhide"), 2);
    assert.equal(
      questMakeInputs(know, { quests: [{ id: "hides_for_the_vats", name: "", status: "completed", stage: null, stageText: "" }] }).get("cowhide"),
      undefined,
    );
    assert.ok(MELEE_BANK_SCORE < MELEE_QUEST_LIFT + QUEST_START + FOCUS_BONUS, "below a melee quest");
  });

  it("under focus melee, leaves out of training a melee skill the quests to come will take to 10 (Strength at 8 before Tusks and Hides)", () => {
    const completed = (ids: string[]) => questList(know, ids);
    // Settler 100 Attack; Hides 150 Strength, 150 Defence; Tusks 200 Attack, 250 Strength; The Drowned Watch 200 Defence.
    assert.deepEqual(pendingQuestXp(know, { focus: "melee", quests: completed([]) }), { attack: 300, strength: 400, defense: 350 });
    assert.deepEqual(pendingQuestXp(know, { focus: "melee", quests: completed(["settlers_charter", "hides_for_the_vats"]) }), {
      attack: 200,
      strength: 250,
      defense: 200,
    });
    assert.deepEqual(pendingQuestXp(know, { focus: undefined, quests: [] }), {});
    const self = {
      combatStyle: "aggressive",
      equipment: { weapon: { itemId: "bronze_sword", quantity: 1 } },
      skills: { attack: { level: 5, xp: 388 }, strength: { level: 8, xp: 801 }, defense: { level: 5, xp: 388 } },
    } as unknown as Self;
    // The ordinary order trains Strength (8 < Attack 5 + 5); with 400 Strength xp to come (801 + 400 ≥ 1,154) it trains Attack.
    assert.equal(questBudgetStyle(self, know, {})?.skill, undefined);
    assert.equal(questBudgetStyle(self, know, { strength: 400 })?.skill, "attack");
    assert.equal(questBudgetStyle(self, know, { strength: 200 }), undefined, "801 + 200 short of 1,154: the ordinary order");
  });
});
