/**
 * Prayer (src/game/prayer.ts): drain at the OSRS wiki's published rates, the altar's recharge, the
 * boosts in the max-hit and accuracy formulas, protection, conflicts, refusals that change nothing,
 * prayers off at death and at 0 points; the real content set's prayers run too.
 */
import assert from "node:assert/strict";
import { pino } from "pino";
import { hitChance, maxHitHitpoints, npcAttacksPlayer, playerAttacksNpc } from "../../src/game/combat.ts";
import { styleBonus } from "../../src/game/combatStyles.ts";
import { drainResistance, parsePrayerPoints, prayedLevel, ticksPerPoint } from "../../src/game/prayer.ts";
import { addXp } from "../../src/game/progression.ts";
import { XP_FOR_LEVEL, type Skill } from "../../src/game/skills.ts";
import { GAMEPLAY } from "../../src/game/systems.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { seededRandom, TICK_MS, World } from "../../src/game/world/World.ts";
import { inputHandlers } from "../../src/game/events.ts";
import { loadContent } from "../../src/manifests/loader.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";
import { playerData } from "../support/players.ts";
import { FIXTURE_MANIFESTS } from "../support/world.ts";

function setLevel(p: Player, skill: Skill, level: number): void {
  p.data.skills[skill] = { level, xpTenths: XP_FOR_LEVEL[level]! * 10 };
}

function rolls(g: GameHarness, ...values: number[]): void {
  (g.world as { random: () => number }).random = () => values.shift() ?? 0.5;
}

function brute(g: GameHarness): NpcInstance {
  return [...g.world.npcs.values()].find((n) => n.def.id === "slag_brute")!;
}

/** A player at Prayer `level`, with full points, standing where nothing attacks it. */
function prayerPlayer(g: GameHarness, level: number, over: Parameters<GameHarness["add"]>[0] = {}): Player {
  const p = g.add(over);
  setLevel(p, "prayer", level);
  return p;
}

/** Ticks until the player's points next drop, at most `limit`. */
function ticksToNextPoint(g: GameHarness, p: Player, limit = 200): number {
  const start = p.data.prayerPoints ?? p.data.skills.prayer.level;
  for (let t = 1; t <= limit; t++) {
    g.tick();
    if ((p.data.prayerPoints ?? p.data.skills.prayer.level) < start) return t;
  }
  return Infinity;
}

describe("prayer drain", () => {
  // OSRS wiki "Prayer" (drain mechanics): resistance = 2 × prayer bonus + 60; a prayer of drain
  // effect D costs 1 point every resistance / D ticks. Published rates with no prayer bonus:
  // Thick Skin (1) 36 s, Rock Skin (6) 6 s, Protect from Melee (12) 3 s, Piety (24) 1.5 s; with
  // +10 prayer bonus Protect from Melee lasts 80 / 12 ticks = 4 s a point.
  it("follows the genre's published drain rates", () => {
    const seconds = (drain: number, bonus = 0) => (ticksPerPoint(drain, bonus) * TICK_MS) / 1000;
    assert.equal(drainResistance(0), 60);
    assert.equal(drainResistance(15), 90);
    assert.deepEqual([seconds(1), seconds(6), seconds(12), seconds(24)], [36, 6, 3, 1.5]);
    assert.equal(seconds(12, 10), 4);
    assert.equal(ticksPerPoint(0), Infinity);
  });

  it("drains Hearthward (drain 1) a point every 60 ticks and Stoneward (drain 5) every 12, in the world", async () => {
    const g = await gameWorld();
    const p = prayerPlayer(g, 20);
    g.send(p, "prayer:toggle", { prayerId: "hearthward", active: true });
    assert.equal(ticksToNextPoint(g, p), 60);
    assert.equal(ticksToNextPoint(g, p), 60, "and again 60 ticks later");
    assert.equal(p.data.prayerPoints, 18);
    g.send(p, "prayer:toggle", { prayerId: "stoneward", active: true });
    g.tick();
    assert.deepEqual(p.activePrayers, ["stoneward"], "Stoneward replaced Hearthward (both boost Defence)");
    // The counter carries what the last tick left: the next point comes within 12 ticks, then every 12.
    assert.ok(ticksToNextPoint(g, p) <= 12);
    assert.equal(ticksToNextPoint(g, p), 12);
    assert.equal(p.saveDue, true, "points are saved with the character");
  });

  it("adds the active prayers' drains together and slows with the worn prayer bonus", async () => {
    const g = await gameWorld();
    const p = prayerPlayer(g, 20);
    g.send(p, "prayer:toggle", { prayerId: "stoneward", active: true });
    g.send(p, "prayer:toggle", { prayerId: "ember_fury", active: true });
    g.send(p, "prayer:toggle", { prayerId: "keen_edge", active: true });
    g.tick();
    assert.deepEqual(p.activePrayers, ["stoneward", "ember_fury", "keen_edge"]);
    // 5 + 5 + 5 = 15 a tick against 60: a point every 4 ticks.
    assert.ok(ticksToNextPoint(g, p) <= 4);
    assert.equal(ticksToNextPoint(g, p), 4);
    // An item with prayer bonus +15 (resistance 90): a point every 6 ticks.
    const holy = [...g.world.content.items.values()].find((i) => i.equipSlot !== undefined);
    assert.ok(holy);
    (g.world.content.items as Map<string, typeof holy>).set("test_holy_symbol", { ...holy, id: "test_holy_symbol", bonuses: { prayer: 15 } });
    p.data.equipment.amulet = { itemId: "test_holy_symbol", quantity: 1 };
    assert.ok(ticksToNextPoint(g, p) <= 6);
    assert.equal(ticksToNextPoint(g, p), 6);
    (g.world.content.items as Map<string, unknown>).delete("test_holy_symbol");
  });

  it("switches every prayer off at 0 points, with a message, and refuses to pray until recharged", async () => {
    const g = await gameWorld();
    const p = prayerPlayer(g, 20, { prayerPoints: 1 });
    g.send(p, "prayer:toggle", { prayerId: "stoneward", active: true });
    g.send(p, "prayer:toggle", { prayerId: "keen_edge", active: true });
    g.tick(6);
    assert.equal(p.data.prayerPoints, 0);
    assert.deepEqual(p.activePrayers, []);
    const sync = g.events(p, "player:sync").at(-1)!;
    assert.deepEqual([sync.prayerPoints, sync.activePrayers], [0, []]);
    assert.ok(g.events(p, "chat:message").some((m) => /run out of prayer points/.test(String(m.message))));
    g.clearSent();
    g.send(p, "prayer:toggle", { prayerId: "hearthward", active: true });
    g.tick();
    assert.deepEqual(
      g.errors(p).map((e) => e.code),
      ["NO_PRAYER_POINTS"],
    );
    assert.deepEqual(p.activePrayers, []);
  });
});

describe("the altar", () => {
  it("recharges prayer points to the Prayer level (interact), and says so when they are full", async () => {
    const g = await gameWorld();
    const altar = g.world.stations.find((s) => s.type === "altar")!;
    assert.ok(altar, "the default world places an altar");
    const start = [
      [3, 0],
      [-3, 0],
      [0, 3],
      [0, -3],
      [3, 3],
    ]
      .map(([dx, dz]) => ({ x: altar.x + dx!, z: altar.z + dz! }))
      .find((t) => g.world.collision.isWalkable(t.x, t.z))!;
    const p = prayerPlayer(g, 12, { ...start, prayerPoints: 2 });
    g.send(p, "player:action", { action: "interact", targetId: altar.id });
    g.tick();
    for (let t = 0; t < 60 && p.action !== undefined; t++) g.tick();
    assert.deepEqual(g.errors(p), []);
    assert.equal(p.data.prayerPoints, 12);
    assert.ok(Math.max(Math.abs(p.x - altar.x), Math.abs(p.z - altar.z)) <= 1, "walked to the altar");
    assert.equal(g.events(p, "player:sync").at(-1)!.prayerPoints, 12);
    assert.ok(g.events(p, "chat:message").some((m) => /recharge your prayer points/.test(String(m.message))));
    g.clearSent();
    g.send(p, "player:action", { action: "interact", targetId: altar.id });
    g.tick();
    assert.ok(g.events(p, "chat:message").some((m) => /already have full prayer points/.test(String(m.message))));
  });

  it("is the only station interact recharges at: a furnace lists its recipes, a range is no one to talk to", async () => {
    const g = await gameWorld();
    const furnace = g.world.stations.find((s) => s.type === "furnace")!;
    const p = prayerPlayer(g, 12, { x: furnace.x + 1, z: furnace.z, prayerPoints: 2 });
    g.send(p, "player:action", { action: "interact", targetId: furnace.id });
    g.tick();
    assert.deepEqual(g.errors(p), []);
    assert.equal(g.events(p, "skill:recipes").length, 1, "the furnace's recipes (production.ts)");
    assert.equal(p.data.prayerPoints, 2);
    const range = g.world.stations.find((s) => s.type === "range")!;
    const q = prayerPlayer(g, 12, { x: range.x + 1, z: range.z, prayerPoints: 2 });
    g.send(q, "player:action", { action: "interact", targetId: range.id });
    g.tick();
    assert.deepEqual(
      g.errors(q).map((e) => e.code),
      ["INVALID_TARGET"],
    );
    assert.equal(q.data.prayerPoints, 2);
  });
});

describe("prayer effects", () => {
  // OSRS wiki "Maximum melee hit": effective strength = ⌊⌊level × prayer⌋ + style bonus + 8⌋; max hit =
  // ⌊0.5 + effective strength × (strength bonus + 64) / 640⌋. 99 Strength, +82 (whip), aggressive:
  // 25 without a prayer, ⌊99 × 1.1⌋ = 108 → ⌊0.5 + 119 × 146 / 640⌋ = 27 with Superhuman Strength (+10%).
  it("boosts the effective level as the OSRS formula does", async () => {
    const g = await gameWorld();
    const p = prayerPlayer(g, 20);
    setLevel(p, "strength", 99);
    assert.equal(maxHitHitpoints(prayedLevel(g.world, p, "strength"), 82, 3), 25);
    p.activePrayers = ["ember_fury"];
    assert.equal(prayedLevel(g.world, p, "strength"), 108);
    assert.equal(maxHitHitpoints(prayedLevel(g.world, p, "strength"), 82, 3), 27);
    p.activePrayers = ["ember_vigour"];
    assert.equal(prayedLevel(g.world, p, "strength"), 103, "⌊99 × 1.05⌋");
    assert.equal(prayedLevel(g.world, p, "attack"), 1, "a Strength prayer leaves Attack alone");
  });

  it("raises the max hit in a real attack (Ember Fury) and the accuracy (Keen Edge)", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = prayerPlayer(g, 20, { x: npc.x + 1, z: npc.z, combatStyle: "aggressive", equipment: { weapon: { itemId: "bronze_sword", quantity: 1 } } });
    setLevel(p, "strength", 80);
    setLevel(p, "attack", 40);
    const maxHit = () => {
      npc.health = npc.maxHealth;
      rolls(g, 0, 0.99999);
      playerAttacksNpc(g.world, p, npc);
      return (npc.maxHealth - npc.health) / 10;
    };
    // Bronze sword +4 strength, aggressive +3: ⌊0.5 + 91 × 68 / 640⌋ = 10; with ⌊80 × 1.1⌋ = 88: ⌊0.5 + 99 × 68 / 640⌋ = 11.
    assert.equal(maxHit(), 10);
    p.activePrayers = ["ember_fury"];
    assert.equal(maxHit(), 11);
    // Accuracy: attack roll (⌊40 × 1.1⌋ + 0 + 8) × (bonus + 64) against the brute's defence roll; a hit roll between the two chances.
    const sb = styleBonus("aggressive", g.world.content.item("bronze_sword"));
    const bonus = (g.world.content.item("bronze_sword")!.bonuses?.attackStab ?? 0) + (g.world.content.item("bronze_sword")!.bonuses?.attack ?? 0);
    const defence = ((npc.def.stats?.defense ?? 1) + 8) * ((npc.def.stats?.defenseStab ?? npc.def.stats?.defenseBonus ?? 0) + 64);
    const plain = hitChance((40 + sb.attack + 8) * (bonus + 64), defence);
    const prayed = hitChance((44 + sb.attack + 8) * (bonus + 64), defence);
    assert.ok(prayed > plain);
    const hits = (active: string[]) => {
      p.activePrayers = active;
      npc.health = npc.maxHealth;
      rolls(g, (plain + prayed) / 2, 0.99);
      playerAttacksNpc(g.world, p, npc);
      return npc.health < npc.maxHealth;
    };
    assert.deepEqual([hits([]), hits(["keen_edge"])], [false, true]);
  });

  it("defends better with a Defence prayer: ⌊level × 1.1⌋ in the defence roll", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = prayerPlayer(g, 20, { x: npc.x + 1, z: npc.z });
    setLevel(p, "defense", 40);
    // Brute attack 28: A = 36 × 64 = 2304; unarmed accurate: D = (40 + 8) × 64 = 3072, with
    // Stoneward (⌊40 × 1.1⌋ = 44) (44 + 8) × 64 = 3328; hit chances 0.37488 and 0.34605.
    const hit = (active: string[]) => {
      p.activePrayers = active;
      p.data.health = p.maxHealth;
      rolls(g, 0.36, 0.99);
      npcAttacksPlayer(g.world, npc, p);
      return p.data.health < p.maxHealth;
    };
    assert.deepEqual([hit([]), hit(["stoneward"])], [true, false]);
  });

  it("protects from NPC melee: Ashen Aegis lets none of a hit through", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = prayerPlayer(g, 30, { x: npc.x + 1, z: npc.z });
    const damage = (active: string[]) => {
      p.activePrayers = active;
      p.data.health = p.maxHealth;
      rolls(g, 0, 0.99);
      npcAttacksPlayer(g.world, npc, p);
      return p.maxHealth - p.data.health;
    };
    assert.ok(damage([]) > 0, "a certain hit lands unprotected");
    assert.equal(damage(["ashen_aegis"]), 0);
    assert.ok(damage(["stoneward"]) > 0, "a Defence prayer is no protection");
  });
});

describe("prayer:toggle", () => {
  it("switches prayers on and off, carried by player:sync, the conflicting one off", async () => {
    const g = await gameWorld();
    const p = prayerPlayer(g, 16);
    g.tick();
    const first = g.events(p, "player:sync").at(-1)!;
    assert.deepEqual([first.prayerPoints, first.activePrayers], [16, []]);
    g.send(p, "prayer:toggle", { prayerId: "steady_hand", active: true });
    g.send(p, "prayer:toggle", { prayerId: "hearthward", active: true });
    g.tick();
    assert.deepEqual(g.events(p, "player:sync").at(-1)!.activePrayers, ["steady_hand", "hearthward"]);
    g.send(p, "prayer:toggle", { prayerId: "keen_edge", active: true });
    g.tick();
    assert.deepEqual(p.activePrayers, ["hearthward", "keen_edge"], "Keen Edge and Steady Hand both boost Attack");
    g.send(p, "prayer:toggle", { prayerId: "hearthward", active: false });
    g.send(p, "prayer:toggle", { prayerId: "ember_vigour", active: false });
    g.tick();
    assert.deepEqual(g.errors(p), [], "switching off one that is off is no error");
    assert.deepEqual(g.events(p, "player:sync").at(-1)!.activePrayers, ["keen_edge"]);
  });

  const refusals: [what: string, data: { prayerId: string; active: boolean }, level: number, points: number, code: string, message: RegExp][] = [
    ["a prayer above the level", { prayerId: "stoneward", active: true }, 9, 9, "PRAYER_LEVEL_TOO_LOW", /Prayer level 10 to use Stoneward \(yours is 9\)/],
    ["a prayer with no points", { prayerId: "hearthward", active: true }, 9, 0, "NO_PRAYER_POINTS", /run out of prayer points/],
    ["a prayer that does not exist", { prayerId: "smite", active: true }, 99, 99, "UNKNOWN_PRAYER", /no prayer "smite"/],
  ];
  for (const [what, data, level, points, code, message] of refusals) {
    it(`refuses ${what} (${code}), changing nothing`, async () => {
      const g = await gameWorld();
      const p = prayerPlayer(g, level, { prayerPoints: points });
      if (level >= 4 && points > 0) g.send(p, "prayer:toggle", { prayerId: "ember_vigour", active: true });
      g.tick();
      const active = [...p.activePrayers];
      const before = p.data.prayerPoints;
      g.clearSent();
      p.saveDue = false;
      g.send(p, "prayer:toggle", data);
      g.tick();
      const errors = g.errors(p);
      assert.deepEqual(
        errors.map((e) => [e.code, e.event]),
        [[code, "prayer:toggle"]],
      );
      assert.match(errors[0]!.message, message);
      assert.deepEqual(p.activePrayers, active);
      assert.equal(p.data.prayerPoints, before);
      assert.equal(p.saveDue, false);
      assert.deepEqual(g.events(p, "player:sync"), []);
    });
  }

  it("refuses a malformed toggle (INVALID_PAYLOAD)", async () => {
    const g = await gameWorld();
    for (const data of [
      {},
      { prayerId: "hearthward" },
      { prayerId: "", active: true },
      { prayerId: 3, active: true },
      { prayerId: "hearthward", active: "yes" },
    ]) {
      const v = g.validate("prayer:toggle", data);
      assert.ok(!v.ok && v.code === "INVALID_PAYLOAD", JSON.stringify(data));
    }
  });

  it("switches prayers off at death; the points stay", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = prayerPlayer(g, 20, { x: npc.x + 1, z: npc.z });
    g.send(p, "prayer:toggle", { prayerId: "stoneward", active: true });
    g.tick();
    p.data.prayerPoints = 7;
    p.data.health = 1;
    rolls(g, 0, 0.99);
    npcAttacksPlayer(g.world, npc, p);
    assert.equal(p.data.health, p.maxHealth, "died, and respawned");
    assert.deepEqual(p.activePrayers, []);
    assert.equal(p.data.prayerPoints, 7);
  });

  it("adds a point for each Prayer level gained (burying bones), as the genre raises the current level", async () => {
    const g = await gameWorld();
    const p = prayerPlayer(g, 1, { prayerPoints: 1 });
    addXp(g.world, p, "prayer", XP_FOR_LEVEL[3]!);
    assert.equal(p.data.skills.prayer.level, 3);
    assert.equal(p.data.prayerPoints, 3, "1 + 2 levels");
    const spent = prayerPlayer(g, 10, { prayerPoints: 0 });
    addXp(g.world, spent, "prayer", XP_FOR_LEVEL[11]! - XP_FOR_LEVEL[10]!);
    assert.deepEqual([spent.data.skills.prayer.level, spent.data.prayerPoints], [11, 1]);
  });

  it("reads stored points back within 0..the Prayer level", () => {
    assert.equal(parsePrayerPoints(7, 20), 7);
    assert.equal(parsePrayerPoints(0, 20), 0);
    assert.equal(parsePrayerPoints(45, 20), 20, "more than the level: the level");
    for (const stray of [-1, 2.5, null, "x"]) assert.equal(parsePrayerPoints(stray, 20), 20, String(stray));
  });
});

describe("the real content set's prayers", () => {
  it("loads its five prayers and drains Thick Skin every 60 ticks and Rock Skin every 10", async function () {
    this.timeout(20_000);
    const loaded = await loadContent({
      dir: FIXTURE_MANIFESTS,
      cdnUrl: "http://unused.invalid",
      fallbackCdnUrl: undefined,
      alwaysFetch: false,
      skip: false,
      strictReferences: false,
      logger: pino({ level: "silent" }),
    });
    const content = loaded.registry;
    assert.deepEqual([...content.prayers.keys()], ["thick_skin", "burst_of_strength", "clarity_of_thought", "rock_skin", "superhuman_strength"]);
    const clock = { now: 1_700_000_000_000 };
    const world = new World({
      content,
      now: () => clock.now,
      random: seededRandom(1),
      systems: GAMEPLAY,
      handlers: inputHandlers({ checkAdminCode: () => "wrong" }),
    });
    const data = playerData();
    data.skills.prayer = { level: 15, xpTenths: XP_FOR_LEVEL[15]! * 10 };
    const p = world.addPlayer(data);
    const step = (n: number) => {
      for (let i = 0; i < n; i++) {
        clock.now += TICK_MS;
        world.step();
      }
      world.drainOutbox();
    };
    world.enqueue(p.id, "prayer:toggle", { prayerId: "thick_skin", active: true });
    step(59);
    assert.equal(p.data.prayerPoints ?? 15, 15);
    step(1);
    assert.equal(p.data.prayerPoints, 14, "Thick Skin: a point at 60 ticks (36 s)");
    world.enqueue(p.id, "prayer:toggle", { prayerId: "rock_skin", active: true });
    world.enqueue(p.id, "prayer:toggle", { prayerId: "burst_of_strength", active: true });
    world.enqueue(p.id, "prayer:toggle", { prayerId: "superhuman_strength", active: true });
    step(1);
    assert.deepEqual(p.activePrayers, ["rock_skin", "superhuman_strength"], "the content's conflicts switched Thick Skin and Burst of Strength off");
    assert.equal(prayedLevel(world, p, "strength"), 1, "⌊1 × 1.1⌋");
    step(4);
    // Rock Skin 6 + Superhuman Strength 6 = 12 a tick: a point every 5 ticks.
    assert.equal(p.data.prayerPoints, 13);
    step(5);
    assert.equal(p.data.prayerPoints, 12);
  });
});
