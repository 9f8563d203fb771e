/**
 * What the playtest of session 27 by a player of the genre found (docs/playtest.md "Playtest
 * 2026-11-29 (session 27)"), in a real browser (see support.ts) against a real server serving a
 * fresh build: the bank's Deposit inventory; a quest's rewards said when it completes, and the
 * quest giver's last words without the engine's parenthesis; no name label of your own (the genre
 * draws none), so that it does not lie over a monster on the tile north of you.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { handleAction } from "../../src/game/actions.ts";
import { openBank } from "../../src/game/services.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { holdStill } from "../support/placing.ts";
import type { TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { keepFailure, screenshot, startPlaying, type Playing } from "./support.ts";

describe("browser client: what the playtest of session 27 found (real Chromium)", function () {
  this.timeout(240_000);
  let play: Playing | undefined;
  let t: TestServer;
  let page: Page;
  let me: Player;
  let pageErrors: string[];

  before(async () => {
    play = await startPlaying("Thistle", { env: { TICK_MS: "100" } });
    ({ t, page, player: me, errors: pageErrors } = play);
  });

  afterEach(async function () {
    await keepFailure(this.currentTest, "playtest27", play);
  });

  after(async () => {
    await play?.close();
  });

  const world = () => t.server.world.world;
  /** Runs on the world's tick (between ticks nothing else touches the player). */
  const onTick = (fn: (p: Player) => void) =>
    new Promise<void>((resolve) =>
      world().enqueueCommand(me.id, (p) => {
        fn(p);
        resolve();
      }),
    );
  const beside = (at: { x: number; z: number }) => {
    for (let r = 1; r < 6; r++)
      for (let dx = -r; dx <= r; dx++)
        for (let dz = -r; dz <= r; dz++)
          if (Math.max(Math.abs(dx), Math.abs(dz)) === r && world().collision.isWalkable(at.x + dx, at.z + dz)) return { x: at.x + dx, z: at.z + dz };
    throw new Error(`no walkable tile near ${at.x}, ${at.z}`);
  };
  /** Teleports the player there and waits until the view is centred on it. */
  const goTo = async (at: { x: number; z: number }) => {
    await onTick((p) => world().teleport(p, at));
    await until(() => (me.x === at.x && me.z === at.z ? true : undefined), `at ${at.x}, ${at.z}`);
    await eventually(
      async () => ((await page.getByLabel("Game world").getAttribute("data-view-center")) === `${at.x},${at.z}` ? true : undefined),
      "the view centred",
    );
  };

  it("deposits the whole inventory with the bank's Deposit inventory, as the genre's button does", async () => {
    const w = world();
    const booth = w.stations.find((s) => s.type === "bank")!;
    await goTo(beside(booth));
    const items = [
      { itemId: "tinderbox", quantity: 1 },
      { itemId: "bread", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "bread", quantity: 1 },
      { itemId: "air_rune", quantity: 10 },
      { itemId: "logs", quantity: 1 },
      { itemId: "bread", quantity: 1 },
    ];
    await onTick((p) => {
      p.data.inventory = Array.from({ length: 28 }, (_, i) => items[i] ?? null);
      p.data.bank = [];
      p.syncDue = true;
      openBank(w, p, booth.id);
    });
    const bank = page.getByRole("dialog", { name: "Bank" });
    await bank.getByRole("group", { name: "Deposit from your inventory" }).getByRole("button", { name: "Air rune x 10" }).waitFor();
    await bank.getByRole("button", { name: "Deposit inventory", exact: true }).click();
    await bank.getByText("Your inventory is empty.").waitFor();
    await until(() => (me.data.inventory.every((s) => s === null) ? true : undefined), "the inventory empty on the server");
    const banked = Object.fromEntries(me.data.bank.map((s) => [s.itemId, s.quantity]));
    assert.deepEqual(banked, { tinderbox: 1, bread: 3, logs: 2, air_rune: 10 });
    assert.equal(await bank.getByRole("button", { name: "Deposit inventory", exact: true }).isDisabled(), true, "nothing left to deposit");
    await bank.getByRole("button", { name: "Close", exact: true }).click();
    await bank.waitFor({ state: "hidden" });
    assert.deepEqual(pageErrors, []);
  });

  it("says a quest's rewards when it completes, and Warden Tamsin's thanks in her own words", async () => {
    const w = world();
    const tamsin = [...w.npcs.values()].find((n) => n.def.id === "warden_tamsin")!;
    await onTick((p) => {
      // A Settler's Charter at its last stage, the return to Tamsin (world-assets quests.json).
      p.data.quests = { settlers_charter: { status: "in_progress", stage: 3, progress: 0, completions: 0 } };
      p.data.inventory = Array.from({ length: 28 }, (_, i) => (i < 5 ? { itemId: "logs", quantity: 1 } : null));
      p.syncDue = true;
      w.teleport(p, beside(tamsin));
      handleAction(w, p, { action: "talk", targetId: tamsin.id });
    });
    const box = page.getByRole("dialog", { name: "Warden Tamsin" });
    await box.getByRole("button", { name: "A Settler's Charter: it's done.", exact: false }).click();
    await box.getByText("Well done! That's everything I asked.", { exact: true }).waitFor();
    const chat = page.getByRole("log", { name: "Chat" });
    await chat.getByText("Congratulations! You have completed A Settler's Charter.").waitFor();
    await chat.getByText("You are awarded: 1 quest point, 100 Woodcutting xp, 100 Attack xp, Settler's charter, Coins x 50.", { exact: true }).waitFor();
    await page.keyboard.press("Escape");
    await box.waitFor({ state: "hidden" });
    assert.deepEqual(pageErrors, []);
  });

  it("draws no name label over you, so that a monster on the tile north of you shows (the genre draws no own name)", async () => {
    const w = world();
    // A cow with a walkable tile south of it: you stand there, the cow held still on the tile north.
    const cow = [...w.npcs.values()].find((n) => n.def.id === "brindle_cow" && n.deadUntil === 0 && w.collision.isWalkable(n.x, n.z + 1))!;
    assert.ok(cow !== undefined, "a cow with a free tile south of it");
    await new Promise<void>((resolve) => w.enqueueCommand(me.id, () => (holdStill(cow), resolve())));
    // (Not goTo: the cows' pen lies near the map's edge, where the view stops short of centring on you.)
    const south = { x: cow.x, z: cow.z + 1 };
    await onTick((p) => w.teleport(p, south));
    await until(() => (me.x === south.x && me.z === south.z ? true : undefined), "south of the cow");
    const canvas = page.getByLabel("Game world");
    const names = async () => JSON.parse((await canvas.getAttribute("data-label-names")) ?? "[]") as string[];
    // The client writes a kind in sentence case: "Brindle cow (level 2)".
    const cowShown = async () => (await names()).some((n) => n.toLowerCase().startsWith(cow.def.name.toLowerCase()));
    await eventually(async () => ((await cowShown()) ? true : undefined), "the cow's label shown");
    assert.equal(cow.x, me.x);
    assert.equal(cow.z, me.z - 1, "the cow on the tile north of you");
    assert.ok(!(await names()).includes("Thistle"), `no label of your own over the cow: ${JSON.stringify(await names())}`);
    await screenshot(page, "playtest27-cow-north");
    assert.deepEqual(pageErrors, []);
  });
});
