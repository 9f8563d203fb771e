import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { KNOWN_MANIFESTS } from "../../src/manifests/catalog.ts";
import { loadContent, type ManifestLoadOptions } from "../../src/manifests/loader.ts";
import { ETAG_FILE } from "../../src/manifests/sync.ts";
import { listManifestFiles, ManifestValidationError } from "../../src/manifests/validate.ts";
import { deadHostUrl, startContentHost, type ContentHost } from "../support/contentHost.ts";
import { BUNDLED_MANIFESTS, FIXTURE_MANIFESTS } from "../support/world.ts";

const logger = pino({ level: "silent" });

function tmpDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A content host serving a copy of our bundled content (so a test may change it). */
async function hostWithBundledContent(): Promise<ContentHost> {
  const root = tmpDir("rsworld-host-");
  fs.cpSync(BUNDLED_MANIFESTS, path.join(root, "manifests"), { recursive: true });
  return startContentHost(path.join(root, "manifests"));
}

function options(dir: string, cdnUrl: string, extra: Partial<ManifestLoadOptions> = {}): ManifestLoadOptions {
  return { dir, cdnUrl, fallbackCdnUrl: undefined, alwaysFetch: true, skip: false, strictReferences: false, logger, ...extra };
}

function mtimes(dir: string): Map<string, number> {
  return new Map(listManifestFiles(dir).map((f) => [f, fs.statSync(path.join(dir, f)).mtimeMs]));
}

const manifestRequests = (host: ContentHost) => host.requests.filter((r) => r.path !== "/manifests/index.json");

describe("manifest loading", () => {
  let host: ContentHost;
  let cache: string;
  beforeEach(async () => {
    host = await hostWithBundledContent();
    cache = path.join(tmpDir("rsworld-cache-"), "assets", "manifests");
  });
  afterEach(async () => {
    await host.close();
    fs.rmSync(path.dirname(path.dirname(cache)), { recursive: true, force: true });
    fs.rmSync(path.dirname(host.dir), { recursive: true, force: true });
  });

  describe("in production and CI (always fetch)", () => {
    it("fetches every manifest the host has into an empty cache, and keeps their ETags", async () => {
      const loaded = await loadContent(options(cache, host.url));
      assert.equal(loaded.sync.action, "fetched");
      assert.deepEqual(listManifestFiles(cache), listManifestFiles(host.dir));
      for (const f of listManifestFiles(host.dir)) {
        assert.ok(fs.readFileSync(path.join(cache, f)).equals(fs.readFileSync(path.join(host.dir, f))), f);
      }
      const etags = JSON.parse(fs.readFileSync(path.join(cache, ETAG_FILE), "utf8")) as Record<string, string>;
      assert.equal(Object.keys(etags).length, listManifestFiles(host.dir).length);
      assert.ok(loaded.registry.items.size > 0);
      assert.deepEqual(
        fs.readdirSync(cache).filter((f) => f.includes(".tmp-")),
        [],
        "no temporary files left",
      );
    });

    it("asks with If-None-Match the next time, gets 304 and rewrites nothing", async () => {
      await loadContent(options(cache, host.url));
      const before = mtimes(cache);
      host.requests.length = 0;
      await new Promise((r) => setTimeout(r, 20));
      const loaded = await loadContent(options(cache, host.url));
      assert.equal(loaded.sync.action, "fetched");
      const served = manifestRequests(host).filter((r) => r.status !== 404);
      assert.ok(served.length > 0);
      assert.ok(
        served.every((r) => r.status === 304 && r.ifNoneMatch !== undefined),
        JSON.stringify(served.slice(0, 3)),
      );
      assert.deepEqual(mtimes(cache), before, "no file rewritten");
    });

    it("rewrites only the file whose content changed on the host", async () => {
      await loadContent(options(cache, host.url));
      const before = mtimes(cache);
      const food = path.join(host.dir, "items", "food.json");
      const items = JSON.parse(fs.readFileSync(food, "utf8")) as { name: string }[];
      items[0]!.name = "Freshly Renamed Loaf";
      fs.writeFileSync(food, JSON.stringify(items, null, 2));
      await new Promise((r) => setTimeout(r, 20));
      const loaded = await loadContent(options(cache, host.url));
      assert.equal(loaded.sync.action, "fetched");
      if (loaded.sync.action === "fetched") assert.deepEqual(loaded.sync.report.updated, ["items/food.json"]);
      const after = mtimes(cache);
      for (const [f, t] of before) {
        if (f === "items/food.json") assert.notEqual(after.get(f), t);
        else assert.equal(after.get(f), t, `${f} untouched`);
      }
      assert.ok([...loaded.registry.items.values()].some((i) => i.name === "Freshly Renamed Loaf"));
    });

    it("keeps using the cache when the host is unreachable", async () => {
      await loadContent(options(cache, host.url));
      const before = mtimes(cache);
      const loaded = await loadContent(options(cache, await deadHostUrl()));
      assert.equal(loaded.sync.action, "unreachable");
      assert.deepEqual(mtimes(cache), before);
      assert.ok(loaded.registry.items.size > 0, "content comes from the cache");
    });

    it("refuses to start with no cache and no host", async () => {
      await assert.rejects(loadContent(options(cache, await deadHostUrl())), ManifestValidationError);
    });

    it("also fetches the files a host lists in manifests/index.json", async () => {
      fs.writeFileSync(path.join(host.dir, "extra-notes.json"), '{"hello": "world"}');
      fs.writeFileSync(path.join(host.dir, "index.json"), JSON.stringify({ files: ["extra-notes.json", "../escape.json"] }));
      await loadContent(options(cache, host.url));
      assert.equal(fs.readFileSync(path.join(cache, "extra-notes.json"), "utf8"), '{"hello": "world"}');
      assert.ok(!host.requests.some((r) => r.path.includes("escape")), "unsafe index entries are not requested");
      assert.ok(
        KNOWN_MANIFESTS.every((f) => host.requests.some((r) => r.path === `/manifests/${f}`)),
        "the built-in list is asked for",
      );
    });
  });

  describe("in development", () => {
    it("does not fetch when the manifests are already cached", async () => {
      fs.cpSync(BUNDLED_MANIFESTS, cache, { recursive: true });
      host.requests.length = 0;
      const loaded = await loadContent(options(cache, host.url, { alwaysFetch: false }));
      assert.equal(loaded.sync.action, "skipped");
      assert.equal(host.requests.length, 0);
    });

    it("fetches when there are no manifests", async () => {
      const loaded = await loadContent(options(cache, host.url, { alwaysFetch: false }));
      assert.equal(loaded.sync.action, "fetched");
      assert.ok(fs.existsSync(path.join(cache, "npcs.json")));
    });

    it("bootstraps from the production host when the local host is down and required manifests are missing", async () => {
      const loaded = await loadContent(options(cache, await deadHostUrl(), { alwaysFetch: false, fallbackCdnUrl: host.url }));
      assert.equal(loaded.sync.action, "fetched");
      if (loaded.sync.action === "fetched") assert.equal(loaded.sync.from, host.url);
      assert.ok(fs.existsSync(path.join(cache, "world-areas.json")));
    });

    it("accepts either items.json or the split item files as the required items", async () => {
      const all = listManifestFiles(host.dir)
        .filter((f) => f.startsWith("items/"))
        .flatMap((f) => JSON.parse(fs.readFileSync(path.join(host.dir, f), "utf8")) as unknown[]);
      fs.rmSync(path.join(host.dir, "items"), { recursive: true });
      fs.writeFileSync(path.join(host.dir, "items.json"), JSON.stringify(all));
      const loaded = await loadContent(options(cache, host.url, { alwaysFetch: false }));
      assert.equal(loaded.registry.items.size, all.length);
      // Now present locally: a second start needs no fetch.
      host.requests.length = 0;
      assert.equal((await loadContent(options(cache, host.url, { alwaysFetch: false }))).sync.action, "skipped");
    });
  });

  describe("with SKIP_MANIFESTS=true", () => {
    it("neither fetches nor fails on invalid files, and leaves them out", async () => {
      fs.cpSync(BUNDLED_MANIFESTS, cache, { recursive: true });
      fs.writeFileSync(path.join(cache, "stores.json"), "{ not json");
      host.requests.length = 0;
      const loaded = await loadContent(options(cache, host.url, { skip: true }));
      assert.equal(loaded.sync.action, "skipped");
      assert.equal(host.requests.length, 0);
      assert.equal(loaded.registry.stores.size, 0);
      assert.ok(loaded.warnings.some((w) => w.file === "stores.json"));
    });

    it("starts with no manifests at all", async () => {
      const loaded = await loadContent(options(cache, await deadHostUrl(), { skip: true }));
      assert.equal(loaded.registry.items.size, 0);
    });
  });
});

describe("manifest validation", () => {
  let dir: string;
  beforeEach(() => {
    dir = tmpDir("rsworld-valid-");
    fs.cpSync(BUNDLED_MANIFESTS, dir, { recursive: true });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const load = (extra: Partial<ManifestLoadOptions> = {}) => loadContent(options(dir, "http://unused.invalid", { alwaysFetch: false, ...extra }));
  const edit = (file: string, change: (json: unknown) => void) => {
    const full = path.join(dir, file);
    const json: unknown = JSON.parse(fs.readFileSync(full, "utf8"));
    change(json);
    fs.writeFileSync(full, JSON.stringify(json));
  };

  it("loads our bundled content with no problems at all", async () => {
    const loaded = await load({ strictReferences: true });
    assert.deepEqual(loaded.warnings, []);
  });

  it("loads the real public set with no errors; its genuine dangling references are warnings", async function () {
    if (!fs.existsSync(FIXTURE_MANIFESTS)) this.skip();
    const loaded = await loadContent(options(FIXTURE_MANIFESTS, "http://unused.invalid", { alwaysFetch: false }));
    assert.ok(loaded.registry.items.size >= 150);
    assert.ok(loaded.registry.resources.size >= 20);
    assert.ok(loaded.warnings.length > 0);
    // …and its quests, whose NPCs no area places (src/manifests/questContent.ts).
    assert.ok(
      loaded.warnings.every((w) => /^unknown item "/.test(w.message) || (w.file === "quests.json" && /^unknown NPC "/.test(w.message))),
      JSON.stringify(loaded.warnings.slice(0, 3)),
    );
    // Nothing dangling reaches the game: every kept recipe names only known items.
    for (const r of loaded.registry.recipes.fletching) assert.ok(loaded.registry.items.has(r.output));
  });

  it("names the file, the JSON path and the problem for a wrong type", async () => {
    edit("items/food.json", (json) => ((json as { healAmount: unknown }[])[0]!.healAmount = "lots"));
    const err = await load().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ManifestValidationError);
    assert.equal(err.problems.length, 1);
    assert.deepEqual({ file: err.problems[0]!.file, path: err.problems[0]!.path }, { file: "items/food.json", path: "$[0].healAmount" });
    assert.match(err.message, /items\/food\.json \$\[0\]\.healAmount: .*number/);
  });

  it("names a file that is not JSON", async () => {
    fs.writeFileSync(path.join(dir, "npcs.json"), '[{"id": "x",');
    const err = await load().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ManifestValidationError);
    assert.match(err.message, /npcs\.json \$: not valid JSON/);
  });

  it("lists every problem at once", async () => {
    edit("stores.json", (json) => ((json as { items: { price: unknown }[] }[])[0]!.items[0]!.price = -5));
    edit("gathering/mining.json", (json) => ((json as { rocks: { levelRequired: unknown }[] }).rocks[0]!.levelRequired = 0));
    const err = (await load().then(
      () => undefined,
      (e: unknown) => e,
    )) as ManifestValidationError;
    assert.deepEqual(err.problems.map((p) => `${p.file} ${p.path}`).sort(), [
      "gathering/mining.json $.rocks[0].levelRequired",
      "stores.json $[0].items[0].price",
    ]);
  });

  it("reports a missing required manifest", async () => {
    fs.rmSync(path.join(dir, "world-areas.json"));
    const err = (await load().then(
      () => undefined,
      (e: unknown) => e,
    )) as ManifestValidationError;
    assert.ok(err.problems.some((p) => p.file === "world-areas.json" && /required/.test(p.message)));
  });

  it("treats a dangling item reference as a warning and keeps it from the game", async () => {
    edit("stores.json", (json) => ((json as { items: { itemId: string }[] }[])[0]!.items[0]!.itemId = "no_such_item"));
    const loaded = await load();
    assert.deepEqual(
      loaded.warnings.map((w) => `${w.file} ${w.path}: ${w.message}`),
      ['stores.json $[0].items[0].itemId: unknown item "no_such_item"'],
    );
    for (const store of loaded.registry.stores.values()) assert.ok(store.items.every((i) => i.itemId !== "no_such_item"));
  });

  it("refuses dangling references with MANIFESTS_STRICT", async () => {
    edit("npcs.json", (json) => {
      const npc = (json as { drops?: { common: { itemId: string }[] } }[]).find((n) => (n.drops?.common.length ?? 0) > 0)!;
      npc.drops!.common[0]!.itemId = "ghost_item";
    });
    await assert.rejects(load({ strictReferences: true }), /npcs\.json \$\[\d+\]\.drops\.common\[0\]\.itemId: unknown item "ghost_item"/);
  });

  for (const [what, file, change] of [
    [
      "a gathering yield",
      "gathering/woodcutting.json",
      (j: unknown) => ((j as { trees: { harvestYield: { itemId: string }[] }[] }).trees[0]!.harvestYield[0]!.itemId = "nope"),
    ],
    ["a recipe", "recipes/cooking.json", (j: unknown) => ((j as { recipes: { cooked: string }[] }).recipes[0]!.cooked = "nope")],
    ["the starter kit", "world-config.json", (j: unknown) => ((j as { game: { starterKit: { itemId: string }[] } }).game.starterKit[0]!.itemId = "nope")],
  ] as const) {
    it(`checks the item ids of ${what}`, async () => {
      edit(file, change);
      const loaded = await load();
      const own = loaded.warnings.filter((w) => w.file === file);
      assert.equal(own.length, 1);
      assert.match(own[0]!.message, /unknown item "nope"/);
      // A node left with no yield is dropped, so the areas placing it are reported too.
      const rest = loaded.warnings.filter((w) => w.file !== file);
      assert.ok(
        rest.every((w) => w.file === "world-areas.json" && /unknown resource/.test(w.message)),
        JSON.stringify(rest),
      );
    });
  }
});
