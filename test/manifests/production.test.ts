import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { pino } from "pino";
import { loadContent } from "../../src/manifests/loader.ts";
import { BUNDLED_MANIFESTS, FIXTURE_MANIFESTS } from "../support/world.ts";

async function load(dir: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split("\n")) if (l.trim() !== "") lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const loaded = await loadContent({
    dir,
    cdnUrl: "http://unused.invalid",
    fallbackCdnUrl: undefined,
    alwaysFetch: false,
    skip: false,
    strictReferences: false,
    logger: pino({ level: "info" }, sink),
  });
  return { ...loaded, lines };
}

describe("the production catalogue at startup", () => {
  it("lists every recipe of the real set it cannot support, one line each, and keeps it to refuse by name", async () => {
    const { registry, warnings, lines } = await load(FIXTURE_MANIFESTS);
    const unsupported = [...registry.production.values()].filter((r) => r.unsupported !== undefined);
    assert.equal(registry.production.size, 113);
    assert.equal(unsupported.length, 113 - 43);
    const listed = lines.filter((l) => typeof l.msg === "string" && l.msg.startsWith("unsupported recipe ")).map((l) => l.recipe);
    assert.deepEqual(
      listed,
      unsupported.map((r) => r.id),
      "one startup line per unsupported recipe",
    );
    for (const r of unsupported) assert.match(r.unsupported!, /^unknown item "/, `${r.id}: the real set's gaps are items`);
    // Among the reference warnings too, once each (file and recipe index).
    const recipeWarnings = warnings.filter((w) => w.file.startsWith("recipes/")).map((w) => `${w.file} ${w.path}`);
    assert.equal(recipeWarnings.length, unsupported.length);
    assert.equal(new Set(recipeWarnings).size, recipeWarnings.length);
    assert.ok(recipeWarnings.includes("recipes/tanning.json $.recipes[0]") && recipeWarnings.includes("recipes/runecrafting.json $.recipes[0]"));
    // Ids are unique even where recipes share an output.
    assert.ok(registry.production.has("fletching:arrow_shaft") && registry.production.has("fletching:arrow_shaft:oak_logs"));
  });

  it("finds nothing to report in the default world", async () => {
    const { lines } = await load(BUNDLED_MANIFESTS);
    assert.deepEqual(
      lines.filter((l) => String(l.msg).startsWith("unsupported recipe ")),
      [],
    );
  });
});
