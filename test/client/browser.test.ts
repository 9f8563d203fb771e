/**
 * The browser client in a real browser: Chromium (the binary the npm package @sparticuz/chromium
 * ships, so nothing beyond `npm install` is needed) driven by playwright-core, headless with WebGL
 * (SwiftShader), against a real server serving a fresh build of client/. A newcomer opens `/`,
 * clicks Play, walks by clicking a tile, chats, and sees the starter kit in the Inventory panel.
 * A screenshot is left in test-artifacts/browser/ (git-ignored) to look at.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser, type Page } from "playwright-core";
import { build } from "vite";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";

const root = path.join(import.meta.dirname, "..", "..");
const artifacts = path.join(root, "test-artifacts", "browser");
/** Pixels per tile in the world view (client/src/WorldScene.ts TILE). */
const TILE = 32;

describe("browser client (real Chromium)", function () {
  this.timeout(120_000);
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let dist: string;
  const pageErrors: string[] = [];

  before(async () => {
    // Build the current sources (not whatever client/dist holds) into a temporary directory.
    dist = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-client-build-"));
    await build({ configFile: path.join(root, "client", "vite.config.ts"), logLevel: "error", build: { outDir: dist, emptyOutDir: true } });
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "200" });
    browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
    page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    page.on("pageerror", (err) => pageErrors.push(err.message));
    page.on("console", (msg) => {
      // The client asks for every manifest the server knows; a content set without one answers 404.
      if (msg.type() === "error" && !(/ 404 /.test(msg.text()) && msg.location().url.includes("/manifests/"))) pageErrors.push(msg.text());
    });
  });

  // A failing scenario leaves its screen and the page's errors behind, to see what went wrong.
  afterEach(async function () {
    if (this.currentTest?.state !== "failed" || page === undefined) return;
    fs.mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, "failed.png") });
    fs.writeFileSync(path.join(artifacts, "failed-page-errors.txt"), pageErrors.join("\n"));
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  it("plays: Play, the world, a click walks there, chat, the starter kit in the Inventory", async () => {
    await page.goto(t.baseUrl + "/");
    await page.getByRole("button", { name: "Play" }).click();
    const canvas = page.getByLabel("Game world");
    await canvas.waitFor({ state: "visible" });

    // The server's player, and the same position on screen.
    const player = await until(() => [...t.server.world.world.players.values()][0], "the player in the world", 15_000);
    const start = { x: player.data.x, z: player.data.z };
    await page.getByText(`Position ${start.x}, ${start.z}`).waitFor();

    // A walkable tile a few tiles away; the camera keeps the player at the canvas' centre.
    const collision = t.server.world.world.collision;
    const offsets = [[3, 2], [-3, 2], [3, -2], [-3, -2], [2, 0], [0, 2]] as const;
    const [dx, dz] = offsets.find(([dx, dz]) => collision.isWalkable(start.x + dx, start.z + dz))!;
    const target = { x: start.x + dx, z: start.z + dz };
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + dx * TILE, box.y + box.height / 2 + dz * TILE);
    await until(() => (player.data.x === target.x && player.data.z === target.z ? true : undefined), `the player at ${JSON.stringify(target)}`, 15_000);
    await page.getByText(`Position ${target.x}, ${target.z}`).waitFor();

    const message = "hello from a real browser";
    await page.getByRole("textbox", { name: "Chat message" }).fill(message);
    await page.keyboard.press("Enter");
    await page.getByRole("log", { name: "Chat" }).getByText(`${player.data.name}: ${message}`).waitFor();

    const inventory = page.getByRole("region", { name: "Inventory" });
    // The starter kit (bread does not stack: three slots), the coins beside the slots.
    await inventory.getByRole("button", { name: "Bronze Hatchet", exact: true }).waitFor();
    assert.equal(await inventory.getByRole("button", { name: "Bread", exact: true }).count(), 3);
    assert.equal(await inventory.getByRole("button").count(), 28);
    await inventory.getByText("Coins: 25").waitFor();
    await page.getByRole("status").getByText("Connected").waitFor();

    fs.mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, "play.png") });
    await page.screenshot({ path: path.join(artifacts, "play-player.png"), clip: { x: box.x + box.width / 2 - 100, y: box.y + box.height / 2 - 60, width: 200, height: 100 } });
    assert.deepEqual(pageErrors, []);
  });

  it("comes back as the same player after a reload (the anonymous token is kept)", async () => {
    const before = [...t.server.world.world.players.values()];
    assert.equal(before.length, 1);
    const { id, data } = before[0]!;
    await page.reload();
    await page.getByRole("button", { name: "Play" }).click();
    await page.getByRole("log", { name: "Chat" }).getByText(`Welcome, ${data.name}.`).waitFor();
    await page.getByLabel("Game world").waitFor({ state: "visible" });
    assert.deepEqual([...t.server.world.world.players.keys()], [id]);
    await page.getByText(`Position ${data.x}, ${data.z}`).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
