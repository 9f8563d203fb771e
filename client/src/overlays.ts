/**
 * What the world view (WorldScene.ts) hangs on the players and NPCs it draws, and where: a name
 * above the tile (labels.ts keeps it off you and out of a nearer name's way), the health bar along
 * the tile's top while lately hit and the hit splats on the body (sceneEffects.ts, hitSplats.ts),
 * and xp drops rising from above the name's place. All of them follow where a thing stands, sliding
 * between tiles, not where it leans into a hit (a lean of 9 pixels put an attacker's bar on its
 * neighbour's). The canvas says what shows and where, for the tests: `data-health-bars` and
 * `data-splats` here, the labels' `data-labels` and the rest in labels.ts.
 */
import type * as Phaser from "phaser";
import type { Sprite } from "./art/sprite.ts";
import { splatBox, type HitStyle } from "./hitSplats.ts";
import { declutter, labelBottom } from "./labels.ts";
import { drawHealthBar, drawHitSplat, HEALTH_BAR_TICKS, RisingTexts, type HealthBarred } from "./sceneEffects.ts";

/** What the overlays hang on: something the world view draws (only players and NPCs carry any). */
export interface Overlaid extends HealthBarred {
  kind: string;
  shape: Phaser.GameObjects.Image;
  /** Players' and NPCs' names float above them; everything else is named by the hover line only. */
  label?: Phaser.GameObjects.Text;
  /** Where it stands now, sliding between tiles but not leaning into a hit: its name, bar and splats follow this. */
  at: { x: number; y: number };
  /** Its hit splats on show (they follow it). */
  splats: Phaser.GameObjects.Container[];
}

/** The depths the overlays are drawn at (the scene's order of layers). */
export interface OverlayDepths {
  label: number;
  bar: number;
  effect: number;
}

export class Overlays {
  private readonly scene: Phaser.Scene;
  /** Pixels per tile. */
  private readonly tile: number;
  private readonly depth: OverlayDepths;
  private readonly tickMs: () => number;
  /**
   * A name's bottom sits this far above the centre of its tile: 2 pixels above the tile, whose top
   * has the health bar and the rest the splats (sceneEffects.ts).
   */
  private readonly nameDy: number;
  /** Xp drops and level-ups rising from things (sceneEffects.ts). */
  private readonly rising: RisingTexts;

  constructor(scene: Phaser.Scene, tile: number, depth: OverlayDepths, tickMs: () => number) {
    this.scene = scene;
    this.tile = tile;
    this.depth = depth;
    this.tickMs = tickMs;
    this.nameDy = -tile * 0.5 - 2;
    this.rising = new RisingTexts(scene, depth.effect);
  }

  /**
   * The name label of something first drawn at `at` (its tile's centre): other players and NPCs
   * carry their names (NPCs' in the genre's yellow); in a crowd, {@link tidy} hides those that would
   * overlap a nearer one. Yours (`mine`) has none, as in the genre: it lay over a monster on the
   * tile north of you (docs/playtest.md, session 27), and the pointer still names you.
   */
  label(sprite: Sprite, mine: boolean, at: { x: number; y: number }): Phaser.GameObjects.Text | undefined {
    if (!((sprite.kind === "player" && !mine) || sprite.kind === "npc")) return undefined;
    return this.scene.add
      .text(at.x, at.y + this.nameDy, sprite.label, {
        fontFamily: "sans-serif",
        fontSize: "12px",
        color: sprite.kind === "npc" ? "#ffff66" : "#ffffff",
        backgroundColor: "#000000b0",
        padding: { x: 3, y: 1 },
      })
      .setOrigin(0.5, 1)
      .setDepth(this.depth.label);
  }

  /** Its name and health as synced now: a loss of health shows the bar. */
  synced(d: Overlaid, sprite: Sprite): void {
    if (d.label !== undefined && d.label.text !== sprite.label) d.label.setText(sprite.label);
    if (sprite.maxHealth !== undefined && sprite.health !== undefined) {
      if (sprite.health < d.health) d.barUntil = this.barUntil();
      d.health = sprite.health;
      d.maxHealth = sprite.maxHealth;
    }
  }

  /** Until when (scene time) a health bar hit now shows: {@link HEALTH_BAR_TICKS} ticks. */
  private barUntil(): number {
    return this.scene.time.now + HEALTH_BAR_TICKS * this.tickMs();
  }

  /**
   * A hit splat on its body (hitSplats.ts): the damage on red, a miss on blue, and a badge for the
   * style. It shows the health bar for the next ticks, a miss too.
   */
  splat(d: Overlaid, damage: number, style: HitStyle): void {
    d.barUntil = this.barUntil();
    const splat = drawHitSplat(this.scene, d.at.x, d.at.y, damage, style, this.depth.effect, () => {
      d.splats = d.splats.filter((s) => s !== splat);
    });
    d.splats.push(splat);
  }

  /** Text rising from thing `id`: from above the name's place (a name hangs there over the others), clear of the names beside. */
  rise(id: string, d: Overlaid, message: string, color: string): void {
    this.rising.rise(id, d.at.x, d.at.y + this.nameDy - 18, message, color);
  }

  /** It stands at `x`, `y` now (world pixels, sliding between tiles): its name, splats and bar follow. */
  follow(d: Overlaid, x: number, y: number, time: number): void {
    d.at.x = x;
    d.at.y = y;
    d.label?.setPosition(x, y + this.nameDy);
    for (const s of d.splats) s.setPosition(x, y);
    drawHealthBar(this.scene, d, x, y, time, this.tile, this.depth.bar);
  }

  /** No name on your character (`you`): one that would lie on you hangs elsewhere (labels.ts). */
  keepOffYou(all: Iterable<Overlaid>, you: Overlaid | undefined): void {
    const yours = you?.shape.getBounds();
    if (yours === undefined) return;
    for (const d of all) {
      if (d.label === undefined) continue;
      const { x, y, width, height } = d.label;
      // Under its owner: under its tile (where its splats and bar lie), or its figure if taller.
      const under = Math.max(d.at.y + this.tile / 2, d.shape.y + d.shape.displayHeight / 2);
      const bottom = labelBottom({ x, bottom: y, width, height }, under, yours);
      if (bottom !== y) d.label.setY(bottom);
    }
  }

  /** Its name and bar go with it; its splats stay where it fell until they fade (sceneEffects.ts destroys them). */
  remove(d: Overlaid): void {
    d.label?.destroy();
    d.bar?.bg.destroy();
    d.bar?.fg.destroy();
  }

  /**
   * Hides the name labels that would overlap one nearer to `you` (or to the view's centre; the
   * nearest first, labels.ts) and says on the canvas what shows and where ({@link sayOverlays}).
   */
  tidy(drawn: ReadonlyMap<string, Overlaid>, you: Overlaid | undefined): void {
    const canvas = this.scene.game.canvas;
    // From where things stand, not where they lean in a hit: a lean swapped which of two names as near showed.
    const ax = you?.at.x ?? this.scene.cameras.main.worldView.centerX;
    const ay = you?.at.y ?? this.scene.cameras.main.worldView.centerY;
    const labelled = [...drawn.values()].flatMap((d) =>
      d.label === undefined ? [] : [{ label: d.label, npc: d.kind === "npc", dist: Math.max(Math.abs(d.at.x - ax), Math.abs(d.at.y - ay)) }],
    );
    declutter(labelled, canvas);
    sayOverlays(drawn, canvas);
  }
}

/**
 * Says on the canvas which health bars and hit splats show and where (world pixels, for the
 * tests): `data-health-bars`, `data-splats`, JSON lists of `{ id, health?, maxHealth?, left, top, right, bottom }`.
 */
function sayOverlays(drawn: ReadonlyMap<string, Overlaid>, canvas: HTMLElement): void {
  const bars: object[] = [];
  const splats: object[] = [];
  const box = (r: { left: number; top: number; right: number; bottom: number }) => ({
    left: Math.round(r.left),
    top: Math.round(r.top),
    right: Math.round(r.right),
    bottom: Math.round(r.bottom),
  });
  const sb = splatBox();
  for (const [id, d] of drawn) {
    const bg = d.bar?.bg;
    if (bg?.visible === true) {
      const r = bg.getBounds();
      bars.push({ id, health: d.health, maxHealth: d.maxHealth, ...box({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }) });
    }
    for (const s of d.splats) {
      splats.push({ id, ...box({ left: s.x + sb.left, top: s.y + sb.top, right: s.x + sb.right, bottom: s.y + sb.bottom }) });
    }
  }
  const [b, s] = [JSON.stringify(bars), JSON.stringify(splats)];
  if (canvas.dataset.healthBars !== b) canvas.dataset.healthBars = b;
  if (canvas.dataset.splats !== s) canvas.dataset.splats = s;
}
