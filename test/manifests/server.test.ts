import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ItemDefinition } from "../../entities/index.ts";
import { startContentHost, type ContentHost } from "../support/contentHost.ts";
import { forEachDialect } from "../support/dialects.ts";
import { runToExit } from "../support/process.ts";
import { startTestServer } from "../support/server.ts";
import { BUNDLED_MANIFESTS, makeWorldDir } from "../support/world.ts";

const PROD = { NODE_ENV: "production", JWT_SECRET: "j".repeat(32), ADMIN_CODE: "admin-code-0123", PUBLIC_IDP_APP_ID: "a", IDP_APP_SECRET: "s" };

describe("content at server startup", function () {
  this.timeout(30_000);

  it("fetches the manifests from PUBLIC_CDN_URL in CI and serves them", async () => {
    const host: ContentHost = await startContentHost(BUNDLED_MANIFESTS);
    try {
      const t = await startTestServer({ CI: "true", PUBLIC_CDN_URL: host.url }, "none");
      try {
        assert.ok(host.requests.some((r) => r.path === "/manifests/npcs.json" && r.status === 200));
        assert.ok(t.server.content.items.size > 0);
        assert.equal((await fetch(`${t.baseUrl}/manifests/npcs.json`)).status, 200);
      } finally {
        await t.close();
      }
    } finally {
      await host.close();
    }
  });

  it("refuses to start in production with an invalid manifest, naming file, path and problem", async () => {
    const world = makeWorldDir();
    try {
      const file = path.join(world, "assets", "manifests", "items", "weapons.json");
      const weapons = JSON.parse(fs.readFileSync(file, "utf8")) as { value: unknown }[];
      weapons[2]!.value = -1;
      fs.writeFileSync(file, JSON.stringify(weapons));
      const r = await runToExit({ ...PROD, WORLD: world, DATABASE_URL: `sqlite:${path.join(world, "db.sqlite")}`, PUBLIC_CDN_URL: "http://127.0.0.1:9" });
      assert.equal(r.code, 65);
      assert.match(r.stderr, /refusing to start/);
      assert.match(r.stderr, /items\/weapons\.json \$\[2\]\.value: /);
    } finally {
      fs.rmSync(world, { recursive: true, force: true });
    }
  });
});

forEachDialect("the items table", (db) => {
  it("mirrors every item definition of the content at startup, and again after a content change", async () => {
    const t = await startTestServer({ DATABASE_URL: db.url });
    try {
      const rows = await t.server.db.em().find(ItemDefinition, {});
      assert.equal(rows.length, t.server.content.items.size);
      const coins = rows.find((r) => r.id === "coins")!;
      assert.equal(coins.stackable, true);
      assert.equal(coins.name, t.server.content.item("coins")!.name);
    } finally {
      await t.close();
    }
    // The content changes between the two starts: coins renamed and revalued, one item added.
    const changed = makeWorldDir("bundled");
    const miscFile = path.join(changed, "assets", "manifests", "items", "misc.json");
    const misc = JSON.parse(fs.readFileSync(miscFile, "utf8")) as { id: string; name: string; value: number }[];
    const coinsDef = misc.find((i) => i.id === "coins")!;
    misc.push({ ...coinsDef, id: "test_medal", name: "Test Medal", value: 77 });
    Object.assign(coinsDef, { name: "Gold Pieces", value: 2 });
    fs.writeFileSync(miscFile, JSON.stringify(misc));
    const t2 = await startTestServer({ DATABASE_URL: db.url }, "bundled", changed);
    try {
      const before = t.server.content.items.size;
      assert.equal(t2.server.content.items.size, before + 1, "the changed content has one more item");
      assert.equal(await t2.server.db.em().count(ItemDefinition, {}), before + 1, "the new item added, nothing duplicated");
      const coins = await t2.server.db.em().findOneOrFail(ItemDefinition, { id: "coins" });
      assert.deepEqual([coins.name, coins.value], ["Gold Pieces", 2], "the changed definition replaces the old one");
      const medal = await t2.server.db.em().findOneOrFail(ItemDefinition, { id: "test_medal" });
      assert.deepEqual([medal.name, medal.value], ["Test Medal", 77]);
    } finally {
      await t2.close();
      fs.rmSync(changed, { recursive: true, force: true });
    }
  });
});
