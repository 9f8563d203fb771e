import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../support/process.ts";

const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
// The landing page, the bench index and each bench's own README.
const DOCS = ["README.md", ...fs.globSync("bench/**/README.md", { cwd: ROOT })];

describe("bench npm scripts", function () {
  this.timeout(60_000);

  it("are what the READMEs tell to run, and each runs an existing bench", () => {
    for (const name of ["bench:world-load", "bench:publish", "bench:trade", "bench:agents"]) {
      const m = /^node (bench\/\S+\.ts)$/.exec(scripts[name] ?? "");
      assert.ok(m, `package.json has ${name}: ${scripts[name]}`);
      assert.ok(fs.existsSync(path.join(ROOT, m[1]!)), `${m[1]} exists`);
    }
    for (const doc of DOCS) {
      const text = fs.readFileSync(path.join(ROOT, doc), "utf8");
      // `node bench/…` runs the system Node, which may be too old for .ts files.
      assert.doesNotMatch(text, /^node bench\//m, `${doc} runs a bench through npm`);
      for (const [, name] of text.matchAll(/npm run (bench:[\w-]+)/g)) assert.ok(scripts[name!], `${doc} names ${name}, a script of package.json`);
    }
  });

  it("run on the pinned Node even when the system one comes first on PATH, and pass their arguments on", async () => {
    const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "bench:publish", "--", "--players", "7", "--viewers", "3", "--ticks", "4"], {
      cwd: ROOT,
      env: { PATH: `/usr/bin:/bin:${process.env.PATH}`, HOME: process.env.HOME },
    });
    const r = JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
    assert.deepEqual([r.players, r.viewers, r.ticks], [7, 3, 4]);
  });
});
