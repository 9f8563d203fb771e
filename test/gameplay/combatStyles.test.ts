/**
 * Attack styles (src/game/combatStyles.ts, combat.ts): the invisible level bonuses against the
 * OSRS wiki's max-hit formula, xp to each style's skills, rapid's speed and longrange's reach,
 * the style's attack type meeting the target's defence of that type, and `player:setCombatStyle`.
 */
import assert from "node:assert/strict";
import { attackRange, maxHitHitpoints, npcAttacksPlayer, npcDefenceBonus, playerAttacksNpc } from "../../src/game/combat.ts";
import { parseCombatStyle, styleAfterSwitch, stylesOffered, styleBonus, styleLabel, styleSlot, type CombatStyle } from "../../src/game/combatStyles.ts";
import { XP_FOR_LEVEL, type Skill } from "../../src/game/skills.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";

const item = (g: GameHarness, id: string) => g.world.content.item(id)!;
const wielding = (itemId: string) => ({ equipment: { weapon: { itemId, quantity: 1 } } });

/** The world's next random numbers: a hit roll, then a damage roll (then 0.5 for anything else). */
function rolls(g: GameHarness, ...values: number[]): void {
  (g.world as { random: () => number }).random = () => values.shift() ?? 0.5;
}

function brute(g: GameHarness): NpcInstance {
  return [...g.world.npcs.values()].find((n) => n.def.id === "slag_brute")!;
}

function setLevel(p: Player, skill: Skill, level: number): void {
  p.data.skills[skill] = { level, xpTenths: XP_FOR_LEVEL[level]! * 10 };
}

describe("attack styles", () => {
  // OSRS wiki "Maximum melee hit": ⌊0.5 + (⌊level × prayer⌋ + style bonus + 8) × (strength bonus + 64) / 640⌋.
  // 99 Strength with an abyssal whip (+82) alone: 25 on aggressive or controlled, 24 on accurate.
  it("adds the style's invisible strength to the max hit as the OSRS formula does", async () => {
    const g = await gameWorld();
    const sword = item(g, "bronze_sword");
    const table: [level: number, bonus: number, style: CombatStyle, max: number][] = [
      [99, 82, "aggressive", 25],
      [99, 82, "controlled", 25],
      [99, 82, "accurate", 24],
      [99, 82, "defensive", 24],
      [99, 0, "aggressive", 11],
      [75, 0, "aggressive", 9],
      [75, 0, "accurate", 8],
      [1, 0, "aggressive", 1],
    ];
    for (const [level, bonus, style, max] of table)
      assert.equal(maxHitHitpoints(level, bonus, styleBonus(style, sword).strength), max, `${level} ${bonus} ${style}`);
    assert.deepEqual(styleBonus("accurate", item(g, "shortbow")), { attack: 0, strength: 0, defence: 0, ranged: 3 }, "ranged accurate: +3 Ranged");
    assert.deepEqual(styleBonus("longrange", item(g, "shortbow")), { attack: 0, strength: 0, defence: 3, ranged: 0 });
    assert.deepEqual(styleBonus("controlled", sword), { attack: 1, strength: 1, defence: 1, ranged: 0 });
  });

  it("offers each weapon its genre's styles, each with its attack type", async () => {
    const g = await gameWorld();
    const styles = (id?: string) => Object.fromEntries(stylesOffered(id === undefined ? undefined : item(g, id)));
    assert.deepEqual(styles(), { accurate: "crush", aggressive: "crush", defensive: "crush" }, "unarmed: punch, kick, block");
    // OSRS wiki "Weapons/Types": in the genre's order, with the Combat tab's names (the button's action).
    const list = (id?: string) =>
      [...stylesOffered(id === undefined ? undefined : item(g, id))].map(
        ([s, type]) => `${styleLabel(s, id === undefined ? undefined : item(g, id))} ${s} ${type}`,
      );
    // Stab sword (daggers and swords): Stab, Lunge, Slash (the alternative aggressive), Block.
    const stabSword = ["Stab accurate stab", "Lunge aggressive stab", "Slash alt_aggressive slash", "Block defensive stab"];
    assert.deepEqual(list("bronze_dagger"), stabSword, "dagger: stab, lunge, slash, block");
    assert.deepEqual(list("bronze_sword"), stabSword, "sword: a stab sword in the genre");
    // Spiked (mace): Pound, Pummel, Spike (controlled stab), Block.
    assert.deepEqual(list("iron_mace"), ["Pound accurate crush", "Pummel aggressive crush", "Spike controlled stab", "Block defensive crush"]);
    // Axe: Chop, Hack, Smash (crush), Block; pickaxe: Spike, Impale, Smash (crush), Block.
    assert.deepEqual(list("bronze_hatchet"), ["Chop accurate slash", "Hack aggressive slash", "Smash alt_aggressive crush", "Block defensive slash"]);
    assert.deepEqual(list("bronze_pickaxe"), ["Spike accurate stab", "Impale aggressive stab", "Smash alt_aggressive crush", "Block defensive stab"]);
    // Staff: Bash, Pound, Focus, all crush (no controlled).
    assert.deepEqual(list("staff_of_air"), ["Bash accurate crush", "Pound aggressive crush", "Focus defensive crush"]);
    assert.deepEqual(list(), ["Punch accurate crush", "Kick aggressive crush", "Block defensive crush"]);
    // Bows keep the styles' own names, as the genre's Combat tab has them.
    assert.deepEqual(list("shortbow"), ["Accurate accurate ranged", "Rapid rapid ranged", "Longrange longrange ranged"]);
    assert.deepEqual(styles("shortbow"), { accurate: "ranged", rapid: "ranged", longrange: "ranged" });
    // A melee category the table does not know: all four styles, with the weapon's best attack type.
    const flail = { ...item(g, "iron_mace"), weaponType: "FLAIL", bonuses: { attackStab: 1, attackSlash: 6, attackCrush: 4 } };
    assert.deepEqual(Object.fromEntries(stylesOffered(flail)), { accurate: "slash", aggressive: "slash", defensive: "slash", controlled: "slash" });
    assert.deepEqual(
      [...stylesOffered(flail).keys()].map((s) => styleLabel(s, flail)),
      ["Accurate", "Aggressive", "Controlled", "Defensive"],
      "a category without names: the styles' own",
    );
  });

  // OSRS wiki "Combat Options": 4 xp per damage to the style's skill, controlled 1⅓ to each
  // melee skill, longrange 2 to Ranged and 2 to Defence; 1⅓ to Hitpoints always.
  const xpCases: [weapon: string, style: CombatStyle, perHitpoint: Partial<Record<Skill, number>>][] = [
    ["bronze_sword", "accurate", { attack: 4 }],
    ["bronze_sword", "aggressive", { strength: 4 }],
    ["bronze_sword", "defensive", { defense: 4 }],
    ["bronze_dagger", "alt_aggressive", { strength: 4 }],
    ["iron_mace", "controlled", { attack: 4 / 3, strength: 4 / 3, defense: 4 / 3 }],
    ["shortbow", "accurate", { ranged: 4 }],
    ["shortbow", "rapid", { ranged: 4 }],
    ["shortbow", "longrange", { ranged: 2, defense: 2 }],
  ];
  for (const [weapon, style, perHitpoint] of xpCases) {
    it(`gives ${weapon} on ${style} its xp a hitpoint: ${Object.entries(perHitpoint)
      .map(([skill, xp]) => `${+xp.toFixed(2)} ${skill}`)
      .join(", ")}, and 1⅓ Constitution`, async () => {
      const g = await gameWorld();
      const npc = brute(g);
      const p = g.add({
        x: npc.x + 1,
        z: npc.z,
        combatStyle: style,
        ...wielding(weapon),
        ...(weapon === "shortbow" ? { equipment: { weapon: { itemId: weapon, quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 10 } } } : {}),
      });
      setLevel(p, "strength", 99);
      setLevel(p, "ranged", 99);
      const before = Object.fromEntries(Object.entries(p.data.skills).map(([s, v]) => [s, v.xpTenths]));
      rolls(g, 0, 0.999);
      assert.equal(playerAttacksNpc(g.world, p, npc), undefined);
      const damage = (npc.maxHealth - npc.health) / 10;
      assert.ok(damage >= 9, `a max hit of 99 Strength or Ranged: ${damage}`);
      const gained = Object.fromEntries(
        Object.entries(p.data.skills).flatMap(([s, v]) => (v.xpTenths === before[s] ? [] : [[s, (v.xpTenths - before[s]!) / 10]])),
      );
      const expected = Object.fromEntries(
        [...Object.entries(perHitpoint), ["constitution", 4 / 3] as const].map(([s, per]) => [s, Math.floor(damage * per * 10 + 1e-9) / 10]),
      );
      assert.deepEqual(gained, expected);
    });
  }

  it("hits harder aggressive than accurate at the same levels, by the style's max hit", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = g.add({ x: npc.x + 1, z: npc.z, ...wielding("bronze_sword") });
    const maxHit = (style: CombatStyle) => {
      p.data.combatStyle = style;
      npc.health = npc.maxHealth;
      rolls(g, 0, 0.99999);
      playerAttacksNpc(g.world, p, npc);
      return (npc.maxHealth - npc.health) / 10;
    };
    // Bronze sword: +4 strength. 80 accurate: ⌊0.5 + 88 × 68 / 640⌋ = 9; aggressive: ⌊0.5 + 91 × 68 / 640⌋ = 10.
    setLevel(p, "strength", 80);
    assert.deepEqual([maxHit("accurate"), maxHit("aggressive")], [9, 10]);
  });

  it("attacks a tick sooner on rapid and two tiles further on longrange (at most 10)", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const bow = { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 10 } };
    const p = g.add({ x: npc.x + 1, z: npc.z, equipment: bow });
    const speed = item(g, "shortbow").attackSpeed!;
    const ticksAfterAttack = (style: CombatStyle) => {
      p.data.combatStyle = style;
      rolls(g, 0.99);
      playerAttacksNpc(g.world, p, npc);
      return p.nextActionTick - g.world.tick;
    };
    assert.deepEqual([ticksAfterAttack("accurate"), ticksAfterAttack("rapid"), ticksAfterAttack("longrange")], [speed, speed - 1, speed]);
    const range = item(g, "shortbow").attackRange!;
    p.data.combatStyle = "accurate";
    assert.equal(attackRange(g.world, p), range);
    p.data.combatStyle = "longrange";
    assert.equal(attackRange(g.world, p), Math.min(10, range + 2));
    const sword = g.add({ combatStyle: "aggressive", ...wielding("bronze_sword") });
    assert.equal(attackRange(g.world, sword), 1, "melee reaches one tile");
  });

  it("meets the target's defence bonus of the style's attack type", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    // This brute (its own copy of the definition) is armoured against stabs only.
    npc.def = { ...npc.def, stats: { ...npc.def.stats!, defenseStab: 2000 } };
    assert.equal(npcDefenceBonus(npc, "stab"), 2000);
    assert.equal(npcDefenceBonus(npc, "slash"), npc.def.stats!.defenseBonus, "a type content does not give: the general defence bonus");
    const p = g.add({ x: npc.x + 1, z: npc.z, ...wielding("bronze_sword") });
    setLevel(p, "attack", 60);
    const hits = (style: CombatStyle) => {
      p.data.combatStyle = style;
      npc.health = npc.maxHealth;
      rolls(g, 0.2, 0.99);
      playerAttacksNpc(g.world, p, npc);
      return npc.health < npc.maxHealth;
    };
    assert.equal(hits("accurate"), false, "the sword's stab glances off");
    assert.equal(hits("alt_aggressive"), true, "its slash gets through");
  });

  it("defends better on defensive: the style's +3 Defence meets the NPC's attack roll", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = g.add({ x: npc.x + 1, z: npc.z, ...wielding("bronze_sword") });
    setLevel(p, "defense", 40);
    // Brute attack 28: A = (28 + 9) × 64 = 2368 (a monster's level + 9). D = (40 + 8) × 64 = 3072 (accurate),
    // (40 + 3 + 8) × 64 = 3264 (defensive); hit chance A / (2(D + 1)): 0.38529 and 0.36263. A roll of 0.37
    // hits the one and misses the other.
    const hit = (style: CombatStyle) => {
      p.data.combatStyle = style;
      p.data.health = p.maxHealth;
      rolls(g, 0.37, 0.99);
      npcAttacksPlayer(g.world, npc, p);
      return p.data.health < p.maxHealth;
    };
    assert.deepEqual([hit("accurate"), hit("defensive")], [true, false]);
  });

  it("gives no xp for a hit taken: Defence is trained by a style, not by being hit (docs/playtest.md session 27)", async () => {
    const g = await gameWorld();
    const npc = brute(g);
    const p = g.add({ x: npc.x + 1, z: npc.z, ...wielding("bronze_sword") });
    p.data.combatStyle = "aggressive";
    const before = Object.fromEntries(Object.entries(p.data.skills).map(([k, v]) => [k, v.xpTenths]));
    rolls(g, 0, 0.99); // a hit, near the brute's max
    npcAttacksPlayer(g.world, npc, p);
    assert.ok(p.data.health < p.maxHealth, "the brute hit");
    const after = Object.fromEntries(Object.entries(p.data.skills).map(([k, v]) => [k, v.xpTenths]));
    assert.deepEqual(after, before);
  });
});

describe("player:setCombatStyle", () => {
  it("sets a style the weapon offers, carried by player:sync", async () => {
    const g = await gameWorld();
    const p = g.add(wielding("bronze_sword"));
    g.tick();
    assert.equal(g.events(p, "player:sync").at(-1)!.combatStyle, "accurate", "the default");
    g.send(p, "player:setCombatStyle", { style: "alt_aggressive" });
    g.tick();
    assert.deepEqual(g.errors(p), []);
    assert.equal(p.data.combatStyle, "alt_aggressive");
    assert.equal(p.saveDue, true, "saved with the character");
    assert.equal(g.events(p, "player:sync").at(-1)!.combatStyle, "alt_aggressive");
  });

  const refused: [weapon: string | undefined, style: CombatStyle][] = [
    ["shortbow", "aggressive"],
    ["shortbow", "controlled"],
    [undefined, "rapid"],
    [undefined, "controlled"],
    ["bronze_sword", "longrange"],
    ["bronze_dagger", "controlled"],
    ["bronze_sword", "controlled"],
    ["iron_mace", "alt_aggressive"],
    [undefined, "alt_aggressive"],
  ];
  for (const [weapon, style] of refused) {
    it(`refuses ${style} ${weapon === undefined ? "unarmed" : `with a ${weapon}`} (INVALID_COMBAT_STYLE), changing nothing`, async () => {
      const g = await gameWorld();
      const p = g.add({ combatStyle: "defensive", ...(weapon === undefined ? {} : wielding(weapon)) });
      if (weapon === "shortbow") p.data.combatStyle = "longrange";
      const before = p.data.combatStyle;
      g.tick();
      g.clearSent();
      p.saveDue = false;
      g.send(p, "player:setCombatStyle", { style });
      g.tick();
      const errors = g.errors(p);
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.code, "INVALID_COMBAT_STYLE");
      assert.match(errors[0]!.message, new RegExp(`not ${style}`));
      assert.equal(p.data.combatStyle, before);
      assert.equal(p.saveDue, false);
      assert.deepEqual(g.events(p, "player:sync"), []);
    });
  }

  it("loads a stored style it does not know as accurate", () => {
    assert.equal(parseCombatStyle("longrange"), "longrange");
    for (const stored of ["spin", "", null, 3]) assert.equal(parseCombatStyle(stored), "accurate", String(stored));
  });

  it("refuses a style that does not exist (INVALID_PAYLOAD)", async () => {
    const g = await gameWorld();
    for (const data of [{ style: "berserk" }, {}, { style: 3 }, { style: "Accurate" }]) {
      const v = g.validate("player:setCombatStyle", data);
      assert.ok(!v.ok && v.code === "INVALID_PAYLOAD", JSON.stringify(data));
    }
  });

  // OSRS wiki "Combat Options": the game keeps the selected button slot, not the style, so a player
  // on a dagger's Slash (the third of four buttons) finds controlled or defensive selected after a switch.
  it("keeps the button slot when the weapon changes: Slash on a dagger is Smash on an axe and Block unarmed", async () => {
    const g = await gameWorld();
    const p = g.add({ combatStyle: "alt_aggressive", ...wielding("bronze_dagger") }, [
      { itemId: "bronze_hatchet", quantity: 1 },
      { itemId: "iron_mace", quantity: 1 },
      { itemId: "shortbow", quantity: 1 },
    ]);
    const wield = (id: string) => {
      g.send(p, "inventory:use", { slot: p.data.inventory.findIndex((s) => s?.itemId === id) });
      g.tick();
      assert.equal(p.data.equipment.weapon!.itemId, id);
    };
    wield("bronze_hatchet");
    assert.equal(p.data.combatStyle, "alt_aggressive", "dagger Slash to axe Smash: the third button on both");
    wield("iron_mace");
    assert.equal(p.data.combatStyle, "controlled", "axe Smash to mace Spike: the mace's third button is controlled");
    assert.equal(g.events(p, "player:sync").at(-1)!.combatStyle, "controlled", "the client is told");
    g.send(p, "equipment:remove", { slot: "weapon" });
    g.tick();
    assert.equal(p.data.combatStyle, "defensive", "mace Spike to unarmed: no third button, so the next, Block");
    g.send(p, "player:setCombatStyle", { style: "aggressive" });
    g.tick();
    wield("shortbow");
    assert.equal(p.data.combatStyle, "rapid", "Kick to the bow's second slot, Rapid");
    wield("iron_mace");
    assert.equal(p.data.combatStyle, "aggressive", "Rapid to the mace's second slot, Pummel");
    wield("shortbow");
    g.send(p, "player:setCombatStyle", { style: "longrange" });
    g.tick();
    wield("bronze_hatchet");
    assert.equal(p.data.combatStyle, "defensive", "Longrange (the last slot) to the axe's Block");
    g.send(p, "player:setCombatStyle", { style: "accurate" });
    g.tick();
    wield("shortbow");
    assert.equal(p.data.combatStyle, "accurate", "the first slot stays the first");
    assert.deepEqual(g.errors(p), []);
  });

  it("picks the style of a slot for every pair of weapons the content has", async () => {
    const g = await gameWorld();
    const weapons = [
      undefined,
      ...["bronze_dagger", "bronze_sword", "iron_mace", "bronze_hatchet", "bronze_pickaxe", "staff_of_air", "shortbow"].map((id) => item(g, id)),
    ];
    for (const before of weapons)
      for (const style of stylesOffered(before).keys())
        for (const after of weapons) {
          const got = styleAfterSwitch(style, before, after);
          const what = `${style} on ${before?.id ?? "unarmed"} to ${after?.id ?? "unarmed"}`;
          assert.ok(stylesOffered(after).has(got), `${what}: ${got} is offered`);
          // The same slot where the new weapon has it, else the last (the only slot a weapon here lacks is the third).
          const slot = styleSlot(style);
          const want = [...stylesOffered(after).keys()].find((s) => styleSlot(s) === slot) ?? [...stylesOffered(after).keys()].at(-1);
          assert.equal(got, want, what);
        }
  });
});
