/**
 * What the playtest of session 29 by a player of the genre found (docs/playtest.md "Playtest
 * 2026-11-29 (session 29)"), in a real browser (see support.ts) against a real server serving a
 * fresh build: the Equipment tab lists the worn items' bonuses, as the genre's Equipment Stats do,
 * so that a player who puts on a platebody sees what it gives.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Player } from "../../src/game/world/Player.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import {
  artifacts,
  buildClient,
  createCharacter,
  enterWorld,
  launchBrowser,
  livePlayer,
  lowContrastTexts,
  openPage,
  playAnonymously,
  screenshot,
} from "./support.ts";

describe("browser client: what the playtest of session 29 found (real Chromium)", function () {
  this.timeout(240_000);
  let t: TestServer;
  let browser: Browser;
  let dist: string;
  const pageErrors: string[] = [];
  let context: BrowserContext;
  let page: Page;
  let me: Player;

  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "100" });
    browser = await launchBrowser();
    ({ context, page } = await openPage(browser, pageErrors));
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Wulfric");
    await enterWorld(page, "Wulfric");
    me = await livePlayer(t, "Wulfric");
  });

  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    const name = `playtest29-failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, "-")}`;
    await screenshot(page, name).catch(() => {});
    fs.mkdirSync(artifacts, { recursive: true });
    fs.writeFileSync(`${artifacts}/${name}-errors.txt`, [`test: ${this.currentTest.err?.message ?? ""}`, ...pageErrors].join("\n"));
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  it("lists the worn items' attack and defence bonuses in the Equipment tab, as the genre's Equipment Stats", async () => {
    const stats = page.getByRole("table", { name: "Equipment stats" });
    const rows = async () => (await stats.locator("tbody tr").allInnerTexts()).map((r) => r.split(/\s+/).join(" "));
    await page.getByRole("tab", { name: "Equipment" }).click();
    assert.deepEqual(await rows(), ["Attack 0 0 0 0 0", "Defence 0 0 0 0 0"], "nothing worn: no bonuses");

    // A bronze sword, platebody and kiteshield bought (given here between two ticks) and worn from the Inventory.
    const kit = ["bronze_sword", "bronze_platebody", "bronze_kiteshield"];
    await new Promise<void>((resolve) =>
      t.server.world.world.enqueueCommand(me.id, (p) => {
        kit.forEach((itemId, i) => (p.data.inventory[20 + i] = { itemId, quantity: 1 }));
        p.syncDue = true;
        resolve();
      }),
    );
    await page.getByRole("tab", { name: "Inventory" }).click();
    const inventory = page.getByRole("tabpanel", { name: "Inventory" });
    for (const name of ["Bronze sword", "Bronze platebody", "Bronze kiteshield"]) await inventory.getByRole("button", { name, exact: true }).click();
    await until(() => (kit.every((id) => Object.values(me.data.equipment).some((w) => w.itemId === id)) ? true : undefined), "all three worn");

    await page.getByRole("tab", { name: "Equipment" }).click();
    await page.getByRole("tabpanel", { name: "Equipment" }).getByText("Bronze platebody").waitFor();
    // The manifests' bonuses summed (items/weapons.json, items/armor.json): the sword's generic attack 5
    // counts for stab, slash and crush; platebody and kiteshield: defence stab 14 + 6, slash 13 + 8,
    // crush 9 + 7, magic -5 - 1, ranged 13 + 7; attack magic -28 - 7, ranged -12 - 2.
    assert.deepEqual(await stats.locator("thead th").allInnerTexts(), ["Bonus", "Stab", "Slash", "Crush", "Magic", "Ranged"]);
    assert.deepEqual(await rows(), ["Attack +5 +5 +5 -35 -14", "Defence +20 +21 +16 -6 +20"]);
    await page.getByText("Melee strength +4 · Ranged strength 0 · Prayer 0").waitFor();
    assert.deepEqual(await lowContrastTexts(page, "#equipment"), [], "the stats are legible");
    // Below the eleven slots, in the tab's own scroll.
    await stats.scrollIntoViewIfNeeded();
    assert.ok(await stats.isVisible(), "scrolled to, the table shows");
    await screenshot(page, "playtest29-equipment-stats");
    assert.deepEqual(pageErrors, []);
  });
});
