/**
 * The minimap and the area banner in a real browser (see support.ts), against a real server
 * serving a fresh build: the map around you with the content's icons (a bank where the bank booth
 * stands), NPCs as dots, a key naming the icons; a click on it walks there (the server's player
 * arrives); walking into a dangerous area shows its name and its danger, and says them in the chat.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { freeTile, sides } from "../support/placing.ts";
import type { TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import {
  artifacts,
  createCharacter,
  enterWorld,
  livePlayer,
  lowContrastTexts,
  openPage,
  playAnonymously,
  screenshot,
  startBrowserStage,
  type BrowserStage,
} from "./support.ts";

/** client/src/minimap.ts: canvas pixels a tile (CSS), and the canvas' side. */
const SCALE = 4;
const SIZE = 160;

describe("browser client: the minimap and the area banner (real Chromium)", function () {
  this.timeout(180_000);
  let stage: BrowserStage;
  let t: TestServer;
  const pageErrors: string[] = [];
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    stage = await startBrowserStage({ TICK_MS: "100" });
    t = stage.t;
    ({ context, page } = await openPage(stage.browser, pageErrors));
  });

  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    await screenshot(page, "minimap-failed").catch(() => {});
    fs.mkdirSync(artifacts, { recursive: true });
    fs.writeFileSync(`${artifacts}/minimap-failed-errors.txt`, [`test: ${this.currentTest.err?.message ?? ""}`, ...pageErrors].join("\n"));
  });

  after(async () => {
    await context?.close();
    await stage?.close();
  });

  /** The minimap's colour at a tile `dx, dz` from its centre, `ox` pixels right (read from the canvas itself). */
  const colourAt = (dx: number, dz: number, ox = 0) =>
    page.evaluate(
      ([x, y]) => {
        const c = document.querySelector<HTMLCanvasElement>('canvas[aria-label="Minimap"]')!;
        const k = c.width / 160;
        return Array.from(
          c
            .getContext("2d")!
            .getImageData(Math.round(x! * k), Math.round(y! * k), 1, 1)
            .data.slice(0, 3),
        );
      },
      [SIZE / 2 + dx * SCALE + ox, SIZE / 2 + dz * SCALE],
    );

  it("draws the map around you with its icons and dots, walks where it is clicked, and names a dangerous area on entering it", async () => {
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Scout");
    await enterWorld(page, "Scout");
    const me = await livePlayer(t, "Scout");
    const world = t.server.world.world;
    const minimap = page.getByRole("img", { name: "Minimap", exact: true });
    await minimap.waitFor();
    await eventually(async () => ((await minimap.getAttribute("data-center")) === `${me.x},${me.z}` ? true : undefined), "the minimap centred on you");

    // The bank booth's icon where the booth stands (the content's brackenford_bank_booth).
    const booth = world.stations.find((s) => s.type === "bank")!;
    // (Three pixels right of its centre: the icon's fill, beside its letter.)
    const [r, g, b] = await colourAt(booth.x - me.x, booth.z - me.z, 3);
    assert.ok(r! > 200 && g! > 130 && g! < 200 && b! < 90, `the bank's amber icon at the booth, got rgb(${r},${g},${b})`);
    // The key names the icons, readable.
    await page.getByText("Key", { exact: true }).click();
    const key = page.getByRole("list", { name: "Minimap key" });
    for (const name of ["Bank", "Store", "Furnace, anvil or range", "Altar", "Quest start", "NPC", "Other player", "Ground item"])
      await key.getByText(name, { exact: true }).waitFor();
    assert.deepEqual(await lowContrastTexts(page, "#minimap"), []);
    await screenshot(page, "minimap");

    // A click five tiles east (or west) walks there.
    const step = [5, -5].find((dx) => world.collision.isWalkable(me.x + dx, me.z) && ![...world.npcs.values()].some((n) => n.x === me.x + dx && n.z === me.z))!;
    const goal = { x: me.x + step, z: me.z };
    const box = (await minimap.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + step * SCALE, box.y + box.height / 2);
    await until(() => (me.x === goal.x && me.z === goal.z && me.path.length === 0 ? true : undefined), "the walk to where the minimap was clicked", 15_000);
    await eventually(async () => ((await minimap.getAttribute("data-center")) === `${goal.x},${goal.z}` ? true : undefined), "the minimap following you");

    // NPCs in view are yellow dots: near a rat (the town's NPCs carry their icons instead).
    const rat = [...world.npcs.values()]
      .filter((n) => n.deadUntil === 0 && n.def.id === "meadow_rat")
      .sort((p, q) => Math.hypot(p.x, p.z) - Math.hypot(q.x, q.z))[0]!;
    const nearRat = freeTile(world, rat, sides(3))!;
    world.enqueueCommand(me.id, (p) => world.teleport(p, nearRat));
    await eventually(async () => {
      if (me.x !== nearRat.x || me.z !== nearRat.z || (await minimap.getAttribute("data-center")) !== `${me.x},${me.z}`) return undefined;
      const [nr, ng, nb] = await colourAt(rat.x - me.x, rat.z - me.z);
      return nr! > 220 && ng! > 200 && nb! < 120 ? true : undefined;
    }, "the rat's yellow dot");

    // Into Hollowbrook Woods (not a safe zone; its level 12 cutpurses attack unprovoked): its name and danger, shown and said.
    const woods = t.server.world.world.content.areas.find((a) => a.id === "hollowbrook_woods")!;
    let into = { x: 0, z: woods.bounds.minZ + 2 };
    for (let dx = 0; !world.collision.isWalkable(into.x, into.z); dx++) into = { x: dx, z: woods.bounds.minZ + 2 };
    world.enqueueCommand(me.id, (p) => world.teleport(p, into));
    const banner = page.getByRole("status").filter({ hasText: "Hollowbrook Woods" });
    await banner.getByText("Danger: level 12 monsters here may attack you.").waitFor();
    await page.getByRole("log", { name: "Chat" }).getByText("You enter Hollowbrook Woods. Danger: level 12 monsters here may attack you.").waitFor();
    await screenshot(page, "minimap-dangerous-area");
    // Back in the safe town: its name, no danger.
    world.enqueueCommand(me.id, (p) => world.teleport(p, goal));
    await page.getByRole("log", { name: "Chat" }).getByText("You enter Brackenford.", { exact: true }).last().waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
