/**
 * Interest's player cap on its own: a view holds the viewer and the nearest others up to
 * MAX_PLAYERS_IN_VIEW, those already in view first at the cut (and until a newcomer within
 * CLAIM_RADIUS is more than CAP_MARGIN tiles nearer; one farther out takes only a free place), and every non-player entity in range whatever the crowd; players beyond the cap
 * leave the view and come back as the crowd thins.
 */
import assert from "node:assert/strict";
import { CAP_MARGIN, CLAIM_RADIUS, Interest, KEEP_RADIUS, REFRESH_DISTANCE, REFRESH_TICKS, type Placed, type Spatial } from "../../src/game/world/Interest.ts";
import { MAX_PLAYERS_IN_VIEW, VIEW_RADIUS } from "../../src/game/world/World.ts";

type Thing = Placed & { player: boolean };

class Crowd implements Spatial<Thing> {
  tick = 0;
  readonly things: Thing[] = [];
  forEachNear(at: { x: number; z: number }, _viewerId: string, radius: number, fn: (e: Thing, isPlayer: boolean) => void): void {
    for (const t of this.things) if (Math.max(Math.abs(t.x - at.x), Math.abs(t.z - at.z)) <= radius) fn(t, t.player);
  }
  add(id: string, x: number, z: number, player = true): Thing {
    const t = { id, x, z, player };
    this.things.push(t);
    return t;
  }
}

const playersIn = (i: Interest<Thing>) => [...i.visible.values()].filter((s) => s.entity.player).map((s) => s.id);

describe("Interest: the players in one view", () => {
  it("sees everyone in range while they are at most the cap", () => {
    const world = new Crowd();
    const me = world.add("me", 0, 0);
    for (let i = 1; i < MAX_PLAYERS_IN_VIEW; i++) world.add(`p${i}`, (i % 10) - 5, Math.floor(i / 10) - 5);
    world.add("far", VIEW_RADIUS + 1, 0);
    const view = new Interest<Thing>(0);
    const change = view.refresh(world, me, true)!;
    assert.equal(playersIn(view).length, MAX_PLAYERS_IN_VIEW);
    assert.equal(change.entered.length, MAX_PLAYERS_IN_VIEW);
    assert.ok(!view.visible.has("far"));
  });

  it("holds the viewer and the nearest others past the cap, and every NPC or item in range", () => {
    const world = new Crowd();
    const me = world.add("me", 0, 0);
    // 60 players at distance 1-2, 80 at distance 10, 40 at distance 15: the cap is reached at 10.
    for (let i = 0; i < 60; i++) world.add(`near${i}`, i % 2 === 0 ? 1 : -2, (i % 5) - 2);
    for (let i = 0; i < 80; i++) world.add(`mid${i}`, 10, (i % 21) - 10);
    for (let i = 0; i < 40; i++) world.add(`edge${i}`, -15, (i % 31) - 15);
    for (let i = 0; i < 30; i++) world.add(`npc${i}`, 14, i % 16, false);
    const view = new Interest<Thing>(0);
    view.refresh(world, me, true);
    const seen = playersIn(view);
    assert.equal(seen.length, MAX_PLAYERS_IN_VIEW);
    assert.ok(seen.includes("me"), "the viewer itself");
    assert.equal(seen.filter((id) => id.startsWith("near")).length, 60, "everyone nearer than the cut");
    assert.equal(seen.filter((id) => id.startsWith("mid")).length, MAX_PLAYERS_IN_VIEW - 61, "the rest from the cut's distance");
    assert.equal(seen.filter((id) => id.startsWith("edge")).length, 0, "no one beyond it");
    assert.equal([...view.visible.values()].filter((s) => !s.entity.player).length, 30, "the crowd takes no NPC's place");
  });

  it("keeps those already in view at the cut, lets the far ones go as the crowd comes near, and takes them back when it thins", () => {
    const world = new Crowd();
    const me = world.add("me", 0, 0);
    for (let i = 0; i < MAX_PLAYERS_IN_VIEW - 1; i++) world.add(`far${i}`, 12, (i % 25) - 12);
    const view = new Interest<Thing>(0);
    view.refresh(world, me, true);
    assert.equal(playersIn(view).length, MAX_PLAYERS_IN_VIEW);
    // Ten newcomers at the same distance: the ones in view stay, the newcomers wait.
    for (let i = 0; i < 10; i++) world.add(`same${i}`, -12, i);
    let change = view.refresh(world, me, true)!;
    assert.deepEqual(change.entered, []);
    assert.deepEqual(change.left, []);
    // Ten come close: as many far ones leave for them.
    const close = Array.from({ length: 10 }, (_, i) => world.add(`close${i}`, 1, i % 3));
    change = view.refresh(world, me, true)!;
    assert.deepEqual(change.entered.sort(), close.map((c) => c.id).sort());
    assert.equal(change.left.length, 10);
    assert.ok(change.left.every((id) => id.startsWith("far")));
    assert.equal(playersIn(view).length, MAX_PLAYERS_IN_VIEW);
    // They walk away out of range: the far ones and the waiting newcomers fill the view again.
    for (const c of close) c.x = 100;
    change = view.refresh(world, me, true)!;
    assert.equal(change.left.length, 10);
    assert.equal(change.entered.length, 10);
    assert.equal(playersIn(view).length, MAX_PLAYERS_IN_VIEW);
    assert.ok(change.entered.every((id) => id.startsWith("far")), "the ones that were in view before the newcomers");
  });
  it(`keeps a player in a full view until a newcomer is more than ${CAP_MARGIN} tiles nearer than it`, () => {
    const world = new Crowd();
    const me = world.add("me", 0, 0);
    for (let i = 0; i < MAX_PLAYERS_IN_VIEW - 2; i++) world.add(`near${i}`, 1, (i % 3) - 1);
    const last = world.add("last", 10, 0);
    const view = new Interest<Thing>(0);
    view.refresh(world, me, true);
    assert.equal(playersIn(view).length, MAX_PLAYERS_IN_VIEW);
    // A newcomer nearer than the last one in view, by the margin: it waits.
    const newcomer = world.add("newcomer", 10 - CAP_MARGIN, 0);
    let change = view.refresh(world, me, true)!;
    assert.deepEqual(change.entered, []);
    assert.deepEqual(change.left, []);
    // One tile nearer still: it takes the last one's place.
    newcomer.x--;
    change = view.refresh(world, me, true)!;
    assert.deepEqual(change.entered, ["newcomer"]);
    assert.deepEqual(change.left, [last.id]);
    assert.equal(playersIn(view).length, MAX_PLAYERS_IN_VIEW);
  });
  it(`keeps the players behind a walker in a full view: only a newcomer within ${CLAIM_RADIUS} tiles takes one's place, one farther out a free place`, () => {
    const world = new Crowd();
    const me = world.add("me", 0, 0);
    for (let i = 0; i < MAX_PLAYERS_IN_VIEW - 2; i++) world.add(`near${i}`, 1, (i % 3) - 1);
    const behind = world.add("behind", -VIEW_RADIUS, 0);
    const view = new Interest<Thing>(0);
    view.refresh(world, me, true);
    assert.equal(playersIn(view).length, MAX_PLAYERS_IN_VIEW);
    // The viewer walks away from the last one in view: it stays while within KEEP_RADIUS, though a
    // newcomer ahead is far more than CAP_MARGIN tiles nearer than it.
    const ahead = world.add("ahead", CLAIM_RADIUS + 1, 0);
    me.x = KEEP_RADIUS - VIEW_RADIUS;
    for (const p of world.things) if (p.id.startsWith("near")) p.x = me.x + 1;
    ahead.x = me.x + CLAIM_RADIUS + 1;
    let change = view.refresh(world, me, true)!;
    assert.deepEqual(change.entered, []);
    assert.deepEqual(change.left, []);
    assert.ok(Math.abs(behind.x - me.x) - (CLAIM_RADIUS + 1) > CAP_MARGIN, "the newcomer is well nearer");
    // Within CLAIM_RADIUS, it takes the place of the one behind.
    ahead.x--;
    change = view.refresh(world, me, true)!;
    assert.deepEqual(change.entered, ["ahead"]);
    assert.deepEqual(change.left, ["behind"]);
    // A free place goes to a newcomer at any distance in range, the nearest first.
    world.things.splice(world.things.indexOf(world.things.find((p) => p.id === "near0")!), 1);
    const far = world.add("far", me.x - VIEW_RADIUS, 0);
    const farther = world.add("farther", me.x, VIEW_RADIUS);
    far.x++;
    change = view.refresh(world, me, true)!;
    assert.deepEqual(change.entered, ["far"]);
    assert.deepEqual(change.left, ["near0"]);
    assert.ok(!view.visible.has(farther.id));
  });
  it(`refreshes ${REFRESH_TICKS} ticks after its last refresh, which a walk of ${REFRESH_DISTANCE} tiles brings sooner; the second one staggered by its phase`, () => {
    const world = new Crowd();
    const me = world.add("me", 0, 0);
    const refreshesAt = (phase: number, walkAt: number | undefined): number[] => {
      const view = new Interest<Thing>(phase);
      me.x = 0;
      const ticks: number[] = [];
      for (world.tick = 0; world.tick <= 12; world.tick++) {
        if (world.tick === walkAt) me.x += REFRESH_DISTANCE;
        if (view.refresh(world, me, world.tick === 0) !== undefined) ticks.push(world.tick);
      }
      return ticks;
    };
    assert.deepEqual(refreshesAt(0, undefined), [0, 4, 8, 12]);
    assert.deepEqual(refreshesAt(1, undefined), [0, 3, 7, 11], "the phase brings the second one sooner");
    assert.deepEqual(refreshesAt(0, 6), [0, 4, 6, 10], "the walk's refresh at 6 stands in for the one due at 8");
  });
});
