/**
 * The scripted policy and quests it cannot get on with (agent-runtime/brain/questChoice.ts,
 * scripted.ts), against the default world's content: a quest given up where it stood twice lately
 * waits below training (remembered as a crowded spot is), and a skill level a quest asks for makes
 * the goal that trains it come first, "for quest X". And the fight that a quest's kill stage and
 * the training need: a bow (which shoots only with arrows equipped) is never the weapon it takes.
 */
import assert from "node:assert/strict";
import type { Self } from "../../agent-runtime/AgentView.ts";
import { RECENT_GOALS, type GoalOption, type Observation } from "../../agent-runtime/brain/Brain.ts";
import { Fight } from "../../agent-runtime/brain/fight.ts";
import {
  QUEST_DOING,
  QUEST_STALLED,
  QUEST_START,
  QUEST_TRAINING,
  questScore,
  questSkillNeeds,
  stalledAttempts,
} from "../../agent-runtime/brain/questChoice.ts";
import { ScriptedBrain } from "../../agent-runtime/brain/scripted.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import { bundledKnowledge, ctxOf, observation, questList, viewOf } from "./support.ts";

type Recent = Observation["recentGoals"][number];

describe("agent quests: stalled quests and the levels quests ask for", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });

  const skills = (levels: Record<string, number>) =>
    Object.fromEntries(
      ["attack", "strength", "defense", "constitution", "woodcutting", "mining", "fishing", "cooking", "firemaking"].map((s) => [
        s,
        { level: levels[s] ?? (s === "constitution" ? 10 : 1), xp: 0 },
      ]),
    );
  const obs = (over: Partial<Observation> = {}): Observation =>
    observation({
      coins: 25,
      skills: skills({}),
      inventory: [
        { slot: 0, itemId: "bronze_hatchet", quantity: 1 },
        { slot: 1, itemId: "bronze_pickaxe", quantity: 1 },
        { slot: 2, itemId: "small_fishing_net", quantity: 1 },
      ],
      freeSlots: 25,
      ...over,
    });
  const stalled = (target: string): Recent => ({ type: "quest", target, outcome: "failed", stalled: true });
  const other = (n: number): Recent[] => Array.from({ length: n }, () => ({ type: "fishing", target: "fishing_spot_net", outcome: "done" as const }));
  const quest = (...targets: string[]): GoalOption => ({ type: "quest", description: "Do a quest", targets });
  const training: GoalOption[] = [
    { type: "woodcutting", description: "", targets: ["tree_normal"] },
    { type: "combat", description: "", targets: ["meadow_rat", "brindle_cow"] },
  ];

  it("counts only the attempts that left the quest where it stood, in the last RECENT_GOALS goals", () => {
    const moved: Recent = { type: "quest", target: "hides_for_the_vats", outcome: "failed" };
    assert.equal(stalledAttempts(obs({ recentGoals: [stalled("hides_for_the_vats"), moved, stalled("kettle_supper")] }), "hides_for_the_vats"), 1);
    const old = [...other(RECENT_GOALS - 1), stalled("hides_for_the_vats"), stalled("hides_for_the_vats")];
    assert.equal(stalledAttempts(obs({ recentGoals: old }), "hides_for_the_vats"), 1, "the attempt past the window is forgotten");
  });

  it("scores a quest stalled twice lately below training, and another quest first, until the attempts are forgotten", () => {
    const doing = questList(know, ["settlers_charter"], { hides_for_the_vats: "cull_cows" });
    // Stalled twice (the last one 10 goals ago: no longer left out as just given up).
    const twice = [...other(10), stalled("hides_for_the_vats"), ...other(5), stalled("hides_for_the_vats")];
    const low = questScore(quest("hides_for_the_vats"), obs({ quests: doing, recentGoals: twice }), know);
    assert.equal(low?.score, QUEST_STALLED);
    assert.match(low.reason, /stalled 2 times/);
    // Once stalled: still worth its score.
    assert.equal(questScore(quest("hides_for_the_vats"), obs({ quests: doing, recentGoals: twice.slice(0, 12) }), know)?.score, QUEST_DOING);
    // Another quest it can start goes before the one in progress that stalled.
    const both = questScore(quest("hides_for_the_vats", "kettle_supper"), obs({ quests: doing, recentGoals: twice }), know);
    assert.deepEqual([both?.target, both?.score], ["kettle_supper", QUEST_START]);
    // The brain trains rather than sink more time into it: a gathering goal at level 1 (59) wins, under every seed.
    for (let seed = 0; seed < 20; seed++) {
      const c = new ScriptedBrain(know, `s${seed}`).choose(
        obs({ quests: doing, recentGoals: twice, availableGoals: [quest("hides_for_the_vats"), training[0]!] }),
      );
      assert.equal(c.type, "woodcutting", `seed ${seed}`);
    }
    // RECENT_GOALS goals later the first attempt is forgotten, and the quest is worth trying again.
    const later = [...other(RECENT_GOALS - 16), ...twice].slice(0, RECENT_GOALS);
    assert.equal(questScore(quest("hides_for_the_vats"), obs({ quests: doing, recentGoals: later }), know)?.score, QUEST_DOING);
  });

  it("lets a quest whose monsters come next wait while hurt, and takes another one meanwhile", () => {
    const doing = questList(know, ["settlers_charter"], { hides_for_the_vats: "cull_cows" });
    const hurt = obs({ quests: doing, health: 50 });
    assert.equal(questScore(quest("hides_for_the_vats"), hurt, know), undefined);
    assert.equal(questScore(quest("hides_for_the_vats", "kettle_supper"), hurt, know)?.target, "kettle_supper");
  });

  it("lists the levels it lacks for the quests it could start otherwise", () => {
    // Tusks in the Hollow wants Supper at the Kettle done and Attack 3; The Drowned Watch, the charter and Defence 5.
    assert.deepEqual(questSkillNeeds(obs({ quests: questList(know, []) }), know), []);
    assert.deepEqual(
      questSkillNeeds(obs({ quests: questList(know, ["kettle_supper", "settlers_charter"]), skills: skills({ attack: 2, defense: 1 }) }), know).map((n) => [
        n.questId,
        n.skill,
        n.level,
      ]),
      [
        ["tusks_in_the_hollow", "attack", 3],
        ["the_drowned_watch", "defense", 5],
      ],
    );
    assert.deepEqual(
      questSkillNeeds(obs({ quests: questList(know, ["kettle_supper", "settlers_charter", "the_drowned_watch"]), skills: skills({ attack: 3 }) }), know),
      [],
      "met, or the quest done",
    );
    assert.deepEqual(questSkillNeeds(obs({ quests: undefined }), know), [], "nothing before the quest list is heard");
  });

  it("fights for a quest's Attack or Defence requirement before gathering and other fights, and says for which quest", () => {
    // Defence 4 (combat at 80 − 4): raised to QUEST_TRAINING for The Drowned Watch's Defence 5.
    const needs = obs({
      quests: questList(know, ["settlers_charter", "kettle_supper"]),
      skills: skills({ attack: 9, strength: 9, defense: 4 }),
      availableGoals: training,
    });
    for (let seed = 0; seed < 10; seed++) {
      const c = new ScriptedBrain(know, `s${seed}`).choose(needs);
      assert.equal(c.type, "combat", `seed ${seed}`);
      assert.match(c.reason, /for quest The Drowned Watch: Defense 5 \(level 4\)/);
    }
    // A quest it can do still comes first (86 and up against 84).
    assert.ok(QUEST_TRAINING < QUEST_START);
    const c = new ScriptedBrain(know, "s1").choose({ ...needs, availableGoals: [...training, quest("kettle_supper")] });
    assert.equal(c.type, "quest");
    // Met: the reason is plain training again.
    const met = new ScriptedBrain(know, "s1").choose(
      obs({
        quests: questList(know, ["settlers_charter", "kettle_supper"]),
        skills: skills({ attack: 9, strength: 9, defense: 9 }),
        availableGoals: [training[1]!],
      }),
    );
    assert.doesNotMatch(met.reason, /for quest/);
  });
});

describe("agent fights: the weapon it takes", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });

  function fighter(items: string[], equipment: Record<string, { itemId: string; quantity: number }> = {}) {
    const inventory = items.map((itemId, slot) => ({ slot, itemId, quantity: itemId === "bronze_arrow" ? 50 : 1 }));
    const self = { name: "Robin", inventory, equipment, skills: {}, coins: 0, position: { x: 0, y: 0, z: 0 } } as unknown as Self;
    const view = viewOf(self, { x: 0, z: 0 }, [], { health: 10, maxHealth: 10 });
    const { ctx, sent } = ctxOf(know, view, "fight");
    new Fight("meadow_rat").step(ctx);
    return sent.filter((m) => m.type === "inventory:use" || m.type === "equipment:remove");
  }

  it("wields a melee weapon, never a bow (no arrows equipped: the server refuses every shot), and puts away a bow wielded without arrows", () => {
    // The shortbow's bonuses add up to more than the dagger's, but it trains Ranged and needs arrows in their slot.
    assert.deepEqual(fighter(["shortbow", "bronze_arrow", "bronze_dagger"]), [{ type: "inventory:use", data: { slot: 2 } }]);
    assert.deepEqual(fighter(["shortbow", "bronze_arrow"]), [], "no melee weapon: it fights unarmed");
    assert.deepEqual(fighter(["bronze_dagger"], { weapon: { itemId: "shortbow", quantity: 1 } }), [{ type: "inventory:use", data: { slot: 0 } }]);
    assert.deepEqual(fighter([], { weapon: { itemId: "shortbow", quantity: 1 } }), [{ type: "equipment:remove", data: { slot: "weapon" } }]);
    // A bow with arrows equipped is left as it is without a melee weapon to train with; with one, the
    // fight (which trains melee) takes it.
    assert.deepEqual(fighter([], { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 50 } }), []);
    assert.deepEqual(fighter(["bronze_dagger"], { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 50 } }), [
      { type: "inventory:use", data: { slot: 0 } },
    ]);
  });
});
