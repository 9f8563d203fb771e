/**
 * The combat formulas against the genre's published ones (src/game/combat.ts, combatStyles.ts,
 * progression.ts), each value worked out by hand from its source (cited beside it):
 * - max hit: OSRS wiki "Maximum melee hit" and "Maximum ranged hit": ⌊0.5 + E × (B + 64) / 640⌋,
 *   E = level + style bonus + 8 (no prayer or potion here), B the strength (ranged strength) bonus;
 *   the 2007 wiki's older statement of the same formula, trunc(1.3 + E′/10 + B/80 + E′ × B / 640)
 *   with E′ = level + style bonus, is checked against each row as well;
 * - accuracy: OSRS wiki "Damage per second/Melee" (and "Accuracy"): attack roll = E × (attack bonus
 *   + 64), defence roll the same of the defender's, a monster's E being its level + 9; hit chance =
 *   1 − (D + 2) / (2(A + 1)) if A > D, else A / (2(D + 1));
 * - xp per hit: OSRS wiki "Combat Options" / "Experience": 4 xp a damage point to the style's skill
 *   (controlled 1.33 to each of Attack, Strength and Defence; longrange 2 to Ranged and 2 to
 *   Defence) and 1.33 to Hitpoints; the game counts damage in lifepoints (10 a hitpoint).
 */
import assert from "node:assert/strict";
import { combatStyleOf, hitChance, isRanged, maxHitHitpoints, npcAttacksPlayer, playerAttacksNpc, playerBonuses, weapon } from "../../src/game/combat.ts";
import { styleBonus, type CombatStyle } from "../../src/game/combatStyles.ts";
import { XP_FOR_LEVEL, type Skill } from "../../src/game/skills.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";

/** The world's next random numbers: a hit roll, then a damage roll (then 0.5). */
function rolls(g: GameHarness, ...values: number[]): void {
  (g.world as { random: () => number }).random = () => values.shift() ?? 0.5;
}

const npcOf = (g: GameHarness, id: string): NpcInstance => [...g.world.npcs.values()].find((n) => n.def.id === id)!;

/** A player's max hit in hitpoints, as its attack rolls it (levels, worn bonuses, style). */
function maxHitOf(g: GameHarness, p: Player): number {
  const sb = styleBonus(combatStyleOf(g.world, p), weapon(g.world, p));
  const b = playerBonuses(g.world, p);
  return isRanged(g.world, p)
    ? maxHitHitpoints(p.data.skills.ranged.level, b.rangedStrength, sb.ranged)
    : maxHitHitpoints(p.data.skills.strength.level, b.strength, sb.strength);
}

function setLevel(p: Player, skill: Skill, level: number): void {
  p.data.skills[skill] = { level, xpTenths: XP_FOR_LEVEL[level]! * 10 };
}

describe("combat formulas against published values", () => {
  it("computes the melee and ranged max hit as the OSRS wiki does", () => {
    // [level, strength bonus, style's invisible bonus, max hit]: E × (B + 64) / 640 + 0.5, rounded down.
    const table: [level: number, bonus: number, style: number, max: number][] = [
      [1, 0, 0, 1], // 9 × 64 / 640 = 0.9; + 0.5 = 1.4 → 1 (a new character)
      [99, 0, 3, 11], // aggressive, nothing worn: 110 × 64 / 640 = 11.0; + 0.5 → 11
      [99, 82, 1, 25], // abyssal whip (+82), controlled: 108 × 146 / 640 = 24.64; + 0.5 = 25.14 → 25
      [99, 82, 0, 24], // the whip on accurate: 107 × 146 / 640 = 24.41; + 0.5 = 24.91 → 24
      [99, 66, 3, 22], // dragon scimitar (+66), aggressive: 110 × 130 / 640 = 22.34; + 0.5 → 22
      [70, 20, 3, 11], // 81 × 84 / 640 = 10.63; + 0.5 = 11.13 → 11
      [50, 10, 0, 7], // 58 × 74 / 640 = 6.71; + 0.5 = 7.21 → 7
      // Ranged ("Maximum ranged hit", ranged strength): bronze arrows +7.
      [99, 7, 3, 12], // accurate: 110 × 71 / 640 = 12.20; + 0.5 → 12
      [99, 7, 0, 12], // rapid: 107 × 71 / 640 = 11.87; + 0.5 = 12.37 → 12
      [40, 7, 3, 6], // 51 × 71 / 640 = 5.66; + 0.5 = 6.16 → 6
    ];
    for (const [level, bonus, style, max] of table) {
      assert.equal(maxHitHitpoints(level, bonus, style), max, `level ${level}, +${bonus}, style +${style}`);
      const e = level + style;
      assert.equal(Math.trunc(1.3 + e / 10 + bonus / 80 + (e * bonus) / 640), max, `the 2007 wiki's form agrees: ${level}, +${bonus}`);
    }
  });

  it("computes the hit chance from the two rolls as the OSRS wiki does", () => {
    // 99 Attack, accurate (+3), a whip's +82 slash: 110 × 146 = 16,060 against a level-1 monster with
    // no defence bonus, (1 + 9) × 64 = 640: 1 − 642 / 32,122 = 15,740 / 16,061.
    assert.ok(Math.abs(hitChance(16_060, 640) - 15_740 / 16_061) < 1e-12);
    // The attacker's roll lower: 640 against 768: 640 / (2 × 769) = 320 / 769.
    assert.ok(Math.abs(hitChance(640, 768) - 320 / 769) < 1e-12);
    // Equal rolls: just under one half (5,000 / 10,002).
    assert.ok(Math.abs(hitChance(5_000, 5_000) - 2_500 / 5_001) < 1e-12);
  });

  it("rolls a player's attack on a monster with the monster's level + 9: level 1 unarmed on accurate against a rat hits 448 / 769 of the time", async () => {
    const g = await gameWorld();
    const rat = npcOf(g, "meadow_rat");
    const p = g.add({ x: rat.x + 1, z: rat.z });
    // Attack roll (1 + 3 + 8) × (0 + 64) = 768; the rat's defence roll (1 + 9) × (0 + 64) = 640;
    // 1 − 642 / 1,538 = 448 / 769 ≈ 0.5826.
    const chance = 448 / 769;
    rolls(g, chance + 1e-9, 0.99);
    playerAttacksNpc(g.world, p, rat);
    assert.equal(rat.health, rat.maxHealth, "a roll just above the chance misses");
    rolls(g, chance - 1e-9, 0.99);
    playerAttacksNpc(g.world, p, rat);
    assert.equal(rat.maxHealth - rat.health, 10, "a roll just below it hits (the damage roll 0.99: ⌊0.99 × 11⌋ = 10 lifepoints)");
  });

  it("rolls a monster's attack with its level + 9 and hits at most its strength's max hit", async () => {
    const g = await gameWorld();
    const brute = npcOf(g, "slag_brute");
    // Strength 36: ⌊0.5 + (36 + 9) × 64 / 640⌋ = ⌊5.0⌋ = 5 hitpoints (with + 8 it would be 4).
    brute.def = { ...brute.def, stats: { ...brute.def.stats!, strength: 36 } };
    const p = g.add({ x: brute.x + 1, z: brute.z });
    // The brute's attack roll (28 + 9) × 64 = 2,368; the player's defence roll (1 + 0 + 8) × 64 = 576
    // (level 1 Defence, unarmed accurate, nothing worn): 1 − 578 / 4,738 = 2,080 / 2,369 ≈ 0.878.
    const chance = 2_080 / 2_369;
    rolls(g, chance + 1e-9, 0.99999);
    npcAttacksPlayer(g.world, brute, p);
    assert.equal(p.data.health, p.maxHealth, "a roll just above the chance misses");
    rolls(g, chance - 1e-9, 0.99999);
    npcAttacksPlayer(g.world, brute, p);
    assert.equal(p.maxHealth - p.data.health, 50, "a max hit of 5 hitpoints");
  });

  // A hit of 7 hitpoints (70 lifepoints), by style: the xp the wiki gives, to the tenth (the rest of
  // a tenth is carried to the next award). 7 × 4 = 28; 7 × 1.33… = 9.33 → 9.3; 7 × 2 = 14.
  const xpCases: [weapon: string, style: CombatStyle, gained: Partial<Record<Skill, number>>][] = [
    ["bronze_sword", "accurate", { attack: 28, constitution: 9.3 }],
    ["bronze_sword", "aggressive", { strength: 28, constitution: 9.3 }],
    ["bronze_sword", "defensive", { defense: 28, constitution: 9.3 }],
    ["iron_mace", "controlled", { attack: 9.3, strength: 9.3, defense: 9.3, constitution: 9.3 }],
    ["shortbow", "rapid", { ranged: 28, constitution: 9.3 }],
    ["shortbow", "longrange", { ranged: 14, defense: 14, constitution: 9.3 }],
  ];
  for (const [weapon, style, gained] of xpCases) {
    it(`gives a 7-hitpoint hit with ${weapon} on ${style} ${Object.entries(gained)
      .map(([s, xp]) => `${xp} ${s}`)
      .join(", ")} xp`, async () => {
      const g = await gameWorld();
      const brute = npcOf(g, "slag_brute");
      const equipment: Record<string, { itemId: string; quantity: number }> =
        weapon === "shortbow"
          ? { weapon: { itemId: weapon, quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 5 } }
          : { weapon: { itemId: weapon, quantity: 1 } };
      const p = g.add({ x: brute.x + 1, z: brute.z, combatStyle: style, equipment });
      setLevel(p, "strength", 99);
      setLevel(p, "ranged", 99);
      const before = Object.fromEntries(Object.entries(p.data.skills).map(([s, v]) => [s, v.xpTenths]));
      // 99 Strength (or Ranged): a max hit of at least 7 hitpoints on every style.
      const max = maxHitOf(g, p);
      assert.ok(max >= 7);
      // The damage roll lands on 70 lifepoints: ⌊r × (max × 10 + 1)⌋ = 70.
      rolls(g, 0, 70.5 / (max * 10 + 1));
      assert.equal(playerAttacksNpc(g.world, p, brute), undefined);
      assert.equal(brute.maxHealth - brute.health, 70);
      const got = Object.fromEntries(
        Object.entries(p.data.skills).flatMap(([s, v]) => (v.xpTenths === before[s] ? [] : [[s, (v.xpTenths - before[s]!) / 10]])),
      );
      assert.deepEqual(got, gained);
    });
  }
});
