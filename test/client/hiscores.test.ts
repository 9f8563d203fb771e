/**
 * The Hiscores page in a real browser (Chromium, as the other client tests): from the start
 * screen's footer to `/hiscores`, the overall table and a skill's, and the player's own rank (its
 * characters, through the token the start screen kept).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Browser } from "playwright-core";
import { Character } from "../../entities/index.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { buildClient, createCharacter, launchBrowser, openPage, playAnonymously, screenshot } from "./support.ts";

describe("browser client: the Hiscores page (real Chromium)", function () {
  this.timeout(120_000);
  let t: TestServer;
  let dist: string;
  let browser: Browser;
  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, DISABLE_RATE_LIMIT: "true" });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  it("lists the overall table and a skill's, with the player's own rank, reached from the start screen", async () => {
    const errors: string[] = [];
    const { page } = await openPage(browser, errors);
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Rankhopper");
    await createCharacter(page, "Second Char");
    const rank = await t.server.db.em().fork().findOneOrFail(Character, { name: "Rankhopper" });
    await t.server.db.em().fork().nativeUpdate(Character, { id: rank.id }, { miningLevel: 20, miningXpTenths: 44_700 });

    await page.goto(t.baseUrl + "/");
    await page.getByRole("link", { name: "Hiscores" }).click();
    await page.waitForURL(/\/hiscores$/);
    const table = page.getByRole("table", { name: "Hiscores" });
    await page.getByText("Ranks 1–2 of 2.").waitFor();
    const rows = table.getByRole("row");
    assert.deepEqual(await rows.nth(1).getByRole("cell").allTextContents(), ["1", "Rankhopper", "45", "5,624"]);
    assert.deepEqual(await rows.nth(2).getByRole("cell").allTextContents(), ["2", "Second Char", "26", "1,154"]);
    await page.getByText("Your rank in Overall: Rankhopper: rank 1 (level 45, 5,624 xp); Second Char: rank 2 (level 26, 1,154 xp).").waitFor();

    await page.getByRole("combobox", { name: "Table" }).selectOption({ label: "Mining" });
    await page.getByText("Your rank in Mining: Rankhopper: rank 1 (level 20, 4,470 xp); Second Char: rank 2 (level 1, 0 xp).").waitFor();
    await table.getByRole("cell", { name: "4,470" }).waitFor();
    assert.equal(await page.getByRole("button", { name: "Next" }).isDisabled(), true);
    await screenshot(page, "hiscores");
    assert.deepEqual(errors, []);
  });
});
