/**
 * The scripted fighter's combat sense, with an AgentView fed `player:sync` and world updates as the
 * server sends them and the bundled world's content: the style of the melee skill it trains
 * (Strength ahead of Attack ahead of Defence), a better weapon bought and wielded, eating before a monster's next hit could kill it, casting
 * with runes and not without (melee again when the runes run out), and which runes it buys with
 * coins to spare.
 */
import assert from "node:assert/strict";
import type { Self } from "../../agent-runtime/AgentView.ts";
import { Fight, GoTo, GOTO_STUCK_TICKS, RUN_ABOVE, Shop, shouldRun, STALL_TICKS, WALK_BELOW, type Ctx } from "../../agent-runtime/brain/behaviours.ts";
import {
  bestMonster,
  boostPrayer,
  needsAltar,
  canWield,
  castableSpell,
  COINS_KEPT,
  kitOf,
  losingFight,
  meleeGear,
  meleeRates,
  meleeWorth,
  npcMaxHit,
  runePurchase,
  shouldEat,
  threat,
  trainingStyle,
  WEAPON_RESERVE,
  weaponUpgrade,
} from "../../agent-runtime/brain/fighting.ts";
import { ScriptedBrain } from "../../agent-runtime/brain/scripted.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import type { WorldUpdate } from "../../src/game/worldUpdate.ts";
import { XP_FOR_LEVEL } from "../../src/game/skills.ts";
import { npcAttacksPlayer } from "../../src/game/combat.ts";
import { gameWorld } from "../support/game.ts";
import { bundledKnowledge, ctxOf, observation, selfOf, viewOf, type Entry, type Sent } from "./support.ts";

describe("agent fighting: styles, eating, magic", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });

  /** Skills at these levels (with the xp of the level); magic by xp (level 1 below 83). */
  const skills = (attack: number, strength: number, defense: number, magic = 0) => ({
    attack: { level: attack, xp: XP_AT[attack]! },
    strength: { level: strength, xp: XP_AT[strength]! },
    defense: { level: defense, xp: XP_AT[defense]! },
    magic: { level: magic >= 83 ? 2 : 1, xp: magic },
  });
  const XP_AT = XP_FOR_LEVEL;
  /** A player:sync as the server sends it (a new character's, with `over`). */
  const sync = (over: Partial<Self> = {}): Self => selfOf({ skills: skills(1, 1, 1), ...over });
  const sword = { weapon: { itemId: "bronze_sword", quantity: 1 } };
  const rat = (id: string, x: number, z: number): Entry => ({
    id,
    kind: "npc",
    x,
    z,
    ref: "meadow_rat",
    name: "Meadow rat",
    health: 30,
    maxHealth: 30,
    level: 1,
    dead: false,
  });

  /** An agent at the rats' spawn with this state, seeing `others`; its ctx and what it sent. */
  function agent(self: Self, others: Entry[] = []) {
    const spot = know.mobSpots.get("meadow_rat")![0]!;
    const view = viewOf(self, spot, others);
    return { view, ...ctxOf(know, view, "fight"), spot };
  }
  const steps = (fight: Fight, ctx: Ctx, from: number, n: number) => {
    for (let t = from; t < from + n; t++) {
      ctx.tick = t;
      fight.step(ctx);
    }
  };
  const styles = (sent: Sent[]) => sent.filter((s) => s.type === "player:setCombatStyle").map((s) => s.data.style);

  it("ends the goal before the next foe when told (under focus melee: a kill it cannot finish), not in a fight", () => {
    const a = agent(sync({}), [rat("r1", 0, 0)]);
    a.ctx.tick = 10;
    let stop: string | undefined = "food first";
    const fight = new Fight("meadow_rat", { stopBefore: () => stop });
    const out = fight.step(a.ctx);
    assert.deepEqual([out.end, out.end === undefined ? "" : out.why], ["done", "food first"]);
    assert.equal(a.sent.filter((s) => s.type === "player:action").length, 0, "no attack sent");
    stop = undefined;
    const goOn = new Fight("meadow_rat", { stopBefore: () => stop });
    steps(goOn, a.ctx, 10, 3);
    assert.ok(
      a.sent.some((s) => s.type === "player:action" && s.data.action === "attack"),
      "attacks when nothing stops it",
    );
  });

  it("trains Strength first, kept 5 levels ahead of Attack, and Attack 5 ahead of Defence, to 10 each, then 20, among the weapon's styles", () => {
    const self = (a: number, s: number, d: number, over: Partial<Self> = {}) =>
      trainingStyle(sync({ skills: skills(a, s, d), equipment: sword, ...over }), know);
    assert.deepEqual(self(1, 1, 1), { skill: "strength", style: "aggressive" }, "Strength first: a higher max hit speeds every later kill");
    assert.deepEqual(self(1, 5, 1), { skill: "strength", style: "aggressive" });
    assert.deepEqual(self(1, 6, 1), { skill: "attack", style: "accurate" }, "Strength 5 ahead of Attack: Attack");
    assert.deepEqual(self(5, 6, 1), { skill: "strength", style: "aggressive" }, "Attack caught up: Strength leads again");
    assert.deepEqual(self(6, 10, 1), { skill: "defense", style: "defensive" }, "Attack 5 ahead of Defence, Strength at 10: Defence");
    assert.deepEqual(self(6, 10, 2), { skill: "attack", style: "accurate" }, "Defence gained (by being hit too): Attack may lead further");
    assert.deepEqual(self(10, 10, 9), { skill: "defense", style: "defensive" }, "within the band of 10: no skill trained past it");
    assert.deepEqual(self(10, 10, 10), { skill: "strength", style: "aggressive" }, "10/10/10: the next band, Strength first");
    assert.deepEqual(self(10, 15, 10), { skill: "attack", style: "accurate" });
    // Unarmed (punch, kick, block) offers them too; a bow's styles train Ranged: none chosen.
    assert.deepEqual(self(3, 1, 2, { equipment: {} }), { skill: "strength", style: "aggressive" });
    assert.equal(self(1, 1, 1, { equipment: { weapon: { itemId: "shortbow", quantity: 1 } } }), undefined);
  });

  it("a fighter switches style when the skill it trains reaches its lead, once, and not again until the next does", () => {
    const { view, ctx, sent, notes } = agent(sync({ skills: skills(3, 1, 2), equipment: sword }), [rat("r1", 0, 0)]);
    const fight = new Fight("meadow_rat");
    steps(fight, ctx, 0, 2);
    assert.deepEqual(styles(sent), ["aggressive"], "asks for the Strength style at once");
    assert.ok(notes.includes("style aggressive (train strength, level 1)"), notes.join("; "));
    assert.ok(view.self !== undefined);
    // The server has not confirmed yet: it waits rather than asking every tick.
    steps(fight, ctx, 2, 1);
    assert.deepEqual(styles(sent), ["aggressive"]);
    // Confirmed: nothing more while Strength is below Attack + 5.
    view.sync(sync({ combatStyle: "aggressive", skills: skills(3, 2, 2), equipment: sword }));
    steps(fight, ctx, 3, 10);
    view.sync(sync({ combatStyle: "aggressive", skills: skills(3, 7, 2), equipment: sword }));
    steps(fight, ctx, 13, 10);
    assert.deepEqual(styles(sent), ["aggressive"]);
    // Strength 5 ahead of Attack: Accurate.
    view.sync(sync({ combatStyle: "aggressive", skills: skills(3, 8, 2), equipment: sword }));
    steps(fight, ctx, 23, 1);
    assert.deepEqual(styles(sent), ["aggressive", "accurate"]);
    assert.ok(notes.includes("style accurate (train attack, level 3)"), notes.join("; "));
  });

  it("trains on the monster giving the most experience a tick at its levels, among those at most its combat level whose hits it can take", () => {
    const all = [...know.mobSpots.keys()];
    const levels = (n: number) => ({ attack: { level: n }, strength: { level: n }, defense: { level: n } });
    // Level 1: the cows (8 hitpoints, Defence 1: few misses and a kill's walk spread over more blows) before the rats.
    assert.equal(bestMonster(all, levels(1), 3, 100, know), "brindle_cow");
    assert.ok(meleeRates(levels(1), know, "brindle_cow").dealt > meleeRates(levels(1), know, "meadow_rat").dealt);
    // Twenty-five: the boars (Defence 4, 12 hitpoints) hit harder but give more. At twenty, still
    // the cows: a boar's hits of up to 2 hitpoints cost about what its hitpoints give.
    assert.equal(bestMonster(all, levels(25), 25, 250, know), "bristleback_boar");
    assert.equal(bestMonster(all, levels(20), 25, 250, know), "brindle_cow");
    // Never one above its combat level (the Cinder hound is 20), nor one whose max hit is over a third of its health.
    assert.equal(bestMonster(["meadow_rat", "cinder_hound"], levels(10), 13, 100, know), "meadow_rat");
    assert.equal(bestMonster(["meadow_rat", "hollow_cutpurse"], levels(15), 20, 50, know), "meadow_rat", "the cutpurse's 20 is over a third of 50");
    assert.equal(bestMonster(["cinder_hound", "slag_brute"], levels(1), 3, 100, know), "cinder_hound", "the weakest when none is at its level");
    // Better levels, more dealt and less taken.
    assert.ok(meleeRates(levels(10), know, "brindle_cow").dealt > meleeRates(levels(1), know, "brindle_cow").dealt);
    assert.ok(meleeRates(levels(10), know, "brindle_cow").taken < meleeRates(levels(1), know, "brindle_cow").taken);
  });

  it("reckons a monster's max hit as the server rolls it, its invisible style level counted (a boar: 2 hitpoints, not 1)", async () => {
    // Bristleback boar, Strength 6: ⌊0.5 + (6 + 1 + 8) × 64 / 640⌋ = 2 hitpoints (combat.ts
    // maxHitHitpoints with NPC_STYLE_BONUS); without the +1, ⌊0.5 + 14 × 64 / 640⌋ = 1.
    assert.equal(npcMaxHit(know, "bristleback_boar"), 20);
    const boar = know.registry.npcs.get("bristleback_boar")!;
    const rates = meleeRates({ attack: { level: 1 }, strength: { level: 1 }, defense: { level: 1 } }, know, "bristleback_boar");
    // Its chance to hit a level-1 fighter: (5 + 9) × 64 = 896 against (1 + 8) × 64 = 576.
    const chance = 1 - (576 + 2) / (2 * (896 + 1));
    assert.ok(Math.abs(rates.taken - (chance * 20) / 2 / (boar.combat?.attackSpeedTicks ?? 4)) < 1e-9, `taken ${rates.taken}`);
    // Every attackable monster against the server's own roll: its highest damage (a hit, then the top damage roll).
    const g = await gameWorld();
    const p = g.add();
    for (const npc of new Map([...g.world.npcs.values()].filter((n) => n.def.combat?.attackable === true).map((n) => [n.def.id, n])).values()) {
      p.data.health = 100_000;
      const values = [0, 0.999999];
      (g.world as { random: () => number }).random = () => values.shift() ?? 0.5;
      npcAttacksPlayer(g.world, npc, p);
      assert.equal(npcMaxHit(know, npc.def.id), 100_000 - p.data.health, npc.def.id);
    }
  });

  it("counts the gear it wears in melee rates: a sword's attack and strength, armour's defence", () => {
    const lv = { attack: { level: 3 }, strength: { level: 7 }, defense: { level: 3 } };
    const bare = meleeRates(lv, know, "bristleback_boar");
    assert.deepEqual(meleeRates(lv, know, "bristleback_boar", meleeGear(know, {})), bare, "nothing worn: unarmed figures");
    const gear = meleeGear(know, { weapon: "bronze_sword", body: "leather_body" });
    // Bronze sword: +5 attack, +4 strength (items/weapons.json); leather body: 7, 8, 9 stab/slash/crush, averaged to 8.
    assert.deepEqual(gear, { attack: 5, strength: 4, defence: 8 });
    const armed = meleeRates(lv, know, "bristleback_boar", gear);
    assert.ok(armed.dealt > bare.dealt, `a sword deals more: ${armed.dealt} > ${bare.dealt}`);
    assert.ok(armed.taken < bare.taken, `armour takes less: ${armed.taken} < ${bare.taken}`);
    // The aggressive style's +3 invisible Strength: a bronze sword at Strength 4 hits 2 hitpoints, not 1 (maxHitHitpoints).
    const s4 = { attack: { level: 3 }, strength: { level: 4 }, defense: { level: 2 } };
    const plain = meleeRates(s4, know, "bristleback_boar", gear);
    const aggressive = meleeRates(s4, know, "bristleback_boar", gear, "aggressive");
    assert.ok(Math.abs(aggressive.dealt / plain.dealt - 2) < 0.35, `about twice the damage: ${aggressive.dealt} vs ${plain.dealt}`);
    assert.equal(aggressive.taken, plain.taken, "no defence from the aggressive style");
    assert.ok(meleeRates(s4, know, "bristleback_boar", gear, "defensive").taken < plain.taken, "the defensive style's +3 Defence");
  });

  it("eats below half its health, or hurt within one max hit of a monster next to it, and not at full health", () => {
    // A hollow cutpurse (Strength 10) hits up to 2 hitpoints: 20 lifepoints (combat.ts maxHitHitpoints(10, 0)).
    assert.equal(npcMaxHit(know, "hollow_cutpurse"), 20);
    assert.equal(npcMaxHit(know, "meadow_rat"), 10);
    // The monsters' style bonus counts (src/game/combat.ts NPC_STYLE_BONUS): a boar's Strength 6 hits 2 hitpoints.
    assert.equal(npcMaxHit(know, "bristleback_boar"), 20);
    const cutpurse = (x: number, z: number): Entry => ({
      id: "c1",
      kind: "npc",
      x,
      z,
      ref: "hollow_cutpurse",
      name: "Hollow cutpurse",
      health: 180,
      maxHealth: 180,
      level: 12,
      dead: false,
    });
    const at = (health: number, others: Entry[] = []) => {
      const a = agent(sync({ health, maxHealth: 100 }), []);
      a.view.update({ tick: 2, entities: others.map((o) => ({ ...o, x: a.spot.x + o.x, z: a.spot.z + o.z })), removed: [] });
      return shouldEat(a.view, know, 0.5);
    };
    assert.equal(at(50), false, "at half: not yet");
    assert.equal(at(49), true, "below half");
    assert.equal(at(60, [cutpurse(1, 0)]), false, "a cutpurse next to it cannot kill it from 60");
    assert.equal(at(20, [cutpurse(1, 0)]), true, "its next hit could kill it at 20");
    assert.equal(at(20, [cutpurse(3, 0)]), true, "below half anyway");
    const far = agent(sync({ health: 100, maxHealth: 100 }));
    far.view.update({ tick: 2, entities: [{ ...cutpurse(far.spot.x + 4, far.spot.z) }], removed: [] });
    assert.equal(threat(far.view, know), 0, "a monster four tiles off is no next hit");
    const full = agent(sync({ health: 10, maxHealth: 10 }));
    full.view.update({ tick: 2, entities: [{ ...cutpurse(full.spot.x + 1, full.spot.z) }], removed: [] });
    assert.equal(shouldEat(full.view, know, 0.5), false, "at full health eating heals nothing");
  });

  it("leaves a losing fight, and a quest only while its fight is on or a monster stands by", () => {
    const rat: Entry = { id: "r1", kind: "npc", x: 1, z: 0, ref: "meadow_rat", name: "Meadow rat", health: 30, maxHealth: 30, level: 1, dead: false };
    const at = (health: number, others: Entry[] = []) => {
      const a = agent(sync({ health, maxHealth: 100 }), []);
      a.view.update({ tick: 2, entities: others.map((o) => ({ ...o, x: a.spot.x + o.x, z: a.spot.z + o.z })), removed: [] });
      return a.view;
    };
    assert.equal(losingFight(at(25), know, 0.3, "combat", false), true, "a combat goal below 30 %");
    assert.equal(losingFight(at(35), know, 0.3, "combat", false), false, "above 30 %, nothing next to it");
    assert.equal(losingFight(at(10, [rat]), know, 0.3, "combat", false), true, "within the rat's max hit");
    // The quest ladder's trace: five quests given up in one tick at 27 % while walking to talk.
    assert.equal(losingFight(at(25), know, 0.3, "quest", false), false, "a quest walking to talk at 25 % goes on");
    assert.equal(losingFight(at(25), know, 0.3, "quest", true), true, "a quest's kill stage at 25 % is left");
    assert.equal(losingFight(at(25, [rat]), know, 0.3, "quest", false), false, "a rat next to it cannot kill it from 25");
    assert.equal(losingFight(at(10, [rat]), know, 0.3, "quest", false), true, "one that could kill it with its next hit makes it a fight");
    assert.equal(losingFight(at(5), know, 0.3, "other", false), false, "gathering is no fight");
  });

  it("casts its strongest spell on the monster with runes, again when the spell's timer has run, and melees without", () => {
    const runes = [
      { slot: 0, itemId: "air_rune", quantity: 3 },
      { slot: 1, itemId: "mind_rune", quantity: 3 },
    ];
    const { view, ctx, sent, notes } = agent(sync({ skills: skills(1, 1, 1), inventory: runes }), [rat("r1", 0, 0)]);
    assert.equal(castableSpell(kitOf(view.self!), know)?.id, "wind_strike");
    const fight = new Fight("meadow_rat");
    steps(fight, ctx, 0, 11);
    const casts = sent.filter((s) => s.type === "player:action");
    assert.deepEqual(
      casts.map((s) => s.data),
      [0, 5, 10].map(() => ({ action: "cast", spellId: "wind_strike", targetId: "r1" })),
      "a cast every 5 ticks (Wind Strike's attack speed)",
    );
    assert.ok(
      notes.some((n) => /^cast Wind Strike on Meadow rat/.test(n)),
      notes.join("; "),
    );
    assert.deepEqual(styles(sent), [], "casting: no melee style asked for");
    // Out of runes: it attacks in melee, the same monster, and picks a melee style again.
    view.sync(sync({ skills: skills(1, 1, 1), inventory: [] }));
    sent.length = 0;
    steps(fight, ctx, 11, 13);
    assert.deepEqual(
      sent.filter((s) => s.type === "player:action").map((s) => s.data.action),
      ["attack"],
    );
    // Strength first (the sync's accurate trains Attack), asked again every 3 ticks while the server has not confirmed.
    assert.deepEqual([...new Set(styles(sent))], ["aggressive"]);
    // Without runes from the start: never a cast.
    const plain = agent(sync({ inventory: [{ slot: 0, itemId: "air_rune", quantity: 5 }] }), [rat("r1", 0, 0)]);
    assert.equal(castableSpell(kitOf(plain.view.self!), know), undefined, "air runes alone cast nothing");
    steps(new Fight("meadow_rat"), plain.ctx, 0, 30);
    assert.ok(!plain.sent.some((s) => s.data.action === "cast"));
    assert.ok(plain.sent.some((s) => s.data.action === "attack"));
  });

  it("a staff of air stands for the air runes; a refused cast (no runes) turns to melee without giving up the monster", () => {
    const staff = { weapon: { itemId: "staff_of_air", quantity: 1 } };
    const a = agent(sync({ equipment: staff, inventory: [{ slot: 0, itemId: "mind_rune", quantity: 1 }] }), [rat("r1", 0, 0)]);
    assert.equal(castableSpell(kitOf(a.view.self!), know)?.id, "wind_strike");
    const fight = new Fight("meadow_rat");
    steps(fight, a.ctx, 0, 1);
    assert.equal(a.sent.at(-1)?.data.action, "cast");
    fight.onEvent("error", { code: "NO_RUNES", message: "you need 1 more Mind rune to cast Wind Strike", event: "player:action" }, a.ctx);
    steps(fight, a.ctx, 1, 1);
    assert.deepEqual(a.sent.at(-1)?.data, { action: "attack", targetId: "r1" });
  });

  it("leaves a monster someone else fights (single-way combat's IN_COMBAT) for another, melee and cast alike", () => {
    for (const inventory of [
      [],
      [
        { slot: 0, itemId: "air_rune", quantity: 5 },
        { slot: 1, itemId: "mind_rune", quantity: 5 },
      ],
    ]) {
      const spot = know.mobSpots.get("meadow_rat")![0]!;
      const a = agent(sync({ skills: skills(1, 1, 1), inventory }), [rat("r1", spot.x + 1, spot.z), rat("r2", spot.x + 2, spot.z)]);
      const fight = new Fight("meadow_rat");
      steps(fight, a.ctx, 0, 1);
      const first = a.sent.filter((s) => s.type === "player:action").at(-1)!.data;
      assert.ok(first.targetId === "r1" || first.targetId === "r2");
      fight.onEvent("error", { code: "IN_COMBAT", message: "Someone else is fighting that.", event: "player:action" }, a.ctx);
      a.sent.length = 0;
      steps(fight, a.ctx, 1, 12);
      const targets = new Set(a.sent.filter((s) => s.type === "player:action").map((s) => s.data.targetId));
      assert.deepEqual([...targets], [first.targetId === "r1" ? "r2" : "r1"], `the other rat, never the refused one (${first.action})`);
    }
  });

  it("under attack by another monster (UNDER_ATTACK), fights that one back instead of its quarry", () => {
    const spot = know.mobSpots.get("meadow_rat")![0]!;
    const hound = { ...rat("h1", spot.x - 1, spot.z), ref: "cinder_hound", name: "Cinder hound" };
    const a = agent(sync({ skills: skills(1, 1, 1) }), [rat("r1", spot.x + 1, spot.z), hound]);
    const fight = new Fight("meadow_rat");
    steps(fight, a.ctx, 0, 1);
    assert.deepEqual(a.sent.filter((s) => s.type === "player:action").at(-1)?.data, { action: "attack", targetId: "r1" });
    fight.onEvent("combat:hit", { attackerId: "h1", targetId: a.view.playerId, damage: 10, style: "melee", targetHealth: 90, targetMaxHealth: 100 }, a.ctx);
    a.sent.length = 0;
    fight.onEvent("error", { code: "UNDER_ATTACK", message: "I'm already under attack.", event: "player:action" }, a.ctx);
    assert.deepEqual(
      a.sent.map((s) => s.data),
      [{ action: "attack", targetId: "h1" }],
    );
    steps(fight, a.ctx, 1, 4);
    assert.ok(!a.sent.some((s) => s.data.targetId === "r1"), "not the rat meanwhile");
  });

  it("buys the best melee weapon it can wield and afford, and wields a better one it carries at its next fight", () => {
    const obs = (coins: number, over: { inventory?: { itemId: string }[]; weapon?: string; attack?: number } = {}) => ({
      skills: skills(over.attack ?? 1, 1, 1),
      coins,
      inventory: over.inventory ?? [],
      equipment: (over.weapon === undefined ? {} : { weapon: over.weapon }) as Record<string, string>,
    });
    const sold = ["bronze_dagger", "bronze_sword", "iron_sword", "iron_mace", "shortbow", "staff_of_air", "bronze_hatchet"];
    assert.equal(weaponUpgrade(know, obs(25 + WEAPON_RESERVE - 1), sold), undefined, "25 for a bronze dagger and WEAPON_RESERVE kept: not yet");
    assert.equal(weaponUpgrade(know, obs(64), sold)?.itemId, "bronze_dagger", "not the sword's 65 yet");
    assert.deepEqual(weaponUpgrade(know, obs(65 + WEAPON_RESERVE), sold), { itemId: "bronze_sword", storeId: "flintwright_arms", price: 65 });
    // Iron: the mace (+7 attack, +10 strength, 4 ticks) is worth the sword (+9, +8) for 180 coins rather than 200.
    assert.equal(weaponUpgrade(know, obs(200 + WEAPON_RESERVE), sold)?.itemId, "iron_mace");
    assert.equal(weaponUpgrade(know, obs(1000, { weapon: "iron_sword" }), sold), undefined, "nothing better on sale");
    assert.equal(weaponUpgrade(know, obs(100, { inventory: [{ itemId: "bronze_sword" }] }), sold), undefined, "carried counts");
    // Never a bow, a staff or a hatchet as a melee weapon; the steel sword only from Attack 5.
    assert.equal(meleeWorth(know, "shortbow"), undefined);
    assert.equal(meleeWorth(know, "staff_of_air"), undefined);
    assert.equal(meleeWorth(know, "bronze_hatchet"), undefined);
    assert.ok(!canWield(know, skills(4, 1, 1), "steel_sword") && canWield(know, skills(5, 1, 1), "steel_sword"));
    // Carrying an iron sword with a bronze one wielded: it wields the iron one first.
    const a = agent(sync({ equipment: sword, inventory: [{ slot: 3, itemId: "iron_sword", quantity: 1 }] }), [rat("r1", 0, 0)]);
    steps(new Fight("meadow_rat"), a.ctx, 0, 1);
    assert.deepEqual(a.sent.filter((m) => m.type !== "player:setRun")[0], { type: "inventory:use", data: { slot: 3 } });
    // A bronze sword carried with an iron one wielded: it fights on with the iron one.
    const b = agent(sync({ equipment: { weapon: { itemId: "iron_sword", quantity: 1 } }, inventory: [{ slot: 3, itemId: "bronze_sword", quantity: 1 }] }), [
      rat("r1", 0, 0),
    ]);
    steps(new Fight("meadow_rat"), b.ctx, 0, 3);
    assert.ok(!b.sent.some((m) => m.type === "inventory:use"));
  });

  it("buys runes for many casts with the coins beyond what it keeps, and not with too few", () => {
    // Wind Strike: an air rune (4) and a mind rune (3) at Maelis's Runes.
    const buy = runePurchase({ skills: skills(1, 1, 1), inventory: [], weaponId: undefined, coins: COINS_KEPT + 7 * 40 }, know);
    assert.deepEqual(buy, {
      spellId: "wind_strike",
      storeId: "brackenford_runes",
      items: [
        { itemId: "air_rune", quantity: 40 },
        { itemId: "mind_rune", quantity: 40 },
      ],
      cost: 280,
    });
    assert.equal(
      runePurchase({ skills: skills(1, 1, 1), inventory: [], weaponId: undefined, coins: COINS_KEPT + 7 * 9 }, know),
      undefined,
      "9 casts: not worth the trip",
    );
    // With a staff of air, only the mind runes.
    assert.deepEqual(runePurchase({ skills: skills(1, 1, 1), inventory: [], weaponId: "staff_of_air", coins: COINS_KEPT + 30 }, know)?.items, [
      { itemId: "mind_rune", quantity: 10 },
    ]);
    // Runes for a spell already: no trip.
    assert.equal(
      runePurchase(
        {
          skills: skills(1, 1, 1),
          inventory: [
            { itemId: "air_rune", quantity: 1 },
            { itemId: "mind_rune", quantity: 1 },
          ],
          weaponId: undefined,
          coins: 10_000,
        },
        know,
      ),
      undefined,
    );

    // The policy chooses the trip when the server offers runes; the Shop buys them all when the store opens.
    const obs = observation({
      coins: 1000,
      skills: skills(1, 1, 1),
      availableGoals: [
        { type: "shopping", description: "Buy runes", targets: ["air_rune", "mind_rune"] },
        { type: "idle", description: "Stand still", targets: [] },
      ],
    });
    const c = new ScriptedBrain(know, "runes").choose(obs);
    assert.deepEqual({ type: c.type, target: c.target }, { type: "shopping", target: "air_rune" });
    assert.match(c.reason, /^runes for 100 casts of Wind Strike; they cost 700$/);
    assert.equal(new ScriptedBrain(know, "runes").choose({ ...obs, coins: 120 }).type, "idle", "too few coins to spare");
    const tools = [{ type: "shopping", description: "Buy a tool or runes", targets: ["bronze_hatchet", "air_rune", "mind_rune"] }];
    assert.equal(new ScriptedBrain(know, "runes").choose({ ...obs, availableGoals: tools }).target, "bronze_hatchet", "a missing tool first");

    const shop = agent(sync({ coins: 1000 }));
    const trip = new Shop("brackenford_runes", runePurchase(kitOf(sync({ coins: 1000 })), know)!.items);
    trip.step(shop.ctx);
    trip.onEvent("interface:open", { type: "store", npcId: "rune_keeper", storeId: "brackenford_runes", name: "Runes", items: [], sell: [] }, shop.ctx);
    assert.deepEqual(
      shop.sent.filter((s) => s.type === "store:buy").map((s) => s.data),
      [
        { storeId: "brackenford_runes", itemId: "air_rune", quantity: 100 },
        { storeId: "brackenford_runes", itemId: "mind_rune", quantity: 100 },
      ],
    );
    shop.view.sync(sync({ inventory: [{ slot: 0, itemId: "air_rune", quantity: 100 }] }));
    assert.equal(trip.step(shop.ctx).end, undefined, "the mind runes are still to come");
    shop.view.sync(
      sync({
        inventory: [
          { slot: 0, itemId: "air_rune", quantity: 100 },
          { slot: 1, itemId: "mind_rune", quantity: 100 },
        ],
      }),
    );
    assert.equal(trip.step(shop.ctx).end, "done");
  });

  it("runs only with energy to spare: from above RUN_ABOVE until below WALK_BELOW, then walks; without run energy it walks", () => {
    assert.deepEqual(
      [shouldRun(RUN_ABOVE + 1, false), shouldRun(RUN_ABOVE, false), shouldRun(WALK_BELOW, true), shouldRun(WALK_BELOW - 1, true), shouldRun(undefined, false)],
      [true, false, true, false, false],
    );
    const energy = (runEnergy: number) => sync({ runEnergy });
    const { view, ctx, sent } = agent(energy(80));
    const home = new GoTo({ x: 0, z: 0 }, "home");
    const moves = () => sent.filter((s) => s.type === "player:move").map((s) => s.data.run === true);
    const at = (tick: number) => {
      ctx.tick = tick;
      home.step(ctx);
    };
    at(0);
    assert.deepEqual(moves(), [true], "80 %: it runs");
    at(1);
    assert.deepEqual(moves(), [true], "one order for the way");
    view.sync(energy(25));
    at(2);
    assert.deepEqual(moves(), [true, false], "25 %: a new order, walking");
    view.sync(energy(45));
    at(3);
    assert.deepEqual(moves(), [true, false], "45 %: still walking (restoring)");
    view.sync(energy(60));
    at(4);
    assert.deepEqual(moves(), [true, false, true], "60 %: running again");
    // Standing still GOTO_STUCK_TICKS (no way there, as from under the cistern): given up, not held for ever.
    const stuck = new GoTo({ x: 0, z: 0 }, "home");
    ctx.tick = 100;
    assert.equal(stuck.step(ctx).end, undefined);
    ctx.tick = 100 + GOTO_STUCK_TICKS + 1;
    assert.equal(stuck.step(ctx).end, "failed");
  });

  it("keeps the run toggle to the same choice (a walk to an action's target runs by it), asking again only after STALL_TICKS; a fight keeps it while chasing", () => {
    const { view, ctx, sent } = agent(sync({ runEnergy: 80, runMode: false }));
    const home = new GoTo({ x: 0, z: 0 }, "home");
    const toggles = () => sent.filter((s) => s.type === "player:setRun").map((s) => s.data.run);
    const at = (tick: number) => {
      ctx.tick = tick;
      home.step(ctx);
    };
    at(0);
    assert.deepEqual(toggles(), [true], "80 % with the toggle off: switched on");
    at(1);
    assert.deepEqual(toggles(), [true], "not asked again at once");
    view.sync(sync({ runEnergy: 80, runMode: true }));
    at(2);
    assert.deepEqual(toggles(), [true], "on, as wanted: nothing to ask");
    view.sync(sync({ runEnergy: 20, runMode: true }));
    at(3);
    assert.deepEqual(toggles(), [true], "low, but asked STALL_TICKS ago at most");
    at(STALL_TICKS);
    assert.deepEqual(toggles(), [true, false], "low: switched off");
    // A fight under way (no walk of its own) switches it off too.
    const f = agent(sync({ runEnergy: 10, runMode: true }), [rat("r1", 0, 0)]);
    steps(new Fight("meadow_rat"), f.ctx, 0, 1);
    assert.deepEqual(
      f.sent.filter((s) => s.type === "player:setRun").map((s) => s.data.run),
      [false],
    );
  });

  describe("prayer (the content's prayers.json and player:sync's prayerPoints, activePrayers)", () => {
    const prayerSync = (points: number, active: string[], over: Partial<Self> = {}) =>
      sync({
        // Melee at 20, where a 5 % boost adds a level (the server floors the boosted level).
        skills: { ...skills(20, 20, 20), prayer: { level: 10, xp: 1154 } },
        equipment: sword,
        combatStyle: "aggressive",
        prayerPoints: points,
        activePrayers: active,
        ...over,
      });
    const toggles = (sent: Sent[]) => sent.filter((s) => s.type === "prayer:toggle").map((s) => s.data);
    function praying_agent(self: Self) {
      return agent(self, [rat("r1", 0, 0)]);
    }

    it("chooses the strongest boost at its Prayer level for the skill it trains", () => {
      assert.equal(boostPrayer(prayerSync(10, []), know, "strength")?.id, "ember_vigour");
      assert.equal(boostPrayer(prayerSync(10, []), know, "defense")?.id, "stoneward");
      assert.equal(boostPrayer(prayerSync(10, []), know, "attack")?.id, "steady_hand");
      assert.equal(
        boostPrayer(prayerSync(10, [], { skills: { ...skills(1, 1, 1), prayer: { level: 3, xp: 174 } } }), know, "strength"),
        undefined,
        "Ember Vigour is level 4",
      );
      // Below level 20 a 5 % boost adds nothing: no prayer (Stoneward's 10 % adds one from Defence 10).
      const low = (a: number, s: number, d: number) => prayerSync(10, [], { skills: { ...skills(a, s, d), prayer: { level: 10, xp: 1154 } } });
      assert.equal(boostPrayer(low(19, 19, 19), know, "strength"), undefined);
      assert.equal(boostPrayer(low(19, 19, 19), know, "attack"), undefined);
      assert.equal(boostPrayer(low(9, 9, 9), know, "defense"), undefined);
      assert.equal(boostPrayer(low(9, 9, 10), know, "defense")?.id, "stoneward");
      assert.equal(
        needsAltar(prayerSync(0, [], { skills: { ...skills(9, 9, 9), prayer: { level: 10, xp: 1154 } } }), know),
        false,
        "no altar trip for nothing",
      );
      // A content set without prayers.json: none.
      const none: Knowledge = { ...know, registry: Object.assign(Object.create(know.registry) as Knowledge["registry"], { prayers: new Map() }) };
      assert.equal(boostPrayer(prayerSync(10, []), none, "strength"), undefined, "no prayers in the content: none");
    });

    it("prays its boost in a melee fight with points, once, and not without points or while casting", () => {
      const a = praying_agent(prayerSync(10, []));
      const fight = new Fight("meadow_rat");
      steps(fight, a.ctx, 0, 2);
      assert.deepEqual(toggles(a.sent), [{ prayerId: "ember_vigour", active: true }]);
      a.view.sync(prayerSync(9, ["ember_vigour"]));
      steps(fight, a.ctx, 2, 10);
      assert.equal(toggles(a.sent).length, 1, "on already: nothing more");
      const empty = praying_agent(prayerSync(0, []));
      steps(new Fight("meadow_rat"), empty.ctx, 0, 12);
      assert.deepEqual(toggles(empty.sent), []);
      const mage = praying_agent(
        prayerSync(10, [], {
          inventory: [
            { slot: 0, itemId: "air_rune", quantity: 9 },
            { slot: 1, itemId: "mind_rune", quantity: 9 },
          ],
        }),
      );
      steps(new Fight("meadow_rat"), mage.ctx, 0, 12);
      assert.deepEqual(toggles(mage.sent), [], "a melee boost does nothing for a spell");
    });

    it("with points low goes to the altar and prays there (interact) before the next fight, then fights, each time they run low", () => {
      const a = praying_agent(prayerSync(1, []));
      const fight = new Fight("meadow_rat");
      steps(fight, a.ctx, 0, 3);
      assert.ok(
        a.sent.some((s) => s.type === "player:move" && s.data.x === know.altars[0]!.x && s.data.z === know.altars[0]!.z),
        JSON.stringify(a.sent),
      );
      assert.ok(!a.sent.some((s) => s.data.action === "attack"), "no fight on the way");
      // At the altar: it prays there.
      const altar = know.altars[0]!;
      a.view.update({
        tick: 3,
        entities: [{ id: "me", kind: "player", x: altar.x, z: altar.z + 1, name: "Robin", health: 100, maxHealth: 100, combatLevel: 3, running: false }],
        removed: [],
      });
      steps(fight, a.ctx, 3, 1);
      assert.deepEqual(a.sent.at(-1), { type: "player:action", data: { action: "interact", targetId: "fernlight_altar" } });
      // Recharged: back to the rats.
      a.view.sync(prayerSync(10, []));
      a.view.update({ tick: 4, entities: [rat("r2", altar.x + 1, altar.z + 1)], removed: [] });
      steps(fight, a.ctx, 4, 2);
      assert.ok(
        a.sent.slice(-3).some((s) => s.data.action === "attack"),
        JSON.stringify(a.sent.slice(-3)),
      );
      // Low again much later in the same goal (the rat dead): to the altar again.
      a.view.sync(prayerSync(1, []));
      a.view.update({ tick: 6, entities: [{ ...rat("r2", altar.x + 1, altar.z + 1), dead: true }], removed: [] } as WorldUpdate);
      a.sent.length = 0;
      steps(fight, a.ctx, 400, 2);
      assert.deepEqual(a.sent.at(-1), { type: "player:action", data: { action: "interact", targetId: "fernlight_altar" } }, "a second trip");
      // Points to spare (3 of 10: the altar is for fewer than a quarter): never to the altar.
      const plain = praying_agent(prayerSync(3, []));
      steps(new Fight("meadow_rat"), plain.ctx, 0, 5);
      assert.ok(!plain.sent.some((s) => s.data.targetId === "fernlight_altar"));
    });
  });
});
