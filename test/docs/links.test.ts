/**
 * Every relative link in the project's Markdown (README.md, docs/, bench/) reaches a file that
 * exists, and every `#anchor` a heading of that file (GitHub's slugs), so moving or renaming a page
 * or a heading cannot leave a dead link behind.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../support/process.ts";
import { brokenLinks, headingSlugs } from "../support/markdownLinks.ts";

const pages = fs
  .globSync(["*.md", "docs/**/*.md", "bench/**/*.md", "client/**/*.md", "agent-runtime/**/*.md"], { cwd: ROOT })
  .filter((p) => !p.includes("node_modules"))
  .sort();

describe("documentation links", () => {
  it("finds the pages it checks", () => {
    assert.ok(pages.includes("README.md"));
    assert.ok(pages.includes(path.join("bench", "README.md")));
  });

  it("slugs headings as GitHub does", () => {
    const slugs = headingSlugs("# The world (real time)\n## `/ws`: many sessions\n## Tests\n## Tests\n```sh\n# not a heading\n```\n");
    assert.deepEqual([...slugs], ["the-world-real-time", "ws-many-sessions", "tests", "tests-1"]);
  });

  it("catches a dead file and a dead anchor", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "links-"));
    try {
      fs.writeFileSync(path.join(dir, "a.md"), "# A\n[ok](b.md#bee) [gone](missing.md) [bad](b.md#nope) [self](#a) [web](https://example.com/x)\n");
      fs.writeFileSync(path.join(dir, "b.md"), "# Bee\n");
      const found = brokenLinks(path.join(dir, "a.md")).map((b) => b.target);
      assert.deepEqual(found, ["missing.md", "b.md#nope"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const page of pages) {
    it(`${page} has no dead relative link`, () => {
      const broken = brokenLinks(path.join(ROOT, page));
      assert.deepEqual(
        broken.map((b) => `${b.line}: ${b.target} (${b.why})`),
        [],
      );
    });
  }
});
