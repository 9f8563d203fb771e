/**
 * Touch on the world view: a touch has no right button, so a finger held still for
 * {@link LONG_PRESS_MS} opens the tile's menu, as a right click does (the canvas counts them,
 * `data-long-presses`); let go sooner it is a tap, which does what a left click does; a finger that
 * slides away more than {@link PRESS_SLOP_PX} is neither.
 */

/** A touch held this long (ms) opens the menu (the genre's mobile client: about half a second). */
export const LONG_PRESS_MS = 500;
/** A touch that moves farther than this (pixels) is not a press. */
export const PRESS_SLOP_PX = 10;

/** What a press does: `always` true for a long press (the menu), false for a tap. */
export type PressAction = (always: boolean) => void;

export class TouchPress {
  private press: { x: number; y: number; act: PressAction; timer: ReturnType<typeof setTimeout> } | undefined;

  private readonly canvas: HTMLCanvasElement;

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
  }

  /** A finger down at `x, y` (canvas pixels): `act` runs at the long press, or at a tap's release. */
  down(x: number, y: number, act: PressAction): void {
    this.cancel();
    const press = {
      x,
      y,
      act,
      timer: setTimeout(() => {
        if (this.press !== press) return;
        this.press = undefined;
        this.canvas.dataset.longPresses = String(Number(this.canvas.dataset.longPresses ?? 0) + 1);
        act(true);
      }, LONG_PRESS_MS),
    };
    this.press = press;
  }

  /** The finger moved to `x, y`: far from where it went down, the press is off. */
  move(x: number, y: number): void {
    if (this.press !== undefined && Math.hypot(x - this.press.x, y - this.press.y) > PRESS_SLOP_PX) this.cancel();
  }

  /** The finger lifted: before the long press, a tap. */
  up(): void {
    const press = this.press;
    if (press === undefined) return;
    this.cancel();
    press.act(false);
  }

  cancel(): void {
    if (this.press !== undefined) clearTimeout(this.press.timer);
    this.press = undefined;
  }
}
