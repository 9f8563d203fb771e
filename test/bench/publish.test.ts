import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const RUN = path.resolve(import.meta.dirname, "..", "..", "bench", "publish", "run.ts");

describe("bench/publish (smoke)", function () {
  this.timeout(60_000);

  it("walks players, publishes /ws frames to the viewers and reports times and bytes", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [RUN, "--players", "60", "--viewers", "20", "--ticks", "30"]);
    const r = JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
    assert.equal(r.players, 60);
    assert.equal(r.viewers, 20);
    assert.equal(r.ticks, 30);
    for (const k of ["stepP50Ms", "publishP50Ms", "publishP99Ms"]) assert.ok(Number(r[k]) > 0, `${k} = ${String(r[k])}`);
    assert.ok(Number(r.bytesPerViewerPerTick) > 0, "frames were published");
  });
});
