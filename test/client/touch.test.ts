/**
 * Touch on the world view (real Chromium with touch, a fresh build of client/): a long press on a
 * tile opens its menu, as a right click does, and lifting the finger then walks nowhere; a tap
 * walks, as a left click does (client/src/touchPress.ts). The touches are the browser's own
 * (Chrome DevTools Protocol `Input.dispatchTouchEvent`), in a context with `hasTouch`.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Browser, CDPSession, Locator, Page } from "playwright-core";
import { LONG_PRESS_MS } from "../../client/src/touchPress.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { buildClient, createCharacter, enterWorld, launchBrowser, livePlayer, playAnonymously, screenshot, TILE } from "./support.ts";

describe("browser client: touch, a long press opens the menu (real Chromium)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let browser: Browser;
  let dist: string;
  const pageErrors: string[] = [];
  let page: Page;
  let cdp: CDPSession;
  let canvas: Locator;
  let me: Player;

  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "200" }, "bundled");
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1100, height: 700 }, hasTouch: true });
    page = await context.newPage();
    page.on("pageerror", (err) => pageErrors.push(err.message));
    cdp = await context.newCDPSession(page);
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Toucher");
    canvas = await enterWorld(page, "Toucher");
    me = await livePlayer(t, "Toucher");
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed") await screenshot(page, "touch-failed").catch(() => {});
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  /** A finger on the tile `dx, dz` from the view's centre, held `ms`, then lifted. */
  async function touch(dx: number, dz: number, ms: number): Promise<void> {
    const box = (await canvas.boundingBox())!;
    const point = { x: box.x + box.width / 2 + dx * TILE, y: box.y + box.height / 2 + dz * TILE };
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
    await page.waitForTimeout(ms);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  }

  it("opens the tile's menu on a long press, and walks on a tap", async () => {
    const world = t.server.world.world;
    const start = { x: me.x, z: me.z };
    await eventually(async () => ((await canvas.getAttribute("data-view-center")) === `${start.x},${start.z}` ? true : undefined), "the view centred on you");
    // An empty walkable tile near you: its menu is only Walk here (and nothing acts on a tap but the walk).
    const empty = (dx: number, dz: number) =>
      world.collision.isWalkable(start.x + dx, start.z + dz) && world.entitiesNear({ x: start.x + dx, z: start.z + dz }, me.id, 0).length === 0;
    const [dx, dz] = (
      [
        [0, 2],
        [0, -2],
        [2, 2],
        [-2, 2],
        [2, -2],
        [-2, -2],
      ] as const
    ).find(([x, z]) => empty(x, z))!;

    await touch(dx, dz, LONG_PRESS_MS + 300);
    const menu = page.getByRole("menu");
    await menu.waitFor();
    await menu.getByRole("menuitem", { name: "Walk here" }).waitFor();
    assert.equal(await canvas.getAttribute("data-long-presses"), "1");
    await screenshot(page, "touch-long-press-menu");
    // Lifting the finger walked nowhere: the menu is the press's only answer.
    const tick = world.tick;
    await until(() => (world.tick >= tick + 3 ? true : undefined), "three ticks");
    assert.deepEqual({ x: me.x, z: me.z }, start);
    assert.equal(me.moveTarget, undefined);
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });

    // A tap walks there, as a left click does, and opens no menu.
    await touch(dx, dz, 50);
    await until(() => (me.x === start.x + dx && me.z === start.z + dz ? true : undefined), "walked to the tapped tile", 10_000);
    assert.equal(await page.getByRole("menu").count(), 0);
    assert.equal(await canvas.getAttribute("data-long-presses"), "1");
    assert.deepEqual(pageErrors, []);
  });
});
