/**
 * Single-way combat as a player sees it, in real Chromium against a real server serving a fresh
 * build of client/ (as play.test.ts): while another player (a /ws client here) fights a rat, the
 * browser player's "Attack" on it is refused, and the chat says so in the game's words, "Someone
 * else is fighting that." (the `error` line, client/src/main.ts), with no hit of its own.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { npcDisplayName } from "../../client/src/names.ts";
import type { TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";
import {
  artifacts,
  besideStillNpc,
  createCharacter,
  enterWorld,
  livePlayer,
  openPage,
  pickFromMenu,
  playAnonymously,
  screenshot,
  startBrowserStage,
  type BrowserStage,
} from "./support.ts";

describe("browser client: single-way combat's refusal (real Chromium)", function () {
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
    for (const [i, p] of context.pages().entries()) await screenshot(p, `single-combat-failed-${i}`).catch(() => {});
    fs.writeFileSync(`${artifacts}/single-combat-failed-errors.txt`, [`test: ${this.currentTest.err?.message ?? ""}`, ...pageErrors].join("\n"));
  });

  after(async () => {
    await stage?.close();
  });

  it('shows "Someone else is fighting that." when attacking a monster another player fights', async () => {
    const world = t.server.world.world;
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Latecomer");
    await enterWorld(page, "Latecomer");
    const player = await livePlayer(t, "Latecomer");
    // A rat held still, many hits to take, not hitting back: the other player's fight goes on.
    const rat = await besideStillNpc(page, world, player, "meadow_rat", {
      hold: { health: 10_000, maxHealth: 10_000, combat: { aggressive: false, retaliates: false } },
    });
    const other = await WsTestClient.connect(`${t.wsUrl}?name=Firstcomer`);
    try {
      const otherId = String((await other.next("welcome")).characterId);
      const side = [
        [-1, 0],
        [0, 1],
        [0, -1],
      ].find(([dx, dz]) => world.collision.isWalkable(rat.x + dx!, rat.z + dz!))!;
      assert.ok(world.teleport(world.players.get(otherId)!, { x: rat.x + side[0]!, z: rat.z + side[1]! }));
      other.send("player:action", { action: "attack", targetId: rat.id });
      for (;;) if ((await other.next("combat:hit", 10_000)).attackerId === otherId) break;

      await pickFromMenu(page, player, rat, `Attack ${npcDisplayName(rat.def)} (level ${rat.def.stats?.level ?? 1})`);
      await page.getByRole("log", { name: "Chat" }).getByText("Someone else is fighting that.").first().waitFor();
      await screenshot(page, "single-combat-refused");
      assert.equal(player.action, undefined, "no attack under way");
      assert.ok(!rat.damageBy.has(player.id), "no hit of the latecomer's");
      assert.ok(rat.damageBy.has(otherId));
    } finally {
      other.close();
    }
  });
});
