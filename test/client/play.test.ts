/**
 * Playing the browser client in a real browser (see support.ts), against a real server serving a
 * fresh build: a newcomer creates a character, walks (the synced position, the panel and the world
 * view follow), chops a tree through the context menu (the logs appear in the Inventory panel);
 * a reload comes back as the same player; a dropped socket reconnects to the same player within
 * the seat; a takeover by another login says so; characters are created, played and deleted,
 * refusals shown in words; an identity provider's token signs in. Each scenario leaves a
 * screenshot in test-artifacts/browser/ to look at.
 */
import { npcDisplayName } from "../../client/src/names.ts";
import { skillName } from "../../client/src/panels/skills.ts";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server.ts";
import { signJwt } from "../support/jwt.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { eventually, until } from "../support/until.ts";
import { killPlayer } from "../../src/game/death.ts";
import { addXp } from "../../src/game/progression.ts";
import { findPath } from "../../src/game/map/pathfinding.ts";
import type { World } from "../../src/game/world/World.ts";
import {
  buildClient,
  clickTile,
  createCharacter,
  enterWorld,
  launchBrowser,
  livePlayer,
  lowContrastTexts,
  openPage,
  playAnonymously,
  screenshot,
  TILE,
} from "./support.ts";

type Player = Awaited<ReturnType<typeof livePlayer>>;
/** A player's tile, as clickTile waits for the view to be centred on it. */
const tileOf = (p: Player) => ({ x: p.x, z: p.z });

/**
 * Mean per-channel difference (0..255) between two screenshots of the canvas, the second read
 * `shift` pixels away (what was at p before is at p + shift after), over the area both show, the
 * centre (the player, drawn where the camera is) left out. Decoded by the page's own image code.
 */
async function imageDifference(page: Page, before: Buffer, after: Buffer, shift: { x: number; y: number }): Promise<number> {
  return page.evaluate(
    async ({ a, b, sx, sy }) => {
      const read = async (b64: string) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement("canvas");
        c.width = img.width;
        c.height = img.height;
        const g = c.getContext("2d")!;
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, img.width, img.height);
      };
      const [A, B] = [await read(a), await read(b)];
      const w = A.width;
      const h = A.height;
      let sum = 0;
      let n = 0;
      for (let y = Math.max(0, -sy); y < Math.min(h, h - sy); y += 2) {
        for (let x = Math.max(0, -sx); x < Math.min(w, w - sx); x += 2) {
          if (Math.abs(x - w / 2) < 48 && Math.abs(y - h / 2) < 48) continue;
          if (Math.abs(x + sx - w / 2) < 48 && Math.abs(y + sy - h / 2) < 48) continue;
          const i = (y * w + x) * 4;
          const j = ((y + sy) * w + (x + sx)) * 4;
          for (let k = 0; k < 3; k++) sum += Math.abs(A.data[i + k]! - B.data[j + k]!);
          n += 3;
        }
      }
      return sum / n;
    },
    { a: before.toString("base64"), b: after.toString("base64"), sx: shift.x, sy: shift.y },
  );
}

/** No NPC, ground item or object on the tile (players aside). */
function idleTile(world: World, x: number, z: number): boolean {
  return ![...world.npcs.values(), ...world.groundItems.values(), ...world.objects.values()].some((e) => e.x === x && e.z === z);
}

describe("browser client: playing (real Chromium)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let browser: Browser;
  let dist: string;
  const pageErrors: string[] = [];
  /** The newcomer's page, kept across the scenarios that follow one player. */
  let context: BrowserContext;
  let page: Page;
  let canvas: Locator;
  const NAME = "Newcomer";
  let player: Player;

  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "200" });
    browser = await launchBrowser();
    ({ context, page } = await openPage(browser, pageErrors));
  });

  // A failing scenario leaves its screen and the page's errors behind, to see what went wrong.
  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    const name = `failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, "-")}`;
    for (const [i, p] of context.pages().entries()) await screenshot(p, `${name}-${i}`).catch(() => {});
    fs.writeFileSync(
      `${import.meta.dirname}/../../test-artifacts/browser/${name}-errors.txt`,
      [`test: ${this.currentTest.err?.message ?? ""}`, ...pageErrors].join("\n"),
    );
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  /** Whether a tile is inside one of the content's buildings (under a roof in the world view). */
  function indoors(x: number, z: number): boolean {
    const file = path.join(t.worldDir, "assets", "manifests", "buildings.json");
    const buildings = fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, "utf8")) as { bounds: { minX: number; maxX: number; minZ: number; maxZ: number } }[])
      : [];
    return buildings.some(({ bounds: b }) => x >= b.minX && x <= b.maxX && z >= b.minZ && z <= b.maxZ);
  }

  /**
   * Walks, a click at a time within the view (7 tiles at most), until the player is within
   * `within` tiles of `to`; each step's position is checked on the server and in the panel.
   * `onStep` runs after each click, and what it returns once the player has arrived.
   */
  async function walkNear(
    to: { x: number; z: number },
    within: number,
    onStep?: (dx: number, dz: number, before: Buffer) => Promise<(() => Promise<void>) | void>,
  ): Promise<void> {
    const world = t.server.world.world;
    while (Math.max(Math.abs(to.x - player.x), Math.abs(to.z - player.z)) > within) {
      // The step: of the tiles in view (7 each way) that the player can walk to, the nearest to `to`,
      // and nearer than where the player stands. Each step ends outdoors: inside a building its roof
      // lifts, and the view changes by more than the walk. (A search over a bounded window: an earlier
      // loop here that only shortened dx could swing between two blocked tiles forever, a synchronous
      // hang that no mocha timeout can end.)
      const from = { x: player.x, z: player.z };
      const distance = (x: number, z: number) => Math.max(Math.abs(to.x - x), Math.abs(to.z - z));
      let best: { dx: number; dz: number; d: number } | undefined;
      for (let ddx = -7; ddx <= 7; ddx++) {
        for (let ddz = -7; ddz <= 7; ddz++) {
          const x = from.x + ddx;
          const z = from.z + ddz;
          const d = distance(x, z);
          if (d >= distance(from.x, from.z) || (best !== undefined && d >= best.d)) continue;
          if (!world.collision.isWalkable(x, z) || indoors(x, z)) continue;
          // Not next to a monster: a left click on a rat that wanders onto the tile attacks it (its top action) instead of walking.
          if ([...world.npcs.values()].some((n) => n.deadUntil === 0 && Math.max(Math.abs(n.x - x), Math.abs(n.z - z)) <= 1)) continue;
          const route = findPath(world.collision, from, { x, z });
          if (route.ok && route.reachesTarget) best = { dx: ddx, dz: ddz, d };
        }
      }
      assert.ok(best !== undefined, `a walkable step from ${JSON.stringify(from)} toward ${JSON.stringify({ x: to.x, z: to.z })}`);
      const { dx, dz } = best;
      const target = { x: player.x + dx, z: player.z + dz };
      const before = await canvas.screenshot();
      await clickTile(page, canvas, dx, dz, "left", tileOf(player));
      // Something wandered onto the tile (a rat): its menu opened instead, and it walks there too.
      const menu = page.getByRole("menu");
      if ((await menu.count()) > 0) await menu.getByRole("menuitem", { name: "Walk here" }).click();
      const after = await onStep?.(dx, dz, before);
      await until(() => (player.x === target.x && player.z === target.z ? true : undefined), `the player at ${JSON.stringify(target)}`, 15_000);
      await page.getByText(`Position ${target.x}, ${target.z}`).waitFor();
      await after?.();
    }
  }

  it("a newcomer plays: a character, a walk (synced state, panel and view), a tree chopped through the context menu, logs in the Inventory", async () => {
    const characters = await playAnonymously(page, t.baseUrl);
    await characters.getByText("No characters yet").waitFor();
    await createCharacter(page, NAME);
    canvas = await enterWorld(page, NAME);
    player = await livePlayer(t, NAME);
    await page.getByText(`Position ${player.x}, ${player.z}`).waitFor();
    await page.getByRole("status").getByText("Connected").waitFor();

    // The starter kit in the Inventory panel (bread does not stack: three slots), coins beside it.
    const inventory = page.getByRole("tabpanel", { name: "Inventory" });
    await inventory.getByRole("button", { name: "Bronze hatchet", exact: true }).waitFor();
    assert.equal(await inventory.getByRole("button", { name: "Bread", exact: true }).count(), 3);
    assert.equal(await inventory.getByRole("button").count(), 28);
    await inventory.getByText("Coins: 25").waitFor();
    // Chat: typed, sent with Enter, back in the log.
    const message = "hello from a real browser";
    await page.getByRole("textbox", { name: "Chat message" }).fill(message);
    await page.keyboard.press("Enter");
    await page.getByRole("log", { name: "Chat" }).getByText(`${NAME}: ${message}`).waitFor();

    // Toward the nearest tree, a click at a time (within the view), as a person walks.
    const world = t.server.world.world;
    const tree = [...world.resources.values()]
      .filter((r) => r.node.gathering === "woodcutting" && r.node.levelRequired <= 1)
      .sort((a, b) => Math.hypot(a.x - player.x, a.z - player.z) - Math.hypot(b.x - player.x, b.z - player.z))[0]!;
    let walks = 0;
    await walkNear(tree, 6, async (dx, dz, before) => {
      // The path is shown while the player walks it (seen in the screenshot).
      if (walks++ > 0) return;
      await screenshot(page, "play-walking");
      return async () => {
        // The view has moved by the walk, exactly.
        await page.waitForTimeout(600);
        const moved = await canvas.screenshot();
        const shifted = await imageDifference(page, before, moved, { x: -dx * TILE, y: -dz * TILE });
        const unshifted = await imageDifference(page, before, moved, { x: 0, y: 0 });
        assert.ok(shifted < 6 && shifted * 3 < unshifted, `the view moved by the walk: difference ${shifted.toFixed(2)} shifted, ${unshifted.toFixed(2)} not`);
      };
    });

    // The tree's context menu, by a right click on it: Chop it.
    await clickTile(page, canvas, tree.x - player.x, tree.z - player.z, "right", tileOf(player));
    const menu = page.getByRole("menu", { name: tree.node.name });
    await menu.waitFor();
    assert.deepEqual(await menu.getByRole("menuitem").allTextContents(), [`Chop ${tree.node.name}`, `Examine ${tree.node.name}`, "Walk here"]);
    await expectFocused(menu.getByRole("menuitem").first());
    await screenshot(page, "play-context-menu");
    await menu.getByRole("menuitem", { name: `Chop ${tree.node.name}` }).click();
    assert.equal(await menu.count(), 0, "the menu closes");

    await inventory
      .getByRole("button", { name: /^Logs( x \d+)?$/ })
      .first()
      .waitFor({ timeout: 60_000 });
    assert.ok(
      player.data.inventory.some((s) => s?.itemId === "logs"),
      "the server's inventory has the logs",
    );
    await page.getByRole("log", { name: "Chat" }).getByText("You get some logs.").first().waitFor();
    // The woodcutting xp drop reached the Skills panel too.
    await page.getByRole("tab", { name: "Skills" }).click();
    const skills = page.getByRole("tabpanel", { name: "Skills" });
    const row = skills.getByRole("row", { name: /^Woodcutting/ });
    await row.getByRole("progressbar", { name: /^Woodcutting progress: \d+ of 83 xp for level 2$/ }).waitFor();
    assert.notEqual(await row.getByRole("progressbar").getAttribute("value"), "0");
    await screenshot(page, "play-chopped");
    await page.getByRole("tab", { name: "Inventory" }).click();
    assert.deepEqual(pageErrors, []);
  });

  it("comes back as the same player after a reload (the anonymous token is kept), without pressing Play again", async () => {
    const { id } = player;
    const at = { x: player.x, z: player.z };
    await page.reload();
    // The character being played is played again at once (issue #49's playtest: no second Play).
    await page.getByRole("log", { name: "Chat" }).getByText(`Welcome, ${NAME}.`).waitFor();
    canvas = page.getByLabel("Game world");
    await canvas.waitFor({ state: "visible" });
    assert.deepEqual([...t.server.world.world.players.keys()], [id]);
    await page.getByText(`Position ${at.x}, ${at.z}`).waitFor();
    player = t.server.world.world.players.get(id)!;
    await screenshot(page, "play-reloaded");
    assert.deepEqual(pageErrors, []);
  });

  it("keeps the same player through a dropped connection: the SDK reconnects within the seat, and commands work again", async () => {
    const { id } = player;
    const conn = t.server.world.connectionOf(id) as unknown as { client: { ref: { terminate(): void } } };
    const socket = conn.client;
    // The server's side of the socket goes without a close frame, as a lost network does.
    socket.ref.terminate();
    await page.getByRole("status").getByText("Connection lost: reconnecting…").waitFor();
    await page.getByRole("status").getByText("Connected").waitFor({ timeout: 30_000 });
    await page.getByRole("log", { name: "Chat" }).getByText("Reconnected.").waitFor();
    assert.deepEqual([...t.server.world.world.players.keys()], [id]);
    assert.notEqual(conn.client, socket, "the player's connection has its new socket");

    const world = t.server.world.world;
    const [dx, dz] = (
      [
        [2, 1],
        [-2, 1],
        [2, -1],
        [-2, -1],
        [1, 0],
        [0, 1],
      ] as const
    ).find(([dx, dz]) => world.collision.isWalkable(player.x + dx, player.z + dz))!;
    const target = { x: player.x + dx, z: player.z + dz };
    await page.waitForTimeout(300);
    await clickTile(page, canvas, dx, dz, "left", tileOf(player));
    await until(() => (player.x === target.x && player.z === target.z ? true : undefined), "a walk after the reconnection", 15_000);
    await page.getByText(`Position ${target.x}, ${target.z}`).waitFor();
    await screenshot(page, "play-reconnected");
    assert.deepEqual(pageErrors, []);
  });

  it("shows a crowd's names without one over another: yours and the nearest, the rest as the crowd spreads", async () => {
    const hidden = async () => Number((await canvas.getAttribute("data-hidden-labels")) ?? "-1");
    await eventually(async () => ((await hidden()) === 0 ? true : undefined), "no label hidden while alone");
    const world = t.server.world.world;
    // Five players on one tile three from yours (their names clear of yours): theirs would lie on each other.
    const beside = (
      [
        [0, 3],
        [3, 0],
        [-3, 0],
        [0, -3],
        [3, 3],
        [-3, 3],
      ] as const
    )
      .map(([dx, dz]) => ({ x: player.x + dx, z: player.z + dz }))
      .find((tile) => world.collision.isWalkable(tile.x, tile.z))!;
    const crowd: { client: WsTestClient; id: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const client = await WsTestClient.connect(`${t.wsUrl}?name=Crowd${i}`);
      const id = String((await client.next("welcome")).playerId);
      crowd.push({ client, id });
      assert.ok(world.teleport(world.players.get(id)!, beside));
    }
    try {
      // Drawn there (the tile's menu offers to trade with each), four of the five names hidden.
      await eventually(
        async () => {
          await clickTile(page, canvas, beside.x - player.x, beside.z - player.z, "right", tileOf(player));
          const menu = page.getByRole("menu");
          await menu.waitFor();
          const trades = await menu.getByRole("menuitem", { name: /^Trade with Crowd/ }).count();
          await page.keyboard.press("Escape");
          await menu.waitFor({ state: "detached" });
          return trades === 5 ? true : undefined;
        },
        "the five drawn on their tile",
        10_000,
      );
      await eventually(async () => ((await hidden()) === 4 ? true : undefined), "four of the five names hidden", 10_000);
      // The pointer rests on their tile: the hover line names them.
      await eventually(
        async () => ((await canvas.getAttribute("data-hover")) === "Crowd0 / Crowd1 / Crowd2 and 2 more" ? true : undefined),
        "the crowd named under the pointer",
      );
      await screenshot(page, "play-crowd-names");
      // They spread along a row four tiles apart: every name shows.
      const row = Array.from({ length: 5 }, (_, i) => {
        const x = player.x - 8 + 4 * i;
        const z = [3, 4, 5, 6].map((dz) => player.z + dz).find((z) => world.collision.isWalkable(x, z));
        assert.ok(z !== undefined, `a walkable tile below ${x}`);
        return { x, z };
      });
      crowd.forEach(({ id }, i) => assert.ok(world.teleport(world.players.get(id)!, row[i]!)));
      await eventually(async () => ((await hidden()) === 0 ? true : undefined), "every name shown once they spread", 10_000);
      // The pointer has not moved: its line names what stands on its tile now (as the client draws it).
      const left = row.flatMap((tile, i) => (tile.x === beside.x && tile.z === beside.z ? [`Crowd${i}`] : [])).join(" / ");
      await eventually(async () => ((await canvas.getAttribute("data-hover")) === left ? true : undefined), `the hover line as "${left}"`);
      await screenshot(page, "play-crowd-spread");
    } finally {
      for (const { client } of crowd) client.close();
    }
    assert.deepEqual(pageErrors, []);
  });

  it("names what is under a still pointer as the view follows your walk, not what was there before", async () => {
    const world = t.server.world.world;
    const home = tileOf(player);
    const hover = async () => (await canvas.getAttribute("data-hover")) ?? "";
    const centred = async (tile: { x: number; z: number }) => {
      const want = `${tile.x},${tile.z}`;
      await eventually(async () => ((await canvas.getAttribute("data-view-center")) === want ? true : undefined), `the view centred on ${want}`, 10_000);
    };
    await centred(home);
    // The pointer rests at the view's centre: on you.
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // Your name among those on the tile (an NPC may wander onto it).
    const named = async () => ((await hover()).split(" / ").includes(player.data.name) ? true : undefined);
    await eventually(named, "your name under the pointer");
    // Moved four tiles (nothing else there): the view follows, and the still pointer is on you again.
    const empty = (x: number, z: number) =>
      world.collision.isWalkable(x, z) && idleTile(world, x, z) && ![...world.players.values()].some((e) => e.x === x && e.z === z);
    const away = (
      [
        [4, 0],
        [-4, 0],
        [0, 4],
        [0, -4],
        [4, 4],
        [-4, -4],
      ] as const
    )
      .map(([dx, dz]) => ({ x: home.x + dx, z: home.z + dz }))
      .find((tile) => empty(tile.x, tile.z));
    assert.ok(away !== undefined, "an empty walkable tile four away");
    try {
      assert.ok(world.teleport(player, away));
      await centred(away);
      await eventually(named, "your name under the still pointer once the view followed");
    } finally {
      // Back where the next tests expect it (not asserted here: a failure above is the one to see).
      world.teleport(player, home);
    }
    await centred(home);
    // The pointer leaves the view: nothing named from it any more.
    await page.mouse.move(box.x - 10, box.y - 10);
    await eventually(async () => ((await hover()) === "" ? true : undefined), "no hover line once the pointer left");
    assert.deepEqual(pageErrors, []);
  });

  it("uses the Inventory's menus: Equip and Remove, Use on (a fire from logs), Drop all, and Pick up from the keyboard", async () => {
    const world = t.server.world.world;
    const inventory = page.getByRole("tabpanel", { name: "Inventory" });
    const count = (itemId: string) => player.data.inventory.filter((s) => s?.itemId === itemId).length;
    /** Nothing stands or lies there (a click walks). */
    const idle = (x: number, z: number) => idleTile(world, x, z);

    // Equip from the slot's menu (its first item has focus: Enter), Remove from the Equipment panel.
    await inventory.getByRole("button", { name: "Bronze dagger", exact: true }).click({ button: "right" });
    const menu = page.getByRole("menu", { name: "Bronze dagger" });
    assert.deepEqual(await menu.getByRole("menuitem").allTextContents(), [
      "Equip Bronze dagger",
      "Use Bronze dagger on…",
      "Drop Bronze dagger",
      "Examine Bronze dagger",
    ]);
    await page.keyboard.press("Enter");
    await until(() => (player.data.equipment.weapon?.itemId === "bronze_dagger" ? true : undefined), "the dagger worn");
    await page.getByRole("tab", { name: "Equipment" }).click();
    const equipment = page.getByRole("tabpanel", { name: "Equipment" });
    await equipment.getByRole("listitem").filter({ hasText: "Weapon" }).getByText("Bronze dagger").waitFor();
    await screenshot(page, "play-equipment");
    await equipment.getByRole("button", { name: "Remove Bronze dagger" }).click();
    await until(() => (player.data.equipment.weapon === undefined ? true : undefined), "the dagger removed");
    await page.getByRole("tab", { name: "Inventory" }).click();
    await inventory.getByRole("button", { name: "Bronze dagger", exact: true }).waitFor();

    // Logs to burn and drop: chopped (a tree may fall after any log: then the next one).
    for (let tries = 0; count("logs") < 3; tries++) {
      assert.ok(tries < 10, "three logs within 10 trees");
      const tree = [...world.resources.values()]
        .filter((r) => r.node.id === "tree_normal" && r.depletedUntil === 0)
        .sort((a, b) => Math.hypot(a.x - player.x, a.z - player.z) - Math.hypot(b.x - player.x, b.z - player.z))[0]!;
      await walkNear(tree, 6);
      await clickTile(page, canvas, tree.x - player.x, tree.z - player.z, "right", tileOf(player));
      await page.getByRole("menuitem", { name: `Chop ${tree.node.name}` }).click();
      const had = count("logs");
      await until(() => (count("logs") >= 3 || (count("logs") > had && tree.depletedUntil !== 0) ? true : undefined), "logs", 90_000);
    }
    // A step aside ends the chopping (a move replaces the action), so no log comes in meanwhile.
    const aside = (
      [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
        [1, 1],
        [-1, -1],
      ] as const
    ).find(([dx, dz]) => world.collision.isWalkable(player.x + dx, player.z + dz) && idle(player.x + dx, player.z + dz))!;
    const stepTo = { x: player.x + aside[0], z: player.z + aside[1] };
    await clickTile(page, canvas, aside[0], aside[1], "left", tileOf(player));
    await until(() => (player.x === stepTo.x && player.z === stepTo.z ? true : undefined), "the step aside");
    await page.waitForTimeout(400);
    const logsBefore = count("logs");

    // Use the tinderbox on logs until a fire burns (lighting can fail: 40% at level 1).
    // The fire is lit where the player stands, and the player then steps off it (as in the genre).
    const lightAt = { x: player.x, z: player.z };
    const fireHere = () => [...world.objects.values()].find((o) => o.type === "fire" && o.x === lightAt.x && o.z === lightAt.z);
    const failed = page.getByRole("log", { name: "Chat" }).getByText("You fail to light the fire.");
    for (let attempt = 0; fireHere() === undefined; attempt++) {
      assert.ok(attempt < 15, "a fire within 15 tries");
      const failures = await failed.count();
      await inventory.getByRole("button", { name: "Tinderbox", exact: true }).click();
      await page.getByRole("menu", { name: "Tinderbox" }).getByRole("menuitem", { name: "Use Tinderbox on…" }).click();
      const useOn = page.getByRole("menu", { name: "Use Tinderbox on" });
      await useOn.getByRole("menuitem", { name: "Logs", exact: true }).click();
      await Promise.race([until(fireHere, "a fire", 10_000), failed.nth(failures).waitFor({ timeout: 10_000 })]);
      // After a failure the player is busy for the recipe's ticks.
      await until(() => (player.nextActionTick <= world.tick ? true : undefined), "the player free again");
    }
    assert.equal(count("logs"), logsBefore - 1, "one log burnt");
    await until(() => (player.x !== lightAt.x || player.z !== lightAt.z ? true : undefined), "the step off the fire");

    // Drop all the logs: they lie on the player's tile, beside the fire.
    const logs = inventory.getByRole("button", { name: "Logs", exact: true });
    await logs.first().click();
    await page.getByRole("menuitem", { name: "Drop all Logs" }).click();
    await until(() => (count("logs") === 0 ? true : undefined), "every log dropped");
    await until(
      () =>
        [...world.groundItems.values()].filter((g) => g.itemId === "logs" && g.x === player.x && g.z === player.z).length === logsBefore - 1 ? true : undefined,
      "the logs on the ground",
    );
    await page.waitForTimeout(400);
    await screenshot(page, "play-fire-and-drops");

    // Pick one up from the keyboard: the canvas' tile cursor, onto the player's own tile, Enter.
    // The logs reach the page with a patch of their own: Escape and again until the menu has them
    // (until then it has no logs in it). The one menu open is the tile's.
    const tileMenu = page.getByRole("menu");
    for (let tries = 0; ; tries++) {
      assert.ok(tries < 20, "the dropped logs in the tile's menu within 20 tries");
      await canvas.focus();
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("Enter");
      const menu = page.getByRole("menu");
      await menu.waitFor();
      if ((await menu.getByRole("menuitem").allTextContents()).includes("Pick up Logs")) break;
      await page.keyboard.press("Escape");
      await menu.waitFor({ state: "detached" });
      await page.waitForTimeout(300);
    }
    await tileMenu.waitFor();
    // Alike logs give their options once (the fire is on the tile the player stepped off).
    assert.deepEqual(await tileMenu.getByRole("menuitem").allTextContents(), ["Pick up Logs", "Examine Logs", "Walk here"]);
    await screenshot(page, "play-tile-menu");
    // Down and up again wrap around the menu; Enter picks up the first item.
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowDown");
    await expectFocused(tileMenu.getByRole("menuitem").first());
    await page.keyboard.press("Enter");
    await until(() => (count("logs") === 1 ? true : undefined), "one log picked up");
    assert.equal([...world.groundItems.values()].filter((g) => g.itemId === "logs" && !g.gone).length, logsBefore - 2, "the others still lie there");
    await inventory.getByRole("button", { name: "Logs", exact: true }).waitFor();
    // Escape closes a menu, and focus goes back to the canvas.
    await page.keyboard.press("Enter");
    await tileMenu.waitFor();
    await page.keyboard.press("Escape");
    await tileMenu.waitFor({ state: "detached" });
    assert.equal(await canvas.evaluate((el) => el === document.activeElement), true);
    assert.deepEqual(pageErrors, []);
  });

  it("fights: Attack from the menu, hits and xp shown, the drop picked up and buried, death and respawn", async () => {
    const world = t.server.world.world;
    const rats = () => [...world.npcs.values()].filter((n) => n.def.id === "meadow_rat" && n.deadUntil === 0);
    const spawn = rats().sort((a, b) => Math.hypot(a.x - player.x, a.z - player.z) - Math.hypot(b.x - player.x, b.z - player.z))[0]!;
    await walkNear(spawn, 4);
    const xp = (skill: "attack" | "strength" | "defense" | "constitution" | "prayer") => Math.floor(player.data.skills[skill].xpTenths / 10);
    const before = { attack: xp("attack"), strength: xp("strength"), defense: xp("defense"), constitution: xp("constitution") };

    // A rat wanders: the menu of the tile it is on now, until it offers the attack.
    let rat = rats()[0]!;
    for (let tries = 0; ; tries++) {
      assert.ok(tries < 10, "an Attack option within 10 clicks");
      rat = rats().sort((a, b) => Math.hypot(a.x - player.x, a.z - player.z) - Math.hypot(b.x - player.x, b.z - player.z))[0]!;
      await clickTile(page, canvas, rat.x - player.x, rat.z - player.z, "right", tileOf(player));
      const attack = page.getByRole("menuitem", { name: `Attack ${npcDisplayName(rat.def)} (level 1)` });
      if (await attack.isVisible()) {
        await attack.click();
        break;
      }
      await page.keyboard.press("Escape");
      await page.waitForTimeout(300);
    }
    await until(() => (rat.health < rat.maxHealth || player.data.health < player.maxHealth ? true : undefined), "a hit", 30_000);
    await screenshot(page, "play-combat");
    await until(() => (rat.deadUntil !== 0 ? true : undefined), "the rat dead", 60_000);
    const gained = (["attack", "strength", "defense", "constitution"] as const).filter((k) => xp(k) > before[k]);
    assert.ok(gained.length > 0, "combat xp");
    await page.getByRole("tab", { name: "Skills" }).click();
    const row = page.getByRole("tabpanel", { name: "Skills" }).getByRole("row", { name: new RegExp(`^${skillName(gained[0]!)}`) });
    await row.getByText(`${xp(gained[0]!).toLocaleString("en")} /`).waitFor();
    await page.getByRole("tab", { name: "Inventory" }).click();

    // Its bones, from the ground's menu, then buried from the Inventory's.
    const bones = await until(() => [...world.groundItems.values()].find((g) => g.itemId === "bones" && !g.gone), "the bones", 10_000);
    // The bones reach the page with a patch of its own: a right click (a menu, never a walk) until
    // the tile's menu offers them.
    for (let tries = 0; ; tries++) {
      assert.ok(tries < 20, "a Pick up Bones option within 20 clicks");
      await clickTile(page, canvas, bones.x - player.x, bones.z - player.z, "right", tileOf(player));
      const pickUp = page.getByRole("menuitem", { name: "Pick up Bones" }).first();
      if (await pickUp.isVisible()) {
        await pickUp.click();
        break;
      }
      await page.keyboard.press("Escape");
      await page.waitForTimeout(300);
    }
    const inventory = page.getByRole("tabpanel", { name: "Inventory" });
    await inventory.getByRole("button", { name: "Bones", exact: true }).click({ button: "right" });
    const prayer = xp("prayer");
    await page.getByRole("menuitem", { name: "Bury Bones" }).click();
    await until(() => (xp("prayer") > prayer ? true : undefined), "prayer xp");
    await inventory.getByRole("button", { name: "Bones", exact: true }).waitFor({ state: "detached" });

    // A level-up (xp through the server's own addXp): the words in the chat and the notice, the
    // new level in the Skills panel.
    addXp(world, player, "cooking", 100);
    const congratulations = "Congratulations, you just advanced a Cooking level. You are now level 2.";
    await page.getByRole("log", { name: "Chat" }).getByText(congratulations).waitFor();
    await page.locator("#notice").getByText(congratulations).waitFor();
    await page.getByRole("tab", { name: "Skills" }).click();
    const cooking = page.getByRole("tabpanel", { name: "Skills" }).getByRole("row", { name: /^Cooking/ });
    assert.equal(await cooking.locator("td.level").textContent(), "2");
    await screenshot(page, "play-level-up");
    await page.getByRole("tab", { name: "Inventory" }).click();

    // Death (the server's own rule, run here rather than waiting for a fight to go that badly):
    // the notice, the chat's words, and the view at the respawn.
    const at = { x: player.x, z: player.z };
    killPlayer(world, player, "meadow_rat");
    await page.getByText("Oh dear, you are dead!").first().waitFor();
    await page
      .getByRole("log", { name: "Chat" })
      .getByText(`You were killed by ${npcDisplayName(rat.def)} at ${at.x}, ${at.z}`, { exact: false })
      .waitFor();
    await until(() => (player.x !== at.x || player.z !== at.z ? true : undefined), "the respawn");
    await page.getByText(`Position ${player.x}, ${player.z}`).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, "play-death");
    assert.deepEqual(pageErrors, []);
  });

  it("says so when another login takes the character over, and offers the start screen", async () => {
    const second = await context.newPage();
    second.on("pageerror", (err) => pageErrors.push(err.message));
    await playAnonymously(second, t.baseUrl);
    await enterWorld(second, NAME);
    await page.getByRole("status").getByText("Disconnected: this character logged in from another connection").waitFor();
    await screenshot(page, "play-taken-over");
    await page.getByRole("button", { name: "Back to the start screen" }).click();
    await page.getByRole("button", { name: "Play", exact: true }).waitFor();
    await second.close();
    assert.deepEqual(pageErrors, []);
  });

  it("asks before playing a character an agent plays: Cancel leaves it to the agent, Play anyway logs the agent out", async () => {
    const errors: string[] = [];
    const other = await openPage(browser, errors);
    try {
      const p = other.page;
      await playAnonymously(p, t.baseUrl);
      await createCharacter(p, "Delta");
      await createCharacter(p, "Echo");
      const token = await p.evaluate(() => localStorage.getItem("rsworld.token"));
      const rest = async (method: string, path: string, body?: unknown) =>
        (await (
          await fetch(t.baseUrl + path, {
            method,
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          })
        ).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      const delta = ((await rest("GET", "/api/character")).characters as { id: string; name: string }[]).find((c) => c.name === "Delta")!;
      const registered = await rest("POST", "/api/agent", { characterId: delta.id, name: "Helper" });
      const agent = await WsTestClient.connect(`${t.wsUrl}?token=${registered.token}`);
      await agent.next("welcome");
      await playAnonymously(p, t.baseUrl);
      const row = (name: string) => p.getByRole("region", { name: "Your characters" }).getByRole("listitem").filter({ hasText: name });
      await row("Delta").getByText("in the world · played by the agent Helper").waitFor();
      assert.equal(await row("Echo").getByText("played by").count(), 0, "Echo has no agent");

      // Play asks first; Cancel leaves the character to its agent.
      await p.getByRole("button", { name: "Play Delta", exact: true }).click();
      await row("Delta")
        .getByText("Delta is played by the agent Helper. Playing logs the agent out, and it stays stopped until it is run again from the agent dashboard.")
        .waitFor();
      await screenshot(p, "characters-confirm-play-agent");
      await p.getByRole("button", { name: "Cancel playing Delta" }).click();
      await p.getByRole("button", { name: "Play Delta", exact: true }).waitFor();
      assert.equal(t.server.world.connectionOf(delta.id)?.transport, "ws", "the agent still plays Delta");
      assert.ok(!agent.events.some((e) => e.type === "error"), "nothing was said to the agent");

      // Play anyway: the player is in the world, the agent logged out (another login took over).
      await p.getByRole("button", { name: "Play Delta", exact: true }).click();
      await p.getByRole("button", { name: "Play Delta anyway" }).click();
      await p.getByRole("log", { name: "Chat" }).getByText("Welcome, Delta.").waitFor();
      assert.equal((await agent.waitClosed()).code, 4009);
      assert.equal(t.server.world.connectionOf(delta.id)?.transport, "colyseus");
      assert.deepEqual(errors, []);
    } catch (err) {
      await screenshot(other.page, "failed-confirm-play-agent").catch(() => {});
      throw err;
    } finally {
      await other.context.close().catch(() => {});
    }
  });

  it("creates, plays and deletes characters; a taken name and a character in the world are refused in words", async () => {
    const errors: string[] = [];
    const other = await openPage(browser, errors);
    try {
      const p = other.page;
      await playAnonymously(p, t.baseUrl);
      const options = p.getByRole("combobox", { name: "Template" }).locator("option");
      await options.first().waitFor({ state: "attached" });
      const templates = await options.allTextContents();
      assert.ok(templates.length >= 1, "templates are listed");
      await createCharacter(p, "Alpha", templates.at(-1));
      await createCharacter(p, "Bravo");
      const list = p.getByRole("region", { name: "Your characters" }).getByRole("listitem");
      assert.deepEqual(await list.locator(".character-name").allTextContents(), ["Alpha", "Bravo"]);

      // A name someone has is refused by the server, and the words say so.
      await p.getByRole("textbox", { name: "Character name" }).fill(NAME);
      await p.getByRole("button", { name: "Create character" }).click();
      await p.getByRole("alert").getByText(`Could not create ${NAME}:`).waitFor();
      assert.equal(await list.count(), 2);

      // Delete asks first; Keep keeps.
      await p.getByRole("button", { name: "Delete Alpha", exact: true }).click();
      await p.getByRole("button", { name: "Keep Alpha" }).click();
      assert.equal(await list.count(), 2);
      await p.getByRole("button", { name: "Delete Alpha", exact: true }).click();
      await screenshot(p, "characters-confirm-delete");
      await p.getByRole("button", { name: "Delete Alpha for good" }).click();
      await p.getByRole("status").getByText("Alpha was deleted.").waitFor();
      assert.equal(await list.count(), 1);
      const token = await p.evaluate(() => localStorage.getItem("rsworld.token"));
      const listed = (await (await fetch(`${t.baseUrl}/api/character`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        characters: { name: string }[];
      };
      assert.deepEqual(
        listed.characters.map((c) => c.name),
        ["Bravo"],
      );
      await screenshot(p, "characters");

      await enterWorld(p, "Bravo");
      const bravo = await livePlayer(t, "Bravo");
      assert.notEqual(bravo.data.accountId, player.data.accountId, "another browser, another anonymous account");

      // From a second tab of the same browser: Bravo is in the world, and cannot be deleted.
      const tab = await other.context.newPage();
      await playAnonymously(tab, t.baseUrl);
      const row = tab.getByRole("listitem").filter({ hasText: "Bravo" });
      await row.getByText("in the world").waitFor();
      await tab.getByRole("button", { name: "Delete Bravo", exact: true }).click();
      await tab.getByRole("button", { name: "Delete Bravo for good" }).click();
      await tab.getByRole("alert").getByText("Could not delete Bravo: log the character out before deleting it").waitFor();
      await screenshot(tab, "characters-delete-refused");
      assert.ok(t.server.world.world.players.has(bravo.id));
      // The failed deletion's 409 is the one console error the page may show.
      assert.deepEqual(
        errors.filter((e) => !/status of 409/.test(e)),
        [],
      );
    } catch (err) {
      await screenshot(other.page, "failed-characters").catch(() => {});
      throw err;
    } finally {
      // A failure above is the one to report, not a context that went with it.
      await other.context.close().catch(() => {});
    }
  });

  it("shows the start and character screens' and the world's panels' text and links with enough contrast to read (WCAG AA, 4.5:1)", async () => {
    const errors: string[] = [];
    const other = await openPage(browser, errors);
    try {
      const p = other.page;
      await p.goto(t.baseUrl + "/");
      await p.getByRole("button", { name: "Play", exact: true }).waitFor();
      assert.deepEqual(await lowContrastTexts(p), [], "the start screen");
      // The footer leads to the server's API reference page.
      await p.getByRole("link", { name: "HTTP API reference" }).click();
      await p.waitForURL(/\/api\/reference$/);
      assert.equal(await p.title(), "rs-world-server: HTTP API reference");
      await playAnonymously(p, t.baseUrl);
      await p.getByRole("link", { name: "Agent dashboard" }).waitFor();
      assert.deepEqual(await lowContrastTexts(p), [], "the character screen");
      await createCharacter(p, "Legible");
      await enterWorld(p, "Legible");
      const tabs = p.getByRole("tab");
      for (const name of await tabs.allTextContents()) {
        await tabs.filter({ hasText: name }).click();
        assert.deepEqual(await lowContrastTexts(p), [], `the world's panels, ${name} shown`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await other.context.close();
    }
  });

  it("offers Create character only once the templates are listed: a quick click or Enter never sends a character without one", async () => {
    const errors: string[] = [];
    const other = await openPage(browser, errors);
    const posts: string[] = [];
    try {
      const p = other.page;
      // The templates arrive late (a slow link); every character creation the page sends is kept.
      let listTemplates!: () => void;
      const templatesAnswered = new Promise<void>((resolve) => (listTemplates = resolve));
      await p.route("**/api/template", async (route) => {
        await templatesAnswered;
        await route.continue();
      });
      p.on("request", (req) => {
        if (req.method() === "POST" && new URL(req.url()).pathname === "/api/character") posts.push(req.postData() ?? "");
      });
      await playAnonymously(p, t.baseUrl);
      const create = p.getByRole("button", { name: "Create character" });
      const name = p.getByRole("textbox", { name: "Character name" });
      await name.fill("Quick");
      assert.equal(await create.isDisabled(), true, "Create character is disabled while there is no template");
      await name.press("Enter");
      await p.waitForTimeout(300);
      assert.deepEqual(posts, [], "nothing was sent");
      assert.equal(await p.getByRole("alert").textContent(), "", "no refusal shown");

      listTemplates();
      await eventually(async () => ((await create.isEnabled()) ? true : undefined), "Create character enabled once the templates are listed");
      await createCharacter(p, "Quick");
      assert.equal(posts.length, 1);
      assert.notEqual(JSON.parse(posts[0]!).templateId, "", "the character was created with a template");
      assert.deepEqual(errors, []);
    } catch (err) {
      await screenshot(other.page, "failed-create-early").catch(() => {});
      throw err;
    } finally {
      await other.context.close().catch(() => {});
    }
  });
});

async function expectFocused(item: Locator): Promise<void> {
  assert.equal(await item.evaluate((el) => el === document.activeElement), true, "the first item has focus");
}

describe("browser client: signing in with an identity provider (real Chromium)", function () {
  this.timeout(120_000);
  let t: TestServer;
  let browser: Browser;
  let dist: string;
  const errors: string[] = [];

  before(async () => {
    dist = await buildClient();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "200", PUBLIC_IDP_APP_ID: "the-app", IDP_APP_SECRET: "idp-secret" });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  it("asks for the provider's token instead of Play, refuses a bad one in words, and plays with a good one", async () => {
    const { page } = await openPage(browser, errors);
    await page.goto(t.baseUrl + "/");
    const field = page.getByLabel("Identity-provider token");
    await field.waitFor();
    assert.equal(await page.getByRole("button", { name: "Play", exact: true }).count(), 0, "no anonymous Play with a provider");

    await field.fill(await signJwt({ sub: "user-1" }, "not-the-secret", { audience: "the-app" }));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("That token was not accepted").waitFor();
    await screenshot(page, "idp-refused");

    await field.fill(await signJwt({ sub: "user-1" }, "idp-secret", { audience: "the-app", expiresIn: 600 }));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("region", { name: "Your characters" }).waitFor();
    await createCharacter(page, "Provided");
    await enterWorld(page, "Provided");
    const p = await livePlayer(t, "Provided");
    assert.equal(p.data.accountId.length > 0, true);
    await screenshot(page, "idp-playing");
    // The refused token's request shows in the console as a failed (401) load; nothing else may.
    assert.deepEqual(
      errors.filter((e) => !/status of 401/.test(e)),
      [],
    );
  });
});
