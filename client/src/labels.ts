/**
 * Which players' name labels to show where they would overlap: in a crowd, a pile of names over
 * each other read as none. Labels are taken in order of importance (yours, then the nearest to
 * you), and one that would overlap a label already taken is hidden; its player still shows its
 * name on hover and in its menu. Pure, so that it is tested without a canvas.
 */

/** A label's box in world pixels: its centre's x, its bottom (labels hang above their player), its size. */
export interface LabelBox {
  x: number;
  bottom: number;
  width: number;
  height: number;
}

/** Pixels kept free between two labels shown side by side. */
export const LABEL_GAP = 2;

/**
 * For boxes given most important first: whether each is shown (none that are shown overlap, and a
 * box is hidden only for one shown before it).
 */
export function visibleLabels(boxes: readonly LabelBox[]): boolean[] {
  const shown: LabelBox[] = [];
  return boxes.map((b) => {
    const clear = shown.every(
      (s) =>
        Math.abs(s.x - b.x) >= (s.width + b.width) / 2 + LABEL_GAP || // side by side
        b.bottom - s.bottom >= b.height + LABEL_GAP || // b below s
        s.bottom - b.bottom >= s.height + LABEL_GAP, // b above s
    );
    if (clear) shown.push(b);
    return clear;
  });
}
