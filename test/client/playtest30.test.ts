/**
 * What the playtest of session 30 by a player of the genre found (docs/playtest.md "Playtest
 * 2026-11-29 (session 30)"), in a real browser (see support.ts) against a real server serving a
 * fresh build: a health bar shows while its owner is lately hit (a monster's and yours), not for as
 * long as it is hurt; and in a fight the hit splats lie on the bodies below the health bars along
 * their tiles' tops, and the names above the tiles, none over another. What the world view draws is read from the canvas' `data-health-bars`,
 * `data-splats` and `data-label-boxes` (client/src/overlays.ts, labels.ts), and screenshots are kept.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { splatBox } from "../../client/src/hitSplats.ts";
import { announce } from "../../src/game/combat.ts";
import type { NpcInstance } from "../../src/game/world/entities.ts";
import type { Player } from "../../src/game/world/Player.ts";
import type { World } from "../../src/game/world/World.ts";
import type { TestServer } from "../support/server.ts";
import { eventually } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { besideStillNpc, keepFailure, screenshot, startPlaying, TILE, type Playing } from "./support.ts";

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
type Bar = Box & { id: string; health: number; maxHealth: number };
type Splat = Box & { id: string };

describe("browser client: what the playtest of session 30 found (real Chromium)", function () {
  this.timeout(240_000);
  let play: Playing | undefined;
  let t: TestServer;
  let page: Page;
  let canvas: Locator;
  let me: Player;
  let w: World;
  let pageErrors: string[];

  before(async () => {
    // 200 ms ticks: a health bar shows for 10 ticks after a hit, 2 s here.
    play = await startPlaying("Oswin", { env: { TICK_MS: "200" } });
    ({ t, page, canvas, player: me, errors: pageErrors } = play);
    w = t.server.world.world;
  });

  afterEach(async function () {
    await keepFailure(this.currentTest, "playtest30", play);
  });

  after(async () => {
    await play?.close();
  });

  /** Runs `fn` in the world's next tick (between two ticks, as a command). */
  const onTick = (fn: () => void) => new Promise<void>((resolve) => w.enqueueCommand(me.id, () => (fn(), resolve())));
  const json = async <T>(attr: string): Promise<T[]> => JSON.parse((await canvas.getAttribute(attr)) ?? "[]") as T[];
  const bars = () => json<Bar>("data-health-bars");
  const splats = () => json<Splat>("data-splats");
  /** The names shown, as boxes (the canvas says their centre's x, bottom and size). */
  const labels = async () =>
    (await json<{ text: string; x: number; bottom: number; width: number; height: number }>("data-label-boxes")).map((l) => ({
      id: l.text,
      left: l.x - l.width / 2,
      right: l.x + l.width / 2,
      top: l.bottom - l.height,
      bottom: l.bottom,
    }));
  /** `probe` until it holds, with `meanwhile` (hits sent) run every `everyMs` while it looks. */
  async function whileHitting<T>(what: string, meanwhile: () => void, everyMs: number, probe: () => Promise<T | undefined>): Promise<T> {
    meanwhile();
    const timer = setInterval(meanwhile, everyMs);
    try {
      return await eventually(probe, what, 30_000);
    } finally {
      clearInterval(timer);
    }
  }
  /** A cow held still with a free tile east of it, you on that tile; it does not fight back. */
  const besideCow = () => besideStillNpc(page, w, me, "brindle_cow", { hold: { combat: { aggressive: false, retaliates: false } } });
  const hurt = (cow: NpcInstance, cowLeft: number, yourLeft: number) =>
    onTick(() => {
      cow.health = cowLeft;
      cow.version++;
      me.data.health = yourLeft;
      me.publicVersion++;
      me.syncDue = true;
    });

  it("shows a health bar while lately hit (a miss too) and hides it some ticks after the last hit though still hurt: a cow's and yours", async () => {
    const cow = await besideCow();
    const [cowLeft, yourLeft] = [cow.maxHealth - 30, me.maxHealth - 25];
    await hurt(cow, cowLeft, yourLeft);
    // You hit the cow for 30 and it hits you for 25 (as combat.ts announces them), until both bars show.
    const hits = () =>
      w.enqueueCommand(me.id, () => {
        announce(w, me.id, cow, 30, "melee", cow.health, cow.maxHealth);
        announce(w, cow.id, me, 25, "melee", me.data.health, me.maxHealth);
      });
    const up = await whileHitting("the cow's bar and yours after the hits, with the health left", hits, 400, async () => {
      const b = await bars();
      const [c, m] = [b.find((x) => x.id === cow.id), b.find((x) => x.id === me.id)];
      return c?.health === cowLeft && m?.health === yourLeft ? { c, m } : undefined;
    });
    assert.equal(up.c.maxHealth, cow.maxHealth);
    assert.equal(up.m.maxHealth, me.maxHealth);
    await screenshot(page, "playtest30-bars-while-hit");

    // No more hits: both bars go, though neither is healed (health regenerates a hitpoint a 100 ticks).
    await eventually(async () => ((await bars()).some((b) => b.id === cow.id || b.id === me.id) ? undefined : true), "both bars hidden after the fight");
    assert.ok(cow.health < cow.maxHealth, `the cow still hurt: ${cow.health} / ${cow.maxHealth}`);
    assert.ok(me.data.health < me.maxHealth, `you still hurt: ${me.data.health} / ${me.maxHealth}`);
    await screenshot(page, "playtest30-bars-hidden-though-hurt");

    // A miss on the cow (0) shows its bar again, with the health it has.
    const miss = () => w.enqueueCommand(me.id, () => announce(w, me.id, cow, 0, "melee", cow.health, cow.maxHealth));
    await whileHitting("the cow's bar again after a miss", miss, 400, async () => {
      const c = (await bars()).find((x) => x.id === cow.id);
      return c !== undefined && c.health < cow.maxHealth ? true : undefined;
    });
    assert.deepEqual(pageErrors, []);
  });

  it("lays a fight out without overlaps, you beside a cow on each side: the splats on the bodies, the bars along their tops, the names above", async () => {
    const cow = await besideCow();
    // No one else near (monsters out of the world for the test): their names would lie where they happen to stand.
    for (const n of w.npcs.values()) if (n !== cow && Math.max(Math.abs(n.x - cow.x), Math.abs(n.z - cow.z)) <= 10) n.deadUntil = 1e9;
    await hurt(cow, cow.maxHealth - 30, me.maxHealth - 25);
    const other = await WsTestClient.connect(`${t.wsUrl}?name=Brandt`);
    try {
      const brandt = w.players.get(String((await other.next("welcome")).playerId))!;
      const free = (x: number, z: number) => w.collision.isWalkable(x, z) && !(x === cow.x && z === cow.z);
      const sides = (
        [
          ["east", 1, 0],
          ["north", 0, -1],
          ["south", 0, 1],
          ["west", -1, 0],
        ] as const
      ).filter(([, dx, dz]) => free(cow.x + dx, cow.z + dz));
      assert.ok(sides.length >= 2, "room on two sides of the cow");
      for (const [side, dx, dz] of sides) {
        const you = { x: cow.x + dx, z: cow.z + dz };
        // Brandt fights beside you on the first side (east of you, or on along the line), elsewhere far off.
        const first = side === sides[0]![0];
        const spot = first ? [{ x: you.x + dx, z: you.z + dz }].find((s) => free(s.x, s.z)) : undefined;
        const away = [12, -12, 14, -14, 16, -16].map((d) => ({ x: cow.x + d, z: cow.z })).find((a) => free(a.x, a.z));
        assert.ok(away !== undefined, "a free tile far off for Brandt");
        await new Promise<void>((resolve) =>
          w.enqueueCommand(me.id, (p) => {
            assert.ok(w.teleport(p, you) && w.teleport(brandt, spot ?? away), "you and Brandt placed");
            resolve();
          }),
        );
        await page.getByText(`Position ${you.x}, ${you.z}`).waitFor();
        const tiles = new Map<string, { x: number; z: number }>([
          [cow.id, cow],
          [me.id, you],
          ...(spot !== undefined ? [[brandt.id, spot] as [string, { x: number; z: number }]] : []),
        ]);
        const ids = [...tiles.keys()];
        // Each hit once a splat's life (about 1.1 s): one splat on each at a time, all at once.
        const hits = () =>
          w.enqueueCommand(me.id, () => {
            announce(w, me.id, cow, 30, "melee", cow.health, cow.maxHealth);
            announce(w, cow.id, me, 25, "melee", me.data.health, me.maxHealth);
            if (spot !== undefined) announce(w, me.id, brandt, 120, "magic", brandt.data.health, brandt.maxHealth);
          });
        // Each splat and bar on its body: within its tile, the bar along its top, above the splat.
        const body = (id: string) => {
          const tile = tiles.get(id)!;
          return { left: tile.x * TILE, top: tile.z * TILE, right: (tile.x + 1) * TILE, bottom: (tile.z + 1) * TILE };
        };
        const within = (x: Box, r: Box) => x.left >= r.left && x.right <= r.right && x.top >= r.top && x.bottom <= r.bottom;
        const drawn = await whileHitting(`a splat and a bar on each at once, you ${side} of the cow`, hits, 1_500, async () => {
          const [s, b, l] = [await splats(), await bars(), await labels()];
          // Each at its tile's centre (none sliding): a bar's middle, a splat's body point; and on its
          // tile's rows (a move from north of the cow to south of it slides in z only: CI's run of
          // 20:28 read the bar two tiles short of its tile, mid-slide).
          const still = (x: { id: string }, centreX: number) => Math.abs(centreX - (tiles.get(x.id)!.x * TILE + TILE / 2)) <= 1;
          const onRows = (x: Box & { id: string }) => x.top >= body(x.id).top && x.bottom <= body(x.id).bottom;
          const all = ids.every((id) => s.filter((x) => x.id === id).length === 1 && b.some((x) => x.id === id));
          const placed =
            s.every((x) => tiles.has(x.id) && still(x, x.left - splatBox().left) && onRows(x)) &&
            b.filter((x) => tiles.has(x.id)).every((x) => still(x, (x.left + x.right) / 2) && onRows(x));
          return all && placed && l.length >= 1 ? { s, b, l } : undefined;
        });
        await screenshot(page, `playtest30-fight-${side}`);

        for (const x of [...drawn.s, ...drawn.b.filter((b) => tiles.has(b.id))]) {
          assert.ok(within(x, body(x.id)), `${side}: ${x.id}'s splat or bar ${JSON.stringify(x)} on its body ${JSON.stringify(body(x.id))}`);
        }
        // Nothing shown over anything else.
        const things = [
          ...drawn.s.map((x) => ({ ...x, what: `${x.id}'s splat` })),
          ...drawn.b.map((x) => ({ ...x, what: `${x.id}'s bar` })),
          ...drawn.l.map((x) => ({ ...x, what: `the name ${x.id}` })),
        ];
        const overlaps = things.flatMap((a, i) =>
          things
            .slice(i + 1)
            .filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
            .map((b) => `${a.what} ${JSON.stringify(a)} over ${b.what} ${JSON.stringify(b)}`),
        );
        assert.deepEqual(overlaps, [], `you ${side} of the cow: nothing over anything else`);
      }
      assert.deepEqual(pageErrors, []);
    } finally {
      other.close();
    }
  });
});
