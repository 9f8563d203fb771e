import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { launchBrowser, openPage, screenshot } from "../client/support.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("the API reference page at /api/reference", function () {
  this.timeout(90_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it("is a page whose every script and style this server serves (no CDN)", async () => {
    const res = await fetch(`${t.baseUrl}/api/reference`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.includes("/api/reference/swagger-ui-bundle.js"), html);
    for (const asset of assets) {
      assert.ok(asset.startsWith("/"), `${asset} is served by this server`);
      const a = await fetch(`${t.baseUrl}${asset}`);
      assert.equal(a.status, 200, asset);
      await a.arrayBuffer();
    }
    const init = await (await fetch(`${t.baseUrl}/api/reference/init.js`)).text();
    assert.match(init, /url: "\/api\/openapi\.json"/);
  });

  it("serves only the renderer's own files under its path", async () => {
    for (const file of ["package.json", "swagger-initializer.js", "..%2Fpackage.json"]) {
      const res = await fetch(`${t.baseUrl}/api/reference/${file}`);
      assert.equal(res.status, 404, file);
      assert.equal((await res.json()).success, false);
    }
  });

  describe("in Chromium", () => {
    let browser: Browser;
    before(async () => {
      browser = await launchBrowser();
    });
    after(() => browser.close());

    it("renders the server's routes from /api/openapi.json", async () => {
      const errors: string[] = [];
      const { context, page } = await openPage(browser, errors);
      try {
        await page.goto(`${t.baseUrl}/api/reference`);
        const player = page.locator(".opblock-summary-path", { hasText: /^\/api\/v1\/player$/ }).first();
        await player.waitFor({ timeout: 30_000 });
        assert.ok((await page.locator(".opblock").count()) >= 30, "every operation is listed");
        await screenshot(page, "api-reference");
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  });
});
