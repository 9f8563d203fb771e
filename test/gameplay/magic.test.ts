/**
 * Magic (src/game/magic.ts, src/manifests/magicContent.ts): the content's spells against the
 * genre's published values, max hit and xp, runes used exactly once per cast, elemental staves,
 * every refusal changing nothing, the 10-tile reach, and autocast.
 */
import assert from "node:assert/strict";
import { pino } from "pino";
import { castOnNpc, magicAttackBonus, magicAttackRoll, MAGIC_RANGE, npcMagicDefenceRoll, spellXp } from "../../src/game/magic.ts";
import { chebyshev } from "../../src/game/map/CollisionMap.ts";
import { XP_FOR_LEVEL } from "../../src/game/skills.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { ItemStack, Player } from "../../src/game/world/Player.ts";
import { loadContent } from "../../src/manifests/loader.ts";
import { openWorldContent } from "../support/content.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";
import { holdStill } from "../support/placing.ts";
import { FIXTURE_MANIFESTS } from "../support/world.ts";

/** The world's next random numbers: a hit roll, then a damage roll (then 0.5 for anything else). */
function rolls(g: GameHarness, ...values: number[]): void {
  (g.world as { random: () => number }).random = () => values.shift() ?? 0.5;
}

function brute(g: GameHarness): NpcInstance {
  return [...g.world.npcs.values()].find((n) => n.def.id === "slag_brute")!;
}

function count(p: Player, itemId: string): number {
  return p.data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
}

const runes = (air: number, mind: number): ItemStack[] => [
  { itemId: "air_rune", quantity: air },
  { itemId: "mind_rune", quantity: mind },
];
/** Wielding a staff of air (a fresh object each time: the world keeps it as the player's equipment). */
const staff = () => ({ equipment: { weapon: { itemId: "staff_of_air", quantity: 1 } } });

/** A walkable tile at exactly `d` tiles (Chebyshev) from the NPC. */
function tileAt(g: GameHarness, npc: NpcInstance, d: number): { x: number; z: number } {
  for (let i = -d; i <= d; i++) {
    for (const [x, z] of [
      [npc.x + d, npc.z + i],
      [npc.x - d, npc.z + i],
      [npc.x + i, npc.z + d],
      [npc.x + i, npc.z - d],
    ] as const) {
      if (g.world.collision.isWalkable(x, z) && g.world.collision.regionOf(x, z) === g.world.collision.regionOf(npc.x, npc.z)) return { x, z };
    }
  }
  throw new Error(`no walkable tile ${d} from ${npc.id}`);
}

/** Everything a refused cast must leave as it was. */
const state = (p: Player) =>
  JSON.stringify({ inv: p.data.inventory, xp: p.data.skills, action: p.action, autocast: p.data.autocast ?? null, next: p.nextActionTick });

describe("magic content", () => {
  // OSRS wiki "Standard spellbook": level, runes, max hit (hitpoints) and base xp of each Strike and Bolt.
  const OSRS: [id: string, level: number, maxHit: number, xp: number, runes: Record<string, number>][] = [
    ["wind_strike", 1, 2, 5.5, { air_rune: 1, mind_rune: 1 }],
    ["water_strike", 5, 4, 7.5, { air_rune: 1, water_rune: 1, mind_rune: 1 }],
    ["earth_strike", 9, 6, 9.5, { air_rune: 1, earth_rune: 2, mind_rune: 1 }],
    ["fire_strike", 13, 8, 11.5, { air_rune: 2, fire_rune: 3, mind_rune: 1 }],
    ["wind_bolt", 17, 9, 13.5, { air_rune: 2, chaos_rune: 1 }],
    ["water_bolt", 23, 10, 16.5, { air_rune: 2, water_rune: 2, chaos_rune: 1 }],
    ["earth_bolt", 29, 11, 19.5, { air_rune: 2, earth_rune: 3, chaos_rune: 1 }],
    ["fire_bolt", 35, 12, 22.5, { air_rune: 3, fire_rune: 4, chaos_rune: 1 }],
  ];

  it("gives the default world the genre's Strike and Bolt spells, in level order", async () => {
    const g = await gameWorld();
    const spells = g.world.content.magic.spells;
    assert.deepEqual(
      [...spells.keys()],
      OSRS.map((s) => s[0]),
    );
    for (const [id, level, maxHit, xp, need] of OSRS) {
      const s = spells.get(id)!;
      assert.deepEqual([s.level, s.maxHit, s.baseXp, s.attackSpeed], [level, maxHit, xp, 5], id);
      assert.deepEqual(Object.fromEntries(s.runes.map((r) => [r.runeId, r.quantity])), need, id);
    }
    assert.deepEqual(
      g.world.content.skillUnlocks.magic?.map((u) => u.level),
      OSRS.map((s) => s[1]),
      "each spell is a Magic unlock at its level",
    );
  });

  it("makes runes items, sells them and a staff of air in Brackenford, and lets the staff stand for air runes", async () => {
    const g = await gameWorld();
    const c = g.world.content;
    for (const r of ["air_rune", "water_rune", "earth_rune", "fire_rune", "mind_rune", "chaos_rune"]) {
      assert.equal(c.item(r)?.stackable, true, r);
      assert.ok(c.magic.runes.has(r), r);
    }
    assert.deepEqual(c.magic.staves.get("staff_of_air"), ["air_rune"]);
    assert.equal(c.item("staff_of_air")?.equipSlot, "weapon");
    const town = c.areas.find((a) => a.id === "brackenford")!;
    const seller = town.npcs.find((n) => n.storeId === "brackenford_runes");
    assert.ok(seller, "a rune seller in the town");
    const sold = c.stores.get("brackenford_runes")!.items.map((i) => i.itemId);
    for (const id of ["air_rune", "mind_rune", "staff_of_air"]) assert.ok(sold.includes(id), id);
  });

  it("loads the real content set's spells; its staves, which are not items there, are warned about and left out", async () => {
    const loaded = await loadContent({
      dir: FIXTURE_MANIFESTS,
      cdnUrl: "http://unused.invalid",
      fallbackCdnUrl: undefined,
      alwaysFetch: false,
      skip: false,
      strictReferences: false,
      logger: pino({ level: "silent" }),
    });
    const spells = loaded.registry.magic.spells;
    assert.deepEqual(
      [...spells.keys()],
      OSRS.map((s) => s[0]),
    );
    for (const [id, level, maxHit, xp] of OSRS) assert.deepEqual([spells.get(id)!.level, spells.get(id)!.maxHit, spells.get(id)!.baseXp], [level, maxHit, xp]);
    assert.equal(loaded.registry.magic.runes.size, 6);
    assert.equal(loaded.registry.magic.staves.size, 0);
    assert.ok(loaded.warnings.some((w) => w.file === "runes.json" && w.message === 'unknown item "staff_of_air"'));
  });

  it("loads a content set without runes.json and combat-spells.json, with no spells", () => {
    const c = openWorldContent();
    assert.equal(c.magic.spells.size, 0);
    assert.equal(c.magic.staves.size, 0);
  });
});

describe("casting", () => {
  // OSRS: the spell's base xp for every cast (a splash too) plus 2 Magic xp per hitpoint of damage.
  it("gives the spell's base xp plus 2 a hitpoint: Wind Strike 5.5 on a splash, 9.5 on its max hit of 2", async () => {
    const g = await gameWorld();
    const wind = g.world.content.magic.spells.get("wind_strike")!;
    const fireBolt = g.world.content.magic.spells.get("fire_bolt")!;
    assert.equal(spellXp(wind, 0), 5.5);
    assert.equal(spellXp(wind, 10), 7.5);
    assert.equal(spellXp(wind, 20), 9.5);
    assert.equal(spellXp(fireBolt, 120), 46.5);
  });

  it("rolls accuracy with Magic level + 8 and the magic attack bonus against the NPC's magic level + 9 and its bonus", async () => {
    const g = await gameWorld();
    // (1 + 8) × 64; (99 + 8) × (64 + 10) with a staff's +10.
    assert.equal(magicAttackRoll(1, 0), 576);
    assert.equal(magicAttackRoll(99, 10), 7918);
    const npc = brute(g);
    // The brute: Magic 1, no magic defence bonus in the content, so its defenseBonus 15: (1 + 9) × (15 + 64).
    assert.equal(npcMagicDefenceRoll(npc), 790);
    npc.def = { ...npc.def, stats: { ...npc.def.stats!, defenseMagic: -10 } };
    assert.equal(npcMagicDefenceRoll(npc), 540, "its magic defence bonus when content gives one");
    const p = g.add({ equipment: { ...staff().equipment, helmet: { itemId: "bronze_full_helm", quantity: 1 } } });
    assert.equal(magicAttackBonus(g.world, p), 10 - 5, "the staff's +10 and the helm's −5");
  });

  it("hits at most the spell's max hit, Wind Strike 2 hitpoints (20 lifepoints), and gives the exact xp", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = g.add({ x: npc.x + 1, z: npc.z }, runes(5, 5));
    const wind = g.world.content.magic.spells.get("wind_strike")!;
    const before = { magic: p.data.skills.magic.xpTenths / 10, hp: p.data.skills.constitution.xpTenths / 10 };
    rolls(g, 0, 0.99999);
    assert.equal(castOnNpc(g.world, p, npc, wind), undefined);
    assert.equal(npc.maxHealth - npc.health, 20);
    const magic = p.data.skills.magic.xpTenths / 10 - before.magic;
    // 5.5 base + 2 per hitpoint of damage: 9.5 exactly (xp is kept in tenths).
    assert.equal(magic, 9.5);
    const hp = p.data.skills.constitution.xpTenths / 10 - before.hp;
    assert.ok(hp >= 2 && hp <= 8 / 3, `constitution xp ${hp}`);
    assert.equal(p.nextActionTick, g.world.tick + 5, "the spell's 5 ticks");
    assert.equal(npc.targetId, p.id, "the brute retaliates");
    const hit = g.world.drainOutbox().find((m) => m.type === "combat:hit");
    assert.deepEqual(hit?.data, { attackerId: p.id, targetId: npc.id, damage: 20, style: "magic", targetHealth: npc.health, targetMaxHealth: npc.maxHealth });
  });

  it("gives only the base xp on a splash, and still uses the runes", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = g.add({ x: npc.x + 1, z: npc.z }, runes(5, 5));
    rolls(g, 0.99999);
    assert.equal(castOnNpc(g.world, p, npc, g.world.content.magic.spells.get("wind_strike")!), undefined);
    assert.equal(npc.health, npc.maxHealth);
    assert.equal(p.data.skills.magic.xpTenths, 55, "Wind Strike's base 5.5 xp");
    assert.equal(p.data.skills.constitution.xpTenths / 10, 1154, "no Constitution xp without damage");
    assert.deepEqual([count(p, "air_rune"), count(p, "mind_rune")], [4, 4]);
  });

  it("uses the runes exactly once a cast: one inventory change, then the player stands", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = g.add({ ...tileAt(g, npc, 3) }, runes(10, 10));
    g.send(p, "player:action", { action: "cast", spellId: "wind_strike", targetId: npc.id });
    g.tick();
    assert.deepEqual(g.errors(p), []);
    assert.deepEqual([count(p, "air_rune"), count(p, "mind_rune")], [9, 9]);
    assert.equal(p.action, undefined, "one cast, then no more");
    g.tick(12);
    assert.deepEqual([count(p, "air_rune"), count(p, "mind_rune")], [9, 9], "never twice");
    assert.equal(g.events(p, "combat:hit").filter((h) => h.attackerId === p.id).length, 1);
    assert.ok(p.data.skills.magic.xpTenths / 10 >= 5);
  });

  it("lets a wielded staff of air stand for the air runes", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = g.add({ x: npc.x + 1, z: npc.z, ...staff() }, [{ itemId: "mind_rune", quantity: 3 }]);
    assert.equal(castOnNpc(g.world, p, npc, g.world.content.magic.spells.get("wind_strike")!), undefined);
    assert.equal(count(p, "mind_rune"), 2);
    assert.equal(count(p, "air_rune"), 0);
    // Water Strike still needs its water rune: the staff is air only.
    setMagic(p, 5);
    const err = castOnNpc(g.world, p, npc, g.world.content.magic.spells.get("water_strike")!);
    assert.equal(err?.code, "NO_RUNES");
    assert.match(err.message, /1 more Water rune/);
    assert.equal(count(p, "mind_rune"), 2, "nothing used");
  });

  it("walks into range (10 tiles) and casts from there", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    holdStill(npc, { combat: { aggressive: false } });
    const p = g.add({ ...tileAt(g, npc, 14) }, runes(5, 5));
    g.send(p, "player:action", { action: "cast", spellId: "wind_strike", targetId: npc.id });
    for (let i = 0; i < 20 && count(p, "mind_rune") === 5; i++) g.tick();
    assert.deepEqual(g.errors(p), []);
    assert.equal(count(p, "mind_rune"), 4, "cast");
    assert.equal(chebyshev(p, npc), MAGIC_RANGE, "from 10 tiles, not adjacent");
  });

  describe("refusals change nothing", () => {
    const cases: [what: string, over: (g: GameHarness, npc: NpcInstance) => Record<string, unknown>, code: string, message?: RegExp][] = [
      ["an unknown spell", (_g, npc) => ({ spellId: "ice_barrage", targetId: npc.id }), "UNKNOWN_SPELL", /ice_barrage/],
      ["a spell above the player's level", (_g, npc) => ({ spellId: "fire_strike", targetId: npc.id }), "LEVEL_TOO_LOW", /Magic level 13/],
      [
        "missing runes, named",
        (_g, npc) => ({ spellId: "wind_strike", targetId: npc.id, runes: [{ itemId: "air_rune", quantity: 5 }] }),
        "NO_RUNES",
        /1 more Mind rune/,
      ],
      ["no such target", () => ({ spellId: "wind_strike", targetId: "npc-nobody" }), "INVALID_TARGET"],
      [
        "a target that cannot be attacked",
        (g) => ({ spellId: "wind_strike", targetId: [...g.world.npcs.values()].find((n) => n.def.id === "brackenford_banker")!.id }),
        "NOT_ATTACKABLE",
      ],
      ["no target named", () => ({ spellId: "wind_strike" }), "INVALID_PAYLOAD"],
      ["no spell named", (_g, npc) => ({ targetId: npc.id }), "INVALID_PAYLOAD"],
    ];
    for (const [what, make, code, message] of cases) {
      it(`${what}: ${code}`, async () => {
        const g = await gameWorld();
        const npc = brute(g);
        const { runes: inv, ...data } = make(g, npc) as { runes?: ItemStack[] };
        const p = g.add({ x: npc.x + 1, z: npc.z }, inv ?? runes(5, 5));
        g.tick();
        g.clearSent();
        p.saveDue = false;
        const before = state(p);
        g.send(p, "player:action", { action: "cast", ...data });
        g.tick();
        const errors = g.errors(p);
        assert.equal(errors.length, 1, JSON.stringify(errors));
        assert.deepEqual([errors[0]!.code, errors[0]!.event], [code, "player:action"]);
        if (message) assert.match(errors[0]!.message, message);
        assert.equal(state(p), before);
        assert.equal(p.saveDue, false);
      });
    }

    it("runes gone between the order and the cast: NO_RUNES at the cast, nothing used", async () => {
      const g = await gameWorld();
      const npc = brute(g);
      const p = g.add({ ...tileAt(g, npc, 14) }, runes(5, 5));
      g.send(p, "player:action", { action: "cast", spellId: "wind_strike", targetId: npc.id });
      g.tick();
      assert.equal(p.action?.kind, "cast", "walking into range");
      g.send(p, "player:action", { action: "drop", slot: 1 });
      // The drop replaces nothing: it is not a targeted action, the cast goes on.
      g.tick();
      for (let i = 0; i < 20 && p.action !== undefined; i++) g.tick();
      const errors = g.errors(p).filter((e) => e.code === "NO_RUNES");
      assert.equal(errors.length, 1);
      assert.match(errors[0]!.message, /Mind rune/);
      assert.equal(count(p, "air_rune"), 5, "nothing used");
      assert.equal(p.data.skills.magic.xpTenths / 10, 0);
    });
  });
});

function setMagic(p: Player, level: number): void {
  p.data.skills.magic = { level, xpTenths: XP_FOR_LEVEL[level]! * 10 };
}

describe("player:setAutocast", () => {
  it("with a staff, attacks cast the spell from 10 tiles; the staff taken off ends it", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    holdStill(npc, { combat: { aggressive: false } });
    const p = g.add({ ...tileAt(g, npc, 8), ...staff() }, [{ itemId: "mind_rune", quantity: 5 }]);
    g.tick();
    assert.equal(g.events(p, "player:sync").at(-1)!.autocast, null);
    g.send(p, "player:setAutocast", { spellId: "wind_strike" });
    g.tick();
    assert.deepEqual(g.errors(p), []);
    assert.equal(g.events(p, "player:sync").at(-1)!.autocast, "wind_strike");
    const at = { x: p.x, z: p.z };
    g.send(p, "player:action", { action: "attack", targetId: npc.id });
    g.tick(11);
    assert.deepEqual({ x: p.x, z: p.z }, at, "cast from where it stood, 8 tiles away");
    assert.equal(count(p, "mind_rune"), 2, "three casts, 5 ticks apart");
    assert.ok(p.data.skills.magic.xpTenths / 10 >= 15);
    assert.equal(p.data.skills.attack.xpTenths / 10, 0, "no melee");
    g.send(p, "player:action", { action: "stop" });
    g.send(p, "equipment:remove", { slot: "weapon" });
    g.tick();
    assert.equal(p.data.autocast, null);
    assert.equal(g.events(p, "player:sync").at(-1)!.autocast, null);
  });

  it("stops attacking with NO_RUNES when the runes run out, using none it lacks", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = g.add({ x: npc.x + 1, z: npc.z, ...staff(), autocast: "wind_strike" }, [{ itemId: "mind_rune", quantity: 1 }]);
    g.send(p, "player:action", { action: "attack", targetId: npc.id });
    g.tick(7);
    assert.equal(count(p, "mind_rune"), 0);
    assert.equal(g.errors(p).filter((e) => e.code === "NO_RUNES").length, 1);
    assert.equal(p.action, undefined);
  });

  const refusals: [what: string, over: Record<string, unknown>, spellId: string, code: string][] = [
    ["without a staff", {}, "wind_strike", "NO_STAFF"],
    ["an unknown spell", staff(), "ice_barrage", "UNKNOWN_SPELL"],
    ["a spell above the player's level", staff(), "fire_bolt", "LEVEL_TOO_LOW"],
  ];
  for (const [what, over, spellId, code] of refusals) {
    it(`refuses ${what} (${code}), changing nothing`, async () => {
      const g = await gameWorld();
      const p = g.add(over);
      g.tick();
      g.clearSent();
      g.send(p, "player:setAutocast", { spellId });
      g.tick();
      assert.deepEqual(
        g.errors(p).map((e) => [e.code, e.event]),
        [[code, "player:setAutocast"]],
      );
      assert.equal(p.data.autocast ?? null, null);
      assert.deepEqual(g.events(p, "player:sync"), []);
    });
  }

  it("clears with null, and refuses a payload that is not a spell id or null", async () => {
    const g = await gameWorld();
    const p = g.add({ ...staff(), autocast: "wind_strike" });
    g.send(p, "player:setAutocast", { spellId: null });
    g.tick();
    assert.equal(p.data.autocast, null);
    for (const data of [{}, { spellId: 3 }, { spellId: "" }]) {
      const v = g.validate("player:setAutocast", data);
      assert.ok(!v.ok && v.code === "INVALID_PAYLOAD", JSON.stringify(data));
    }
  });
});
