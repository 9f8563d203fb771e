/**
 * Which players' name labels to show where they would overlap: in a crowd, a pile of names over
 * each other read as none. Labels are taken in order of importance (the nearest to you first;
 * yours is not drawn, as in the genre), and one that would overlap a label already taken is hidden; its player still shows its
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

/** At most this many NPCs' names are shown (the nearest ones). */
export const NPC_LABELS = 12;

/** A name label as the world view draws it (a Phaser text): where it hangs, its size, whether it shows. */
export interface SceneLabel {
  x: number;
  /** Its bottom (the label hangs above its player). */
  y: number;
  width: number;
  height: number;
  /** What it says (a name, an NPC's with its level). */
  text: string;
  visible: boolean;
  setVisible(on: boolean): unknown;
}

/**
 * Shows the labels {@link visibleLabels} keeps, taken by `dist` (nearest first), and of the
 * NPCs' only the nearest {@link NPC_LABELS}; says on the canvas how many are hidden and shown
 * (`data-hidden-labels`, `data-labels`) and which names show (`data-label-names`, a JSON list, sorted),
 * for the tests. Sorts `labelled`.
 */
export function declutter(labelled: { label: SceneLabel; npc: boolean; dist: number }[], canvas: HTMLElement): void {
  labelled.sort((a, b) => a.dist - b.dist);
  const shown = visibleLabels(labelled.map(({ label }) => ({ x: label.x, bottom: label.y, width: label.width, height: label.height })));
  // The nearest NPCs' names only: each label is a texture of its own, drawn each frame.
  let npcs = 0;
  labelled.forEach(({ npc }, i) => {
    if (npc && shown[i] && ++npcs > NPC_LABELS) shown[i] = false;
  });
  let hidden = 0;
  labelled.forEach(({ label }, i) => {
    if (label.visible !== shown[i]) label.setVisible(shown[i]!);
    if (!shown[i]) hidden++;
  });
  const said = String(hidden);
  if (canvas.dataset.hiddenLabels !== said) canvas.dataset.hiddenLabels = said;
  const shownCount = String(labelled.length - hidden);
  if (canvas.dataset.labels !== shownCount) canvas.dataset.labels = shownCount;
  const names = JSON.stringify(labelled.flatMap(({ label }, i) => (shown[i] ? [label.text] : [])).sort());
  if (canvas.dataset.labelNames !== names) canvas.dataset.labelNames = names;
}
