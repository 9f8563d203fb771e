/**
 * The Make dialog in a real browser (see support.ts), against a real server serving a fresh build:
 * a new player with ores at Flintwright's furnace ("Use Furnace" from the tile's menu) sees the
 * furnace's recipes with what each needs, the iron bar greyed with the server's reason (Smithing
 * level 15), smelts two bronze bars through "Make X" watching the progress, then at the anvil
 * finds the bronze dagger refused without a hammer, and with one smiths it; a make refused at the
 * click (the bar gone since the list) is said in words. From the inventory,
 * "Make with Knife…" lists the knife's recipes. And a newcomer's whole way to a dagger: mine copper
 * and tin, buy a hammer from Hobb, smelt, smith. Screenshots in test-artifacts/browser/.
 */
import { sentenceCase } from "../../client/src/names.ts";
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Player } from "../../src/game/world/Player.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { sides } from "../support/placing.ts";
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
  placeBeside,
  pickFromMenu,
  playAnonymously,
  screenshot,
} from "./support.ts";

describe("browser client: the Make dialog (real Chromium)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let browser: Browser;
  let dist: string;
  const pageErrors: string[] = [];
  let context: BrowserContext;
  let page: Page;
  let player: Player;

  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "100" });
    browser = await launchBrowser();
    ({ context, page } = await openPage(browser, pageErrors));
  });

  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    fs.mkdirSync(artifacts, { recursive: true });
    await screenshot(page, "make-failed").catch(() => {});
    fs.writeFileSync(`${artifacts}/make-failed-errors.txt`, [`test: ${this.currentTest.err?.message ?? ""}`, ...pageErrors].join("\n"));
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  const count = (itemId: string) => player.data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
  /** Puts items in free slots between two ticks (what the test gives, not what the game does). */
  const give = (itemId: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const free = player.data.inventory.findIndex((s) => s === null || s === undefined);
      assert.ok(free >= 0, "a free slot");
      player.data.inventory[free] = { itemId, quantity: 1 };
    }
    player.syncDue = true;
  };
  /** A right click on a station's tile, then an item of its menu (support.ts pickFromMenu). */
  const pick = (at: { x: number; z: number }, item: RegExp) => pickFromMenu(page, player, at, item);
  /** Every text the dialog's progress line shows, in order (a make is 4 ticks: 400 ms here). */
  const watchProgress = () =>
    page.evaluate(() => {
      const w = window as unknown as { progressSeen: string[] };
      w.progressSeen = [];
      const el = document.querySelector(".make-progress")!;
      new MutationObserver(() => w.progressSeen.push(el.textContent ?? "")).observe(el, { childList: true, characterData: true, subtree: true });
    });
  const progressSeen = () => page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);

  it("smelts bronze bars at the furnace, shows a refusal, and smiths a dagger at the anvil", async () => {
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Smith");
    await enterWorld(page, "Smith");
    player = await livePlayer(t, "Smith");
    const world = t.server.world.world;
    const furnace = world.stations.find((s) => s.type === "furnace")!;
    const anvil = world.stations.find((s) => s.type === "anvil")!;
    assert.ok(furnace && anvil, "the default world has a furnace and an anvil");
    // Three tiles from the furnace, with two of each ore (and an iron ore: its bar needs Smithing 15).
    await placeBeside(page, world, player, furnace, sides(3));
    give("copper_ore", 2);
    give("tin_ore", 2);
    give("iron_ore", 1);

    await pick(furnace, /^Use .*furnace/i);
    const make = page.getByRole("dialog", { name: "Make" });
    await make.waitFor();
    const recipes = make.getByRole("group", { name: "Recipes" });
    const bronze = recipes.getByRole("button", { name: "Bronze bar", exact: true });
    await bronze.waitFor();
    assert.equal(await bronze.getAttribute("aria-pressed"), "true", "the first makeable recipe is chosen");
    await make.getByText("Smithing level 1 · uses 1 Copper ore, 1 Tin ore · 6.5 xp").waitFor();
    // The iron bar: listed, its refusal in words, as the server gave it.
    const iron = recipes.getByRole("button", { name: "Iron bar", exact: true });
    await iron.click();
    await make.getByText(/can't make now: You need Smithing level 15 to make iron bar\./).waitFor();
    assert.equal(await make.getByRole("button", { name: "Make 1" }).isDisabled(), true, "greyed: nothing to send");
    assert.deepEqual(await lowContrastTexts(page), [], "the Make dialog's text is legible");
    await screenshot(page, "make-furnace");

    // Two bronze bars through Make X: the progress as it goes, then done.
    await bronze.click();
    await watchProgress();
    await make.getByRole("spinbutton").fill("2");
    await make.getByRole("button", { name: "Make X" }).click();
    await make.getByRole("status").getByText("Bronze bar: 2 made. Done.").waitFor();
    const seen = await progressSeen();
    assert.ok(seen.includes("Bronze bar: 1 made, 1 to go."), JSON.stringify(seen));
    assert.equal(count("bronze_bar"), 2);
    assert.equal(count("copper_ore"), 0);
    // The list is asked for again: no ores left, the bronze bar now greyed with why.
    await make
      .getByText(/can't make now: You need/)
      .first()
      .waitFor();
    await make.getByRole("button", { name: "Close" }).click();
    await make.waitFor({ state: "hidden" });

    // The anvil: the dagger refused without a hammer, then smithed with one.
    await pick(anvil, /^Use .*anvil/i);
    await make.waitFor();
    const dagger = make.getByRole("group", { name: "Recipes" }).getByRole("button", { name: "Bronze dagger", exact: true });
    await dagger.click();
    await make
      .getByText(/Bronze dagger|bronze dagger/)
      .first()
      .waitFor();
    await make
      .getByText(/can't make now: You need a hammer\./i)
      .first()
      .waitFor();
    await make.getByRole("button", { name: "Close" }).click();
    give("hammer", 1);
    await until(() => (count("hammer") === 1 ? true : undefined), "the hammer given");
    await pick(anvil, /^Use .*anvil/i);
    await make.waitFor();
    // A count above one in the plural, as the genre writes it (the playtest of session 27).
    await make.getByRole("group", { name: "Recipes" }).getByRole("button", { name: "Bronze pickaxe", exact: true }).click();
    await make.getByText(/^Smithing level 3 · uses 2 Bronze bars ·/).waitFor();
    await dagger.click();
    await make.getByRole("button", { name: "Make 1" }).click();
    await make.getByRole("status").getByText("Bronze dagger: 1 made. Done.").waitFor();
    assert.equal(count("bronze_dagger"), 2, "the starter dagger and the one smithed");
    assert.equal(count("bronze_bar"), 1);
    await screenshot(page, "make-anvil");
    // The list said makeable (one bar left); the bar goes before the click: the server's refusal, in words.
    await make.getByRole("button", { name: "Make 1", disabled: false }).waitFor();
    const bar = player.data.inventory.findIndex((s) => s?.itemId === "bronze_bar");
    player.data.inventory[bar] = null;
    player.syncDue = true;
    await make.getByRole("button", { name: "Make 1" }).click();
    await make.getByRole("alert").getByText("You need Bronze bar.").waitFor();
    assert.equal(count("bronze_dagger"), 2, "nothing made");
    await make.getByRole("button", { name: "Close" }).click();
    await make.waitFor({ state: "hidden" });
  });

  it("stops a Make All with Stop: the loop ends, the reason shown", async () => {
    const world = t.server.world.world;
    const furnace = world.stations.find((s) => s.type === "furnace")!;
    await placeBeside(page, world, player, furnace);
    give("copper_ore", 6);
    give("tin_ore", 6);
    const bars = count("bronze_bar");
    await pick(furnace, /^Use .*furnace/i);
    const make = page.getByRole("dialog", { name: "Make" });
    await make.getByRole("button", { name: "Bronze bar", pressed: true }).waitFor();
    await make.getByRole("button", { name: "Make All" }).click();
    await make
      .getByRole("status")
      .getByText(/^Bronze bar: 1 made, until the materials run out\.$/)
      .waitFor();
    await make.getByRole("button", { name: "Stop" }).click();
    await make
      .getByRole("status")
      .getByText(/^Bronze bar: \d made\. Stopped: You stopped\.$/)
      .waitFor();
    const made = count("bronze_bar") - bars;
    assert.ok(made >= 1 && made < 6, `stopped after ${made}`);
    assert.equal(count("copper_ore"), 6 - made);
    await make.getByRole("button", { name: "Stop" }).waitFor({ state: "hidden" });
    await make.getByRole("button", { name: "Close" }).click();
  });

  it("a newcomer mines copper and tin, buys a hammer, smelts a bar and smiths a bronze dagger, all through the client", async () => {
    // A second player of its own (a new anonymous account); teleports only shorten the walks.
    const errors: string[] = [];
    const second = await openPage(browser, errors);
    const p2 = second.page;
    try {
      await playAnonymously(p2, t.baseUrl);
      await createCharacter(p2, "Newsmith");
      await enterWorld(p2, "Newsmith");
      const me = await livePlayer(t, "Newsmith");
      const world = t.server.world.world;
      const has = (itemId: string) => me.data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
      const menuPick = (at: { x: number; z: number }, item: RegExp) => pickFromMenu(p2, me, at, item);
      // Two tiles from it (or one, diagonally).
      const beside = (at: { x: number; z: number }) => placeBeside(p2, world, me, at, [...sides(2), [1, 1], [-1, -1]]);
      for (const [rock, ore] of [
        ["ore_copper", "copper_ore"],
        ["ore_tin", "tin_ore"],
      ] as const) {
        const r = [...world.resources.values()].find((x) => x.node.id === rock && x.depletedUntil === 0)!;
        assert.ok(r, rock);
        await beside(r);
        await menuPick(r, new RegExp(`^Mine ${sentenceCase(r.node.name)}$`));
        await until(() => (has(ore) > 0 ? true : undefined), `a ${ore} mined`, 60_000);
      }
      // Hobb sells a hammer (10 coins of the newcomer's 25).
      const keeper = [...world.npcs.values()].find((n) => n.service?.storeId === "brackenford_general")!;
      await beside(keeper);
      await menuPick(keeper, new RegExp(`^Trade ${keeper.def.name}$`));
      const store = p2.getByRole("dialog", { name: "Hobb's Provisions" });
      await store
        .getByRole("group", { name: "Buy" })
        .getByRole("button", { name: /^Hammer, 10 coins/ })
        .click();
      await until(() => (has("hammer") === 1 ? true : undefined), "a hammer bought");
      await store.getByRole("button", { name: "Close" }).click();

      const make = p2.getByRole("dialog", { name: "Make" });
      const furnace = world.stations.find((s) => s.type === "furnace")!;
      await beside(furnace);
      await menuPick(furnace, /^Use .*furnace/i);
      await make.getByRole("button", { name: "Bronze bar", pressed: true }).waitFor();
      // One bar (the pick may have taken a second ore of a kind before the teleport stopped it).
      await make.getByRole("button", { name: "Make 1" }).click();
      await make.getByRole("status").getByText("Bronze bar: 1 made. Done.").waitFor();
      await make.getByRole("button", { name: "Close" }).click();
      const anvil = world.stations.find((s) => s.type === "anvil")!;
      await beside(anvil);
      await menuPick(anvil, /^Use .*anvil/i);
      await make.getByRole("button", { name: "Bronze dagger", pressed: true }).waitFor();
      await make.getByRole("button", { name: "Make 1" }).click();
      await make.getByRole("status").getByText("Bronze dagger: 1 made. Done.").waitFor();
      assert.equal(has("bronze_bar"), 0);
      assert.equal(has("bronze_dagger"), 2, "the starter dagger and the one smithed");
      // 17.5 xp an ore: the two smelted, and any the pick took before the next teleport stopped it.
      const mined = 2 + has("copper_ore") + has("tin_ore");
      assert.equal(me.data.skills.mining.xpTenths, 175 * mined, `${mined} ores at 17.5 xp`);
      assert.equal(me.data.skills.smithing.xpTenths, 190, "a bronze bar (6.5) and a dagger (12.5)");
      await screenshot(p2, "make-newcomer-dagger");
      assert.deepEqual(errors, []);
    } finally {
      await second.context.close();
    }
  });

  it("offers Make with Knife… from the inventory: the knife's recipes", async () => {
    if (count("knife") === 0) give("knife", 1);
    await page.getByRole("tab", { name: "Inventory" }).click();
    await page.getByRole("tabpanel", { name: "Inventory" }).getByRole("button", { name: "Knife", exact: true }).click();
    await page.getByRole("menu").getByRole("menuitem", { name: "Make with Knife…" }).click();
    const make = page.getByRole("dialog", { name: "Make" });
    await make.waitFor();
    await make.getByText("Using Knife").waitFor();
    const names = await make.getByRole("group", { name: "Recipes" }).getByRole("button").allTextContents();
    assert.ok(names.length > 0 && names.some((n) => /Arrow shaft/i.test(n)), JSON.stringify(names));
    assert.ok(!names.some((n) => /Bar$/.test(n)), "only the knife's recipes");
    assert.deepEqual(pageErrors, []);
  });
});
