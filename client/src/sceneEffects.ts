/**
 * What the world view (WorldScene.ts) draws over a player or an NPC for a moment: a hit splat
 * (hitSplats.ts: the damage on red, a miss on blue, a badge for the style), text rising from it
 * (xp drops, level-ups), and its health bar while it is hurt or lately hit.
 */
import * as Phaser from "phaser";
import { SPLAT_RINGS, SPLAT_SIZE, splatLook, type HitStyle } from "./hitSplats.ts";

/** How long a health bar stays after a hit on a healthy target (ms). */
export const HEALTH_BAR_MS = 6_000;

/** A hit splat at a point of the world (pixels), rising and fading. */
export function drawHitSplat(scene: Phaser.Scene, x: number, y: number, damage: number, style: HitStyle, depth: number): void {
  const look = splatLook(style, damage);
  const { disc, ring, badge, badgeAt } = SPLAT_SIZE;
  const g = scene.add.graphics({ x, y }).setDepth(depth);
  // Rings outside in (black, then white), then the fill: each a disc over the last.
  const rings = (cx: number, cy: number, r: number, fill: number) => {
    SPLAT_RINGS.forEach((c, i) => g.fillStyle(c).fillCircle(cx, cy, r + (SPLAT_RINGS.length - i) * ring));
    g.fillStyle(fill).fillCircle(cx, cy, r);
  };
  rings(0, 0, disc, look.fill);
  rings(badgeAt.x, badgeAt.y, badge, look.badge.fill);
  const [bx, by] = [badgeAt.x, badgeAt.y];
  g.fillStyle(0xffffff).lineStyle(2, 0xffffff);
  if (look.badge.glyph === "star") {
    const points = Array.from({ length: 10 }, (_, i) => {
      const r = i % 2 === 0 ? 5 : 2.2;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      return new Phaser.Math.Vector2(bx + r * Math.cos(a), by + r * Math.sin(a));
    });
    g.fillPoints(points, true);
  } else if (look.badge.glyph !== "none") {
    // A blade (or a shaft) from the lower left to the upper right.
    g.lineBetween(bx - 4, by + 4, bx + 3, by - 3);
    if (look.badge.glyph === "sword") g.lineBetween(bx - 4, by - 1, bx + 1, by + 4);
    else g.fillTriangle(bx + 5, by - 5, bx, by - 4, bx + 4, by + 0);
  }
  const text = scene.add
    .text(x, y, look.text, { fontFamily: "sans-serif", fontSize: "12px", fontStyle: "bold", color: "#ffffff", stroke: "#000000", strokeThickness: 3 })
    .setOrigin(0.5)
    .setDepth(depth);
  scene.tweens.add({ targets: [g, text], y: `-=14`, alpha: 0, delay: 500, duration: 600, onComplete: () => (g.destroy(), text.destroy()) });
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
  /** Until when (scene time) the health bar shows although health is full. */
  barUntil: number;
  bar?: { bg: Phaser.GameObjects.Rectangle; fg: Phaser.GameObjects.Rectangle };
}

/** A health bar over a hurt (or lately hit) player or NPC at `x`, `y` (its tile's centre; `tile`: pixels per tile): green over red. */
export function drawHealthBar(scene: Phaser.Scene, d: HealthBarred, x: number, y: number, time: number, tile: number, depth: number): void {
  const show = d.maxHealth > 0 && (d.health < d.maxHealth || time < d.barUntil);
  if (!show) {
    d.bar?.bg.setVisible(false);
    d.bar?.fg.setVisible(false);
    return;
  }
  const w = tile * 0.8;
  if (d.bar === undefined) {
    const bg = scene.add.rectangle(0, 0, w, 4, 0xc62828).setOrigin(0, 0.5).setDepth(depth);
    const fg = scene.add.rectangle(0, 0, w, 4, 0x43a047).setOrigin(0, 0.5).setDepth(depth);
    d.bar = { bg, fg };
  }
  const top = y - tile * 0.5 - 3;
  d.bar.bg.setPosition(x - w / 2, top).setVisible(true);
  d.bar.fg
    .setPosition(x - w / 2, top)
    .setVisible(true)
    .setSize(Math.max(0, (w * d.health) / d.maxHealth), 4);
}
