/**
 * Issue 46's "done when", tried as a new player would, in real Chromium against a real server
 * serving a fresh build of client/ (as play.test.ts): a new character (the default starter kit, its
 * own 25 coins) picks Aggressive in the Combat tab, punches a monster and sees Strength xp in the
 * Skills tab; buys an air and a mind rune at Maelis's rune shop with its own coins and casts Wind
 * Strike on the monster (Magic xp); prays Hearthward. On the way the hit splats are found on the
 * canvas by their colours (client/src/hitSplats.ts): the melee badge over the monster while it
 * punches, the magic badge after the cast, and a miss (the blue disc inside its black and white
 * rings) over the player's own blue figure.
 */
import { npcDisplayName } from "../../client/src/names.ts";
import assert from "node:assert/strict";
import fs from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { SPLAT_BADGES, SPLAT_MISS } from "../../client/src/hitSplats.ts";
import type { Player } from "../../src/game/world/Player.ts";
import type { TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import {
  artifacts,
  besideStillNpc,
  clickTile,
  createCharacter,
  enterWorld,
  livePlayer,
  openPage,
  placeBeside,
  pickFromMenu,
  playAnonymously,
  screenshot,
  startBrowserStage,
  teleport,
  type BrowserStage,
} from "./support.ts";

describe("browser client: a new player fights in a style, casts Wind Strike and prays (real Chromium)", function () {
  this.timeout(240_000);
  let stage: BrowserStage;
  let t: TestServer;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    stage = await startBrowserStage({ TICK_MS: "100" });
    t = stage.t;
    ({ context, page } = await openPage(stage.browser, pageErrors));
  });

  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    for (const [i, p] of context.pages().entries()) await screenshot(p, `new-player-combat-failed-${i}`).catch(() => {});
    fs.writeFileSync(`${artifacts}/new-player-combat-failed-errors.txt`, [`test: ${this.currentTest.err?.message ?? ""}`, ...pageErrors].join("\n"));
  });

  after(async () => {
    await stage?.close();
  });

  const serverHas = (what: string, probe: () => boolean) => until(() => (probe() ? true : undefined), what, 20_000);
  const count = (p: Player, itemId: string) => p.data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);

  /**
   * Pixels of each colour in a screenshot of the canvas (within `radius` pixels of its centre, if
   * given), decoded by the page's own image code. Fills are drawn flat (no antialiasing: main.ts),
   * so a splat's colours are exact inside its shapes.
   */
  async function colourCounts(png: Buffer, colours: number[], radius?: number): Promise<number[]> {
    return page.evaluate(
      async ({ b64, colours, radius }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement("canvas");
        c.width = img.width;
        c.height = img.height;
        const g = c.getContext("2d")!;
        g.drawImage(img, 0, 0);
        const { data, width, height } = g.getImageData(0, 0, img.width, img.height);
        const counts = colours.map(() => 0);
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            if (radius !== null && (Math.abs(x - width / 2) > radius || Math.abs(y - height / 2) > radius)) continue;
            const i = (y * width + x) * 4;
            const rgb = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
            const k = colours.indexOf(rgb);
            if (k >= 0) counts[k]!++;
          }
        }
        return counts;
      },
      { b64: png.toString("base64"), colours, radius: radius ?? null },
    );
  }

  /**
   * Until a screenshot of the canvas shows at least `min` pixels of every colour. A splat lasts about
   * a second, a screenshot on a loaded machine may take longer: `meanwhile` (sending hits) runs
   * every 200 ms while it looks.
   */
  async function seen(what: string, colours: number[], opts: { radius?: number; min?: number; meanwhile?: () => void } = {}): Promise<void> {
    const canvas = page.getByLabel("Game world");
    const timer = opts.meanwhile === undefined ? undefined : setInterval(opts.meanwhile, 200);
    try {
      await eventually(
        async () => {
          const counts = await colourCounts(await canvas.screenshot(), colours, opts.radius);
          return counts.every((n) => n >= (opts.min ?? 8)) ? true : undefined;
        },
        what,
        30_000,
      );
    } finally {
      clearInterval(timer);
    }
  }

  /** A right click on a tile, then an item of its menu (support.ts pickFromMenu). */
  const pick = (player: Player, at: { x: number; z: number }, item: string) => pickFromMenu(page, player, at, item);

  it("picks Aggressive and sees Strength xp, buys runes and casts Wind Strike, and prays", async () => {
    const world = t.server.world.world;
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Newcomer");
    const canvas = await enterWorld(page, "Newcomer");
    const player = await livePlayer(t, "Newcomer");
    assert.equal(count(player, "coins") + player.data.coins, 25, "the starter kit's coins, nothing given");

    // Aggressive, unarmed: Kick (kicks train Strength).
    await page.getByRole("tab", { name: "Combat" }).click();
    const styles = page.getByRole("tabpanel", { name: "Combat" }).getByRole("list", { name: "Attack styles" });
    await styles.getByRole("button", { name: "Kick" }).click();
    await styles.getByRole("button", { name: "Kick", pressed: true }).waitFor();
    await serverHas("the server's style aggressive", () => player.data.combatStyle === "aggressive");

    // A rat that stands still, does not fight back and takes many hits (set between two ticks):
    // the hits keep coming while the test looks for them.
    const rat = await besideStillNpc(page, world, player, "meadow_rat", {
      hold: { health: 1000, maxHealth: 1000, combat: { aggressive: false, retaliates: false } },
    });
    await pick(player, rat, `Attack ${npcDisplayName(rat.def)} (level ${rat.def.stats?.level ?? 1})`);
    await serverHas("Strength xp from a punch", () => player.data.skills.strength.xpTenths > 0);
    assert.equal(player.data.skills.attack.xpTenths, 0, "no Attack xp in the aggressive style");
    // Melee splats over the rat: the steel-grey badge of melee (its sword drawn in white).
    await seen("a melee splat", [SPLAT_BADGES.melee.fill]);
    await page.getByRole("tab", { name: "Skills" }).click();
    // Some Strength xp (level 2 too, on a slow machine where the punches go on before the panel is read).
    await page.getByRole("progressbar", { name: /^Strength progress: [1-9]\d* of \d+ xp for level \d+$/ }).waitFor();
    assert.match((await page.getByRole("progressbar", { name: /^Attack progress/ }).getAttribute("aria-label"))!, /^Attack progress: 0 of 83 xp/);
    await screenshot(page, "new-player-strength-xp");

    // The rune shop, Maelis's in Brackenford (the walk there skipped: put two tiles from her), with the starter kit's coins.
    const keeper = [...world.npcs.values()].find((n) => n.service?.storeId === "brackenford_runes")!;
    assert.ok(keeper, "the rune shop's keeper");
    await placeBeside(page, world, player, keeper, [
      [-2, 0],
      [0, -2],
      [2, 0],
      [0, 2],
    ]);
    await pick(player, keeper, `Trade ${keeper.def.name}`);
    const store = page.getByRole("dialog", { name: "Maelis's Runes" });
    await store.waitFor();
    const buy = store.getByRole("group", { name: "Buy" });
    await buy.getByRole("button", { name: /^Air rune, 4 coins(, [0-9,]+ in stock)?$/ }).click();
    await serverHas("an air rune bought", () => count(player, "air_rune") === 1);
    await buy.getByRole("button", { name: /^Mind rune, 3 coins(, [0-9,]+ in stock)?$/ }).click();
    await serverHas("a mind rune bought", () => count(player, "mind_rune") === 1);
    await store.getByRole("button", { name: "Close" }).click();
    await store.waitFor({ state: "hidden" });
    assert.equal(count(player, "coins") + player.data.coins, 18, "7 coins spent");

    // Back beside the rat (put there), Wind Strike chosen in the Spellbook, then the rat clicked.
    await teleport(page, world, player, { x: rat.x + 1, z: rat.z });
    await page.getByRole("tab", { name: "Spellbook" }).click();
    const wind = page.getByRole("tabpanel", { name: "Spellbook" }).getByRole("button", { name: /^Wind Strike, level 1/ });
    await eventually(async () => ((await wind.getAttribute("aria-disabled")) === "false" ? true : undefined), "Wind Strike castable", 10_000);
    await wind.click();
    await clickTile(page, canvas, rat.x - player.x, rat.z - player.z, "left", player);
    await serverHas("Wind Strike cast: its runes used", () => count(player, "air_rune") === 0 && count(player, "mind_rune") === 0);
    await serverHas("Magic xp (5.5 a cast)", () => player.data.skills.magic.xpTenths >= 55);
    await page.getByRole("tab", { name: "Skills" }).click();
    await page.getByRole("progressbar", { name: /^Magic progress: [1-9]\d* of 83 xp for level 2$/ }).waitFor();

    // The magic splat: the cast was one hit; the server's next ones (sent every 200 ms while looking,
    // as a second caster's would be) keep it in view long enough to find on a loaded machine.
    const again = () =>
      world.send(player.id, "combat:hit", {
        attackerId: player.id,
        targetId: rat.id,
        damage: 0,
        style: "magic",
        targetHealth: rat.health,
        targetMaxHealth: rat.maxHealth,
      });
    await seen("a magic splat", [SPLAT_BADGES.magic.fill], { meanwhile: again });

    // A miss on the player's own blue figure: the blue disc and its white ring, at the canvas' centre.
    const miss = () =>
      world.send(player.id, "combat:hit", {
        attackerId: rat.id,
        targetId: player.id,
        damage: 0,
        style: "melee",
        targetHealth: player.data.health,
        targetMaxHealth: player.maxHealth,
      });
    await seen("a miss over the blue player", [SPLAT_MISS, 0xffffff, 0x000000], { radius: 24, meanwhile: miss });
    await screenshot(page, "new-player-miss-splat");

    // Prayer: Hearthward, from the Prayer tab.
    await page.getByRole("tab", { name: "Prayer" }).click();
    const prayers = page.getByRole("tabpanel", { name: "Prayer" }).getByRole("list", { name: "Prayers" });
    await prayers.getByRole("button", { name: "Hearthward" }).click();
    await serverHas("Hearthward active on the server", () => player.activePrayers.includes("hearthward"));
    await prayers.getByRole("button", { name: "Hearthward", pressed: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
