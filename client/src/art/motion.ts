/**
 * The world view's simple animations: a look put on an image (its texture, frame "0"), the frames
 * of the animated looks stepped (fishing spots ripple, fires flicker), a bob while walking, a lunge
 * toward what is attacked, a white flash on a hit, and a fade on death.
 */
import * as Phaser from "phaser";
import { framesOf, textureOf } from "./draw.ts";
import type { Look } from "./looks.ts";

/** Per image: its look's frame count, and the lunge under way. */
interface Motion {
  frames: number;
  phase: number;
  lunge?: { dx: number; dy: number; start: number };
}
const motions = new WeakMap<Phaser.GameObjects.Image, Motion>();

/** How long a lunge lasts (ms), and how far it reaches (pixels). */
const LUNGE_MS = 260;
const LUNGE_PX = 9;
/** How fast animated looks step (ms a frame). */
const FRAME_MS = 260;

/** Puts a look on an image (nothing when it has it already). */
export function wear(scene: Phaser.Scene, image: Phaser.GameObjects.Image, look: Look): void {
  const key = textureOf(scene, look);
  if (image.texture.key === key) return;
  image.setTexture(key, "0");
  const frames = framesOf(look);
  const m = motions.get(image);
  if (m === undefined) motions.set(image, { frames, phase: Math.floor(Math.random() * 4) });
  else m.frames = frames;
}

/**
 * Where an image is drawn this frame, from where its slide puts it (`x, y`) and how far the slide
 * is (`t`, 0..1; 1 standing): a walk bobs, a lunge reaches out and back; animated looks step.
 */
export function pose(image: Phaser.GameObjects.Image, x: number, y: number, t: number, time: number): { x: number; y: number } {
  const m = motions.get(image);
  if (m === undefined) return { x, y };
  if (m.frames > 1) {
    const frame = String((Math.floor(time / FRAME_MS) + m.phase) % m.frames);
    if (image.frame.name !== frame) image.setFrame(frame);
  }
  let ox = 0;
  let oy = t < 1 ? -Math.abs(Math.sin(t * Math.PI * 2)) * 2 : 0;
  if (m.lunge !== undefined) {
    const k = (time - m.lunge.start) / LUNGE_MS;
    if (k >= 1 || k < 0) delete m.lunge;
    else {
      const s = Math.sin(k * Math.PI);
      ox += m.lunge.dx * s;
      oy += m.lunge.dy * s;
    }
  }
  return { x: x + ox, y: y + oy };
}

/** The attacker leans toward its target for a moment. */
export function lunge(image: Phaser.GameObjects.Image, toward: { x: number; y: number }, time: number): void {
  const m = motions.get(image);
  if (m === undefined) return;
  const dx = toward.x - image.x;
  const dy = toward.y - image.y;
  const len = Math.hypot(dx, dy) || 1;
  m.lunge = { dx: (dx / len) * LUNGE_PX, dy: (dy / len) * LUNGE_PX, start: time };
}

/** A white flash on what was hit. */
export function flash(scene: Phaser.Scene, image: Phaser.GameObjects.Image): void {
  image.setTint(0xffffff).setTintMode(Phaser.TintModes.FILL);
  scene.time.delayedCall(110, () => {
    if (image.active) image.clearTint().setTintMode(Phaser.TintModes.MULTIPLY);
  });
}

/** Fades out and sinks what died, then destroys it (and `also`, its label and bars). */
export function fadeOut(scene: Phaser.Scene, image: Phaser.GameObjects.Image, also: () => void): void {
  image.setDepth(image.depth - 0.5);
  scene.tweens.add({
    targets: image,
    alpha: 0,
    y: image.y + 6,
    angle: 90,
    duration: 600,
    onComplete: () => {
      image.destroy();
      also();
    },
  });
}
