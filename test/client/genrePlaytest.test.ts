/**
 * What a second playtest by a player of the genre found (issue 49, item 5; docs/playtest.md), in a
 * real browser (see support.ts) against a real server serving a fresh build: the area banner's
 * danger names the levels of the monsters that attack there (not the area's difficulty rank) and
 * says none where none do; lighting logs while fishing stops the fishing and lights, instead of
 * "You are busy."; the Spellbook writes a rune count above one in the plural; a left click on an
 * inventory slot eats, buries or wields at once, the menu on a right click or the keyboard; kinds
 * of things are named in sentence case ("Bank booth", "Meadow rat"), people by their names;
 * Defence and Hitpoints are spelt so; the Combat tab shows the combat level; the minimap draws
 * below ground dark; the dialogs leave the minimap uncovered; "Use Raw shrimp on…" is short, the
 * range first; the chat box stays put as tabs change; the agility obstacles are drawn as what
 * they are.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { handleAction } from "../../src/game/actions.ts";
import { announce } from "../../src/game/combat.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { freeTile, holdStill } from "../support/placing.ts";
import type { TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { OBSTACLE_COLORS, OBSTACLE_FALLBACK } from "../../client/src/art/obstacles.ts";
import { UNDERGROUND_FLOOR } from "../../client/src/places.ts";
import { openBank, openKeepersStore } from "../../src/game/services.ts";
import { talkTo } from "../../src/game/dialogue.ts";
import { sendRecipes } from "../../src/game/production.ts";
import { clickTile, keepFailure, pickFromMenu, screenshot, startPlaying, TILE, type Playing } from "./support.ts";

describe("browser client: what the genre playtest of 2026-11-29 found (real Chromium)", function () {
  this.timeout(240_000);
  let play: Playing | undefined;
  let t: TestServer;
  let page: Page;
  let me: Player;
  let pageErrors: string[];

  before(async () => {
    play = await startPlaying("Bramble", { env: { TICK_MS: "100" } });
    ({ t, page, player: me, errors: pageErrors } = play);
  });

  afterEach(async function () {
    await keepFailure(this.currentTest, "genre-playtest", play);
  });

  after(async () => {
    await play?.close();
  });

  const world = () => t.server.world.world;
  const chat = () => page.getByRole("log", { name: "Chat" });
  const onTick = (fn: (p: Player) => void) =>
    new Promise<void>((resolve) =>
      world().enqueueCommand(me.id, (p) => {
        try {
          fn(p);
        } finally {
          resolve();
        }
      }),
    );
  /** A walkable tile of an area, nearest its middle. */
  const inside = (areaId: string) => {
    const a = world().content.areas.find((x) => x.id === areaId)!;
    const cx = Math.round((a.bounds.minX + a.bounds.maxX) / 2);
    const cz = Math.round((a.bounds.minZ + a.bounds.maxZ) / 2);
    for (let r = 0; r < 20; r++)
      for (let dx = -r; dx <= r; dx++) for (let dz = -r; dz <= r; dz++) if (world().collision.isWalkable(cx + dx, cz + dz)) return { x: cx + dx, z: cz + dz };
    throw new Error(`no walkable tile in ${areaId}`);
  };
  /** A walkable tile beside (or nearest) a tile. */
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
  /** A right click on a tile, then the menu's items (again if what was there moved away meanwhile). */
  const menuAt = async (at: { x: number; z: number }, want: string): Promise<string[]> => {
    for (let attempt = 1; ; attempt++) {
      await clickTile(page, page.getByLabel("Game world"), at.x - me.x, at.z - me.z, "right", me);
      const items = await page.getByRole("menu").getByRole("menuitem").allTextContents();
      await page.keyboard.press("Escape");
      if (items.includes(want) || attempt === 5) return items;
    }
  };

  it("names the levels of the monsters that attack in an area, and warns of none where none do", async () => {
    // The Sunken Cistern, where the well's ladder goes down (away from the monsters): difficulty 3,
    // but its crawlers, sentries and horror are levels 38 to 58.
    const cistern = (world().places.get("hollowbrook_well_ladder")!.def as { to: { x: number; z: number } }).to;
    await onTick((p) => world().teleport(p, cistern));
    const banner = page.getByRole("status").filter({ hasText: "The Sunken Cistern" });
    await banner.getByText("Danger: level 38 to 58 monsters here may attack you.").waitFor();
    // "the" mid-sentence, the banner's title as written.
    await chat().getByText("You enter the Sunken Cistern. Danger: level 38 to 58 monsters here may attack you.", { exact: true }).waitFor();
    await screenshot(page, "genre-playtest-cistern-danger");
    // The agility yard: no monster spawns there, so no danger (it warned of "level 1 monsters").
    const yard = inside("thornwick_yard");
    await onTick((p) => world().teleport(p, yard));
    await chat().getByText("You enter Thornwick Agility Yard.", { exact: true }).waitFor();
    assert.equal(await page.getByRole("status").filter({ hasText: "Thornwick Agility Yard" }).getAttribute("data-danger"), "false");
    assert.deepEqual(pageErrors, []);
  });

  it('lights logs while fishing: the fishing stops and the fire is tried, never "You are busy."', async () => {
    const w = world();
    const spot = [...w.resources.values()].filter((r) => r.node.id === "fishing_spot_net").sort((a, b) => Math.hypot(a.x, a.z) - Math.hypot(b.x, b.z))[0]!;
    const stand = freeTile(w, spot)!;
    await onTick((p) => {
      w.teleport(p, stand);
      p.data.inventory = Array.from(
        { length: 28 },
        (_, i) =>
          [
            { itemId: "small_fishing_net", quantity: 1 },
            { itemId: "tinderbox", quantity: 1 },
            { itemId: "logs", quantity: 1 },
          ][i] ?? null,
      );
      p.syncDue = true;
    });
    const inventory = page.getByRole("tabpanel", { name: "Inventory" });
    await inventory.getByRole("button", { name: "Logs", exact: true }).waitFor();
    await until(() => (me.x === stand.x && me.z === stand.z ? true : undefined), "beside the fishing spot");
    // Fish (a left click on the spot), then, a roll under way, light the logs.
    await clickTile(page, page.getByLabel("Game world"), spot.x - stand.x, spot.z - stand.z, "left", stand);
    await until(() => (me.action?.kind === "gather" && w.tick < me.nextActionTick ? true : undefined), "fishing, waiting for a roll");
    await inventory.getByRole("button", { name: "Logs", exact: true }).click();
    await page.getByRole("menuitem", { name: "Light Logs" }).click();
    await chat()
      .getByText(/^(The fire catches and the logs begin to burn|You fail to light the fire)\.$/)
      .first()
      .waitFor();
    await eventually(async () => (me.action === undefined ? true : undefined), "the fishing stopped");
    assert.equal(
      await chat()
        .getByText(/you are busy/i)
        .count(),
      0,
      "not busy",
    );
    assert.deepEqual(pageErrors, []);
  });

  it("writes a rune count above one in the plural in the Spellbook", async () => {
    await page.getByRole("tab", { name: "Spellbook" }).click();
    const book = page.getByRole("tabpanel", { name: "Spellbook" });
    await book.getByText("Level 9 · 1 Air rune, 2 Earth runes, 1 Mind rune").waitFor();
    assert.equal(await book.getByText(/\b[2-9] \w+ rune\b(?!s)/).count(), 0, "no count above one in the singular");
    assert.deepEqual(pageErrors, []);
  });

  it("eats, buries and wields on a left click of a slot; a right click or the keyboard opens the slot's menu", async () => {
    await onTick((p) => {
      p.data.inventory = Array.from(
        { length: 28 },
        (_, i) =>
          [
            { itemId: "bread", quantity: 1 },
            { itemId: "bones", quantity: 1 },
            { itemId: "bronze_dagger", quantity: 1 },
            { itemId: "logs", quantity: 1 },
            { itemId: "bread", quantity: 1 },
          ][i] ?? null,
      );
      p.data.equipment = {};
      p.data.health = Math.max(1, p.data.health - 20);
      p.syncDue = true;
    });
    await page.getByRole("tab", { name: "Inventory" }).click();
    const inventory = page.getByRole("tabpanel", { name: "Inventory" });
    await inventory.getByRole("button", { name: "Logs", exact: true }).waitFor();
    // One click each, no menu: the genre's left click does the top action.
    await inventory.getByRole("button", { name: "Bread", exact: true }).first().click();
    await chat()
      .getByText(/^You eat the bread\./)
      .waitFor();
    assert.equal(await page.getByRole("menu").count(), 0, "no menu on a left click of bread");
    await inventory.getByRole("button", { name: "Bones", exact: true }).click();
    await chat().getByText("You bury the bones.", { exact: true }).waitFor();
    await inventory.getByRole("button", { name: "Bronze dagger", exact: true }).click();
    await until(() => (me.data.equipment.weapon?.itemId === "bronze_dagger" ? true : undefined), "the dagger wielded");
    // Logs have no such action: a left click opens their menu (Light, Use on…).
    await inventory.getByRole("button", { name: "Logs", exact: true }).click();
    await page.getByRole("menu", { name: "Logs" }).getByRole("menuitem", { name: "Light Logs" }).waitFor();
    await page.keyboard.press("Escape");
    // The menu is still there: a right click, or Enter on the focused slot.
    await inventory.getByRole("button", { name: "Bread", exact: true }).click({ button: "right" });
    await page.getByRole("menu", { name: "Bread" }).getByRole("menuitem", { name: "Drop Bread" }).waitFor();
    await page.keyboard.press("Escape");
    await inventory.getByRole("button", { name: "Bread", exact: true }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menu", { name: "Bread" }).waitFor();
    await page.keyboard.press("Escape");
    assert.equal(me.data.inventory.filter((s) => s?.itemId === "bread").length, 1, "the second bread kept");
    assert.deepEqual(pageErrors, []);
  });

  it('names kinds of things in sentence case ("Bank booth", "Copper rock", "Meadow rat") and people by their names', async () => {
    const w = world();
    const canvas = page.getByLabel("Game world");
    // A bank booth: its menu and the hover line.
    const booth = w.stations.find((s) => s.type === "bank")!;
    await goTo(beside(booth));
    assert.ok((await menuAt(booth, "Use Bank booth")).includes("Use Bank booth"), "Use Bank booth");
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2 + (booth.x - me.x) * TILE, box.y + box.height / 2 + (booth.z - me.z) * TILE);
    await eventually(async () => ((await canvas.getAttribute("data-hover")) === "Bank booth" ? true : undefined), "the hover line naming the bank booth");
    // A copper rock.
    const rock = [...w.resources.values()].find((r) => r.node.id.includes("copper"))!;
    await goTo(beside(rock));
    assert.ok((await menuAt(rock, "Mine Copper rock")).includes("Mine Copper rock"), "Mine Copper rock");
    // Warden Tamsin keeps her name.
    const tamsin = [...w.npcs.values()].find((n) => n.def.id === "warden_tamsin")!;
    await goTo(beside(tamsin));
    assert.ok((await menuAt(tamsin, "Talk to Warden Tamsin")).includes("Talk to Warden Tamsin"), "Talk to Warden Tamsin");
    // A meadow rat: its menu, and the server's line when it dies ("You have defeated the Meadow Rat.").
    const rat = [...w.npcs.values()]
      .filter((n) => n.def.id === "meadow_rat" && n.deadUntil === 0)
      .sort((a, b) => Math.hypot(a.x, a.z) - Math.hypot(b.x, b.z))[0]!;
    // Held still (between two ticks), so the menu is opened where it stands.
    await onTick(() => void holdStill(rat));
    await goTo(beside(rat));
    await onTick(() => {
      rat.health = 1;
    });
    await pickFromMenu(page, me, rat, "Attack Meadow rat (level 1)");
    await chat().getByText("You have defeated the Meadow rat.", { exact: true }).waitFor({ timeout: 60_000 });
    assert.equal(
      await chat()
        .getByText(/Meadow Rat|Bank Booth|Copper Rock/)
        .count(),
      0,
      "no Title Case names in the chat",
    );
    assert.deepEqual(pageErrors, []);
  });

  it("spells Defence and Hitpoints, and shows the combat level in the Combat tab", async () => {
    await page.getByRole("tab", { name: "Skills" }).click();
    const skills = page.getByRole("tabpanel", { name: "Skills" });
    await skills.getByRole("rowheader", { name: "Defence", exact: true }).waitFor();
    await skills.getByRole("rowheader", { name: "Hitpoints", exact: true }).waitFor();
    assert.equal(await skills.getByText(/Defense|Constitution/).count(), 0, "no Defense or Constitution in the Skills tab");
    await page.getByRole("tab", { name: "Combat" }).click();
    const combat = page.getByRole("tabpanel", { name: "Combat" });
    await combat.getByText(`Combat level ${me.data.combatLevel}`, { exact: true }).waitFor();
    await combat
      .getByText(/xp to .*Defence/)
      .first()
      .waitFor();
    assert.equal(await combat.getByText(/Defense|Constitution/).count(), 0, "no Defense in the Combat tab");
    assert.deepEqual(pageErrors, []);
  });

  it("draws the minimap's ground below ground dark, as the world view does, not as grass", async () => {
    const w = world();
    const landing = (w.places.get("hollowbrook_well_ladder")!.def as { to: { x: number; z: number } }).to;
    await goTo(landing);
    const map = page.getByRole("img", { name: "Minimap" });
    await eventually(async () => ((await map.getAttribute("data-center")) === `${landing.x},${landing.z}` ? true : undefined), "the minimap centred");
    // A floor tile of the cistern two or more tiles away, nothing on it or beside it (no dot over it).
    const busy = (x: number, z: number) =>
      [...w.npcs.values(), ...w.players.values()].some((n) => Math.abs(n.x - x) <= 1 && Math.abs(n.z - z) <= 1) ||
      [...w.objects.values()].some((o) => o.x === x && o.z === z);
    let floor: { dx: number; dz: number } | undefined;
    for (let dx = -8; dx <= 8 && floor === undefined; dx++)
      for (let dz = -8; dz <= 8 && floor === undefined; dz++)
        if (Math.max(Math.abs(dx), Math.abs(dz)) >= 2 && w.collision.isWalkable(me.x + dx, me.z + dz) && !busy(me.x + dx, me.z + dz)) floor = { dx, dz };
    assert.ok(floor, "a floor tile near the landing");
    const want = [(UNDERGROUND_FLOOR >> 16) & 255, (UNDERGROUND_FLOOR >> 8) & 255, UNDERGROUND_FLOOR & 255];
    await eventually(
      async () => {
        const got = await map.evaluate((c: HTMLCanvasElement, { dx, dz }) => {
          const dpr = c.width / 160;
          const scale = Number(c.dataset.scale);
          const [r, g, b] = c.getContext("2d")!.getImageData(Math.floor((80 + dx * scale) * dpr), Math.floor((80 + dz * scale) * dpr), 1, 1).data;
          return [r, g, b];
        }, floor);
        return JSON.stringify(got) === JSON.stringify(want) ? true : undefined;
      },
      `the cistern's floor drawn rgb(${want.join(", ")}) on the minimap`,
    );
    assert.deepEqual(pageErrors, []);
  });

  it("opens the dialogue, Make, Bank and Store dialogs beside the minimap, not over it", async () => {
    const w = world();
    const map = (await page.getByRole("img", { name: "Minimap" }).boundingBox())!;
    const clear = async (name: string) => {
      const dialog = page.getByRole("dialog", { name });
      await dialog.waitFor();
      const box = (await dialog.boundingBox())!;
      assert.ok(box.x + box.width <= map.x, `${name} (right edge ${box.x + box.width}) left of the minimap (${map.x})`);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    };
    const booth = w.stations.find((s) => s.type === "bank")!;
    await goTo(beside(booth));
    await onTick((p) => openBank(w, p, booth.id));
    await clear("Bank");
    await onTick((p) => sendRecipes(w, p, { station: "furnace" }));
    await clear("Make");
    const hobb = [...w.npcs.values()].find((n) => n.def.id === "provisioner_hobb")!;
    await goTo(beside(hobb));
    await onTick((p) => openKeepersStore(w, p, hobb.id));
    await clear("Hobb's Provisions");
    const tamsin = [...w.npcs.values()].find((n) => n.def.id === "warden_tamsin")!;
    await goTo(beside(tamsin));
    await onTick((p) => talkTo(w, p, tamsin));
    await clear("Warden Tamsin");
    assert.deepEqual(pageErrors, []);
  });

  it('lists a range first in "Use Raw shrimp on…", each other item once and never the shrimp itself', async () => {
    const w = world();
    const range = w.stations.find((s) => s.type === "range")!;
    await goTo(beside(range));
    const items = [
      { itemId: "tinderbox", quantity: 1 },
      ...Array.from({ length: 3 }, () => ({ itemId: "logs", quantity: 1 })),
      ...Array.from({ length: 8 }, () => ({ itemId: "raw_shrimp", quantity: 1 })),
      { itemId: "bread", quantity: 1 },
      { itemId: "bones", quantity: 1 },
    ];
    await onTick((p) => {
      p.data.inventory = Array.from({ length: 28 }, (_, i) => items[i] ?? null);
      p.syncDue = true;
    });
    await page.getByRole("tab", { name: "Inventory" }).click();
    const inventory = page.getByRole("tabpanel", { name: "Inventory" });
    await inventory.getByRole("button", { name: "Bones", exact: true }).waitFor();
    await inventory.getByRole("button", { name: "Raw shrimp", exact: true }).first().click();
    await page.getByRole("menu", { name: "Raw shrimp" }).getByRole("menuitem", { name: "Use Raw shrimp on…" }).click();
    const targets = await page.getByRole("menu", { name: "Use Raw shrimp on" }).getByRole("menuitem").allTextContents();
    await page.keyboard.press("Escape");
    // The places to cook on first: the range, and any fire burning in view (an earlier test's, by the
    // order the tests ran in), then the items, each once.
    const places = targets.filter((t) => /^(Cooking range|Fire) \(-?\d+, -?\d+\)$/.test(t));
    assert.ok(
      places.some((t) => t.startsWith("Cooking range")),
      `the range listed: ${JSON.stringify(targets)}`,
    );
    assert.deepEqual(targets.slice(0, places.length), places, `the places to cook on first: ${JSON.stringify(targets)}`);
    assert.deepEqual(targets.slice(places.length), ["Tinderbox", "Logs", "Bread", "Bones"]);
    // A tinderbox's: the logs first (what it is used with), no range (nothing happens there).
    await inventory.getByRole("button", { name: "Tinderbox", exact: true }).click();
    await page.getByRole("menu", { name: "Tinderbox" }).getByRole("menuitem", { name: "Use Tinderbox on…" }).click();
    assert.deepEqual(await page.getByRole("menu", { name: "Use Tinderbox on" }).getByRole("menuitem").allTextContents(), [
      "Logs",
      "Raw shrimp",
      "Bread",
      "Bones",
    ]);
    await page.keyboard.press("Escape");
    assert.deepEqual(pageErrors, []);
  });

  it("keeps the chat box in place as the side tabs change", async () => {
    const log = page.getByRole("log", { name: "Chat" });
    const tops: Record<string, number> = {};
    for (const tab of ["Inventory", "Quests", "Skills", "Combat", "Prayer", "Spellbook", "Equipment", "Friends", "Worlds", "Inventory"]) {
      await page.getByRole("tab", { name: tab }).click();
      await page.getByRole("tabpanel", { name: tab }).waitFor();
      tops[tab] = (await log.boundingBox())!.y;
    }
    assert.equal(new Set(Object.values(tops)).size, 1, `the chat's top by tab: ${JSON.stringify(tops)}`);
    // The inventory's 28 slots and its coins still show whole at 1100 × 700 (no scrolling the pack).
    const panel = page.getByRole("tabpanel", { name: "Inventory" });
    const fit = await panel.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    assert.ok(fit.scroll <= fit.client, `the inventory fits its panel: ${JSON.stringify(fit)}`);
    // And the chat keeps room for its lines below it.
    const chatBox = (await log.boundingBox())!;
    assert.ok(chatBox.height >= 95, `the chat ${chatBox.height} px high`);
    assert.deepEqual(pageErrors, []);
  });

  it("draws the agility obstacles as a log, a net, a rope swing and a wall, not lettered tiles", async () => {
    const w = world();
    const obstacles = w.content.places.obstacles;
    const kinds: Record<string, keyof typeof OBSTACLE_COLORS> = { yard_log: "log", yard_net: "net", yard_rope: "rope", yard_wall: "wall" };
    const xs = obstacles.map((o) => o.x);
    const mid = { x: Math.round((Math.min(...xs) + Math.max(...xs)) / 2), z: obstacles[0]!.z + 2 };
    await goTo(beside({ x: mid.x, z: mid.z + 1 }));
    const canvas = page.getByLabel("Game world");
    const hex = (c: string) => parseInt(c.slice(1), 16);
    const counts = async () => {
      const png = await canvas.screenshot();
      const box = (await canvas.boundingBox())!;
      const boxes = obstacles.map((o) => ({
        cx: box.width / 2 + (o.x - me.x) * TILE,
        cy: box.height / 2 + (o.z - me.z) * TILE,
        colour: hex(OBSTACLE_COLORS[kinds[o.id]!]),
      }));
      return page.evaluate(
        async ({ b64, boxes, amber }) => {
          const img = new Image();
          img.src = `data:image/png;base64,${b64}`;
          await img.decode();
          const c = document.createElement("canvas");
          c.width = img.width;
          c.height = img.height;
          const g = c.getContext("2d")!;
          g.drawImage(img, 0, 0);
          return boxes.map(({ cx, cy, colour }) => {
            const { data } = g.getImageData(Math.round(cx - 20), Math.round(cy - 24), 40, 40);
            let own = 0;
            let letter = 0;
            for (let i = 0; i < data.length; i += 4) {
              const rgb = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
              if (rgb === colour) own++;
              if (rgb === amber) letter++;
            }
            return { own, letter };
          });
        },
        { b64: png.toString("base64"), boxes, amber: hex(OBSTACLE_FALLBACK) },
      );
    };
    await eventually(async () => {
      const got = await counts();
      return got.every((c) => c.own >= 8 && c.letter === 0) ? true : undefined;
    }, "each obstacle drawn in its own colour, none as an amber letter tile");
    await screenshot(page, "genre-playtest-agility-obstacles");
    assert.deepEqual(pageErrors, []);
  });

  it("shows a hit taken as its splat only: no chat line a hit", async () => {
    const rat = [...world().npcs.values()].find((n) => n.def.combat?.attackable === true)!;
    // Two real hits as the server announces them (combat.ts), then a line to wait for.
    await onTick((p) => {
      announce(world(), rat.id, p, 10, "melee", p.data.health - 10, p.maxHealth);
      announce(world(), rat.id, p, 20, "melee", p.data.health - 30, p.maxHealth);
      world().tell(p.id, "Both hits were sent.");
    });
    await chat().getByText("Both hits were sent.", { exact: true }).waitFor();
    assert.equal(
      await chat()
        .getByText(/hits you/)
        .count(),
      0,
      "no hit in the chat",
    );
    assert.deepEqual(pageErrors, []);
  });

  it("takes Warden Tamsin's quest in her own words, in the first person, and the journal's line ends with a full stop", async () => {
    const w = world();
    const tamsin = [...w.npcs.values()].find((n) => n.def.id === "warden_tamsin")!;
    await onTick((p) => {
      w.teleport(p, freeTile(w, tamsin)!);
      handleAction(w, p, { action: "talk", targetId: tamsin.id });
    });
    const box = page.getByRole("dialog", { name: "Warden Tamsin" });
    await box.getByRole("button", { name: "A Settler's Charter: I'd like to help.", exact: false }).click();
    await box
      .getByText("Good. Deal with five of those meadow rats first, then chop me five logs and bring them here. Do that and I'll sign your charter.")
      .waitFor();
    assert.equal(await box.getByText(/Warden Tamsin will/).count(), 0, "not narrated in the third person");
    await box.getByRole("button", { name: "1. Right away." }).click();
    await box.waitFor({ state: "hidden" });
    await page.getByRole("tab", { name: "Quests" }).click();
    const entry = page.getByRole("tabpanel", { name: "Quests" }).getByRole("listitem").filter({ hasText: "A Settler's Charter" });
    await entry.getByText("Kill 5 meadow rats (0 / 5).", { exact: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it("walks into the agility yard from Hollowbrook Woods on a minimap click, through the gap in the cliffs", async () => {
    // The woods' north-east corner, where the playtest stood, and a tile of the yard 5 east, 3 north.
    const from = { x: 40, z: 41 };
    const goal = { x: 45, z: 38 };
    await onTick((p) => world().teleport(p, from));
    const minimap = page.getByRole("img", { name: "Minimap", exact: true });
    await eventually(
      async () => ((await minimap.getAttribute("data-center")) === `${from.x},${from.z}` ? true : undefined),
      "the minimap centred on the corner",
    );
    const scale = Number(await minimap.getAttribute("data-scale"));
    const box = (await minimap.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + (goal.x - from.x) * scale, box.y + box.height / 2 + (goal.z - from.z) * scale);
    await until(() => (me.x === goal.x && me.z === goal.z ? true : undefined), "the walk into the yard", 15_000);
    assert.equal(await chat().getByText("No way there from here.").count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
