/**
 * Single-way combat as a player sees it, in real Chromium against a real server serving a fresh
 * build of client/ (as play.test.ts): while another player (a /ws client here) fights a rat, the
 * browser player's "Attack" on it is refused, and the chat says so in the game's words, "Someone
 * else is fighting that." (the `error` line, client/src/main.ts), with no hit of its own.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { npcDisplayName } from "../../client/src/names.ts";
import type { Player } from "../../src/game/world/Player.ts";
import type { TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { besideStillNpc, keepFailure, pickFromMenu, screenshot, startPlaying, type Playing } from "./support.ts";

describe("browser client: single-way combat's refusal (real Chromium)", function () {
  this.timeout(240_000);
  let play: Playing | undefined;
  let t: TestServer;
  let page: Page;
  let player: Player;

  before(async () => {
    play = await startPlaying("Latecomer", { env: { TICK_MS: "100" } });
    ({ t, page, player } = play);
  });

  afterEach(async function () {
    await keepFailure(this.currentTest, "single-combat", play);
  });

  after(async () => {
    await play?.close();
  });

  it('shows "Someone else is fighting that." when attacking a monster another player fights', async () => {
    const world = t.server.world.world;
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
