/**
 * What the browser tests share: a fresh build of client/ (the current sources, not whatever
 * client/dist holds) in a temporary directory, Chromium (the binary the npm package
 * @sparticuz/chromium ships, so nothing beyond `npm install` is needed) driven by playwright-core
 * headless with WebGL (SwiftShader), pages whose errors are collected, screenshots in
 * test-artifacts/browser/ (git-ignored), and the steps a person takes on the start screen.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { build } from "vite";
import { hasLineOfSight } from "../../src/game/map/lineOfSight.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { Player } from "../../src/game/world/Player.ts";
import type { World } from "../../src/game/world/World.ts";
import { freeTile, holdStill, type Hold, type Tile } from "../support/placing.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";

const root = path.join(import.meta.dirname, "..", "..");
export const artifacts = path.join(root, "test-artifacts", "browser");
/** Pixels per tile in the world view (client/src/WorldScene.ts TILE). */
export const TILE = 32;

/** Builds the client into a temporary directory; the caller removes it. */
export async function buildClient(): Promise<string> {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-client-build-"));
  await build({ configFile: path.join(root, "client", "vite.config.ts"), logLevel: "error", build: { outDir: dist, emptyOutDir: true } });
  return dist;
}

/** What a browser test runs against: a fresh client build, a server serving it, and Chromium. */
export interface BrowserStage {
  t: TestServer;
  browser: Browser;
  dist: string;
  /** Closes the browser and the server and removes the build. */
  close(): Promise<void>;
}

/**
 * Builds the client, starts a server serving it (`env`, beside CLIENT_BUILD_DIR) and launches
 * Chromium; what started is closed again if a later step fails.
 */
export async function startBrowserStage(env: Record<string, string> = {}): Promise<BrowserStage> {
  const dist = await buildClient();
  let t: TestServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  };
  try {
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, ...env });
    browser = await launchBrowser();
  } catch (err) {
    await close();
    throw err;
  }
  return { t, browser, dist, close };
}

/**
 * Chromium with the package's arguments but `--single-process` (meant for AWS Lambda): in one
 * process, browser contexts share localStorage, so two "separate" browsers were one anonymous
 * identity. WebGL (SwiftShader) works without it.
 */
export function launchBrowser(): Promise<Browser> {
  const args = chromium.args.filter((a) => a !== "--single-process");
  return chromium.executablePath().then((executablePath) => playwright.launch({ executablePath, args, headless: true }));
}

/** A page in its own context (its own localStorage: its own anonymous identity), errors collected. */
export async function openPage(browser: Browser, errors: string[]): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 700 } });
  const page = await context.newPage();
  page.on("pageerror", (err) => errors.push(err.message));
  // Every console error counts: a failed request (a 404 of a manifest the client asked for) logs one.
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`${msg.text()} (${msg.location().url})`);
  });
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`) });
}

/** Play (anonymous), then the character screen. */
export async function playAnonymously(page: Page, baseUrl: string): Promise<Locator> {
  await page.goto(baseUrl + "/");
  await page.getByRole("button", { name: "Play", exact: true }).click();
  const characters = page.getByRole("region", { name: "Your characters" });
  await characters.waitFor();
  return characters;
}

/** Creates a character on the character screen (the default template unless one is named). */
export async function createCharacter(page: Page, name: string, template?: string): Promise<void> {
  await page.getByRole("textbox", { name: "Character name" }).fill(name);
  if (template !== undefined) await page.getByRole("combobox", { name: "Template" }).selectOption({ label: template });
  await page.getByRole("button", { name: "Create character" }).click();
  await page.getByRole("button", { name: `Play ${name}`, exact: true }).waitFor();
}

/** Plays a character from the character screen; resolves once the world is shown and welcomed. */
export async function enterWorld(page: Page, name: string): Promise<Locator> {
  await page.getByRole("button", { name: `Play ${name}`, exact: true }).click();
  await page.getByRole("log", { name: "Chat" }).getByText(`Welcome, ${name}.`).waitFor();
  const canvas = page.getByLabel("Game world");
  await canvas.waitFor({ state: "visible" });
  return canvas;
}

/** The live player of a character, by name. */
export function livePlayer(t: TestServer, name: string) {
  return until(() => [...t.server.world.world.players.values()].find((p) => p.data.name === name), `${name} in the world`, 15_000);
}

/** A browser test playing one character: its stage, its page and what the page said went wrong, the world view and the live player. */
export interface Playing extends BrowserStage {
  context: BrowserContext;
  page: Page;
  /** The page's errors and console errors (see {@link openPage}). */
  errors: string[];
  /** The world view (the canvas labelled Game world). */
  canvas: Locator;
  player: Player;
}

/**
 * The setup most browser tests share: a stage ({@link startBrowserStage}, `env` for the server), a
 * page, Play (anonymous), a new character `name` (of `template`, else the default) and into the
 * world. What started is closed again if a later step fails.
 */
export async function startPlaying(name: string, opts: { env?: Record<string, string>; template?: string } = {}): Promise<Playing> {
  const stage = await startBrowserStage(opts.env);
  try {
    const errors: string[] = [];
    const { context, page } = await openPage(stage.browser, errors);
    await playAnonymously(page, stage.t.baseUrl);
    await createCharacter(page, name, opts.template);
    const canvas = await enterWorld(page, name);
    const player = await livePlayer(stage.t, name);
    return { ...stage, context, page, errors, canvas, player };
  } catch (err) {
    await stage.close();
    throw err;
  }
}

/**
 * For an afterEach: once `test` failed, keeps a screenshot of each page of `play`'s context and a
 * text of the test's error and the page's errors, in test-artifacts/browser/ named
 * `<prefix>-failed-<title>` (a second page's screenshot `…-1`).
 */
export async function keepFailure(test: Mocha.Test | undefined, prefix: string, play: Pick<Playing, "context" | "errors"> | undefined): Promise<void> {
  if (test?.state !== "failed") return;
  const name = `${prefix}-failed-${test.title.slice(0, 40).replace(/\W+/g, "-")}`;
  for (const [i, p] of (play?.context.pages() ?? []).entries()) await screenshot(p, i === 0 ? name : `${name}-${i}`).catch(() => {});
  fs.mkdirSync(artifacts, { recursive: true });
  fs.writeFileSync(path.join(artifacts, `${name}-errors.txt`), [`test: ${test.err?.message ?? ""}`, ...(play?.errors ?? [])].join("\n"));
}

/**
 * The page point of a tile `dx, dz` tiles from the player (the camera keeps the player at the
 * canvas' centre while the world's edge is farther than half the view). With `from` (the player's
 * tile), it first waits until the view is centred there (the canvas' `data-view-center`): right
 * after a walk the view may still be sliding, and on a loaded machine for a while.
 */
export async function tilePoint(canvas: Locator, dx: number, dz: number, from?: { x: number; z: number }): Promise<{ x: number; y: number }> {
  if (from !== undefined) {
    const want = `${from.x},${from.z}`;
    await eventually(async () => ((await canvas.getAttribute("data-view-center")) === want ? true : undefined), `the view centred on ${want}`, 30_000);
  }
  const box = (await canvas.boundingBox())!;
  return { x: box.x + box.width / 2 + dx * TILE, y: box.y + box.height / 2 + dz * TILE };
}

/** Clicks the canvas on a tile, `dx, dz` tiles from the player (see {@link tilePoint}). */
export async function clickTile(
  page: Page,
  canvas: Locator,
  dx: number,
  dz: number,
  button: "left" | "right" = "left",
  from?: { x: number; z: number },
): Promise<void> {
  const at = await tilePoint(canvas, dx, dz, from);
  await page.mouse.click(at.x, at.y, { button });
}

/**
 * A right click on a tile (its menu, always), then an item of the menu: by its whole name, or a
 * pattern. Again (up to 5 times) if the thing moved away meanwhile or the view was a tick behind.
 */
export async function pickFromMenu(page: Page, player: Player, at: Tile, item: string | RegExp): Promise<void> {
  const name = typeof item === "string" ? { name: item, exact: true } : { name: item };
  for (let attempt = 1; ; attempt++) {
    await clickTile(page, page.getByLabel("Game world"), at.x - player.x, at.z - player.z, "right", player);
    try {
      await page.getByRole("menu").getByRole("menuitem", name).click({ timeout: 2_000 });
      return;
    } catch (err) {
      if (attempt === 5) throw err;
      await page.keyboard.press("Escape");
    }
  }
}

/**
 * Puts the player on a walkable tile (a test's shortcut for a walk; the tests run between two of the
 * in-process server's ticks) and waits until the page says it stands there.
 */
export async function teleport(page: Page, world: World, player: Player, to: Tile): Promise<void> {
  assert.ok(world.teleport(player, to), `a walkable tile at ${to.x}, ${to.z}`);
  await page.getByText(`Position ${to.x}, ${to.z}`).waitFor();
}

/**
 * Puts the player beside a thing (an NPC, a station, a resource): on the first walkable tile of
 * `offsets` from it (the four next to it unless given), as {@link teleport}. Returns the tile.
 */
export async function placeBeside(page: Page, world: World, player: Player, at: Tile, offsets?: readonly (readonly [number, number])[]): Promise<Tile> {
  const tile = freeTile(world, at, offsets);
  assert.ok(tile !== undefined, `a free tile near ${at.x}, ${at.z}`);
  await teleport(page, world, player, tile);
  return tile;
}

/**
 * A living NPC of a kind with a walkable tile `distance` east of it (in its line of sight when
 * asked: a spell needs it), held still there (test/support/placing.ts holdStill, with `hold`'s
 * health and combat), and the player put on that tile (as {@link teleport}).
 */
export async function besideStillNpc(
  page: Page,
  world: World,
  player: Player,
  kind: string,
  opts: { distance?: number; lineOfSight?: boolean; hold?: Hold } = {},
): Promise<NpcInstance> {
  const d = opts.distance ?? 1;
  const npc = [...world.npcs.values()].find(
    (n) =>
      n.def.id === kind &&
      n.deadUntil === 0 &&
      world.collision.isWalkable(n.x + d, n.z) &&
      (opts.lineOfSight !== true || hasLineOfSight(world.collision, { x: n.x + d, z: n.z }, n)),
  );
  assert.ok(npc !== undefined, `a living ${kind} with a free tile ${d} east of it${opts.lineOfSight === true ? " in its line of sight" : ""}`);
  holdStill(npc, opts.hold);
  await teleport(page, world, player, { x: npc.x + d, z: npc.z });
  return npc;
}

/**
 * The page's visible text that fails WCAG AA's contrast (4.5:1) against what is behind it: each
 * element with text of its own, its colour against its ancestors' backgrounds composited from the
 * page's down (translucent panels included); inactive controls are exempt, as WCAG has them.
 * Returns "text: ratio" for each failure.
 */
export function lowContrastTexts(page: Page, within = "body"): Promise<string[]> {
  return page.evaluate((selector) => {
    type Rgba = [number, number, number, number];
    const parse = (css: string): Rgba => {
      const m = /rgba?\(([^)]+)\)/.exec(css);
      if (m === null) return [0, 0, 0, 0];
      const [r, g, b, a] = m[1]!
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [r!, g!, b!, a ?? 1];
    };
    const over = (top: Rgba, under: Rgba): Rgba => {
      const a = top[3];
      return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1];
    };
    const luminance = (c: Rgba) => {
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
    };
    const failures: string[] = [];
    const root = document.querySelector(selector);
    if (root === null) return [`nothing matches ${selector}`];
    for (const el of [root, ...Array.from(root.querySelectorAll("*"))]) {
      const own = Array.from(el.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== "");
      if (own.length === 0 || !(el instanceof HTMLElement) || el.offsetParent === null) continue;
      // Inactive controls are exempt (WCAG 1.4.3): an empty inventory slot, a disabled button.
      if (el.closest('[aria-disabled="true"], :disabled') !== null) continue;
      const chain: Element[] = [];
      for (let e: Element | null = el; e !== null; e = e.parentElement) chain.unshift(e);
      let bg: Rgba = [255, 255, 255, 1];
      for (const e of chain) bg = over(parse(getComputedStyle(e).backgroundColor), bg);
      const fg = over(parse(getComputedStyle(el).color), bg);
      const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x) as [number, number];
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < 4.5) failures.push(`${own.map((n) => n.textContent!.trim()).join(" ")}: ${ratio.toFixed(2)}`);
    }
    return failures;
  }, within);
}
