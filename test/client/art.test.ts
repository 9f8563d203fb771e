/**
 * The art in a real browser (see support.ts) on the bundled content plus a studio's own item, NPC
 * and station that the art has no rule for: item icons named by their items in the Inventory and
 * Equipment panels and in the Bank, the studio's item as the first letter of its name on a tile,
 * the roof of a building gone while you are inside it, the credits page linked from the footer,
 * and screenshots of the town (test-artifacts/browser/art-*.png) to look at.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server.ts";
import { makeWorldDir } from "../support/world.ts";
import { eventually, until } from "../support/until.ts";
import { artifacts, buildClient, clickTile, createCharacter, enterWorld, launchBrowser, livePlayer, openPage, playAnonymously, screenshot } from "./support.ts";

type Player = Awaited<ReturnType<typeof livePlayer>>;

/** A studio's content the art does not know: an item, a monster and a station with names no rule reads. */
function addStudioContent(worldDir: string): void {
  const dir = path.join(worldDir, "assets", "manifests");
  const edit = <T>(file: string, change: (json: T) => void) => {
    const p = path.join(dir, file);
    const json = JSON.parse(fs.readFileSync(p, "utf8")) as T;
    change(json);
    fs.writeFileSync(p, JSON.stringify(json, null, 2));
  };
  edit<Record<string, unknown>[]>("items/misc.json", (items) => {
    items.push({
      ...items.find((i) => i.id === "settlers_charter"),
      id: "glimmerstone",
      name: "Glimmerstone",
      description: "A studio's own.",
      examine: "It glimmers.",
      tradeable: true,
    });
  });
  edit<Record<string, unknown>[]>("npcs.json", (npcs) => {
    const rat = npcs.find((n) => n.id === "meadow_rat")!;
    npcs.push({ ...rat, id: "hollow_wisp", name: "Hollow Wisp", movement: { type: "stationary", speed: 0, wanderRadius: 0 } });
  });
  edit<{ stations: Record<string, unknown>[] }>("stations.json", (s) => {
    s.stations.push({ ...s.stations[0], type: "loom", name: "Weaving Loom", examine: "A studio's own loom." });
  });
  edit<Record<string, Record<string, { stations: unknown[]; mobSpawns: unknown[] }>>>("world-areas.json", (areas) => {
    const town = areas.starterTowns!.brackenford!;
    town.stations.push({ id: "studio_loom", type: "loom", position: { x: -3, y: 0, z: 3 } });
    town.mobSpawns.push({ mobId: "hollow_wisp", position: { x: 3, y: 0, z: 3 }, spawnRadius: 0, maxCount: 1 });
  });
}

describe("browser client: the art (real Chromium)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let browser: Browser;
  let dist: string;
  let worldDir: string;
  const pageErrors: string[] = [];
  let page: Page;
  let canvas: Locator;
  let player: Player;

  before(async () => {
    dist = await buildClient();
    worldDir = makeWorldDir("bundled");
    addStudioContent(worldDir);
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "200" }, "bundled", worldDir);
    browser = await launchBrowser();
    ({ page } = await openPage(browser, pageErrors));
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Artist");
    canvas = await enterWorld(page, "Artist");
    player = await livePlayer(t, "Artist");
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed") await screenshot(page, `art-failed-${this.currentTest.title.slice(0, 30).replace(/\W+/g, "-")}`).catch(() => {});
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    for (const dir of [dist, worldDir]) if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shows each item as its icon named by the item, and a studio's unknown item as its letter", async () => {
    const inventory = page.getByRole("tabpanel", { name: "Inventory" });
    const hatchet = inventory.getByRole("img", { name: "Bronze hatchet", exact: true });
    assert.equal(await hatchet.getAttribute("data-icon"), "wood-axe");
    // The slot button keeps the item's name (the icon names it), and the pointer's tooltip says it.
    const slot = inventory.getByRole("button", { name: "Bronze hatchet", exact: true });
    assert.equal(await slot.getAttribute("title"), "Bronze hatchet");
    assert.equal((await inventory.getByRole("button", { name: "Empty", exact: true }).count()) > 0, true);

    const free = player.data.inventory.indexOf(null);
    player.data.inventory[free] = { itemId: "glimmerstone", quantity: 1 };
    player.syncDue = true;
    const glimmer = inventory.getByRole("img", { name: "Glimmerstone", exact: true });
    await glimmer.waitFor();
    assert.equal(await glimmer.getAttribute("data-icon"), "");
    assert.equal(await glimmer.getAttribute("data-letter"), "G");
    await inventory.getByRole("button", { name: "Glimmerstone", exact: true }).waitFor();

    // Wielded: the Equipment panel shows it with its icon.
    await page.getByRole("tab", { name: "Equipment" }).click();
    await inventory.waitFor({ state: "hidden" });
    await page.getByRole("tab", { name: "Inventory" }).click();
    await slot.click({ button: "right" });
    await page.getByRole("menuitem", { name: "Equip Bronze hatchet" }).click();
    await page.getByRole("tab", { name: "Equipment" }).click();
    const worn = page.getByRole("tabpanel", { name: "Equipment" }).getByRole("img", { name: "Bronze hatchet", exact: true });
    await worn.waitFor();
    assert.equal(await worn.getAttribute("data-icon"), "wood-axe");
    await page.getByRole("tab", { name: "Inventory" }).click();
    assert.deepEqual(pageErrors, []);
  });

  it("draws the town, and the bank's roof is gone while you are inside it", async () => {
    fs.mkdirSync(artifacts, { recursive: true });
    await eventually(async () => (await canvas.getAttribute("data-view-center")) === `${player.x},${player.z}` || undefined, "the view centred", 10_000);
    await screenshot(page, "art-town");
    // The studio's monster and station are named as the content names them.
    await page.mouse.move(0, 0);
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2 + (3 - player.x) * 32, box.y + box.height / 2 + (3 - player.z) * 32);
    await eventually(async () => ((await canvas.getAttribute("data-hover")) ?? "").includes("Hollow wisp") || undefined, "the wisp named", 10_000);

    // Into the bank (its door is at 5, -2): the roof fades and the counter and banker show.
    const world = t.server.world.world;
    for (const step of [
      { x: 5, z: -1 },
      { x: 5, z: -4 },
    ]) {
      await clickTile(page, canvas, step.x - player.x, step.z - player.z, "left", { x: player.x, z: player.z });
      await until(() => (player.x === step.x && player.z === step.z) || undefined, `at ${step.x}, ${step.z}`, 15_000);
    }
    assert.ok(world.collision.isWalkable(5, -4));
    await eventually(async () => (await canvas.getAttribute("data-view-center")) === "5,-4" || undefined, "the view centred in the bank", 10_000);
    await page.waitForTimeout(400);
    await screenshot(page, "art-bank-inside");
    assert.equal(await canvas.getAttribute("data-roofs-hidden"), "1");

    // The booth (5, -7) within reach: the Bank dialog lists your items with their icons.
    await clickTile(page, canvas, 0, -1, "left", { x: 5, z: -4 });
    await until(() => (player.x === 5 && player.z === -5) || undefined, "at 5, -5", 15_000);
    await clickTile(page, canvas, 0, -2, "right", { x: 5, z: -5 });
    await page.getByRole("menuitem", { name: "Use Bank booth" }).click();
    const bank = page.getByRole("dialog", { name: "Bank" });
    const deposit = bank.getByRole("group", { name: "Deposit from your inventory" });
    const bread = deposit.getByRole("img", { name: "Bread", exact: true }).first();
    assert.equal(await bread.getAttribute("data-icon"), "sliced-bread");
    await deposit.getByRole("button", { name: "Glimmerstone", exact: true }).waitFor();
    await screenshot(page, "art-bank-dialog");
    await bank.getByRole("button", { name: "Close" }).click();
    assert.deepEqual(pageErrors, []);
  });

  it("draws the woods, the millpond and the quarry (screenshots to look at)", async () => {
    const world = t.server.world.world;
    for (const [name, at] of [
      ["millpond", { x: -22, z: 19 }],
      ["woods", { x: 18, z: 64 }],
      ["quarry", { x: 58, z: -6 }],
      ["meadow-rats", { x: -15, z: 25 }],
    ] as const) {
      assert.ok(world.teleport(player, at), `teleported to ${name}`);
      await eventually(async () => (await canvas.getAttribute("data-view-center")) === `${at.x},${at.z}` || undefined, `the view at ${name}`, 10_000);
      await page.waitForTimeout(300);
      await screenshot(page, `art-${name}`);
    }
    assert.deepEqual(pageErrors, []);
  });

  it("links the credits from the start screen's footer, naming the icon set's licence and authors", async () => {
    const credits = await page.context().newPage();
    await credits.goto(t.baseUrl + "/");
    await credits.getByRole("link", { name: "Credits" }).click();
    await credits.getByRole("heading", { name: "Credits" }).waitFor();
    const text = (await credits.textContent("body")) ?? "";
    assert.match(text, /CC BY 3\.0/);
    assert.match(text, /Lorc/);
    assert.match(text, /Delapouite/);
    await credits.close();
  });
});
