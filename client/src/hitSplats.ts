/**
 * How a hit splat looks (`combat:hit`): the damage in lifepoints on a disc, red for a hit and blue
 * for a miss (0), as RuneScape 2 draws them in its lifepoint scale (ten lifepoints a hitpoint: the
 * health bars and the Skills tab count the same lifepoints), with a badge beside it saying how the
 * hit was dealt, as RuneScape's later splats carry a melee, ranged or magic icon: a sword on steel
 * grey, an arrow on green, a star on purple. Colour and shape both differ, so no style rests on
 * colour alone.
 *
 * Outlines: the disc and the badge have a black outer ring around a white one. Whatever is under
 * a splat (the ground, a tree, your own blue player, a red monster), one of the two rings stands
 * out from it by at least 3:1 (WCAG 1.4.11, non-text contrast): black against light colours, white
 * against dark ones. test/client/hitSplats.test.ts checks that against every colour the world view draws.
 */
import type { HitStyle } from "../../src/game/serverEvents.ts";

export type { HitStyle };

/** The disc's fill: a hit, a miss. */
export const SPLAT_HIT = 0xb71c1c;
export const SPLAT_MISS = 0x1565c0;
/** The outline's rings, outside in. */
export const SPLAT_RINGS = [0x000000, 0xffffff] as const;
/** Each style's badge: its fill and the glyph drawn on it in white. */
export const SPLAT_BADGES: Record<HitStyle, { fill: number; glyph: "sword" | "arrow" | "star" | "none"; name: string }> = {
  melee: { fill: 0x455a64, glyph: "sword", name: "melee" },
  ranged: { fill: 0x1b5e20, glyph: "arrow", name: "ranged" },
  magic: { fill: 0x6a1b9a, glyph: "star", name: "magic" },
  // Damage no attack dealt (a fall): a plain dark badge, no glyph.
  typeless: { fill: 0x4e342e, glyph: "none", name: "typeless" },
};
/**
 * Sizes (pixels): the disc's radius, each ring's width, the badge's radius, and where the disc and
 * the badge sit from the centre of the body hit. Splat, rings and badge lie within the body's tile
 * (32 pixels square, client/src/WorldScene.ts TILE), as the genre's splats lie on the body, below
 * the health bar along the tile's top (sceneEffects.ts): the splats and bars of two neighbours in a
 * fight, side by side or one north of the other, never touch, and the name above the tile stays
 * clear (docs/playtest.md session 30: the badge reached 26 pixels left, into the next tile, and the
 * splat rose into the name above it).
 */
export const SPLAT_SIZE = { disc: 8, ring: 2, badge: 4, discAt: { x: 4, y: 4 }, badgeAt: { x: -8, y: -4 } } as const;

/** The box a splat covers, from the centre of the body hit (pixels): its rings included. */
export function splatBox(): { left: number; top: number; right: number; bottom: number } {
  const { disc, ring, badge, discAt, badgeAt } = SPLAT_SIZE;
  const outer = SPLAT_RINGS.length * ring;
  const [d, b] = [disc + outer, badge + outer];
  return {
    left: Math.min(discAt.x - d, badgeAt.x - b),
    top: Math.min(discAt.y - d, badgeAt.y - b),
    right: Math.max(discAt.x + d, badgeAt.x + b),
    bottom: Math.max(discAt.y + d, badgeAt.y + b),
  };
}

export interface SplatLook {
  fill: number;
  text: string;
  badge: (typeof SPLAT_BADGES)[HitStyle];
}

export function splatLook(style: HitStyle, damage: number): SplatLook {
  return { fill: damage > 0 ? SPLAT_HIT : SPLAT_MISS, text: String(damage), badge: SPLAT_BADGES[style] };
}

/** WCAG relative luminance of a 0xRRGGBB colour. */
export function luminance(color: number): number {
  const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin((color >> 16) & 0xff) + 0.7152 * lin((color >> 8) & 0xff) + 0.0722 * lin(color & 0xff);
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrast(a: number, b: number): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
