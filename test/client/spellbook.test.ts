/**
 * The browser client's Spellbook in real Chromium (as play.test.ts), against a real server serving a
 * fresh build of client/: a new player sees Wind Strike greyed for want of runes and Fire Strike for
 * want of level, buys runes and a staff of air at Maelis's rune shop through the Store dialog, wields
 * the staff, chooses Wind Strike and then a monster to cast it on (its mind rune used, the air rune
 * saved by the staff, Magic xp gained), and turns autocast on (attacks cast the spell) and off.
 */
import { npcDisplayName } from "../../client/src/names.ts";
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Player } from "../../src/game/world/Player.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import {
  artifacts,
  besideStillNpc,
  buildClient,
  clickTile,
  createCharacter,
  enterWorld,
  launchBrowser,
  livePlayer,
  lowContrastTexts,
  openPage,
  pickFromMenu,
  playAnonymously,
  screenshot,
} from "./support.ts";

describe("browser client: the Spellbook (real Chromium)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let browser: Browser;
  let dist: string;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "100" });
    browser = await launchBrowser();
    ({ context, page } = await openPage(browser, pageErrors));
  });

  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    for (const [i, p] of context.pages().entries()) await screenshot(p, `spellbook-failed-${i}`).catch(() => {});
    fs.writeFileSync(`${artifacts}/spellbook-failed-errors.txt`, [`test: ${this.currentTest.err?.message ?? ""}`, ...pageErrors].join("\n"));
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  const serverHas = (what: string, probe: () => boolean) => until(() => (probe() ? true : undefined), what, 15_000);
  const count = (p: Player, itemId: string) => p.data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);

  /** A right click on a tile, then an item of its menu (support.ts pickFromMenu). */
  const pick = (player: Player, at: { x: number; z: number }, item: string) => pickFromMenu(page, player, at, item);

  it("a new player buys runes and a staff, casts Wind Strike on a monster, and autocasts", async () => {
    const world = t.server.world.world;
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Mage");
    const canvas = await enterWorld(page, "Mage");
    const player = await livePlayer(t, "Mage");

    // The book before any rune: every spell greyed, and why.
    await page.getByRole("tab", { name: "Spellbook" }).click();
    const book = page.getByRole("tabpanel", { name: "Spellbook" });
    const wind = book.getByRole("button", { name: /^Wind Strike, level 1/ });
    await wind.waitFor();
    assert.equal(await wind.getAttribute("aria-disabled"), "true");
    assert.match((await wind.getAttribute("aria-label"))!, /1 Air rune, 1 Mind rune: unavailable, not enough Air rune and Mind rune$/);
    const fire = book.getByRole("button", { name: /^Fire Strike, level 13/ });
    assert.match((await fire.getAttribute("aria-label"))!, /unavailable, needs Magic level 13$/);
    // Greyed (aria-disabled), not disabled: a click still says why (Playwright waits for "enabled" unless forced).
    await wind.click({ force: true });
    await page.getByRole("log", { name: "Chat" }).getByText("You cannot cast Wind Strike: not enough Air rune and Mind rune.").waitFor();
    assert.equal(await wind.getAttribute("aria-pressed"), "false", "a greyed spell is not chosen");
    const autocast = book.getByRole("button", { name: /^Autocast Wind Strike/ });
    assert.match((await autocast.getAttribute("aria-label"))!, /unavailable, wield a staff to autocast$/);

    // Maelis's rune shop in Brackenford: an air rune, two mind runes and a staff of air (coins given here).
    player.data.coins += 200;
    player.syncDue = true;
    const keeper = [...world.npcs.values()].find((n) => n.service?.storeId === "brackenford_runes")!;
    assert.ok(keeper, "the rune shop's keeper");
    await pick(player, keeper, `Trade ${keeper.def.name}`);
    const store = page.getByRole("dialog", { name: "Maelis's Runes" });
    await store.waitFor();
    const buy = store.getByRole("group", { name: "Buy" });
    await buy.getByRole("button", { name: /^Air rune, 4 coins(, [0-9,]+ in stock)?$/ }).click();
    await serverHas("an air rune bought", () => count(player, "air_rune") === 1);
    for (let i = 1; i <= 2; i++) {
      await buy.getByRole("button", { name: /^Mind rune, 3 coins(, [0-9,]+ in stock)?$/ }).click();
      await serverHas(`mind rune ${i} bought`, () => count(player, "mind_rune") === i);
    }
    await buy.getByRole("button", { name: /^Staff of air, 150 coins(, [0-9,]+ in stock)?$/ }).click();
    await serverHas("the staff bought", () => count(player, "staff_of_air") === 1);
    await store.getByRole("button", { name: "Close" }).click();
    await store.waitFor({ state: "hidden" });
    await eventually(async () => ((await wind.getAttribute("aria-disabled")) === "false" ? true : undefined), "Wind Strike castable", 10_000);

    // The staff wielded from the Inventory: autocast becomes possible.
    await page.getByRole("tab", { name: "Inventory" }).click();
    await page.getByRole("tabpanel", { name: "Inventory" }).getByRole("button", { name: "Staff of air", exact: true }).click({ button: "right" });
    await page.getByRole("menuitem", { name: "Equip Staff of air" }).click();
    await serverHas("the staff wielded", () => player.data.equipment.weapon?.itemId === "staff_of_air");
    await page.getByRole("tab", { name: "Spellbook" }).click();
    await eventually(async () => ((await autocast.getAttribute("aria-disabled")) === "false" ? true : undefined), "autocast offered", 10_000);

    // A rat that stands still and takes many hits, five tiles away (put there between two ticks),
    // in line of sight: a cast needs it, and a tree or rock between them (rats wander) blocks it.
    // Held still, it neither wanders nor walks home, so the line of sight checked holds.
    const rat = await besideStillNpc(page, world, player, "meadow_rat", {
      distance: 5,
      lineOfSight: true,
      hold: { health: 1000, maxHealth: 1000, combat: { aggressive: false, retaliates: false } },
    });

    // Choose the spell, then the monster: a left click on it casts.
    await wind.click();
    assert.equal(await wind.getAttribute("aria-pressed"), "true");
    await book.getByText("Wind Strike: choose a monster to cast it on (Escape to cancel).").waitFor();
    await clickTile(page, canvas, rat.x - player.x, rat.z - player.z, "left", player);
    await serverHas(
      "Wind Strike cast: a mind rune used, the air rune saved by the staff",
      () => count(player, "mind_rune") === 1 && count(player, "air_rune") === 1,
    );
    await serverHas("Magic xp", () => player.data.skills.magic.xpTenths / 10 >= 5);
    await eventually(async () => ((await wind.getAttribute("aria-pressed")) === "false" ? true : undefined), "the spell let go after the cast", 10_000);
    assert.equal(player.x, rat.x + 5, "cast from 5 tiles, not walked up to it");

    // Autocast on: an attack from the menu casts Wind Strike with the last mind rune.
    await autocast.click();
    await serverHas("autocast set", () => player.data.autocast === "wind_strike");
    await eventually(async () => ((await autocast.getAttribute("aria-pressed")) === "true" ? true : undefined), "the toggle on", 10_000);
    await book.getByText("Autocasting Wind Strike: your attacks cast it.").waitFor();
    await screenshot(page, "spellbook");
    assert.deepEqual(await lowContrastTexts(page, "#spellbook"), [], "the Spellbook's text (WCAG AA, 4.5:1)");
    await pick(player, rat, `Attack ${npcDisplayName(rat.def)} (level ${rat.def.stats?.level ?? 1})`);
    await serverHas("the attack cast the spell", () => count(player, "mind_rune") === 0);
    assert.equal(player.data.skills.attack.xpTenths / 10, 0, "no melee");
    await autocast.click();
    await serverHas("autocast off", () => player.data.autocast === null);
    await eventually(async () => ((await autocast.getAttribute("aria-pressed")) === "false" ? true : undefined), "the toggle off", 10_000);
    assert.deepEqual(pageErrors, []);
  });
});
