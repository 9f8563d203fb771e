/**
 * Dialogue and quests on the game harness (docs/gameplay.md "Dialogue", "Quests"): talking opens
 * an NPC's tree with the quest engine's options; "A Settler's Charter" from the offer to the
 * reward; a foreign, stale or missing option refused with nothing changed; a step out of order
 * (a kill before the quest, a talk before the kills, logs before the rats) counting for nothing;
 * walking away closing the dialogue; a banker's dialogue opening the bank.
 */
import assert from "node:assert/strict";
import type { Player } from "../../src/game/world/Player.ts";
import { questList } from "../../src/game/quests.ts";
import { copyData } from "../../src/game/world/World.ts";
import { count, gameWorld, type GameHarness } from "../support/game.ts";
import { completeQuest, talkAndChoose, type QuestActor } from "../support/questDriver.ts";

const QUEST = "settlers_charter";

function actor(g: GameHarness, p: Player): QuestActor {
  return {
    world: g.world,
    player: () => p,
    send: (type, data) => g.send(p, type, data),
    get events() {
      return g.sent.filter((m) => m.to === p.id).map((m) => ({ type: m.type, data: m.data as Record<string, unknown> }));
    },
    step: async () => g.tick(),
  };
}

/** A fighter able to kill meadow rats quickly (levels set as a test's starting point). */
function fighter(g: GameHarness): Player {
  const p = g.add({ x: 2, z: 2 }, [{ itemId: "bronze_hatchet", quantity: 1 }]);
  for (const s of ["attack", "strength", "defense"] as const) p.data.skills[s] = { level: 40, xpTenths: 373_000 };
  return p;
}

const npcOf = (g: GameHarness, defId: string) => [...g.world.npcs.values()].find((n) => n.def.id === defId)!;

describe("dialogue and quests (game rules)", function () {
  this.timeout(60_000);

  it("opens Warden Tamsin's tree with the quest's offer beside her own responses", async () => {
    const g = await gameWorld();
    const p = fighter(g);
    g.send(p, "player:action", { action: "talk", targetId: npcOf(g, "warden_tamsin").id });
    g.tick(3);
    const open = g.events(p, "dialogue:open").at(-1)!;
    assert.equal(open.npcName, "Warden Tamsin");
    assert.equal(open.nodeId, "greeting");
    assert.deepEqual(
      (open.options as { text: string }[]).map((o) => o.text),
      // The Drowned Watch needs A Settler's Charter first: offered, with the reason it cannot start yet.
      ["What do I have to do?", "Maybe later.", "A Settler's Charter: I'd like to help.", "The Drowned Watch?"],
    );
    const list = questList(g.world, p);
    assert.deepEqual(
      list.quests.find((q) => q.id === QUEST),
      { id: QUEST, name: "A Settler's Charter", status: "not_started", stage: null, stageText: "Talk to Warden Tamsin to start this quest." },
    );
  });

  it("completes A Settler's Charter start to finish: 5 rats, 5 logs, back to Tamsin; rewards once", async () => {
    const g = await gameWorld();
    const p = fighter(g);
    const quest = g.world.content.quests.quests.get(QUEST)!;
    const a = actor(g, p);
    const woodcuttingBefore = p.data.skills.woodcutting.xpTenths;
    await completeQuest(a, quest);
    assert.equal(p.data.quests![QUEST]!.status, "completed");
    assert.equal(count(p, "settlers_charter"), 1);
    assert.ok(p.data.coins >= 50);
    const done = g.events(p, "quest:completed");
    assert.equal(done.length, 1);
    assert.deepEqual([done[0]!.questPoints, done[0]!.totalQuestPoints], [1, 1]);
    assert.ok(p.data.skills.woodcutting.xpTenths - woodcuttingBefore >= 1000, "100 woodcutting xp on top of the chopping");
    const progress = g.events(p, "quest:progress");
    assert.ok(
      progress.some((e) => JSON.stringify(e.progress) === '{"count":3,"required":5}' && e.stage === "cull_rats"),
      "kills counted one by one",
    );
    assert.ok(progress.some((e) => e.stage === "gather_logs"));
    const list = g.events(p, "quest:list").at(-1)!;
    assert.equal(list.questPoints, 1);
    assert.deepEqual((list.quests as { id: string; status: string }[]).find((q) => q.id === QUEST)!.status, "completed");
    // Not replayable: Tamsin no longer offers it.
    const again = await talkAndChoose(a, "warden_tamsin", (t) => t === "Maybe later.");
    assert.equal(again.text, "Stay inside the fences until you can hold a sword properly.");
    const offers = (g.events(p, "dialogue:open").at(-2)!.options as { text: string }[]).map((o) => o.text);
    assert.ok(!offers.includes("A Settler's Charter: I'd like to help."), offers.join(", "));
    // Her tree now branches on the quest's state, and her next quest is open.
    assert.ok(offers.includes("How goes the watch?") && offers.includes("The Drowned Watch: I'd like to help."), offers.join(", "));
  });

  it("counts nothing out of order: kills before the quest, logs before the rats, a talk before the work", async () => {
    const g = await gameWorld();
    const p = fighter(g);
    const a = actor(g, p);
    const quest = g.world.content.quests.quests.get(QUEST)!;
    // A rat killed before the quest starts counts for nothing.
    const rat = [...g.world.npcs.values()].find((n) => n.def.id === "meadow_rat")!;
    g.send(p, "player:action", { action: "attack", targetId: rat.id });
    for (let i = 0; i < 200 && rat.deadUntil === 0; i++) g.tick();
    assert.equal(p.data.quests?.[QUEST], undefined);
    await talkAndChoose(a, "warden_tamsin", (t) => t === "A Settler's Charter: I'd like to help.");
    assert.deepEqual(p.data.quests![QUEST], { status: "in_progress", stage: 1, progress: 0, completions: 0 });
    // Logs chopped while the rats are the task count for nothing.
    const tree = [...g.world.resources.values()].find((r) => r.node.id === "tree_normal")!;
    g.send(p, "player:action", { action: "gather", targetId: tree.id });
    for (let i = 0; i < 300 && count(p, "logs") === 0; i++) g.tick();
    assert.ok(count(p, "logs") > 0);
    assert.deepEqual(p.data.quests![QUEST], { status: "in_progress", stage: 1, progress: 0, completions: 0 });
    // Talking to Tamsin now only reminds: no option advances the quest.
    g.clearSent();
    const reminder = await talkAndChoose(a, "warden_tamsin", (t) => t === `About ${quest.name}…`);
    assert.equal(reminder.text, "You still need to kill 5 meadow rats.", "a sentence, with a full stop");
    assert.deepEqual(p.data.quests![QUEST], { status: "in_progress", stage: 1, progress: 0, completions: 0 });
  });

  it("starts A Settler's Charter in Warden Tamsin's own words, in the first person, as sentences (docs/playtest.md 2026-11-29)", async () => {
    const g = await gameWorld();
    const p = fighter(g);
    const said = await talkAndChoose(actor(g, p), "warden_tamsin", (t) => t === "A Settler's Charter: I'd like to help.");
    assert.equal(said.npcName, "Warden Tamsin");
    assert.equal(said.nodeId, "quest_accepted");
    const text = String(said.text);
    assert.doesNotMatch(text, /Warden Tamsin/, "not narrated about her in the third person");
    assert.match(text, /\b(I'll|me)\b/, "she speaks for herself");
    assert.match(text, /five of those meadow rats/);
    assert.match(text, /[.!?]$/, "ends with a full stop");
  });

  it("refuses a foreign, stale or missing option with INVALID_OPTION and changes nothing", async () => {
    const g = await gameWorld();
    const p = fighter(g);
    const other = fighter(g);
    const tamsin = npcOf(g, "warden_tamsin");
    g.send(p, "dialogue:choose", { optionId: "o1" });
    g.tick();
    assert.equal(g.errors(p).at(-1)!.code, "INVALID_OPTION", "no dialogue open");
    g.send(other, "player:action", { action: "talk", targetId: tamsin.id });
    g.send(p, "player:action", { action: "talk", targetId: tamsin.id });
    g.tick(3);
    const theirs = g.events(other, "dialogue:open").at(-1)!;
    const mine = g.events(p, "dialogue:open").at(-1)!;
    const offer = (d: Record<string, unknown>) => (d.options as { id: string; text: string }[]).find((o) => o.text.endsWith("I'd like to help."))!.id;
    const before = JSON.stringify(copyData(p.data));
    g.send(p, "dialogue:choose", { optionId: offer(theirs) });
    g.tick();
    assert.deepEqual([g.errors(p).at(-1)!.code, g.errors(p).at(-1)!.event], ["INVALID_OPTION", "dialogue:choose"], "another player's option");
    // Moving on to another node makes the first node's options stale.
    const ask = (mine.options as { id: string; text: string }[]).find((o) => o.text === "What do I have to do?")!.id;
    g.send(p, "dialogue:choose", { optionId: ask });
    g.tick();
    g.send(p, "dialogue:choose", { optionId: offer(mine) });
    g.tick();
    assert.equal(g.errors(p).at(-1)!.code, "INVALID_OPTION", "a stale option");
    assert.equal(JSON.stringify(copyData(p.data)), before, "nothing changed");
    assert.equal(g.validate("dialogue:choose", { optionId: "" }).ok, false);
  });

  it("closes the dialogue when the player walks away", async () => {
    const g = await gameWorld();
    const p = fighter(g);
    g.send(p, "player:action", { action: "talk", targetId: npcOf(g, "warden_tamsin").id });
    g.tick(3);
    assert.ok(g.events(p, "dialogue:open").length > 0);
    g.send(p, "player:move", { x: p.x + 6, z: p.z });
    g.tick(2);
    assert.equal(g.events(p, "dialogue:close").length, 1);
    const option = (g.events(p, "dialogue:open").at(-1)!.options as { id: string }[])[0]!.id;
    g.send(p, "dialogue:choose", { optionId: option });
    g.tick();
    assert.equal(g.errors(p).at(-1)!.code, "INVALID_OPTION");
  });

  it("asks which skill an xp lamp's xp goes to; the choice takes the lamp first, then gives the xp", async () => {
    const g = await gameWorld();
    const items = g.world.content.items as Map<string, unknown>;
    items.set("xp_lamp_100", { id: "xp_lamp_100", name: "Lamp", type: "misc", stackable: false, value: 1, tradeable: true });
    try {
      const p = g.add({}, [{ itemId: "xp_lamp_100", quantity: 1 }]);
      g.send(p, "inventory:use", { slot: 0 });
      g.tick();
      const ask = g.events(p, "dialogue:open").at(-1)!;
      assert.deepEqual([ask.npcId, ask.npcName, ask.nodeId, ask.text], ["xp_lamp_100", "Lamp", "lamp", "Choose the skill to gain 100 xp in."]);
      const options = ask.options as { id: string; text: string }[];
      assert.equal(options.length, 17, "one option a skill");
      g.send(p, "dialogue:choose", { optionId: options.find((o) => o.text === "Mining")!.id });
      g.tick();
      assert.equal(p.data.skills.mining.xpTenths, 1000);
      assert.equal(count(p, "xp_lamp_100"), 0);
      assert.equal(g.events(p, "dialogue:close").length, 1);
      g.send(p, "dialogue:choose", { optionId: options.find((o) => o.text === "Attack")!.id });
      g.tick();
      assert.equal(g.errors(p).at(-1)!.code, "INVALID_OPTION", "the lamp's question is over");
      assert.equal(p.data.skills.attack.xpTenths, 0);
    } finally {
      items.delete("xp_lamp_100");
    }
  });

  it("talks to a banker, whose option opens the bank", async () => {
    const g = await gameWorld();
    const p = fighter(g);
    const banker = npcOf(g, "brackenford_banker");
    const a = actor(g, p);
    const before = g.events(p, "interface:open").length;
    const answer = await talkAndChoose(a, banker.def.id, (t) => t === "I'd like to see my account.");
    assert.deepEqual(answer, {});
    assert.equal(g.events(p, "interface:open").length, before + 1);
    assert.equal(g.events(p, "interface:open").at(-1)!.type, "bank");
  });
});
