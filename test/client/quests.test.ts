/**
 * The browser client's dialogue box and Quest journal in real Chromium (as spellbook.test.ts),
 * against a real server serving a fresh build of client/: a new player opens Warden Tamsin's menu,
 * chooses "Talk to", reads her greeting in the dialogue box (named by her, answers as numbered
 * buttons), takes "A Settler's Charter" with its number key, and finds it in the Quests tab in
 * progress with the rats to kill; a banker's "Talk to" offers the bank as an answer, by click.
 * Then another new player does the whole quest: takes it by click, kills a rat (the menu's
 * Attack) and chops logs (Chop) for its first two stages, the rest of each count credited by the
 * quest engine and the walks skipped (test shortcuts), brings the logs back in the dialogue, and
 * finds it completed in the Quests tab with its quest point and the charter in the inventory.
 */
import { npcDisplayName } from "../../client/src/names.ts";
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { questStep } from "../../src/game/quests.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { freeTile } from "../support/placing.ts";
import {
  artifacts,
  besideStillNpc,
  buildClient,
  createCharacter,
  enterWorld,
  launchBrowser,
  livePlayer,
  openPage,
  placeBeside,
  pickFromMenu,
  playAnonymously,
  screenshot,
} from "./support.ts";

describe("browser client: dialogue and the Quest journal (real Chromium)", function () {
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
    for (const [i, p] of context.pages().entries()) await screenshot(p, `quests-failed-${i}`).catch(() => {});
    fs.writeFileSync(`${artifacts}/quests-failed-errors.txt`, [`test: ${this.currentTest.err?.message ?? ""}`, ...pageErrors].join("\n"));
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  /** A right click on a tile, then an item of its menu (support.ts pickFromMenu). */
  const pick = (player: Player, at: { x: number; z: number }, item: string) => pickFromMenu(page, player, at, item);

  it("a new player talks to Warden Tamsin, takes her quest by number key, and sees it in the journal", async () => {
    const world = t.server.world.world;
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Settler");
    await enterWorld(page, "Settler");
    const player = await livePlayer(t, "Settler");

    // The journal before: the quest not started, and where to start it.
    await page.getByRole("tab", { name: "Quests" }).click();
    const journal = page.getByRole("tabpanel", { name: "Quests" });
    await journal.getByText("Quest points: 0").waitFor();
    const entry = journal.getByRole("listitem").filter({ hasText: "A Settler's Charter" });
    await entry.getByText("Not started").waitFor();
    await entry.getByText("Talk to Warden Tamsin to start this quest.").waitFor();

    const tamsin = [...world.npcs.values()].find((n) => n.def.id === "warden_tamsin")!;
    await pick(player, tamsin, "Talk to Warden Tamsin");
    const box = page.getByRole("dialog", { name: "Warden Tamsin" });
    await box.getByText("A new face!", { exact: false }).waitFor();
    const answers = box.getByRole("list", { name: "Your answers" }).getByRole("button");
    assert.deepEqual(await answers.allTextContents(), [
      "1. What do I have to do?",
      "2. Maybe later.",
      "3. A Settler's Charter: I'd like to help.",
      "4. The Drowned Watch?",
    ]);
    await page.keyboard.press("3");
    // Her own words for the task (her `quest_accepted` node), answered to close.
    await box.getByText("Deal with five of those meadow rats", { exact: false }).waitFor();
    await until(() => (player.data.quests?.settlers_charter?.status === "in_progress" ? true : undefined), "the quest started", 10_000);
    await box.getByRole("button", { name: "1. Right away." }).click();
    await box.waitFor({ state: "hidden" });

    await entry.getByText("In progress").waitFor();
    await entry.getByText("Kill 5 meadow rats (0 / 5)").waitFor();
    await screenshot(page, "quest-journal");

    // A banker talks too: its answer opens the bank.
    const banker = [...world.npcs.values()].find((n) => n.def.id === "brackenford_banker")!;
    await pick(player, banker, `Talk to ${banker.def.name}`);
    const bankerBox = page.getByRole("dialog", { name: banker.def.name });
    await bankerBox.getByRole("button", { name: "1. I'd like to see my account." }).click();
    await page.getByRole("dialog", { name: "Bank" }).waitFor();
    await bankerBox.waitFor({ state: "hidden" });
    assert.deepEqual(pageErrors, []);
  });

  it("a new player does A Settler's Charter through the dialogue box and gets its reward; the journal shows it completed", async () => {
    const world = t.server.world.world;
    const fresh = await openPage(browser, pageErrors);
    ({ context, page } = fresh);
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Charterer");
    await enterWorld(page, "Charterer");
    const player = await livePlayer(t, "Charterer");
    const stage = () => player.data.quests?.settlers_charter;
    await page.getByRole("tab", { name: "Quests" }).click();
    const journal = page.getByRole("tabpanel", { name: "Quests" });
    const entry = journal.getByRole("listitem").filter({ hasText: "A Settler's Charter" });
    await entry.getByText("Not started").waitFor();

    // Taken by click in her dialogue box.
    const tamsin = [...world.npcs.values()].find((n) => n.def.id === "warden_tamsin")!;
    await placeBeside(page, world, player, tamsin);
    await pick(player, tamsin, "Talk to Warden Tamsin");
    const box = page.getByRole("dialog", { name: "Warden Tamsin" });
    await box.getByRole("button", { name: "3. A Settler's Charter: I'd like to help." }).click();
    await box.getByText("Deal with five of those meadow rats", { exact: false }).waitFor();
    await box.getByRole("button", { name: "1. Right away." }).click();
    await box.waitFor({ state: "hidden" });
    await entry.getByText("Kill 5 meadow rats (0 / 5)").waitFor();

    // A rat killed from its menu (made still and weak: the fight is not what is tested), then four more credited.
    const rat = await besideStillNpc(page, world, player, "meadow_rat", { hold: { health: 1 } });
    await pick(player, rat, `Attack ${npcDisplayName(rat.def)} (level ${rat.def.stats?.level ?? 1})`);
    await entry.getByText("Kill 5 meadow rats (1 / 5)").waitFor({ timeout: 30_000 });
    questStep(world, player, "kill", "meadow_rat", 4);
    await entry.getByText("Chop 5 logs (0 / 5)").waitFor();

    // Logs chopped from a tree's menu.
    const tree = [...world.resources.values()].find((r) => r.node.id === "tree_normal" && r.depletedUntil === 0 && freeTile(world, r) !== undefined)!;
    await placeBeside(page, world, player, tree);
    await pick(player, tree, `Chop ${tree.node.name}`);
    // Chopping goes on by itself: at least one log chopped, the rest of the five (if any) credited.
    await until(() => (stage()!.stage > 2 || stage()!.progress > 0 ? true : undefined), "a log chopped for the quest", 60_000);
    if (stage()!.stage === 2) questStep(world, player, "gather", "logs", 5 - stage()!.progress);
    await entry.getByText("Bring the logs to Warden Tamsin").waitFor();

    // Back to her: "it's done", and the rewards.
    await placeBeside(page, world, player, tamsin);
    await pick(player, tamsin, "Talk to Warden Tamsin");
    await box.getByRole("button", { name: /A Settler's Charter: it's done\.$/ }).click();
    await box.getByText("Well done!", { exact: false }).waitFor();
    await box.getByRole("button", { name: "Continue" }).click();
    await box.waitFor({ state: "hidden" });
    await until(() => (stage()?.status === "completed" ? true : undefined), "the quest completed on the server", 10_000);
    await entry.getByText("Completed").waitFor();
    await entry.getByText("Quest complete.").waitFor();
    await journal.getByText("Quest points: 1").waitFor();
    assert.equal(player.data.inventory.filter((s) => s?.itemId === "settlers_charter").length, 1, "the charter in the inventory");
    await screenshot(page, "quest-completed");
    assert.deepEqual(pageErrors, []);
  });
});
