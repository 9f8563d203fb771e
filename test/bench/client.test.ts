import assert from "node:assert/strict";
import { runBench } from "../support/bench.ts";

interface Frames {
  inView: number;
  added?: number;
  frames: number;
  fps: number;
  p95Ms: number;
}
interface Results {
  bundle: { files: { file: string; bytes: number; gzipBytes: number }[]; jsGzipBytes: number; pass: boolean };
  firstFrame: { runs: { firstFrameMs: number; joinClickedMs: number; joinToFrameMs: number }[]; medianMs: number };
  frameRate: { baseline: Frames; crowded: Frames; afterPlay: Frames };
  memory: { samples: { minute: number; heapUsedMB: number; nodes: number }[]; walks: number };
}

describe("bench/client (smoke)", function () {
  this.timeout(180_000);

  it("measures the bundle, a first frame, the frame rate with 20 NPCs added, and the heap over a few walks", async () => {
    const doc = await runBench<Results>("client", ["--entities", "20", "--runs", "1", "--sample-seconds", "1", "--minutes", "0.1"]);
    const js = doc.bundle.files.filter((f) => f.file.endsWith(".js"));
    assert.ok(js.length > 0 && js.every((f) => f.gzipBytes > 0 && f.gzipBytes < f.bytes), "gzipped JavaScript, smaller than raw");
    assert.equal(
      doc.bundle.jsGzipBytes,
      js.reduce((n, f) => n + f.gzipBytes, 0),
    );
    const [run] = doc.firstFrame.runs;
    assert.ok(run !== undefined && run.firstFrameMs > run.joinClickedMs && run.joinToFrameMs > 0, JSON.stringify(run));
    // The town's own NPCs wander in and out of view; the 20 added ones stay in it.
    assert.equal(doc.frameRate.crowded.added, 20, "the 20 added NPCs in view");
    assert.ok(doc.frameRate.crowded.inView >= 20, `NPCs in view: ${doc.frameRate.crowded.inView}`);
    for (const f of [doc.frameRate.baseline, doc.frameRate.crowded, doc.frameRate.afterPlay]) assert.ok(f.frames > 0 && f.fps > 0, JSON.stringify(f));
    assert.ok(doc.memory.samples.length >= 2 && doc.memory.samples.every((s) => s.heapUsedMB > 0 && s.nodes > 0), JSON.stringify(doc.memory.samples));
    assert.ok(doc.memory.walks > 0);
  });
});
