/**
 * The browser client's social and session features in real Chromium against a real server serving
 * a fresh build of client/ (as play.test.ts and dialogs.test.ts): two browsers (two anonymous
 * accounts) become friends through the Friends panel and exchange private messages in the chat
 * (`/msg`, a friend's Message button), then one ignores the other; a bank booth opens the bank from
 * its context menu; the Worlds panel and the start screen's World choice show the world list; Log
 * out goes back to the character screen without a page load and Play comes back in; a reload comes
 * back into the world without Play; an empty character name is said in words. A hop between two
 * worlds needs two processes: hop.test.ts.
 */
import { sentenceCase } from "../../client/src/names.ts";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import type { Player } from "../../src/game/world/Player.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { artifacts, buildClient, clickTile, createCharacter, enterWorld, launchBrowser, livePlayer, openPage, playAnonymously, screenshot } from "./support.ts";

interface Person {
  page: Page;
  name: string;
  player: Player;
  errors: string[];
}

describe("browser client: friends, private messages, the bank booth, worlds, logout (real Chromium)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let dist: string;
  let browser: Browser;
  const people: Person[] = [];
  let ann: Person;
  let ben: Person;

  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "100" });
    browser = await launchBrowser();
  });

  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    fs.mkdirSync(artifacts, { recursive: true });
    for (const [i, p] of people.entries()) {
      await screenshot(p.page, `social-failed-${i}`).catch(() => {});
      fs.writeFileSync(path.join(artifacts, `social-failed-${i}-page-errors.txt`), p.errors.join("\n"));
    }
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  /** A player in a browser context of its own (its own storage: a new anonymous account). */
  async function newPlayer(name: string): Promise<Person> {
    const errors: string[] = [];
    const { page } = await openPage(browser, errors);
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, name);
    await enterWorld(page, name);
    const person = { page, name, player: await livePlayer(t, name), errors };
    people.push(person);
    return person;
  }

  const chat = (p: Person) => p.page.getByRole("log", { name: "Chat" });
  const friendsTab = (p: Person) => p.page.getByRole("tabpanel", { name: "Friends" });
  const say = async (p: Person, line: string) => {
    await p.page.getByRole("textbox", { name: "Chat message" }).fill(line);
    await p.page.keyboard.press("Enter");
  };
  const socialOf = (p: Person) => t.server.world.world.players.get(p.player.id);

  it("two players become friends in the Friends panel, see each other online in world 1, and exchange private messages", async () => {
    ann = await newPlayer("Ann");
    ben = await newPlayer("Ben");
    for (const p of [ann, ben]) await p.page.getByRole("tab", { name: "Friends" }).click();

    // Nothing typed: said, nothing sent.
    await friendsTab(ann).getByRole("button", { name: "Add friend" }).click();
    await friendsTab(ann).getByRole("status").getByText("Type a name to add first.").waitFor();
    await friendsTab(ann).getByRole("textbox", { name: "Friend's name" }).fill("Ben");
    await friendsTab(ann).getByRole("button", { name: "Add friend" }).click();
    await friendsTab(ann).getByRole("list", { name: "Requests you sent" }).getByText("Ben").waitFor();
    await friendsTab(ann).getByText("Friend request sent to Ben.").waitFor();
    const incoming = friendsTab(ben).getByRole("list", { name: "Friend requests" });
    await incoming.getByText("Ann").waitFor();
    await incoming.getByRole("button", { name: "Accept Ann" }).click();

    for (const [p, other] of [
      [ann, "Ben"],
      [ben, "Ann"],
    ] as const) {
      const friends = friendsTab(p).getByRole("list", { name: "Friends" });
      await friends.getByRole("listitem").filter({ hasText: other }).getByText("Online, world 1").waitFor();
    }
    await friendsTab(ann).getByText("Ben is now your friend.").waitFor();
    await screenshot(ann.page, "social-friends");

    // Ann's Message button starts a /msg in the chat box.
    await friendsTab(ann).getByRole("button", { name: "Message Ben" }).click();
    const annInput = ann.page.getByRole("textbox", { name: "Chat message" });
    assert.equal(await annInput.inputValue(), "/msg Ben ");
    await annInput.pressSequentially("hello, friend");
    await ann.page.keyboard.press("Enter");
    await chat(ben).getByText("From Ann: hello, friend").waitFor();
    await chat(ann).getByText("To Ben: hello, friend").waitFor();
    // Typed by hand, in another case.
    await say(ben, "/msg ann hi Ann");
    await chat(ann).getByText("From Ben: hi Ann").waitFor();
    await chat(ben).getByText("To Ann: hi Ann").waitFor();
    assert.equal(await chat(ann).locator("li.private").count(), 2, "private lines are marked as such");
    // A /msg without a message is said, not sent.
    await say(ann, "/msg Ben");
    await chat(ann).getByText("To send a private message: /msg name message").waitFor();
    // Not a public line: no one near saw the private messages as chat.
    assert.equal(await chat(ben).getByText("Ann: hello, friend", { exact: true }).count(), 0);

    // Ben removes Ann and ignores her: her message is refused, and she is on his ignore list.
    await friendsTab(ben).getByRole("button", { name: "Remove Ann" }).click();
    await friendsTab(ann).getByText("Ben is no longer your friend.").waitFor();
    await friendsTab(ben).getByRole("textbox", { name: "Name to ignore" }).fill("Ann");
    await friendsTab(ben).getByRole("button", { name: "Ignore", exact: true }).click();
    await friendsTab(ben).getByRole("list", { name: "Ignore list" }).getByText("Ann").waitFor();
    await until(() => (socialOf(ben)?.ignored.has(ann.player.data.accountId) === true ? true : undefined), "Ben's live ignore set has Ann", 10_000);
    await say(ann, "/msg Ben are you there?");
    await chat(ann).locator("li.error").last().waitFor();
    assert.equal(await chat(ben).getByText("are you there?").count(), 0);
    await friendsTab(ben).getByRole("button", { name: "Unignore Ann" }).click();
    await friendsTab(ben).getByText("You ignore no one.").waitFor();
    for (const p of [ann, ben]) assert.deepEqual(p.errors, []);
  });

  it("opens the bank from a bank booth's context menu (Use Bank Booth), deposits there, and closes it", async () => {
    const booth = t.server.world.world.stations.find((s) => s.type === "bank");
    assert.ok(booth, "the content has a bank booth");
    const name = sentenceCase(t.server.world.world.content.stations.find((s) => s.type === "bank")!.name);
    for (let attempt = 1; ; attempt++) {
      await clickTile(ann.page, ann.page.getByLabel("Game world"), booth.x - ann.player.x, booth.z - ann.player.z, "right", ann.player);
      try {
        await ann.page
          .getByRole("menu")
          .getByRole("menuitem", { name: `Use ${name}`, exact: true })
          .click({ timeout: 2_000 });
        break;
      } catch (err) {
        if (attempt === 5) throw err;
        await ann.page.keyboard.press("Escape");
      }
    }
    const bank = ann.page.getByRole("dialog", { name: "Bank" });
    await bank.waitFor();
    assert.ok(Math.max(Math.abs(ann.player.x - booth.x), Math.abs(ann.player.z - booth.z)) <= 2, "Ann walked to the booth");
    await screenshot(ann.page, "social-bank-booth");
    // A deposit works there: the booth is a bank.
    const logsBefore = ann.player.data.bank.length;
    await bank.getByRole("group", { name: "Deposit from your inventory" }).getByRole("button").first().click();
    await until(() => (ann.player.data.bank.length > logsBefore ? true : undefined), "a deposit at the booth", 10_000);
    await bank.getByRole("button", { name: "Close" }).click();
    await bank.waitFor({ state: "hidden" });
    assert.deepEqual(ann.errors, []);
  });

  it("lists the worlds in the Worlds panel (this one marked, no hop to it) with players and status", async () => {
    await ann.page.getByRole("tab", { name: "Worlds" }).click();
    const panel = ann.page.getByRole("tabpanel", { name: "Worlds" });
    const list = panel.getByRole("list", { name: "Worlds" });
    await list.getByText("World 1: 2 players (you are here)").waitFor();
    await panel.getByText(/You are in world 1\./).waitFor();
    assert.equal(await list.getByRole("button").count(), 0, "no hop to the world you are in");
    await screenshot(ann.page, "social-worlds");
  });

  it("logs out to the character screen without a page load, shows the World choice, says an empty name, and plays again", async () => {
    const page = ben.page;
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByRole("button", { name: "Log out" }).click();
    const characters = page.getByRole("region", { name: "Your characters" });
    await characters.waitFor();
    await page.getByText("You have logged out.").waitFor();
    // Phaser removes its canvas at its next step after destroy(): wait for it rather than race it.
    await page.getByLabel("Game world").waitFor({ state: "detached", timeout: 10_000 });
    assert.equal(await page.getByLabel("Game world").count(), 0, "the world view is gone");
    await until(() => ([...t.server.world.world.players.values()].some((p) => p.data.name === "Ben") ? undefined : true), "Ben left the world", 10_000);
    assert.equal(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), true, "no page load");

    // The World choice lists the world with its players (as counted when the list was drawn), chosen.
    const worldChoice = page.getByRole("combobox", { name: "World" });
    const options = await eventually(async () => {
      const texts = await worldChoice.locator("option").allTextContents();
      return texts.length > 0 ? texts : undefined;
    }, "the World choice");
    assert.equal(options.length, 1);
    assert.match(options[0]!, /^World 1: [12] players?$/);
    assert.equal(await worldChoice.inputValue(), "1");

    // An empty name is said, not ignored.
    await page.getByRole("button", { name: "Create character" }).click();
    await page.getByRole("alert").getByText("Type a name for your character first").waitFor();
    assert.equal(await page.getByRole("textbox", { name: "Character name" }).getAttribute("aria-invalid"), "true");

    await enterWorld(page, "Ben");
    ben.player = await livePlayer(t, "Ben");
    // The chat started clean, and works (one listener: the line is said once).
    await say(ben, "back again");
    await chat(ann).getByText("Ben: back again").waitFor();
    await chat(ben).getByText("Ben: back again").waitFor();
    assert.equal(await chat(ben).getByText("Ben: back again").count(), 1);
    assert.equal(await chat(ben).getByText("You have logged out.").count(), 0);
    assert.deepEqual(ben.errors, []);
  });

  it("comes back into the world after a reload without pressing Play", async () => {
    const page = ben.page;
    await page.reload();
    await chat(ben).getByText("Welcome, Ben.").waitFor();
    await page.getByLabel("Game world").waitFor({ state: "visible" });
    assert.equal(await page.getByRole("region", { name: "Your characters" }).isVisible(), false);
    // Logged out, a reload stays on the character screen.
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("region", { name: "Your characters" }).waitFor();
    await page.reload();
    await page.getByRole("button", { name: "Play", exact: true }).waitFor();
    await page.waitForTimeout(500);
    assert.equal(await page.getByLabel("Game world").isVisible(), false);
    assert.deepEqual(ben.errors, []);
  });
});
