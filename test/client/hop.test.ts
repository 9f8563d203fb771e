/**
 * A world hop in the browser client, in real Chromium, between two real server processes (worlds
 * 1 and 2 on one Redis and one PostgreSQL database, as test/cluster/cluster.test.ts starts them),
 * each serving a fresh build of client/: the start screen's World choice lists both worlds and
 * enters world 1; the Worlds panel counts the hop cooldown down on a disabled button, then the hop
 * moves the character to world 2's process without a page load or a "Disconnected" line, with its
 * inventory, and the panel shows world 2 as the one you are in; a hop the server refuses (within the
 * cooldown) is said there and leaves the game as it was.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { createTestDatabase, freePort, type TestDatabase } from "../support/postgres.ts";
import { spawnServer, type Running } from "../support/process.ts";
import { freshRedisUrl } from "../support/redis.ts";
import { eventually } from "../support/until.ts";
import { makeWorldDir } from "../support/world.ts";
import { artifacts, buildClient, createCharacter, launchBrowser, openPage, playAnonymously, screenshot } from "./support.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Each process checks the cooldown of entering its own world, and the page counts down the one of
 * the process that served it. The page comes from world 2, whose cooldown (10 s) is the one the
 * hop to world 2 waits for; world 1's is far longer, so the hop back within it is refused however
 * long a loaded machine takes over the steps in between (at 10 s for both, they could take longer).
 */
const HOP_COOLDOWN_S = 10;
const WORLD_1_HOP_COOLDOWN_S = 3_600;

interface Node {
  world: number;
  port: number;
  dir: string;
  run: Running;
}

describe("browser client: a world hop between two processes (real Chromium, Redis, PostgreSQL)", function () {
  this.timeout(180_000);
  const nodes: Node[] = [];
  let pgDb: TestDatabase | undefined;
  let dist: string | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const errors: string[] = [];

  before(async function () {
    if (!process.env.TEST_PG_URL || !process.env.TEST_REDIS_URL) this.skip();
    dist = await buildClient();
    pgDb = await createTestDatabase();
    const env = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      ADMIN_CODE: "hop-admin-code",
      HOST: "127.0.0.1",
      DATABASE_URL: pgDb.url,
      REDIS_URL: await freshRedisUrl(),
      JWT_SECRET: "hop-test-secret-0123456789abcdefghijklmnop",
      TICK_MS: "100",
      SAVE_INTERVAL: "1",
      DISABLE_RATE_LIMIT: "true",
      CHARACTER_LEASE_MS: "1500",
      HOP_COOLDOWN_S: String(HOP_COOLDOWN_S),
      CLIENT_BUILD_DIR: dist,
    };
    for (const world of [1, 2]) {
      const port = await freePort();
      const dir = makeWorldDir();
      // One at a time: the first migrates the database.
      const run = await spawnServer(
        {
          ...env,
          WORLD: dir,
          WORLD_ID: String(world),
          PORT: String(port),
          PUBLIC_ADDRESS: `127.0.0.1:${port}`,
          HOP_COOLDOWN_S: String(world === 1 ? WORLD_1_HOP_COOLDOWN_S : HOP_COOLDOWN_S),
        },
        undefined,
        30_000,
      );
      nodes.push({ world, port, dir, run });
    }
    browser = await launchBrowser();
  });

  afterEach(async function () {
    if (this.currentTest?.state !== "failed" || page === undefined) return;
    fs.mkdirSync(artifacts, { recursive: true });
    await screenshot(page, "hop-failed").catch(() => {});
    fs.writeFileSync(path.join(artifacts, "hop-failed-page-errors.txt"), errors.join("\n"));
  });

  after(async () => {
    await browser?.close();
    for (const n of nodes) n.run.child.kill("SIGKILL");
    await Promise.all(nodes.map((n) => n.run.exited));
    await pgDb?.drop();
    for (const n of nodes) fs.rmSync(n.dir, { recursive: true, force: true });
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  const http = (world: number) => `http://127.0.0.1:${nodes.find((n) => n.world === world)!.port}`;
  /** The names of the players in a process's world (its own REST). */
  const namesIn = async (world: number, token: string): Promise<string[]> => {
    const res = await fetch(`${http(world)}/api/v1/world`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    return ((await res.json()) as Json).players.map((p: Json) => String(p.name));
  };

  it("chooses world 1 on the start screen, then hops to world 2 once the cooldown shown on the button is over", async () => {
    ({ page } = await openPage(browser!, errors));
    await playAnonymously(page, http(2));
    const token = await page.evaluate(() => localStorage.getItem("rsworld.token"));
    assert.ok(token);
    await createCharacter(page, "Hopper");

    // Both worlds are on the start screen's list (listings reach Redis within a second).
    const choice = page.getByRole("combobox", { name: "World" });
    await eventually(async () => ((await choice.locator("option").count()) === 2 ? true : undefined), "both worlds listed");
    assert.deepEqual(await choice.locator("option").allTextContents(), ["World 1: 0 players", "World 2: 0 players"]);
    await choice.selectOption("1");
    await page.getByRole("button", { name: "Play Hopper", exact: true }).click();
    const chat = page.getByRole("log", { name: "Chat" });
    await chat.getByText("Welcome, Hopper.").waitFor();
    assert.deepEqual(await namesIn(1, token), ["Hopper"]);

    await page.getByRole("tab", { name: "Worlds" }).click();
    const panel = page.getByRole("tabpanel", { name: "Worlds" });
    const hop = panel.getByRole("button", { name: "Hop to world 2" });
    // The cooldown: the button is disabled and says the seconds left.
    await panel.getByText(/You can change worlds in \d s\./).waitFor();
    assert.equal(await hop.isDisabled(), true);
    assert.match((await hop.textContent())!, /^Hop to world 2 \(\d s\)$/);
    await screenshot(page, "hop-cooldown");
    await eventually(async () => ((await hop.isEnabled()) ? true : undefined), "the cooldown over");
    await panel.getByText("World 1: 1 player (you are here)").waitFor();
    // Not too early: the first click's hop is accepted (the server refuses one within its cooldown).
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await hop.click();

    await chat.getByText("You are now in world 2.").waitFor();
    await chat.getByText("Welcome, Hopper.").nth(1).waitFor();
    await panel.getByText("You are in world 2.", { exact: false }).waitFor();
    await eventually(async () => ((await namesIn(2, token)).includes("Hopper") ? true : undefined), "Hopper in world 2");

    // A hop within the cooldown (the button forced on, as a stale page might send it) is the
    // server's HOP_COOLDOWN, said in the panel; the player stays in world 2, connected.
    const back = panel.getByRole("button", { name: "Hop to world 1" });
    await back.waitFor();
    await back.evaluate((b) => ((b as HTMLButtonElement).disabled = false));
    await back.click();
    await panel
      .getByRole("status")
      .getByText(/^Could not change to world 1: you changed worlds moments ago/)
      .waitFor();
    assert.deepEqual(await namesIn(2, token), ["Hopper"]);

    assert.deepEqual(await namesIn(1, token), [], "gone from world 1");
    assert.equal(await page.getByRole("status").filter({ hasText: "Connected" }).count(), 1);
    assert.equal(await chat.getByText(/Disconnected/).count(), 0);
    assert.equal(await chat.locator("li.error").count(), 0, "the old world's SESSION_REPLACED is the hop, not news");
    assert.equal(await page.getByRole("button", { name: "Back to the start screen" }).isVisible(), false);
    assert.equal(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), true, "no page load");
    // One world view, and the game goes on: the inventory came along, and chat is heard in world 2.
    assert.equal(await page.getByLabel("Game world").count(), 1);
    await page.getByRole("tab", { name: "Inventory" }).click();
    assert.ok((await page.locator("#inventory-slots .slot:not(.empty)").count()) > 0, "the starter kit came along");
    await page.getByRole("textbox", { name: "Chat message" }).fill("hello world two");
    await page.keyboard.press("Enter");
    await chat.getByText("Hopper: hello world two").waitFor();
    await screenshot(page, "hop-world-2");

    // Chromium logs the refused matchmaking request (429) as a console error; nothing else.
    assert.deepEqual(
      errors.filter((e) => !/status of 429\b/.test(e)),
      [],
    );
  });
});
