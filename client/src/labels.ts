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

/** A drawn thing's box in world pixels. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlaps = (b: LabelBox, r: Rect) => b.x + b.width / 2 > r.left && b.x - b.width / 2 < r.right && b.bottom > r.top && b.bottom - b.height < r.bottom;

/**
 * Where a label hangs (its bottom) so that it does not cover your character: above its own player
 * or NPC (`label.bottom`) when that is clear of you; else under its feet (`ownerBottom`: a player on
 * the tile south of you has its name on your head, docs/playtest.md session 29); else (someone on
 * your tile while you lean into a fight) above your head. Yours is not drawn, so no name lies on you.
 */
export function labelBottom(label: LabelBox, ownerBottom: number, you: Rect | undefined): number {
  if (you === undefined || !overlaps(label, you)) return label.bottom;
  const below = ownerBottom + LABEL_GAP + label.height;
  if (!overlaps({ ...label, bottom: below }, you)) return below;
  return you.top - LABEL_GAP;
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
 * (`data-hidden-labels`, `data-labels`), which names show (`data-label-names`, a JSON list, sorted)
 * and where they hang (`data-label-boxes`), for the tests. Sorts `labelled`.
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
  // Where the shown ones hang (world pixels: centre x, bottom, size), for the tests.
  const boxes = JSON.stringify(
    labelled.flatMap(({ label }, i) =>
      shown[i]
        ? [{ text: label.text, x: Math.round(label.x), bottom: Math.round(label.y), width: Math.round(label.width), height: Math.round(label.height) }]
        : [],
    ),
  );
  if (canvas.dataset.labelBoxes !== boxes) canvas.dataset.labelBoxes = boxes;
}
