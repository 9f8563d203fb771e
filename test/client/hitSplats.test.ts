/**
 * The hit splats' looks (client/src/hitSplats.ts): each style its own badge, a hit and a miss apart,
 * and every splat visible on whatever the world view draws under it. The browser test
 * (newPlayerCombat.test.ts) finds the drawn splats on the canvas in Chromium.
 */
import assert from "node:assert/strict";
import { contrast, SPLAT_BADGES, SPLAT_HIT, SPLAT_MISS, SPLAT_RINGS, splatLook } from "../../client/src/hitSplats.ts";
import { HIT_STYLES } from "../../src/game/serverEvents.ts";

/** Every colour the world view draws (a splat may land on any of them). */
const BACKGROUNDS: Record<string, number> = {
  // client/src/main.ts: the wild land.
  land: 0x3f6b35,
  // client/src/WorldScene.ts: areas (safe zones lighter), blocked tiles, stations, the path, health bars.
  area: 0x4f7d3f,
  safeZone: 0x8a9a5b,
  blocked: 0x5b5048,
  station: 0x6d4c41,
  path: 0xffff00,
  healthLost: 0xc62828,
  healthLeft: 0x43a047,
  // client/src/sprites.ts: you (blue), other players, monsters, NPCs, items, resources, fires, objects.
  you: 0x3fa9f5,
  otherPlayer: 0xf5f5f5,
  monster: 0xd9534f,
  npc: 0xffb300,
  item: 0xf0c419,
  tree: 0x1e8449,
  rock: 0x8d6e63,
  fishingSpot: 0x29b6f6,
  depleted: 0x757575,
  fire: 0xff7043,
  object: 0x8e5b3a,
};

describe("hit splats: how each looks", () => {
  it("tells the styles apart by badge colour and glyph (typeless damage by its plain badge), and a hit from a miss", () => {
    const looks = HIT_STYLES.map((s) => splatLook(s, 12));
    assert.equal(new Set(looks.map((l) => l.badge.fill)).size, HIT_STYLES.length, "a badge colour each");
    assert.equal(new Set(looks.map((l) => l.badge.glyph)).size, HIT_STYLES.length, "a glyph each, or none for typeless (not colour alone)");
    assert.deepEqual(
      HIT_STYLES.map((s) => splatLook(s, 0)),
      HIT_STYLES.map((s) => ({ fill: SPLAT_MISS, text: "0", badge: SPLAT_BADGES[s] })),
    );
    assert.deepEqual(splatLook("magic", 37), { fill: SPLAT_HIT, text: "37", badge: SPLAT_BADGES.magic });
  });

  it("shows every splat on every colour of the world view, your blue player included: one ring stands out by 3:1", () => {
    for (const [name, bg] of Object.entries(BACKGROUNDS)) {
      const best = Math.max(...SPLAT_RINGS.map((ring) => contrast(ring, bg)));
      assert.ok(best >= 3, `on ${name} (#${bg.toString(16)}) the outline's best contrast is ${best.toFixed(2)}`);
    }
    // The inner (white) ring also parts the fill from the black ring: a miss is not a dark blot.
    for (const fill of [SPLAT_HIT, SPLAT_MISS, ...Object.values(SPLAT_BADGES).map((b) => b.fill)]) {
      assert.ok(contrast(SPLAT_RINGS[1], fill) >= 3, `white ring on #${fill.toString(16)}`);
    }
  });

  it("writes the damage and draws the glyphs legibly: white on each fill by 4.5:1", () => {
    for (const fill of [SPLAT_HIT, SPLAT_MISS, ...Object.values(SPLAT_BADGES).map((b) => b.fill)]) {
      assert.ok(contrast(0xffffff, fill) >= 4.5, `white on #${fill.toString(16)}: ${contrast(0xffffff, fill).toFixed(2)}`);
    }
  });
});
