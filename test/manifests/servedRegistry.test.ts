/**
 * The browser client and the agent runtime build their registry from the raw files the server
 * serves (client/src/content.ts, agent-runtime/knowledge.ts), through `applySchemas`: it must come
 * out as the server's, for our content and for the public set (whose fletching recipes, like ours,
 * leave out `consumables`, which only the schema's default fills in).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { applySchemas } from "../../src/manifests/catalog.ts";
import { loadContent } from "../../src/manifests/loader.ts";
import { buildRegistry, type ContentRegistry } from "../../src/manifests/registry.ts";
import { listManifestFiles } from "../../src/manifests/validate.ts";
import { BUNDLED_MANIFESTS, FIXTURE_MANIFESTS } from "../support/world.ts";

const summary = (r: ContentRegistry) => ({
  items: [...r.items.keys()],
  npcs: [...r.npcs.keys()],
  stores: [...r.stores.keys()],
  stations: r.stations.map((s) => s.type),
  resources: [...r.resources.keys()],
  recipes: Object.fromEntries(Object.entries(r.recipes).map(([kind, list]) => [kind, (list as unknown[]).length])),
  fletching: r.recipes.fletching,
  crafting: r.recipes.crafting,
  areas: r.areas.map((a) => `${a.id}: ${a.npcs.length} npcs, ${a.stations.length} stations, ${a.resources.length} resources`),
});

for (const [name, dir] of [
  ["the default world", BUNDLED_MANIFESTS],
  ["the public content set", FIXTURE_MANIFESTS],
] as const) {
  describe(`the registry built from ${name}'s served files`, () => {
    it("is the server's", async () => {
      const server = (
        await loadContent({
          dir,
          cdnUrl: "http://unused.invalid",
          fallbackCdnUrl: undefined,
          alwaysFetch: false,
          skip: false,
          strictReferences: false,
          logger: pino({ level: "silent" }),
        })
      ).registry;
      const raw = new Map<string, unknown>(listManifestFiles(dir).map((f) => [f, JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as unknown]));
      const served = buildRegistry(applySchemas(raw)).registry;
      assert.deepEqual(summary(served), summary(server));
      assert.ok(served.recipes.fletching.every((r) => Array.isArray(r.consumables)));
    });
  });
}
