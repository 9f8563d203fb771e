/**
 * The scripted brain's pieces on their own: chat commands and their addressing, and the utility
 * policy's choices for states a player would recognise (deterministic under a seed).
 */
import assert from "node:assert/strict";
import { addressedTo, parseCommand } from "../../agent-runtime/brain/commands.ts";
import { CROWD_MEMORY, MELEE_FOCUS, ScriptedBrain, toolPurchases } from "../../agent-runtime/brain/scripted.ts";
import type { GoalOption, Observation } from "../../agent-runtime/brain/Brain.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import { bundledKnowledge, observation } from "./support.ts";

describe("agent brain: chat commands", () => {
  it("reads every command and its variants", () => {
    assert.deepEqual(parseCommand("stop"), { kind: "stop" });
    assert.deepEqual(parseCommand(" Resume! "), { kind: "resume" });
    assert.deepEqual(parseCommand("status?"), { kind: "status" });
    assert.deepEqual(parseCommand("go home"), { kind: "home" });
    assert.deepEqual(parseCommand("home"), { kind: "home" });
    assert.deepEqual(parseCommand("go to bank"), { kind: "bank" });
    assert.deepEqual(parseCommand("bank"), { kind: "bank" });
    assert.deepEqual(parseCommand("follow Ada Lovelace"), { kind: "follow", name: "Ada Lovelace" });
    assert.deepEqual(parseCommand("chop trees"), { kind: "goal", type: "woodcutting" });
    assert.deepEqual(parseCommand("fish"), { kind: "goal", type: "fishing" });
    assert.deepEqual(parseCommand("mine"), { kind: "goal", type: "mining" });
    assert.deepEqual(parseCommand("fight goblins"), { kind: "goal", type: "combat", target: "goblin" });
    assert.deepEqual(parseCommand("light fires"), { kind: "goal", type: "firemaking" });
    assert.deepEqual(parseCommand("sing a song"), { kind: "unknown", text: "sing a song" });
    assert.deepEqual(parseCommand("focus melee"), { kind: "focus", focus: "melee" });
    assert.deepEqual(parseCommand("Train quests."), { kind: "focus", focus: "quests" });
    assert.deepEqual(parseCommand("focus on smithing"), { kind: "focus", focus: "making" });
    assert.deepEqual(parseCommand("focus off"), { kind: "focus", focus: null });
    assert.deepEqual(parseCommand("focus juggling"), { kind: "unknown", text: "focus juggling" });
  });

  it("takes a chat line as addressed only when it starts with the whole name", () => {
    assert.equal(addressedTo("Robin", "Robin, chop trees"), "chop trees");
    assert.equal(addressedTo("Robin", "robin: status"), "status");
    assert.equal(addressedTo("Robin", "@Robin go home"), "go home");
    assert.equal(addressedTo("Robin", "Robin stop"), "stop");
    assert.equal(addressedTo("Rob", "Robin stop"), undefined, "a longer name is someone else");
    assert.equal(addressedTo("Robin", "hello Robin"), undefined);
    assert.equal(addressedTo("Robin", "Robin"), undefined, "a name alone is no command");
  });
});

describe("agent brain: the scripted policy", () => {
  let brain: () => ScriptedBrain;
  let know: Knowledge;
  let options: GoalOption[];
  const base = (over: Partial<Observation> = {}): Observation =>
    observation({
      coins: 25,
      skills: {
        woodcutting: { level: 1, xp: 0 },
        mining: { level: 5, xp: 400 },
        fishing: { level: 3, xp: 200 },
        cooking: { level: 1, xp: 0 },
        firemaking: { level: 1, xp: 0 },
      },
      inventory: [
        { slot: 0, itemId: "bronze_hatchet", quantity: 1 },
        { slot: 1, itemId: "bronze_pickaxe", quantity: 1 },
        { slot: 2, itemId: "small_fishing_net", quantity: 1 },
      ],
      freeSlots: 25,
      availableGoals: options,
      ...over,
    });
  const full = Array.from({ length: 28 }, (_, slot) => ({ slot, itemId: "logs", quantity: 1 }));

  before(async () => {
    know = await bundledKnowledge();
    brain = () => new ScriptedBrain(know, "seed");
    options = [
      { type: "woodcutting", description: "Chop trees", targets: ["tree_normal"] },
      { type: "mining", description: "Mine rocks", targets: ["ore_copper", "ore_tin"] },
      { type: "fishing", description: "Catch fish", targets: ["fishing_spot_net"] },
      { type: "combat", description: "Fight monsters", targets: ["meadow_rat", "mossback_toad", "cinder_hound"] },
      { type: "banking", description: "Bank items", targets: [] },
      { type: "explore", description: "Explore", targets: ["brackenford"] },
      { type: "idle", description: "Stand still", targets: [] },
    ];
  });

  it("trains its weakest gathering skill first, once its melee skills reach MELEE_FOCUS (fighting before)", () => {
    const gathering = options.filter((o) => o.type !== "combat");
    assert.equal(brain().choose(base({ availableGoals: gathering })).type, "woodcutting");
    // Melee below MELEE_FOCUS: a fight comes first, under every seed.
    for (let seed = 0; seed < 10; seed++) assert.equal(new ScriptedBrain(know, `s${seed}`).choose(base()).type, "combat");
    const trained = {
      ...base().skills,
      attack: { level: MELEE_FOCUS, xp: 1154 },
      strength: { level: MELEE_FOCUS, xp: 1154 },
      defense: { level: MELEE_FOCUS, xp: 1154 },
    };
    const kinds = Array.from({ length: 20 }, (_, seed) => new ScriptedBrain(know, `s${seed}`).choose(base({ skills: trained })).type);
    assert.ok(kinds.includes("woodcutting"), `past MELEE_FOCUS it gathers at times too: ${kinds.join(", ")}`);
  });

  it("banks a full inventory, and burns logs when firemaking lags woodcutting", () => {
    assert.equal(brain().choose(base({ inventory: full, freeSlots: 0 })).type, "banking");
    const withFire = [...options, { type: "firemaking", description: "Light fires", targets: ["logs"] }];
    const skills = { ...base().skills, woodcutting: { level: 20, xp: 5000 } };
    assert.equal(brain().choose(base({ inventory: full, freeSlots: 0, availableGoals: withFire, skills })).type, "firemaking");
  });

  it("cooks raw food when it has plenty", () => {
    const raw = Array.from({ length: 10 }, (_, i) => ({ slot: 3 + i, itemId: "raw_shrimp", quantity: 1 }));
    const withCooking = [...options, { type: "cooking", description: "Cook food", targets: ["raw_shrimp"] }];
    assert.equal(brain().choose(base({ inventory: [...base().inventory, ...raw], freeSlots: 15, availableGoals: withCooking })).type, "cooking");
  });

  it("buys a missing tool it can afford, and not one it cannot", () => {
    const shopping = [...options.filter((o) => o.type !== "mining"), { type: "shopping", description: "Buy a tool", targets: ["bronze_pickaxe"] }];
    const noPickaxe = base().inventory.filter((s) => s.itemId !== "bronze_pickaxe");
    const c = brain().choose(base({ inventory: noPickaxe, availableGoals: shopping, coins: 100 }));
    assert.deepEqual({ type: c.type, target: c.target }, { type: "shopping", target: "bronze_pickaxe" });
    assert.match(c.reason, /^no Bronze pickaxe for mining; it costs \d+$/, "its reason names the item");
    assert.notEqual(brain().choose(base({ inventory: noPickaxe, availableGoals: shopping, coins: 5 })).type, "shopping");
    assert.ok(toolPurchases(know).some((t) => t.itemId === "bronze_pickaxe"));
  });

  it("fights a monster of its level when healthy, never one far above it, and not when hurt", () => {
    const onlyCombat = options.filter((o) => o.type === "combat" || o.type === "idle");
    const c = brain().choose(base({ availableGoals: onlyCombat }));
    assert.deepEqual({ type: c.type, target: c.target }, { type: "combat", target: "mossback_toad" });
    assert.match(c.reason, /^fight Mossback toad \(melee 1\/1\/1\)$/, "its reason names the monster (as the world view does)");
    assert.notEqual(brain().choose(base({ availableGoals: onlyCombat, health: 40 })).type, "combat");
    // Hurt with food to eat it fights on (the runtime eats); below 40 % not even then.
    const bread = [...base().inventory, { slot: 3, itemId: "bread", quantity: 1 }];
    assert.equal(brain().choose(base({ availableGoals: onlyCombat, health: 50, inventory: bread })).type, "combat");
    assert.notEqual(brain().choose(base({ availableGoals: onlyCombat, health: 30, inventory: bread })).type, "combat");
  });

  it("remembers a crowded spot for CROWD_MEMORY goals and trains elsewhere, then tries it again", () => {
    const crowded = { type: "woodcutting", target: "tree_normal", outcome: "failed" as const, crowded: true };
    const trip = [
      { type: "banking", outcome: "done" as const },
      { type: "cooking", outcome: "done" as const },
      { type: "fishing", target: "fishing_spot_net", outcome: "done" as const },
    ];
    // Three fishing trips later (nine goals), the trees are still remembered as crowded.
    const recent = [...trip, ...trip, ...trip, crowded];
    assert.equal(recent.length, CROWD_MEMORY);
    const gathering = options.filter((o) => o.type !== "combat");
    for (let seed = 0; seed < 20; seed++)
      assert.notEqual(new ScriptedBrain(know, `s${seed}`).choose(base({ recentGoals: recent, availableGoals: gathering })).type, "woodcutting");
    // A plain failure is forgotten after three goals; a crowd after CROWD_MEMORY.
    const plain = [...trip, { ...crowded, crowded: undefined }];
    assert.equal(brain().choose(base({ recentGoals: plain, availableGoals: gathering })).type, "woodcutting");
    assert.equal(brain().choose(base({ recentGoals: [{ type: "banking", outcome: "done" }, ...recent], availableGoals: gathering })).type, "woodcutting");
    // A crowded monster spawn: another monster of the list instead, while one is left.
    const onlyCombat = options.filter((o) => o.type === "combat" || o.type === "idle");
    const toads = { type: "combat", target: "mossback_toad", outcome: "failed" as const, crowded: true };
    const c = brain().choose(base({ availableGoals: onlyCombat, recentGoals: [...trip, toads] }));
    assert.deepEqual({ type: c.type, target: c.target }, { type: "combat", target: "meadow_rat" });
    // Crowds at two spawns: the whole kind is less inviting, and it fishes instead.
    const rats = { ...toads, target: "meadow_rat" };
    const skills = { ...base().skills, fishing: { level: 4, xp: 300 } };
    const fights = (recentGoals: Observation["recentGoals"]) =>
      Array.from(
        { length: 20 },
        (_, seed) =>
          new ScriptedBrain(know, `s${seed}`).choose(
            base({ recentGoals, skills, availableGoals: options.filter((o) => o.type === "combat" || o.type === "fishing") }),
          ).type,
      ).filter((t) => t === "combat").length;
    assert.ok(fights(trip) > 0, "without a crowd it fights at times");
    assert.equal(fights([...trip, rats, toads]), 0);
    // The same for a resource: mining copper found crowded, tin instead.
    const onlyMining = options.filter((o) => o.type === "mining" || o.type === "idle");
    const copper = { type: "mining", target: "ore_copper", outcome: "failed" as const, crowded: true };
    const m = brain().choose(base({ availableGoals: onlyMining, recentGoals: [...trip, copper] }));
    assert.deepEqual({ type: m.type, target: m.target }, { type: "mining", target: "ore_tin" });
  });

  it("does not retry a goal that just failed, and is the same under the same seed", () => {
    const failed = base({
      recentGoals: [{ type: "woodcutting", target: "tree_normal", outcome: "failed" }],
      availableGoals: options.filter((o) => o.type !== "combat"),
    });
    assert.notEqual(brain().choose(failed).type, "woodcutting");
    const a = brain();
    const b = brain();
    for (let i = 0; i < 5; i++) assert.deepEqual(a.choose(base()), b.choose(base()));
  });

  it("puts its owner's focus first (focus.ts), yet banks a full inventory and never fights hurt without food", () => {
    const trained = {
      ...base().skills,
      attack: { level: 20, xp: 4470 },
      strength: { level: 20, xp: 4470 },
      defense: { level: 20, xp: 4470 },
    };
    const unfocused = Array.from({ length: 20 }, (_, seed) => new ScriptedBrain(know, `s${seed}`).choose(base({ skills: trained })).type);
    assert.ok(
      unfocused.some((k) => k !== "combat"),
      `without a focus it trains other skills too: ${unfocused.join(", ")}`,
    );
    for (let seed = 0; seed < 20; seed++) assert.equal(new ScriptedBrain(know, `s${seed}`).choose(base({ skills: trained, focus: "melee" })).type, "combat");
    assert.equal(brain().choose(base({ skills: trained, focus: "melee", inventory: full, freeSlots: 0 })).type, "banking");
    assert.notEqual(brain().choose(base({ skills: trained, focus: "melee", health: 30 })).type, "combat");
    // Hurt with the cows' raw meat and no cooked food: it cooks (to fight on), before a quest or gathering.
    const hurt = base({
      focus: "melee",
      health: 50,
      inventory: [...base().inventory, { slot: 3, itemId: "raw_meat", quantity: 1 }],
      availableGoals: [
        ...options,
        { type: "cooking", description: "Cook food", targets: ["raw_meat"] },
        { type: "quest", description: "Do a quest", targets: ["settlers_charter"] },
      ],
    });
    for (let seed = 0; seed < 20; seed++) assert.equal(new ScriptedBrain(know, `s${seed}`).choose(hurt).type, "cooking");
    assert.equal(brain().choose({ ...hurt, focus: undefined }).type, "quest", "unfocused, the quest comes first");
    // A fight left hurt for want of food is not held against fighting (once healed it fights on);
    // a fight that failed otherwise (no experience: monsters out of reach) is, for a few goals.
    const fled = [{ type: "combat", outcome: "failed" as const, fled: true }];
    assert.equal(brain().choose(base({ skills: trained, focus: "melee", recentGoals: fled })).type, "combat");
    assert.notEqual(brain().choose(base({ skills: trained, focus: "melee", recentGoals: [{ ...fled[0]!, fled: undefined }] })).type, "combat");
    // A better weapon it can afford, under the melee focus: bought before the next fight.
    const rich = base({
      focus: "melee",
      coins: 100,
      availableGoals: [...options, { type: "shopping", description: "Buy a tool or a weapon", targets: ["bronze_sword"] }],
    });
    assert.deepEqual(brain().choose(rich).type, "shopping");
    assert.equal(brain().choose(rich).target, "bronze_sword");
  });
});
