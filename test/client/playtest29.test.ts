/**
 * What the playtest of session 29 by a player of the genre found (docs/playtest.md "Playtest
 * 2026-11-29 (session 29)"), in a real browser (see support.ts) against a real server serving a
 * fresh build: the Equipment tab lists the worn items' bonuses, as the genre's Equipment Stats do,
 * so that a player who puts on a platebody sees what it gives, opened from a button at the top of the
 * tab (no scroll); and no other player's name lies on your character.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Player } from "../../src/game/world/Player.ts";
import type { TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { keepFailure, lowContrastTexts, screenshot, startPlaying, type Playing } from "./support.ts";

describe("browser client: what the playtest of session 29 found (real Chromium)", function () {
  this.timeout(240_000);
  let play: Playing | undefined;
  let t: TestServer;
  let page: Page;
  let me: Player;
  let pageErrors: string[];

  before(async () => {
    play = await startPlaying("Wulfric", { env: { TICK_MS: "100" } });
    ({ t, page, player: me, errors: pageErrors } = play);
  });

  afterEach(async function () {
    await keepFailure(this.currentTest, "playtest29", play);
  });

  after(async () => {
    await play?.close();
  });

  it("lists the worn items' attack and defence bonuses in the Equipment tab, as the genre's Equipment Stats", async () => {
    const stats = page.getByRole("table", { name: "Equipment stats" });
    const rows = async () => (await stats.locator("tbody tr").allInnerTexts()).map((r) => r.split(/\s+/).join(" "));
    await page.getByRole("tab", { name: "Equipment" }).click();
    // Opened from the tab's "Equipment stats" button, from the keyboard.
    const panel = page.getByRole("tabpanel", { name: "Equipment" });
    const toggle = panel.getByRole("button", { name: "Equipment stats", exact: true });
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.ok(!(await stats.isVisible()), "closed: the slots show, not the stats");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await stats.waitFor();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    assert.deepEqual(await rows(), ["Attack 0 0 0 0 0", "Defence 0 0 0 0 0"], "nothing worn: no bonuses");
    // Shown without scrolling: the whole table and the line below it inside the tab, unscrolled.
    const within = async (what: typeof stats) => {
      const [outer, inner] = [(await panel.boundingBox())!, (await what.boundingBox())!];
      return inner.y >= outer.y && inner.y + inner.height <= outer.y + outer.height;
    };
    assert.equal(await panel.evaluate((e) => e.scrollTop), 0);
    assert.ok(await within(stats), "the table in view, unscrolled");
    assert.ok(await within(panel.getByText(/^Melee strength/)), "the strength and prayer line in view, unscrolled");
    await screenshot(page, "playtest29-equipment-stats-open");
    // Pressed again (Space): the slots again.
    await page.keyboard.press("Space");
    await panel.getByText("nothing").first().waitFor();
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.ok(!(await stats.isVisible()));

    // A bronze sword, platebody and kiteshield bought (given here between two ticks) and worn from the Inventory.
    const kit = ["bronze_sword", "bronze_platebody", "bronze_kiteshield"];
    await new Promise<void>((resolve) =>
      t.server.world.world.enqueueCommand(me.id, (p) => {
        kit.forEach((itemId, i) => (p.data.inventory[20 + i] = { itemId, quantity: 1 }));
        p.syncDue = true;
        resolve();
      }),
    );
    await page.getByRole("tab", { name: "Inventory" }).click();
    const inventory = page.getByRole("tabpanel", { name: "Inventory" });
    for (const name of ["Bronze sword", "Bronze platebody", "Bronze kiteshield"]) await inventory.getByRole("button", { name, exact: true }).click();
    await until(() => (kit.every((id) => Object.values(me.data.equipment).some((w) => w.itemId === id)) ? true : undefined), "all three worn");

    await page.getByRole("tab", { name: "Equipment" }).click();
    await panel.getByText("Bronze platebody").waitFor();
    await toggle.click();
    // The manifests' bonuses summed (items/weapons.json, items/armor.json): the sword's generic attack 5
    // counts for stab, slash and crush; platebody and kiteshield: defence stab 14 + 6, slash 13 + 8,
    // crush 9 + 7, magic -5 - 1, ranged 13 + 7; attack magic -28 - 7, ranged -12 - 2.
    assert.deepEqual(await stats.locator("thead th").allInnerTexts(), ["Bonus", "Stab", "Slash", "Crush", "Magic", "Ranged"]);
    assert.deepEqual(await rows(), ["Attack +5 +5 +5 -35 -14", "Defence +20 +21 +16 -6 +20"]);
    await page.getByText("Melee strength +4 · Ranged strength 0 · Prayer 0").waitFor();
    assert.deepEqual(await lowContrastTexts(page, "#equipment"), [], "the stats are legible");
    assert.ok(await within(stats), "the table in view, unscrolled, with items worn");
    await screenshot(page, "playtest29-equipment-stats");
    assert.deepEqual(pageErrors, []);
  });

  it("hangs another player's name clear of your character: on your tile, and from the tile south of you", async () => {
    const w = t.server.world.world;
    // You on a tile with a walkable tile south of it; Brandt there, then on yours.
    const start = { x: me.x, z: me.z };
    const spot = [0, 1, -1, 2, -2, 3, -3]
      .flatMap((dx) => [0, 1, -1, 2, -2].map((dz) => ({ x: start.x + dx, z: start.z + dz })))
      .find((s) => w.collision.isWalkable(s.x, s.z) && w.collision.isWalkable(s.x, s.z + 1))!;
    assert.ok(spot !== undefined, "a tile with a walkable tile south of it");
    await new Promise<void>((resolve) => w.enqueueCommand(me.id, (p) => (w.teleport(p, spot), resolve())));
    const other = await WsTestClient.connect(`${t.wsUrl}?name=Brandt`);
    try {
      const brandt = w.players.get(String((await other.next("welcome")).playerId))!;
      const canvas = page.getByLabel("Game world");
      // Your figure: 32 pixels square on your tile's centre (TILE 32; client/src/art/draw.ts personDrawing).
      const you = { left: spot.x * 32, top: spot.z * 32, right: spot.x * 32 + 32, bottom: spot.z * 32 + 32 };
      type Box = { text: string; x: number; bottom: number; width: number; height: number };
      const brandtsLabel = async () => (JSON.parse((await canvas.getAttribute("data-label-boxes")) ?? "[]") as Box[]).find((b) => b.text === "Brandt");
      const onYou = (b: Box) => b.x + b.width / 2 > you.left && b.x - b.width / 2 < you.right && b.bottom > you.top && b.bottom - b.height < you.bottom;
      for (const [where, tile] of [
        ["the tile south of you", { x: spot.x, z: spot.z + 1 }],
        ["your tile", spot],
      ] as const) {
        await new Promise<void>((resolve) => w.enqueueCommand(brandt.id, (p) => (w.teleport(p, tile), resolve())));
        // Once Brandt stands there (the label follows its slide), where his name hangs.
        const box = await eventually(async () => {
          const b = await brandtsLabel();
          return b !== undefined && Math.abs(b.x - (tile.x * 32 + 16)) <= 1 && me.x === spot.x && me.z === spot.z ? b : undefined;
        }, `Brandt's name shown on ${where}`);
        await page.waitForTimeout(300);
        const settled = (await brandtsLabel()) ?? box;
        assert.ok(!onYou(settled), `Brandt's name on ${where} lies on you: ${JSON.stringify(settled)} over ${JSON.stringify(you)}`);
        await screenshot(page, `playtest29-label-${where.replace(/\W+/g, "-")}`);
      }
    } finally {
      other.close();
    }
    assert.deepEqual(pageErrors, []);
  });
});
