/**
 * The Hiscores page in a real browser (Chromium, as the other client tests): from the start
 * screen's footer to `/hiscores`, the overall table and a skill's, and the player's own rank (its
 * characters, through the token the start screen kept); Find turns the table to the page with
 * the character's row, marked and focused; Look up finds any player by name, the same way.
 */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { Character } from "../../entities/index.ts";
import type { TestServer } from "../support/server.ts";
import { eventually } from "../support/until.ts";
import { createCharacter, openPage, playAnonymously, screenshot, startBrowserStage, type BrowserStage } from "./support.ts";

describe("browser client: the Hiscores page (real Chromium)", function () {
  this.timeout(120_000);
  let stage: BrowserStage;
  let t: TestServer;
  let browser: Browser;
  before(async () => {
    stage = await startBrowserStage({ DISABLE_RATE_LIMIT: "true" });
    ({ t, browser } = stage);
  });
  after(async () => {
    await stage?.close();
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

  it("finds the player's own row on a later page (Find), marked as the current row and focused", async () => {
    // Thirty others, each above the seeker: six accounts of five characters (the most one may have).
    const post = async (path: string, token?: string, body?: object) => {
      const res = await fetch(t.baseUrl + path, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body ?? {}),
      });
      const text = await res.text();
      assert.ok(res.ok, `${path}: ${res.status} ${text}`);
      return JSON.parse(text) as { token: string };
    };
    for (let a = 0; a < 6; a++) {
      const { token } = await post("/api/auth/anonymous");
      for (let c = 0; c < 5; c++) await post("/api/character", token, { name: `Climber ${String.fromCharCode(65 + a)}${String.fromCharCode(65 + c)}` });
    }
    await t.server.db
      .em()
      .fork()
      .nativeUpdate(Character, { name: { $like: "Climber %" } }, { miningLevel: 30, miningXpTenths: 134_000 });

    const errors: string[] = [];
    const { page } = await openPage(browser, errors);
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Seeker");
    const table = page.getByRole("table", { name: "Hiscores" });
    // The server keeps an answer a few seconds (HISCORES_CACHE_MS): the page is loaded until it has everyone.
    await eventually(async () => {
      await page.goto(t.baseUrl + "/hiscores");
      return (await page.getByText("Ranks 1–25 of 33.").count()) > 0 || undefined;
    }, "the table of all 33");
    assert.equal(await table.getByRole("cell", { name: "Seeker", exact: true }).count(), 0, "not on the first page");

    await page.getByRole("group", { name: "Find your characters" }).getByRole("button", { name: "Find Seeker" }).click();
    await page.getByText("Ranks 26–33 of 33.").waitFor();
    const row = table.locator('tr[aria-current="true"]');
    assert.equal(await row.count(), 1);
    assert.equal(await row.getByRole("cell").nth(1).textContent(), "Seeker");
    assert.equal(await row.evaluate((tr) => tr === document.activeElement), true, "the row is focused");
    const rank = Number(await row.getByRole("cell").first().textContent());
    await page.getByText(`Your rank in Overall: Seeker: rank ${rank} (`).waitFor();
    assert.ok(rank > 25);
    await screenshot(page, "hiscores-find");
    assert.deepEqual(errors, []);
  });

  it("looks up any player by name (Look up): its rank in the table shown, the table turned to its row; none found, said so", async () => {
    const errors: string[] = [];
    // Seeker and the thirty above it are the previous test's. A fresh browser without a token: its own ranks cannot help it.
    const { page } = await openPage(browser, errors);
    await page.goto(t.baseUrl + "/hiscores");
    await page.getByText(/^Ranks 1–25 of \d+\.$/).waitFor();
    const search = page.getByRole("search", { name: "Look up a player" });
    await search.getByRole("searchbox", { name: "Player" }).fill("seeker");
    await search.getByRole("button", { name: "Look up" }).click();
    const table = page.getByRole("table", { name: "Hiscores" });
    const row = table.locator('tr[aria-current="true"]');
    await row.waitFor();
    assert.equal(await row.getByRole("cell").nth(1).textContent(), "Seeker");
    assert.equal(await row.evaluate((tr) => tr === document.activeElement), true, "the row is focused");
    const rank = Number(await row.getByRole("cell").first().textContent());
    assert.ok(rank > 25, `rank ${rank}: on a later page`);
    await page.getByText(new RegExp(`^Seeker in Overall: rank ${rank} \\(level \\d+, [\\d,]+ xp\\)\\.$`)).waitFor();
    // Another table: its rank there.
    await page.getByRole("combobox", { name: "Table" }).selectOption({ label: "Mining" });
    await page.getByText(/^Seeker in Mining: rank \d+ \(level 1, 0 xp\)\.$/).waitFor();

    await search.getByRole("searchbox", { name: "Player" }).fill("Nobody At All");
    await search.getByRole("button", { name: "Look up" }).click();
    await page.getByText("No player is named Nobody At All.").waitFor();
    await screenshot(page, "hiscores-lookup");
    // The 404 of the name looked up is the answer, which the browser logs as a failed request.
    assert.deepEqual(
      errors.filter((e) => !(e.includes("404") && e.includes("/api/v1/hiscores/player/"))),
      [],
    );
  });
});
