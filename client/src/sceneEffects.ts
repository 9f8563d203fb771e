/**
 * What the world view (WorldScene.ts) draws over a player or an NPC for a moment: a hit splat
 * (hitSplats.ts: the damage on red, a miss on blue, a badge for the style) on its body, text rising
 * from it (xp drops, level-ups), and its health bar while it is lately hit.
 */
import * as Phaser from "phaser";
import { SINGLE_COMBAT_TICKS } from "../../src/game/singleCombat.ts";
import { SPLAT_RINGS, SPLAT_SIZE, splatLook, type HitStyle } from "./hitSplats.ts";

/**
 * How long a health bar shows after the last hit (a miss too), in ticks: as in the genre, a health
 * bar is up while the player or NPC is lately hit, about 6 s (10 ticks of 0.6 s), and then hidden,
 * hurt or not (docs/playtest.md session 30: a cow's bar stayed up for as long as it was hurt). The
 * same 10 ticks as the server's single-way combat (src/game/singleCombat.ts): a bar is up while
 * its owner is in a fight.
 */
export const HEALTH_BAR_TICKS = SINGLE_COMBAT_TICKS;

/** How long a hit splat stays on the body before it fades, and its fading (ms). */
const SPLAT_STAY_MS = 700;
const SPLAT_FADE_MS = 400;

/**
 * A hit splat on the body at a point of the world (pixels; the caller moves it with the body),
 * staying, then fading, as the genre's splats do (they do not rise: a risen splat lay on the name
 * above). `done` runs once it is gone.
 */
export function drawHitSplat(
  scene: Phaser.Scene,
  x: number,
  y: number,
  damage: number,
  style: HitStyle,
  depth: number,
  done: () => void,
): Phaser.GameObjects.Container {
  const look = splatLook(style, damage);
  const { disc, ring, badge, discAt, badgeAt } = SPLAT_SIZE;
  const g = scene.add.graphics();
  // Rings outside in (black, then white), then the fill: each a disc over the last.
  const rings = (cx: number, cy: number, r: number, fill: number) => {
    SPLAT_RINGS.forEach((c, i) => g.fillStyle(c).fillCircle(cx, cy, r + (SPLAT_RINGS.length - i) * ring));
    g.fillStyle(fill).fillCircle(cx, cy, r);
  };
  rings(discAt.x, discAt.y, disc, look.fill);
  rings(badgeAt.x, badgeAt.y, badge, look.badge.fill);
  // The glyph, drawn for a badge of radius 7 and scaled to this one.
  const k = badge / 7;
  const [bx, by] = [badgeAt.x, badgeAt.y];
  g.fillStyle(0xffffff).lineStyle(Math.max(1.5, 2 * k), 0xffffff);
  if (look.badge.glyph === "star") {
    const points = Array.from({ length: 10 }, (_, i) => {
      const r = (i % 2 === 0 ? 5 : 2.2) * k;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      return new Phaser.Math.Vector2(bx + r * Math.cos(a), by + r * Math.sin(a));
    });
    g.fillPoints(points, true);
  } else if (look.badge.glyph !== "none") {
    // A blade (or a shaft) from the lower left to the upper right.
    g.lineBetween(bx - 4 * k, by + 4 * k, bx + 3 * k, by - 3 * k);
    if (look.badge.glyph === "sword") g.lineBetween(bx - 4 * k, by - 1 * k, bx + 1 * k, by + 4 * k);
    else g.fillTriangle(bx + 5 * k, by - 5 * k, bx, by - 4 * k, bx + 4 * k, by);
  }
  const text = scene.add
    .text(discAt.x, discAt.y, look.text, {
      fontFamily: "sans-serif",
      fontSize: "11px",
      fontStyle: "bold",
      color: "#ffffff",
      stroke: "#000000",
      strokeThickness: 3,
    })
    .setOrigin(0.5);
  const splat = scene.add.container(x, y, [g, text]).setDepth(depth);
  scene.tweens.add({
    targets: splat,
    alpha: 0,
    delay: SPLAT_STAY_MS,
    duration: SPLAT_FADE_MS,
    onComplete: () => {
      splat.destroy();
      done();
    },
  });
  return splat;
}

/** Texts rising from things; those that come together from one thing stack instead of overlapping. */
export class RisingTexts {
  private readonly scene: Phaser.Scene;
  private readonly depth: number;
  /** How many rising texts each thing has now (they stack). */
  private readonly floating = new Map<string, number>();

  constructor(scene: Phaser.Scene, depth: number) {
    this.scene = scene;
    this.depth = depth;
  }

  /** `message` rising from thing `id`, whose top is at `x`, `top` (pixels). */
  rise(id: string, x: number, top: number, message: string, color: string): void {
    // Drops that come together (attack and constitution xp of one hit) stack instead of overlapping.
    const rising = this.floating.get(id) ?? 0;
    this.floating.set(id, rising + 1);
    const y = top - rising * 16;
    const text = this.scene.add
      .text(x, y, message, { fontFamily: "sans-serif", fontSize: "13px", fontStyle: "bold", color, stroke: "#000000", strokeThickness: 3 })
      .setOrigin(0.5, 1)
      .setDepth(this.depth);
    this.scene.tweens.add({
      targets: text,
      y: y - 28,
      alpha: 0,
      duration: 1_800,
      onComplete: () => {
        text.destroy();
        const n = (this.floating.get(id) ?? 1) - 1;
        if (n > 0) this.floating.set(id, n);
        else this.floating.delete(id);
      },
    });
  }
}

/** What a health bar is drawn for: a player or an NPC the scene draws, and its bar once made. */
export interface HealthBarred {
  health: number;
  maxHealth: number;
  /** Until when (scene time) the health bar shows: {@link HEALTH_BAR_TICKS} after the last hit. */
  barUntil: number;
  bar?: { bg: Phaser.GameObjects.Rectangle; fg: Phaser.GameObjects.Rectangle };
}

/** A health bar's height (pixels). */
const HEALTH_BAR_HEIGHT = 4;

/**
 * The health bar of a lately hit player or NPC at `x`, `y` (its tile's centre; `tile`: pixels per
 * tile): green over red, along the top of its tile (its splats lie below it, its name above the
 * tile), so that it never lies on the tile north of it, nor on a splat there.
 * Hidden once {@link HealthBarred.barUntil} has passed, even while hurt, as in the genre. Returns
 * whether it shows.
 */
export function drawHealthBar(scene: Phaser.Scene, d: HealthBarred, x: number, y: number, time: number, tile: number, depth: number): boolean {
  const show = d.maxHealth > 0 && time < d.barUntil;
  if (!show) {
    d.bar?.bg.setVisible(false);
    d.bar?.fg.setVisible(false);
    return false;
  }
  const w = tile * 0.8;
  const h = HEALTH_BAR_HEIGHT;
  if (d.bar === undefined) {
    const bg = scene.add.rectangle(0, 0, w, h, 0xc62828).setOrigin(0, 1).setDepth(depth);
    const fg = scene.add.rectangle(0, 0, w, h, 0x43a047).setOrigin(0, 1).setDepth(depth);
    d.bar = { bg, fg };
  }
  // Its top on the tile's top.
  const bottom = y - tile * 0.5 + h;
  d.bar.bg.setPosition(x - w / 2, bottom).setVisible(true);
  d.bar.fg
    .setPosition(x - w / 2, bottom)
    .setVisible(true)
    .setSize(Math.max(0, (w * d.health) / d.maxHealth), h);
  return true;
}
