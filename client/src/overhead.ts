/**
 * Chat over the speaker's head, as in the genre: a player's public line (`chat:message`, channel
 * `local`) shows in yellow above them for a few seconds, following them as they walk, while the
 * Chat log keeps it. A new line from the same speaker replaces their last one. The canvas lists
 * the lines shown (`data-overhead`, "Name: text" joined by " | ") for scripts and tests.
 */
import type * as Phaser from "phaser";
import type { WorldScene } from "./WorldScene.ts";

/** How long a line stays over its speaker (ms). */
export const OVERHEAD_MS = 5_000;
/** Longer lines are cut (with an ellipsis): a bubble, not a paragraph. */
const MAX_CHARS = 80;
/** How far above the speaker's centre the line sits (over the name label). */
const DY = -36;

export class OverheadChat {
  private readonly scene: WorldScene;
  private readonly shown = new Map<string, { text: Phaser.GameObjects.Text; said: string; until: number }>();
  private readonly follow: () => void;

  constructor(scene: WorldScene) {
    this.scene = scene;
    this.follow = () => this.update();
    scene.events.on("update", this.follow);
  }

  /** `speakerId` said `message` (`name` for the canvas' list). */
  say(speakerId: string, name: string, message: string): void {
    const at = this.scene.positionOf(speakerId);
    if (at === undefined) return;
    const line = message.length > MAX_CHARS ? `${message.slice(0, MAX_CHARS - 1)}…` : message;
    this.shown.get(speakerId)?.text.destroy();
    const text = this.scene.add
      .text(at.x, at.y + DY, line, {
        fontFamily: "sans-serif",
        fontSize: "13px",
        fontStyle: "bold",
        color: "#ffff00",
        stroke: "#000000",
        strokeThickness: 3,
        align: "center",
        wordWrap: { width: 220 },
      })
      .setOrigin(0.5, 1)
      .setDepth(10);
    this.shown.set(speakerId, { text, said: `${name}: ${line}`, until: this.scene.time.now + OVERHEAD_MS });
    this.mark();
  }

  private update(): void {
    const now = this.scene.time.now;
    let changed = false;
    for (const [id, s] of this.shown) {
      const at = this.scene.positionOf(id);
      if (at === undefined || now >= s.until) {
        s.text.destroy();
        this.shown.delete(id);
        changed = true;
      } else s.text.setPosition(at.x, at.y + DY);
    }
    if (changed) this.mark();
  }

  private mark(): void {
    this.scene.game.canvas.dataset.overhead = [...this.shown.values()].map((s) => s.said).join(" | ");
  }

  dispose(): void {
    this.scene.events.off("update", this.follow);
  }
}
