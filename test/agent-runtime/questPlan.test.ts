/**
 * The scripted agent's quest decisions on their own (agent-runtime/brain/questPlan.ts, quest.ts,
 * questChoice.ts), against the default world's content: the step it takes for each stage type, the
 * engine's four (dialogue, kill, gather, interact) and the three of the same schema (make, reach,
 * give) on hand-written quest definitions; the dialogue option it answers; which quest it chooses.
 */
import assert from "node:assert/strict";
import { AgentView, type Self } from "../../agent-runtime/AgentView.ts";
import type { Ctx } from "../../agent-runtime/brain/behaviours.ts";
import type { Observation } from "../../agent-runtime/brain/Brain.ts";
import { QuestGoal, Talk, Use, WalkThrough } from "../../agent-runtime/brain/quest.ts";
import { questScore } from "../../agent-runtime/brain/questChoice.ts";
import { ladderToward, nextStep, questOption, regionOf, type QuestDef, type QuestEntry } from "../../agent-runtime/brain/questPlan.ts";
import { Random } from "../../agent-runtime/brain/random.ts";
import { knowledgeOf, type Knowledge } from "../../agent-runtime/knowledge.ts";
import type { WorldUpdate } from "../../src/game/worldUpdate.ts";
import { bundledContent } from "../support/content.ts";
import { observation } from "./support.ts";

type Stack = [itemId: string, quantity: number];

describe("agent quests: the step for each stage", () => {
  let know: Knowledge;
  before(async () => {
    know = knowledgeOf(await bundledContent());
  });

  /** An agent at (x, z) carrying `items`, with `coins`; returns a ctx and what it sent. */
  function agent(at: { x: number; z: number }, items: Stack[], coins = 0, skills: Record<string, number> = {}) {
    const view = new AgentView();
    view.playerId = "me";
    const inventory = items.map(([itemId, quantity], slot) => ({ slot, itemId, quantity }));
    const levels = Object.fromEntries(Object.entries(skills).map(([k, level]) => [k, { level, xp: 0 }]));
    view.sync({ name: "Robin", inventory, equipment: {}, skills: levels, coins, position: { x: at.x, y: 0, z: at.z } } as unknown as Self);
    view.update({
      tick: 1,
      entities: [{ id: "me", kind: "player", x: at.x, z: at.z, name: "Robin", health: 10, maxHealth: 10, combatLevel: 3, running: false }],
      removed: [],
    } as unknown as WorldUpdate);
    const sent: { type: string; data: unknown }[] = [];
    const ctx: Ctx = { view, know, rng: new Random("quest"), tick: 0, send: (type, data) => void sent.push({ type, data }), note: () => {} };
    return { view, ctx, sent };
  }
  const town = { x: 0, z: 0 };
  const quest = (...stages: QuestDef["stages"]): QuestDef => ({ id: "q", name: "A Test", startNpc: "warden_tamsin", stages });
  const at = (stage: string, progress?: [number, number]): QuestEntry => ({
    id: "q",
    name: "A Test",
    status: "in_progress",
    stage,
    stageText: "",
    ...(progress ? { progress: { count: progress[0], required: progress[1] } } : {}),
  });
  const kind = (s: { kind: string }) => s.kind;

  it("waits for its quest list, starts at the start NPC, is done once completed", () => {
    const { ctx } = agent(town, []);
    const q = quest({ id: "a", type: "kill", target: "meadow_rat", count: 2 });
    assert.equal(nextStep(ctx, q, undefined).kind, "wait");
    assert.deepEqual(nextStep(ctx, q, { id: "q", name: "A Test", status: "not_started", stage: null, stageText: "" }), {
      kind: "talk",
      npcId: "warden_tamsin",
      why: "start A Test",
    });
    assert.equal(nextStep(ctx, q, { id: "q", name: "A Test", status: "completed", stage: null, stageText: "" }).kind, "done");
    assert.equal(nextStep(ctx, q, at("nowhere")).kind, "fail");
  });

  it("dialogue: talks to the stage's NPC (the start NPC when it names none)", () => {
    const { ctx } = agent(town, []);
    assert.deepEqual(nextStep(ctx, quest({ id: "back", type: "dialogue", npcId: "smith_orla" }), at("back")), {
      kind: "talk",
      npcId: "smith_orla",
      why: "talk for A Test",
    });
    assert.deepEqual(nextStep(ctx, quest({ id: "back", type: "dialogue", description: "Go back" }), at("back")), {
      kind: "talk",
      npcId: "warden_tamsin",
      why: "Go back",
    });
  });

  it("kill: fights the monster; one below ground is reached down a ladder first", () => {
    const { ctx } = agent(town, []);
    assert.deepEqual(nextStep(ctx, quest({ id: "k", type: "kill", target: "meadow_rat", count: 5 }), at("k", [2, 5])), {
      kind: "fight",
      mobId: "meadow_rat",
      why: "kill 3 more Meadow rats",
    });
    const below = nextStep(ctx, quest({ id: "k", type: "kill", target: "gloom_crawler", count: 1 }), at("k"));
    assert.equal(below.kind, "climb");
    assert.equal(nextStep(ctx, quest({ id: "k", type: "kill", target: "no_such_mob" }), at("k")).kind, "fail");
  });

  it("gather: gathers the resource that yields the item; buys the tool first, or fails without the coins", () => {
    const q = quest({ id: "g", type: "gather", target: "copper_ore", count: 3 });
    assert.deepEqual(nextStep(agent(town, [["bronze_pickaxe", 1]]).ctx, q, at("g")), {
      kind: "gather",
      skill: "mining",
      resourceId: "ore_copper",
      why: "gather Copper ore",
    });
    const buy = nextStep(agent(town, [], 100).ctx, q, at("g"));
    assert.equal(buy.kind, "buy");
    assert.equal(buy.kind === "buy" && buy.itemId, "bronze_pickaxe");
    assert.equal(nextStep(agent(town, []).ctx, q, at("g")).kind, "fail");
    // A full inventory is banked first.
    const full = Array.from({ length: 28 }, (): Stack => ["bronze_pickaxe", 1]);
    assert.equal(nextStep(agent(town, full).ctx, q, at("g")).kind, "bank");
  });

  it("makes room for a start's items and a reward before the talk (the server refuses them without)", () => {
    // Hides for the Vats gives two cowhides, a needle and a thread: four slots.
    const hides = know.registry.quests.quests.get("hides_for_the_vats") as QuestDef;
    const notStarted: QuestEntry = { id: hides.id, name: hides.name, status: "not_started", stage: null, stageText: "" };
    const carrying = (n: number) => Array.from({ length: n }, (): Stack => ["burnt_fish", 1]);
    const bank = nextStep(agent(town, carrying(25)).ctx, hides, notStarted);
    assert.deepEqual(bank, { kind: "bank", why: "room for what starting Hides for the Vats gives (4 slots)" });
    assert.equal(nextStep(agent(town, carrying(24)).ctx, hides, notStarted).kind, "talk");
    // A Settler's Charter ends with a talk that gives the charter and 50 coins.
    const charter = know.registry.quests.quests.get("settlers_charter") as QuestDef;
    const last: QuestEntry = { id: charter.id, name: charter.name, status: "in_progress", stage: charter.stages.at(-1)!.id, stageText: "" };
    assert.equal(nextStep(agent(town, carrying(28)).ctx, charter, last).kind, "bank", "the charter, a reward item, needs a slot");
    assert.equal(nextStep(agent(town, carrying(27)).ctx, charter, last).kind, "talk", "the 50 coins need none");
  });

  it("interact: lights a fire with logs and a tinderbox (chops them first), uses a place by id, makes an item", () => {
    const fire = quest({ id: "i", type: "interact", target: "fire", count: 2 });
    assert.equal(
      nextStep(
        agent(town, [
          ["tinderbox", 1],
          ["logs", 1],
        ]).ctx,
        fire,
        at("i"),
      ).kind,
      "light",
    );
    assert.equal(
      nextStep(
        agent(town, [
          ["tinderbox", 1],
          ["bronze_hatchet", 1],
        ]).ctx,
        fire,
        at("i"),
      ).kind,
      "gather",
    );
    assert.deepEqual(nextStep(agent(town, []).ctx, quest({ id: "i", type: "interact", target: "yard_log" }), at("i")), {
      kind: "use",
      targetId: "yard_log",
      why: "use yard_log",
    });
    assert.deepEqual(
      nextStep(
        agent(town, [
          ["copper_ore", 1],
          ["tin_ore", 1],
        ]).ctx,
        quest({ id: "i", type: "interact", target: "bronze_bar" }),
        at("i"),
      ),
      { kind: "make", recipeId: "smelting:bronze_bar", why: "make Bronze bar" },
    );
  });

  it("make: makes the item with its recipe, its inputs got first (mined, then smelted)", () => {
    const q = quest({ id: "m", type: "make", target: "bronze_bar", count: 2 });
    assert.equal(
      kind(
        nextStep(
          agent(town, [
            ["copper_ore", 2],
            ["tin_ore", 2],
          ]).ctx,
          q,
          at("m", [0, 2]),
        ),
      ),
      "make",
    );
    // One bar made: one more to make, with the ores for one.
    assert.equal(
      kind(
        nextStep(
          agent(town, [
            ["copper_ore", 1],
            ["tin_ore", 1],
          ]).ctx,
          q,
          at("m", [1, 2]),
        ),
      ),
      "make",
    );
    const ore = nextStep(
      agent(town, [
        ["bronze_pickaxe", 1],
        ["copper_ore", 2],
      ]).ctx,
      q,
      at("m", [0, 2]),
    );
    assert.deepEqual(ore, { kind: "gather", skill: "mining", resourceId: "ore_tin", why: "gather Tin ore" });
    assert.equal(kind(nextStep(agent(town, []).ctx, quest({ id: "m", type: "make", target: "no_such_item" }), at("m"))), "fail");
  });

  it("make: gathers the raw food a cooking make burns besides (Supper at the Kettle's two shrimp at Cooking 1: five raw)", () => {
    const q = quest({ id: "m", type: "make", target: "shrimp", count: 2 });
    const cook = (raw: number, cooking: number, progress: [number, number] = [0, 2], batch = false) =>
      nextStep(
        agent(
          town,
          [
            ["small_fishing_net", 1],
            ["tinderbox", 1],
            ["raw_shrimp", raw],
          ],
          0,
          { cooking },
        ).ctx,
        q,
        at("m", progress),
        { cooking: batch },
      );
    // 60 % burn at Cooking 1 (src/game/cookingBurn.ts): two cooked take five raw at 40 %.
    assert.equal(kind(cook(3, 1)), "gather", "three raw shrimp are not enough at Cooking 1");
    assert.notEqual(kind(cook(5, 1)), "gather");
    // One cooked already: three raw for the last.
    assert.notEqual(kind(cook(3, 1, [1, 2])), "gather");
    assert.equal(kind(cook(2, 1, [1, 2])), "gather");
    // Past the stop-burn level (32 on a fire), two raw for two.
    assert.notEqual(kind(cook(2, 32)), "gather");
    // A batch on the fire is cooked out first: four raw left after a burn, none cooked yet.
    assert.equal(kind(cook(4, 1)), "gather", "not cooking: four raw are one short of the batch");
    assert.equal(kind(cook(4, 1, [0, 2], true)), "cook", "cooking: the rest of the batch goes on the fire");
    assert.equal(kind(cook(1, 1, [0, 2], true)), "cook");
    assert.equal(kind(cook(0, 1, [0, 2], true)), "gather", "the batch is out: five more raw");
  });

  it("the quest goal remembers a cooking batch: a burn does not send it back to the water (Supper at the Kettle)", () => {
    const items = (raw: number): Stack[] => [
      ["small_fishing_net", 1],
      ["tinderbox", 1],
      ["raw_shrimp", raw],
    ];
    const { view, ctx } = agent(town, items(5), 0, { cooking: 1 });
    const notes: string[] = [];
    ctx.note = (n) => void notes.push(n);
    const goal = new QuestGoal("kettle_supper");
    const entry = { ...at("cook_shrimp", [0, 2]), id: "kettle_supper", name: "Supper at the Kettle" };
    goal.onEvent("quest:list", { quests: [entry] } as never, ctx);
    goal.step(ctx);
    assert.ok(notes.includes("Supper at the Kettle: cook Shrimp"), notes.join("; "));
    // One burnt: four raw, none cooked. Not cooking, four would send it for a fifth.
    const resync = (raw: number) =>
      view.sync({
        name: "Robin",
        inventory: items(raw).map(([itemId, quantity], slot) => ({ slot, itemId, quantity })),
        equipment: {},
        skills: { cooking: { level: 1, xp: 0 } },
        coins: 0,
        position: { x: 0, y: 0, z: 0 },
      } as unknown as Self);
    resync(4);
    ctx.tick = 1;
    goal.step(ctx);
    assert.ok(!notes.some((n) => n.includes("gather")), notes.join("; "));
    const fresh = new QuestGoal("kettle_supper");
    fresh.onEvent("quest:list", { quests: [entry] } as never, ctx);
    fresh.step(ctx);
    assert.ok(notes.at(-1)?.includes("gather Raw shrimp"), `a goal not cooking gathers the fifth first: ${notes.join("; ")}`);
  });

  it("reach: walks into a surface area; goes down the nearest ladder for the dungeon, and up again", () => {
    const woods = nextStep(agent(town, []).ctx, quest({ id: "r", type: "reach", area: "hollowbrook_woods" }), at("r"));
    assert.equal(woods.kind, "walk");
    assert.ok(woods.kind === "walk" && woods.to.z >= 41 && woods.to.z <= 90, JSON.stringify(woods));
    const q = quest({ id: "r", type: "reach", area: "sunken_cistern" });
    assert.deepEqual(nextStep(agent({ x: 30, z: 50 }, []).ctx, q, at("r")), {
      kind: "climb",
      ladderId: "hollowbrook_well_ladder",
      why: "Old well on the way to sunken_cistern",
    });
    assert.equal((nextStep(agent({ x: 74, z: 35 }, []).ctx, q, at("r")) as { ladderId: string }).ladderId, "thornwick_cellar_stairs");
    // Below: it walks within the cistern, and climbs up for the surface.
    assert.equal(nextStep(agent({ x: 4, z: 134 }, []).ctx, quest({ id: "r", type: "reach", area: "sunken_cistern" }), at("r")).kind, "walk");
    assert.equal(nextStep(agent({ x: 4, z: 134 }, []).ctx, quest({ id: "r", type: "reach", area: "brackenford" }), at("r")).kind, "climb");
    assert.equal(regionOf(know, { x: 4, z: 134 }), "sunken_cistern");
    assert.equal(ladderToward(know, { x: 4, z: 140 }, town)?.id, "cistern_ladder");
    assert.equal(nextStep(agent(town, []).ctx, quest({ id: "r", type: "reach", area: "no_such_area" }), at("r")).kind, "fail");
  });

  it("give: gets the items (gathered, made or bought), then talks to the NPC", () => {
    const q = quest({ id: "gv", type: "give", npcId: "smith_orla", target: "logs", count: 3 });
    assert.equal(
      kind(
        nextStep(
          agent(town, [
            ["bronze_hatchet", 1],
            ["logs", 1],
          ]).ctx,
          q,
          at("gv"),
        ),
      ),
      "gather",
    );
    assert.deepEqual(nextStep(agent(town, [["logs", 3]]).ctx, q, at("gv")), { kind: "talk", npcId: "smith_orla", why: "give 3 Logs" });
    // Two of a thing in the plural, as the server's own lines count them ("give 2 Bronze dagger" read wrong).
    const daggers = quest({ id: "gv", type: "give", npcId: "smith_orla", target: "bronze_dagger", count: 2 });
    assert.deepEqual(nextStep(agent(town, [["bronze_dagger", 2]]).ctx, daggers, at("gv")), { kind: "talk", npcId: "smith_orla", why: "give 2 Bronze daggers" });
    const bars = quest({ id: "gv", type: "give", npcId: "smith_orla", target: "bronze_bar", count: 1 });
    assert.equal(
      kind(
        nextStep(
          agent(town, [
            ["copper_ore", 1],
            ["tin_ore", 1],
          ]).ctx,
          bars,
          at("gv"),
        ),
      ),
      "make",
    );
    const tinderbox = quest({ id: "gv", type: "give", npcId: "smith_orla", target: "tinderbox", count: 1 });
    assert.equal(kind(nextStep(agent(town, [], 50).ctx, tinderbox, at("gv"))), "buy");
    assert.equal(kind(nextStep(agent(town, []).ctx, tinderbox, at("gv"))), "fail");
  });
});

describe("agent quests: walking through a door, climbing", () => {
  let know: Knowledge;
  before(async () => {
    know = knowledgeOf(await bundledContent());
  });

  it("a walk stopped by a shut door opens it (interact), waits until it is open, then walks on", () => {
    const view = new AgentView();
    view.playerId = "me";
    view.sync({ name: "Robin", inventory: [], equipment: {}, skills: {}, coins: 0, position: { x: 19, y: 0, z: 145 } } as unknown as Self);
    const me = { id: "me", kind: "player", x: 19, z: 145, name: "Robin", health: 10, maxHealth: 10, combatLevel: 3, running: false };
    view.update({
      tick: 1,
      entities: [me, { id: "cistern_gate", kind: "object", x: 20, z: 145, ref: "door", open: false }],
      removed: [],
    } as unknown as WorldUpdate);
    const sent: { type: string; data: unknown }[] = [];
    const ctx: Ctx = { view, know, rng: new Random("door"), tick: 0, send: (type, data) => void sent.push({ type, data }), note: () => {} };
    const walk = new WalkThrough({ x: 30, z: 145 });
    for (let tick = 0; tick < 8; tick++) {
      ctx.tick = tick;
      assert.equal(walk.step(ctx).end, undefined);
    }
    assert.deepEqual(sent[0], { type: "player:move", data: { x: 30, z: 145 } });
    assert.deepEqual(
      sent.at(-1),
      { type: "player:action", data: { action: "interact", targetId: "cistern_gate" } },
      "stuck 4 ticks by the shut gate: it opens it",
    );
    const before = sent.length;
    ctx.tick = 9;
    walk.step(ctx);
    assert.equal(sent.length, before, "it waits while the gate is shut");
    view.update({ tick: 2, entities: [{ id: "cistern_gate", kind: "object", x: 20, z: 145, ref: "door", open: true }], removed: [] } as unknown as WorldUpdate);
    ctx.tick = 10;
    walk.step(ctx);
    assert.deepEqual(sent.at(-1), { type: "player:move", data: { x: 30, z: 145 } }, "the gate open: it walks on");
  });

  it("a climb is an interact on the ladder, asked again while nothing happens, failed when refused", () => {
    const sent: { type: string; data: unknown }[] = [];
    const ctx = { know, tick: 0, send: (type: string, data: unknown) => void sent.push({ type, data }), note: () => {} } as unknown as Ctx;
    const climb = new Use("hollowbrook_well_ladder");
    assert.equal(climb.step(ctx).end, undefined);
    assert.deepEqual(sent, [{ type: "player:action", data: { action: "interact", targetId: "hollowbrook_well_ladder" } }]);
    climb.onEvent("error", { event: "player:action", code: "NO_PATH", message: "you can't reach that" }, ctx);
    assert.equal(climb.step(ctx).end, "failed");
  });
});

describe("agent quests: the dialogue and the choice", () => {
  let know: Knowledge;
  before(async () => {
    know = knowledgeOf(await bundledContent());
  });
  const charter = { id: "settlers_charter", name: "A Settler's Charter" };

  it("answers with the quest engine's option naming the quest, never a requirement unmet", () => {
    const options = [
      { id: "o1", text: "What do I have to do?" },
      { id: "o2", text: "Maybe later." },
      { id: "o3", text: "A Settler's Charter: I'd like to help." },
    ];
    assert.equal(questOption(know, "warden_tamsin", charter, { nodeId: "greeting", options }), "o3");
    assert.equal(
      questOption(know, "warden_tamsin", charter, { nodeId: "greeting", options: [...options.slice(0, 2), { id: "o4", text: "A Settler's Charter?" }] }),
      undefined,
    );
    assert.equal(questOption(know, "warden_tamsin", charter, { nodeId: "quest", options: [] }), undefined);
  });

  it("follows a tree that starts the quest itself: the response with the effect, or one leading to it", () => {
    const r = (text: string, extra: object = {}) => ({ text, conditions: [], effects: [], ...extra });
    const nodes = new Map([
      ["greeting", { id: "greeting", text: "Hello.", responses: [r("Goodbye."), r("Any work?", { nextNodeId: "offer" })] }],
      ["offer", { id: "offer", text: "Rats.", responses: [r("No."), r("Yes, gladly.", { effects: [{ type: "startQuest", questId: "settlers_charter" }] })] }],
    ]);
    const fake = { registry: { quests: { dialogues: new Map([["warden_tamsin", { entryNodeId: "greeting", nodes }]]) } } } as unknown as Knowledge;
    assert.equal(
      questOption(fake, "warden_tamsin", charter, {
        nodeId: "greeting",
        options: [
          { id: "a", text: "Goodbye." },
          { id: "b", text: "Any work?" },
        ],
      }),
      "b",
    );
    assert.equal(
      questOption(fake, "warden_tamsin", charter, {
        nodeId: "offer",
        options: [
          { id: "c", text: "No." },
          { id: "d", text: "Yes, gladly." },
        ],
      }),
      "d",
    );
  });

  it("a talk answers the quest's option and closes a dialogue with nothing for it", () => {
    const sent: { type: string; data: unknown }[] = [];
    const ctx = { know, send: (type: string, data: unknown) => void sent.push({ type, data }), note: () => {} } as unknown as Ctx;
    const talk = new Talk("warden_tamsin", { ...charter, startNpc: "warden_tamsin", stages: [] });
    talk.onEvent(
      "dialogue:open",
      {
        npcId: "warden_tamsin",
        npcName: "Warden Tamsin",
        nodeId: "greeting",
        text: "",
        options: [
          { id: "o7", text: "Maybe later." },
          { id: "o8", text: "A Settler's Charter: it's done." },
        ],
      },
      ctx,
    );
    talk.onEvent("dialogue:open", { npcId: "warden_tamsin", npcName: "Warden Tamsin", nodeId: "quest", text: "Well done!", options: [] }, ctx);
    assert.deepEqual(sent, [
      { type: "dialogue:choose", data: { optionId: "o8" } },
      { type: "dialogue:close", data: {} },
    ]);
  });

  it("chooses a quest in progress first, not one given up lately, not one whose monster it cannot beat yet", () => {
    const obs = (over: Partial<Observation>): Observation => observation({ health: 10, maxHealth: 10, ...over });
    const option = { type: "quest", description: "Do a quest", targets: ["settlers_charter"] };
    const started = questScore(option, obs({}), know);
    assert.equal(started?.target, "settlers_charter");
    assert.equal(started?.reason, "start A Settler's Charter");
    const doing = questScore(
      option,
      obs({
        quests: [
          {
            id: "settlers_charter",
            name: "A Settler's Charter",
            status: "in_progress",
            stage: "gather_logs",
            stageText: "Chop 5 logs",
            progress: { count: 1, required: 5 },
          },
        ],
      }),
      know,
    );
    assert.ok(doing !== undefined && started !== undefined && doing.score > started.score);
    assert.equal(questScore(option, obs({ recentGoals: [{ type: "quest", target: "settlers_charter", outcome: "failed" }] }), know), undefined);
    // Rats to come, hurt: it waits; the rats behind it, it goes on.
    const rats = {
      id: "settlers_charter",
      name: "A Settler's Charter",
      status: "in_progress" as const,
      stage: "cull_rats",
      stageText: "",
      progress: { count: 0, required: 5 },
    };
    assert.equal(questScore(option, obs({ health: 3, quests: [rats] }), know), undefined);
    assert.equal(questScore({ ...option, targets: ["no_such_quest"] }, obs({}), know), undefined);
  });
});
