/**
 * The players' name labels in a crowd (client/src/labels.ts): which to show so that none overlap,
 * yours and the nearest first. The play test checks it on the canvas in Chromium.
 */
import assert from "node:assert/strict";
import { LABEL_GAP, visibleLabels, type LabelBox } from "../../client/src/labels.ts";

const box = (x: number, bottom: number, width = 40, height = 16): LabelBox => ({ x, bottom, width, height });

describe("name labels in a crowd", () => {
  it("shows every label that overlaps none before it, and hides those that would", () => {
    // Yours at 0,0; one on top of it; one just clear to its right; one just clear above it; one
    // overlapping the one to the right only.
    const boxes = [box(0, 0), box(10, 4), box(40 + LABEL_GAP, 0), box(0, -16 - LABEL_GAP), box(40 + LABEL_GAP + 30, 2)];
    assert.deepEqual(visibleLabels(boxes), [true, false, true, true, false]);
  });

  it("hides a label only for one that is shown: a hidden one leaves its place to the next", () => {
    // B overlaps A (shown) and is hidden; C overlaps B only, so it is shown.
    assert.deepEqual(visibleLabels([box(0, 0), box(30, 0), box(60, 0)]), [true, false, true]);
  });

  it("keeps the shown ones apart by the gap, whatever their widths and heights", () => {
    const crowd = Array.from({ length: 60 }, (_, i) => box((i * 37) % 200, (i * 11) % 90, 20 + ((i * 13) % 50), 14 + (i % 3)));
    const shown = visibleLabels(crowd);
    assert.equal(shown[0], true, "the first (yours) always");
    const kept = crowd.filter((_, i) => shown[i]);
    for (const a of kept) {
      for (const b of kept) {
        if (a === b) continue;
        const apart =
          Math.abs(a.x - b.x) >= (a.width + b.width) / 2 + LABEL_GAP ||
          b.bottom - a.bottom >= b.height + LABEL_GAP ||
          a.bottom - b.bottom >= a.height + LABEL_GAP;
        assert.ok(apart, `${JSON.stringify(a)} and ${JSON.stringify(b)} overlap`);
      }
    }
    assert.ok(kept.length > 5 && kept.length < crowd.length, `some shown, some hidden: ${kept.length} of ${crowd.length}`);
  });
});
