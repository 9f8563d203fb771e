/**
 * Issue #45: only the results files that a bench page cites stay committed. A run of record is
 * named in a current table or a history file (bench/<name>/README.md, bench/<name>/history/…);
 * anything else is a leftover that tells a reader nothing.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../support/process.ts";

/** The committed results files, from git (an ignored results-latest.json is no one's business). */
function committedResults(): string[] {
  const out = execFileSync("git", ["ls-files", "bench"], { cwd: ROOT, encoding: "utf8" });
  return out.split("\n").filter((f) => /(^|\/)results[^/]*\.json$/.test(f));
}

/** Every bench page's text, by path. */
function benchPages(): Map<string, string> {
  const pages = fs.globSync("bench/**/*.md", { cwd: ROOT }).filter((p) => !p.includes("node_modules"));
  return new Map(pages.map((p) => [p, fs.readFileSync(path.join(ROOT, p), "utf8")]));
}

/** The results files no bench page names: by file name in a page of their bench, or as `<bench>/<file>` anywhere under bench/. */
export function uncited(results: string[], pages: Map<string, string>): string[] {
  return results.filter((file) => {
    const name = path.basename(file);
    const bench = file.split("/")[1]!;
    return ![...pages].some(([page, text]) => (page.startsWith(`bench/${bench}/`) && text.includes(name)) || text.includes(`${bench}/${name}`));
  });
}

describe("committed benchmark results", () => {
  it("finds the committed results files", () => {
    assert.ok(committedResults().length > 10);
  });

  it("catches a results file that no page cites", () => {
    const pages = new Map([
      ["bench/a/README.md", "see results-one.json"],
      ["bench/c/README.md", "as a/results-three.json shows"],
    ]);
    const files = ["bench/a/results-one.json", "bench/a/results-two.json", "bench/a/results-three.json", "bench/b/results-one.json"];
    assert.deepEqual(uncited(files, pages), ["bench/a/results-two.json", "bench/b/results-one.json"]);
  });

  it("are each cited by a page of their bench, or by bench/name anywhere under bench/", () => {
    assert.deepEqual(uncited(committedResults(), benchPages()), [], "cite it in the bench's README or history, or delete it");
  });
});
