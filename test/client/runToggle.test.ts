/**
 * The run toggle in a real browser (see support.ts), against a real server serving a fresh build:
 * the HUD's "Run (N% energy)" button, pressed, makes a walk run (the energy it shows drops), and
 * below 1 % the server's refusal shows in the chat while the button stays unpressed.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import {
  buildClient,
  clickTile,
  createCharacter,
  enterWorld,
  launchBrowser,
  livePlayer,
  lowContrastTexts,
  openPage,
  playAnonymously,
  screenshot,
} from "./support.ts";

describe("the run toggle in the browser", function () {
  this.timeout(120_000);
  let dist: string;
  let t: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "200" });
    browser = await launchBrowser();
    ({ context, page } = await openPage(browser, pageErrors));
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  it("runs with energy, shows it draining, and says why it cannot run when tired", async () => {
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Sprinter");
    const canvas = await enterWorld(page, "Sprinter");
    const player = await livePlayer(t, "Sprinter");
    const toggle = page.getByRole("button", { name: "Run (100% energy)" });
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    assert.deepEqual(await lowContrastTexts(page, "#hud"), []);

    await toggle.click();
    await until(() => (player.runMode ? true : undefined), "the run toggle on the server");
    await page.locator('#run-toggle[aria-pressed="true"]').waitFor();
    await clickTile(page, canvas, 6, 0, "left", { x: player.x, z: player.z });
    await until(() => ((player.data.runEnergy ?? 10_000) < 10_000 ? true : undefined), "a run that costs energy");
    await page.getByRole("button", { name: /^Run \(9\d% energy\)$/ }).waitFor();
    await screenshot(page, "run-toggle-running");

    // Tired: the toggle off, less than 1 % left.
    t.server.world.world.enqueueCommand(player.id, (p) => {
      p.runMode = false;
      p.data.runEnergy = 50;
      p.syncDue = true;
    });
    const tired = page.getByRole("button", { name: "Run (0% energy)" });
    await tired.waitFor();
    assert.equal(await tired.getAttribute("aria-pressed"), "false");
    await tired.click();
    await page
      .getByRole("log", { name: "Chat" })
      .getByText(/too tired to run \(0% energy\)/)
      .waitFor();
    assert.equal(await tired.getAttribute("aria-pressed"), "false", "still off");
    assert.equal(player.runMode, false);
    assert.deepEqual(pageErrors, []);
  });
});
