/**
 * Other players' gear in the world view (real Chromium, a fresh build of client/): a `/ws` player
 * standing two tiles from you wields a weapon, and its sprite changes, the weapon's material colour
 * (client/src/art/itemArt.ts) appearing in its pixels; taken off, it goes again. The gear reaches
 * the browser in the public `PlayerState.worn` (src/game/worn.ts).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Browser, Locator, Page } from "playwright-core";
import { itemLook } from "../../client/src/art/itemArt.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { buildClient, createCharacter, enterWorld, launchBrowser, livePlayer, openPage, playAnonymously, screenshot, TILE } from "./support.ts";

describe("browser client: other players' worn gear (real Chromium)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let browser: Browser;
  let dist: string;
  const pageErrors: string[] = [];
  let page: Page;
  let canvas: Locator;

  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "200" }, "bundled");
    browser = await launchBrowser();
    ({ page } = await openPage(browser, pageErrors));
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Onlooker");
    canvas = await enterWorld(page, "Onlooker");
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed") await screenshot(page, "gear-failed").catch(() => {});
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  /**
   * How many pixels of the tile `dx, dz` from the view's centre are within a few levels of `hex`
   * (the screenshot decoded in the page).
   */
  async function pixelsOf(dx: number, hex: string, dz = 0): Promise<number> {
    const box = (await canvas.boundingBox())!;
    const clip = { x: box.x + box.width / 2 + dx * TILE - TILE / 2, y: box.y + box.height / 2 + dz * TILE - TILE / 2, width: TILE, height: TILE };
    const png = (await page.screenshot({ clip })).toString("base64");
    return page.evaluate(
      async ({ png, hex }) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
        const c = new OffscreenCanvas(bitmap.width, bitmap.height);
        const g = c.getContext("2d")!;
        g.drawImage(bitmap, 0, 0);
        const data = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
        const [r, gg, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
        let n = 0;
        for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - r!) <= 6 && Math.abs(data[i + 1]! - gg!) <= 6 && Math.abs(data[i + 2]! - b!) <= 6) n++;
        return n;
      },
      { png, hex },
    );
  }

  it("changes another player's sprite when it wields a weapon, in the weapon's material", async () => {
    const me = await livePlayer(t, "Onlooker");
    const world = t.server.world.world;
    const other = await WsTestClient.connect(`${t.wsUrl}?name=Brandt`);
    const brandt = world.players.get(String((await other.next("welcome")).characterId))!;
    // Two tiles east of you (or west), where nothing else stands.
    const dx = [2, -2, 3, -3].find((d) => world.collision.isWalkable(me.x + d, me.z) && world.teleport(brandt, { x: me.x + d, z: me.z }));
    assert.ok(dx !== undefined, "a free tile near you");
    await eventually(async () => ((await canvas.getAttribute("data-view-center")) === `${me.x},${me.z}` ? true : undefined), "the view centred on you");
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2 + dx * TILE, box.y + box.height / 2);
    await eventually(async () => ((await canvas.getAttribute("data-hover")) ?? "").includes("Brandt") || undefined, "Brandt drawn by you");
    await page.mouse.move(0, 0);

    const slot = brandt.data.inventory.findIndex((s) => s !== null && world.content.item(s.itemId)?.equipSlot === "weapon");
    assert.ok(slot >= 0, "Brandt carries a weapon (the starter kit's hatchet)");
    const itemId = brandt.data.inventory[slot]!.itemId;
    const { color } = itemLook(itemId, world.content.item(itemId));
    const before = await pixelsOf(dx, color);
    other.send("inventory:use", { slot });
    await until(() => (brandt.data.equipment.weapon?.itemId === itemId ? true : undefined), "Brandt wields it");
    const wielding = await eventually(async () => {
      const n = await pixelsOf(dx, color);
      return n >= before + 8 ? n : undefined;
    }, `Brandt's sprite in ${color}`);
    await screenshot(page, "gear-other-player");

    other.send("equipment:remove", { slot: "weapon" });
    await eventually(async () => ((await pixelsOf(dx, color)) <= before ? true : undefined), "the weapon gone from Brandt's sprite");
    assert.ok(wielding > before);
    other.close();
    assert.deepEqual(pageErrors, []);
  });
});
