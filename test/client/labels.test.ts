/**
 * The players' name labels in a crowd (client/src/labels.ts): which to show so that none overlap,
 * yours and the nearest first; and where one hangs so that it does not lie on your character. The
 * play test and playtest29.test.ts check them on the canvas in Chromium.
 */
import assert from "node:assert/strict";
import { LABEL_GAP, labelBottom, visibleLabels, type LabelBox, type Rect } from "../../client/src/labels.ts";

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

describe("a name label and your character", () => {
  // You: a 32-pixel figure centred on 16,16 (tile 0,0). A label hangs 23 pixels above its owner's centre.
  const you: Rect = { left: 0, top: 0, right: 32, bottom: 32 };
  const clear = (b: LabelBox, r: Rect) => b.x + b.width / 2 <= r.left || b.x - b.width / 2 >= r.right || b.bottom <= r.top || b.bottom - b.height >= r.bottom;

  it("leaves a label clear of you where it is: above its owner, on your tile or any other", () => {
    const onYourTile = box(16, 16 - 23, 60, 17);
    assert.equal(labelBottom(onYourTile, 32, you), 16 - 23);
    const east = box(48, 16 - 23, 60, 17);
    assert.equal(labelBottom(east, 32, you), 16 - 23);
    assert.equal(labelBottom(onYourTile, 32, undefined), 16 - 23, "nothing to keep clear before you are drawn");
  });

  it("hangs the name of one on the tile south of you under its feet, not on your head", () => {
    const south = box(16, 48 - 23, 60, 17);
    assert.ok(!clear(south, you), "above its owner, it lies on you");
    const bottom = labelBottom(south, 64, you);
    assert.equal(bottom, 64 + LABEL_GAP + 17, "under its owner's feet");
    assert.ok(clear({ ...south, bottom }, you));
  });

  it("hangs it under its owner when you lean into it, and above your head when neither is clear of you", () => {
    // You lean north into a fight: your figure rises into the name of one on your tile.
    const leaning: Rect = { left: 0, top: -12, right: 32, bottom: 20 };
    const onYourTile = box(16, 16 - 23, 60, 17);
    assert.equal(labelBottom(onYourTile, 32, leaning), 32 + LABEL_GAP + 17);
    // A figure that reaches both above and under its owner: the name goes over your head.
    const tall: Rect = { left: 0, top: -30, right: 32, bottom: 60 };
    const bottom = labelBottom(onYourTile, 32, tall);
    assert.equal(bottom, -30 - LABEL_GAP);
    assert.ok(clear({ ...onYourTile, bottom }, tall));
  });
});
