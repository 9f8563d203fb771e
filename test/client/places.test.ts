/**
 * Places in a real browser (see support.ts), against a real server serving a fresh build: a
 * newcomer beside the old well in Hollowbrook Woods clicks it, picks "Climb-down Old well" and
 * lands in the Sunken Cistern (the view follows, the hover line names the ladder up there), opens
 * the iron gate from its menu (drawn open for the client, its tile walkable again on the client's
 * map too), and climbs back up. Screenshots in test-artifacts/browser/.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { BrowserContext, Locator, Page } from "playwright-core";
import type { DoorInstance } from "../../src/game/places/PlaceState.ts";
import type { TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { clickTile, createCharacter, enterWorld, livePlayer, openPage, playAnonymously, screenshot, startBrowserStage, type BrowserStage } from "./support.ts";

describe("browser client: ladders and doors (real Chromium)", function () {
  this.timeout(180_000);
  let stage: BrowserStage;
  let t: TestServer;
  const pageErrors: string[] = [];
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    stage = await startBrowserStage({ TICK_MS: "100" });
    t = stage.t;
    // The cistern's monsters would fight the climber; this test is about the places.
    const world = t.server.world.world;
    for (const [id, npc] of world.npcs) if (npc.z >= 130) world.npcs.delete(id);
    ({ context, page } = await openPage(stage.browser, pageErrors));
  });

  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    const name = `failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, "-")}`;
    await screenshot(page, name).catch(() => {});
    fs.writeFileSync(
      `${import.meta.dirname}/../../test-artifacts/browser/${name}-errors.txt`,
      [`test: ${this.currentTest.err?.message ?? ""}`, ...pageErrors].join("\n"),
    );
  });

  after(async () => {
    await context?.close();
    await stage?.close();
  });

  /** Clicks the thing `dx, dz` tiles from the player at `from` and picks `option` from its menu. */
  async function choose(canvas: Locator, from: { x: number; z: number }, dx: number, dz: number, option: string): Promise<void> {
    await clickTile(page, canvas, dx, dz, "right", from);
    await page.getByRole("menu").getByRole("menuitem", { name: option }).click();
  }

  it("climbs down the old well, opens the iron gate and climbs back up", async () => {
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Delver");
    const canvas = await enterWorld(page, "Delver");
    const player = await livePlayer(t, "Delver");
    const world = t.server.world.world;
    assert.ok(world.teleport(player, { x: 31, z: 48 }), "beside the well");

    await choose(canvas, { x: 31, z: 48 }, 1, 0, "Climb-down Old well");
    await until(() => (player.x === 4 && player.z === 134 ? true : undefined), "the server's player in the cistern", 15_000);
    await page.getByRole("log", { name: "Chat" }).getByText("You climb down the ladder.").waitFor();
    // The view follows below; the hover line names the ladder up beside the landing.
    await eventually(async () => ((await canvas.getAttribute("data-view-center")) === "4,134" ? true : undefined), "the view centred below", 10_000);
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2 - 32, box.y + box.height / 2);
    await eventually(
      async () => ((await canvas.getAttribute("data-hover")) === "Ladder (ladder, up)" ? true : undefined),
      "the hover line naming the ladder up",
      10_000,
    );
    await screenshot(page, "places-cistern");

    // The iron gate, from the gate's west side: Open, then it is drawn open and walkable.
    assert.ok(world.teleport(player, { x: 19, z: 145 }));
    await choose(canvas, { x: 19, z: 145 }, 1, 0, "Open Iron gate");
    const gate = world.places.get("cistern_gate") as DoorInstance;
    await until(() => (gate.open ? true : undefined), "the gate open on the server", 10_000);
    await page.mouse.move(box.x + box.width / 2 + 32, box.y + box.height / 2);
    await eventually(async () => ((await canvas.getAttribute("data-hover")) === "Iron gate (open)" ? true : undefined), "the gate drawn open", 10_000);
    await screenshot(page, "places-gate-open");
    // Walk through: a click on the far side is a walk the client's map allows too.
    await clickTile(page, canvas, 3, 0, "left", { x: 19, z: 145 });
    await until(() => (player.x === 22 && player.z === 145 ? true : undefined), "through the gate", 15_000);

    // Back to the ladder (the server walks there), then up.
    assert.ok(world.teleport(player, { x: 4, z: 134 }));
    await choose(canvas, { x: 4, z: 134 }, -1, 0, "Climb-up Ladder");
    await until(() => (player.x === 32 && player.z === 49 ? true : undefined), "back on the surface", 15_000);
    await page.getByRole("log", { name: "Chat" }).getByText("You climb up the ladder.").waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
