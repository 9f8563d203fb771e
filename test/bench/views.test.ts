import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const RUN = path.resolve(import.meta.dirname, "..", "..", "bench", "views", "run.ts");
const run = async (args: string[]) => {
  const { stdout } = await promisify(execFile)(process.execPath, [RUN, ...args]);
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
};

describe("bench/views (smoke)", function () {
  this.timeout(60_000);

  it("walks players, changes the Colyseus views and encodes their patches, the same bytes with the library's own views and encoder", async () => {
    const args = ["--players", "80", "--views", "30", "--ticks", "30"];
    const ours = await run(args);
    const library = await run([...args, "--library"]);
    assert.equal(ours.players, 80);
    assert.equal(ours.views, 30);
    assert.equal(library.library, true);
    for (const k of ["interestMsP50", "viewChangesMsP50", "patchMsP50"]) assert.ok(Number(ours[k]) > 0, `${k} = ${String(ours[k])}`);
    assert.ok(Number(ours.enteredPerTick) > 0, "views changed");
    assert.ok(Number(ours.patchBytesPerTick) > 0);
    assert.equal(ours.patchBytesPerTick, library.patchBytesPerTick, "the same patches");
    assert.equal(ours.enteredPerTick, library.enteredPerTick);
  });

  it("refuses bad sizes, with its usage", async () => {
    await assert.rejects(run(["--players", "10", "--views", "20"]), /usage/);
  });
});
