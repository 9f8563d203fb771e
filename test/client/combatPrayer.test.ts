/**
 * The Combat and Prayer tabs in a real browser (see support.ts), against a real server serving a
 * fresh build: a newcomer sees its weapon's styles (unarmed, then the starter dagger), picks
 * Aggressive (the server's style changes, the button is pressed), prays Hearthward (pressed, the
 * points shown), finds Stoneward greyed until its Prayer level is reached, and sees the points run
 * out. Screenshots in test-artifacts/browser/.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { endPrayers } from "../../src/game/prayer.ts";
import { addXp } from "../../src/game/progression.ts";
import { XP_FOR_LEVEL } from "../../src/game/skills.ts";
import type { Player } from "../../src/game/world/Player.ts";
import type { TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { keepFailure, lowContrastTexts, screenshot, startPlaying, type Playing } from "./support.ts";

describe("browser client: the Combat and Prayer tabs (real Chromium)", function () {
  this.timeout(180_000);
  let play: Playing | undefined;
  let t: TestServer;
  let page: Page;
  let player: Player;
  let pageErrors: string[];

  before(async () => {
    play = await startPlaying("Devout", { env: { TICK_MS: "100" } });
    ({ t, page, player, errors: pageErrors } = play);
  });

  afterEach(async function () {
    await keepFailure(this.currentTest, "combat-prayer", play);
  });

  after(async () => {
    await play?.close();
  });

  it("picks an attack style for the wielded weapon, and prays", async () => {
    // Combat: unarmed punches, kicks and blocks (crush), accurate to begin with.
    await page.getByRole("tab", { name: "Combat" }).click();
    const combat = page.getByRole("tabpanel", { name: "Combat" });
    await combat.getByText("Unarmed (melee) · attack type Crush").waitFor();
    const styles = combat.getByRole("list", { name: "Attack styles" });
    // The genre's buttons name the action (Punch, Kick, Block), the style beside it (docs/playtest.md session 29).
    assert.deepEqual(await styles.getByRole("button").allTextContents(), ["Punch", "Kick", "Block"]);
    assert.equal(await styles.getByRole("button", { name: "Punch" }).getAttribute("aria-pressed"), "true");
    await styles.getByText("Aggressive · Crush · xp to Strength").waitFor();

    // The starter dagger wielded from the Inventory: its styles (stab), and Aggressive chosen.
    await page.getByRole("tab", { name: "Inventory" }).click();
    await page.getByRole("tabpanel", { name: "Inventory" }).getByRole("button", { name: "Bronze dagger", exact: true }).click({ button: "right" });
    await page.getByRole("menu").getByRole("menuitem", { name: "Equip Bronze dagger" }).click();
    await page.getByRole("tab", { name: "Combat" }).click();
    await combat.getByText(/^Bronze dagger \(melee, dagger\) · attack type Stab$/).waitFor();
    // The genre's stab sword: Stab, Lunge, Slash (the alternative aggressive), Block.
    assert.deepEqual(await styles.getByRole("button").allTextContents(), ["Stab", "Lunge", "Slash", "Block"]);
    await styles.getByText("Aggressive · Slash · xp to Strength").waitFor();
    assert.equal(await styles.getByRole("button", { name: "Lunge" }).getAttribute("aria-describedby"), "combat-style-aggressive");
    await styles.getByRole("button", { name: "Lunge" }).click();
    await until(() => (player.data.combatStyle === "aggressive" ? true : undefined), "the server's style aggressive", 10_000);
    await styles.getByRole("button", { name: "Lunge", pressed: true }).waitFor();
    assert.equal(await styles.getByRole("button", { name: "Stab" }).getAttribute("aria-pressed"), "false");
    assert.deepEqual(await lowContrastTexts(page), [], "the Combat tab's text is legible");
    await screenshot(page, "combat-tab");

    // Prayer: one point at Prayer 1; Hearthward prays, Stoneward (level 10) is greyed and says why.
    await page.getByRole("tab", { name: "Prayer" }).click();
    const prayer = page.getByRole("tabpanel", { name: "Prayer" });
    await prayer.getByText("Prayer points 1 / 1").waitFor();
    const prayers = prayer.getByRole("list", { name: "Prayers" });
    const stoneward = prayers.getByRole("button", { name: "Stoneward" });
    assert.equal(await stoneward.getAttribute("aria-disabled"), "true");
    // Greyed but still focusable: a keyboard user can reach it and hear why it does nothing.
    await stoneward.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("log", { name: "Chat" }).getByText("You need Prayer level 10 to use Stoneward.").waitFor();
    assert.deepEqual(player.activePrayers, [], "nothing asked of the server");
    // Its level and what it does are the button's description.
    await prayers.getByText("Level 10 · Raises your Defence by 10%").waitFor();
    assert.deepEqual(await lowContrastTexts(page), [], "the Prayer tab's text is legible");

    // Hearthward with the keyboard: focus it, Enter.
    await prayers.getByRole("button", { name: "Hearthward" }).focus();
    await page.keyboard.press("Enter");
    await until(() => (player.activePrayers.includes("hearthward") ? true : undefined), "Hearthward active on the server", 10_000);
    await prayers.getByRole("button", { name: "Hearthward", pressed: true }).waitFor();
    await screenshot(page, "prayer-tab");

    // Prayer 10 (xp given between two ticks): Stoneward is no longer greyed.
    addXp(t.server.world.world, player, "prayer", XP_FOR_LEVEL[10]!);
    player.syncDue = true;
    await prayers.getByRole("button", { name: "Stoneward", disabled: false }).waitFor();
    await prayer.getByText(/^Prayer points \d+ \/ 10$/).waitFor();
  });

  it("shows the points run out: the prayer is no longer pressed", async () => {
    // One point left and nothing on (set between two ticks), then Hearthward clicked: 60 ticks (6 s here) drain it.
    player.data.prayerPoints = 1;
    endPrayers(player);
    player.syncDue = true;
    const prayers = page.getByRole("tabpanel", { name: "Prayer" }).getByRole("list", { name: "Prayers" });
    await page.getByRole("tabpanel", { name: "Prayer" }).getByText("Prayer points 1 / 10").waitFor();
    await prayers.getByRole("button", { name: "Hearthward", pressed: false }).waitFor();
    // The first test's Hearthward, left on at its one point, has run out already if that test took
    // over 60 ticks after praying (a loaded machine): its message, sent before the sync just shown,
    // is in the chat. This test's is the next one.
    const runOut = page.getByRole("log", { name: "Chat" }).getByText(/run out of prayer points/);
    const before = await runOut.count();
    await prayers.getByRole("button", { name: "Hearthward" }).click();
    await until(() => (player.activePrayers.includes("hearthward") ? true : undefined), "Hearthward active again", 10_000);
    await until(() => (player.data.prayerPoints === 0 ? true : undefined), "the last point drained", 30_000);
    await page.getByRole("tabpanel", { name: "Prayer" }).getByText("Prayer points 0 / 10").waitFor();
    await prayers.getByRole("button", { name: "Hearthward", pressed: false }).waitFor();
    await runOut.nth(before).waitFor();
    assert.equal(await runOut.count(), before + 1, "said once for one run-out");
    assert.deepEqual(pageErrors, []);
  });

  it("toggles Auto Retaliate in the Combat tab: on for a new character, off on a click (saved on the server), on again", async () => {
    await page.getByRole("tab", { name: "Combat" }).click();
    const combat = page.getByRole("tabpanel", { name: "Combat" });
    const toggle = combat.getByRole("button", { name: /^Auto Retaliate/ });
    assert.equal(await toggle.textContent(), "Auto Retaliate (on)");
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
    await toggle.click();
    await until(() => (player.autoRetaliate === false ? true : undefined), "Auto Retaliate off on the server", 10_000);
    await combat.getByRole("button", { name: "Auto Retaliate (off)", pressed: false }).waitFor();
    await toggle.click();
    await until(() => (player.autoRetaliate ? true : undefined), "Auto Retaliate on again", 10_000);
    await combat.getByRole("button", { name: "Auto Retaliate (on)", pressed: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
