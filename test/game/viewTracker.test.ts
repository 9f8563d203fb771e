/**
 * The `/ws` delta tracker: what each viewer's `world:update` carries, tick by tick, in a world
 * with the bundled content and the real gameplay phases.
 */
import assert from "node:assert/strict";
import { spawnGroundItem } from "../../src/game/groundItems.ts";
import { KEEP_RADIUS, REFRESH_TICKS } from "../../src/game/world/Interest.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { DeltaBuilder, ViewTracker, type DeltaInput } from "../../src/game/world/ViewTracker.ts";
import { CHANGE_STRIDE, NUM_KEPT_DIFFS, ViewFeed, type Shown } from "../../src/game/world/ViewWorld.ts";
import { MAX_PLAYERS_IN_VIEW, VIEW_RADIUS } from "../../src/game/world/World.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";
import { playerData } from "../support/players.ts";
import { replicaOf } from "../support/viewReplica.ts";
import { ViewCopy, type WorldUpdate } from "../../src/game/worldUpdate.ts";
import { checkServerEvent } from "../../src/game/serverEvents.ts";
import { seededRandom } from "../../src/game/world/World.ts";

interface Update {
  tick: number;
  entities: Record<string, unknown>[];
  removed: string[];
}

function frame(g: GameHarness, t: ViewTracker, viewer: Player, always = false): Update | undefined {
  const text = t.frame(replicaOf(g.world), viewer.id, always);
  if (text === undefined) return undefined;
  const env = JSON.parse(text) as { type: string; data: Update };
  assert.equal(env.type, "world:update");
  return env.data;
}

const byId = (u: Update | undefined, id: string) => u?.entities.find((e) => e.id === id);

/** Ticks until the viewer's frame carries `id` (a view refreshes at least every 4 ticks). */
function nextSight(g: GameHarness, t: ViewTracker, viewer: Player, id: string): Record<string, unknown> | undefined {
  for (let i = 0; i < 4; i++) {
    g.tick();
    const e = byId(frame(g, t, viewer), id);
    if (e !== undefined) return e;
  }
  return undefined;
}

/** A walkable tile with `n` walkable tiles east of it, away from the content's NPCs and resources. */
function openRow(g: GameHarness, n: number): { x: number; z: number } {
  const { collision, content } = g.world;
  const b = collision.bounds;
  for (let z = b.minZ; z <= b.maxZ; z++) {
    for (let x = b.minX; x + n <= b.maxX; x++) {
      let ok = true;
      for (let i = 0; i <= n && ok; i++) ok = collision.isWalkable(x + i, z);
      if (ok && Math.hypot(x - content.world.spawn.x, z - content.world.spawn.z) > 0) return { x, z };
    }
  }
  throw new Error("no open row");
}

/**
 * One tick of a crowd's doings near `at`, each player by chance: a walk (30 %), a teleport out of
 * range or back (2 % each), a change of health (up to `health`), and a logout and login again within
 * the tick (up to `relogin`: a new object under the same id, put in its place in `others`).
 */
function stir(g: GameHarness, others: Player[], at: { x: number; z: number }, random: () => number, odds: { health: number; relogin?: number }): void {
  for (let i = 0; i < others.length; i++) {
    const p = others[i]!;
    if (!g.world.players.has(p.id)) continue;
    const r = random();
    if (r < 0.3) g.send(p, "player:move", { x: at.x + Math.floor(random() * 24) - 12, z: at.z + Math.floor(random() * 6) - 3 });
    else if (r < 0.32) g.world.teleport(p, { x: at.x + KEEP_RADIUS + 2, z: at.z });
    else if (r < 0.34) g.world.teleport(p, { x: at.x + 1, z: at.z });
    else if (r < odds.health) {
      p.data.health = Math.max(1, p.data.health - 3);
      p.publicVersion++;
    } else if (odds.relogin !== undefined && r < odds.relogin) {
      g.world.removePlayer(p.id);
      others[i] = g.world.addPlayer(playerData({ characterId: p.id, name: p.data.name, x: p.x, z: p.z }));
    }
  }
}

describe("ViewTracker (/ws deltas)", () => {
  let g: GameHarness;
  let at: { x: number; z: number };
  beforeEach(async () => {
    g = await gameWorld(3);
    at = openRow(g, KEEP_RADIUS + 4);
  });

  it("sends everything in view first, then only what changed: position-only when only the position did", () => {
    const viewer = g.add({ ...at });
    const other = g.add({ x: at.x + 2, z: at.z });
    const far = g.add({ x: at.x + VIEW_RADIUS + 2, z: at.z });
    assert.equal(far.x, at.x + VIEW_RADIUS + 2, "placed where asked");
    const t = new ViewTracker();
    const first = frame(g, t, viewer, true)!;
    assert.deepEqual(byId(first, other.id), {
      id: other.id,
      kind: "player",
      x: other.x,
      z: other.z,
      name: other.data.name,
      health: other.data.health,
      maxHealth: other.maxHealth,
      combatLevel: other.data.combatLevel,
      running: false,
    });
    assert.ok(byId(first, viewer.id), "the viewer itself");
    assert.equal(byId(first, far.id), undefined, "beyond the view radius");

    g.tick();
    assert.equal(frame(g, t, viewer), undefined, "nothing changed");

    g.send(other, "player:move", { x: other.x + 1, z: other.z });
    g.tick();
    const moved = frame(g, t, viewer)!;
    assert.deepEqual(moved.entities, [{ id: other.id, kind: "player", x: other.x, z: other.z }]);

    other.data.health -= 7;
    other.publicVersion++;
    g.tick();
    assert.deepEqual(byId(frame(g, t, viewer), other.id)?.health, other.data.health, "a detail changed: the whole entity");
  });

  it("drops a player that leaves the world, and a player that walks out of range; both come back whole", () => {
    const viewer = g.add({ ...at });
    const other = g.add({ x: at.x + 3, z: at.z });
    const t = new ViewTracker();
    frame(g, t, viewer, true);
    g.world.removePlayer(other.id);
    g.tick();
    assert.deepEqual(frame(g, t, viewer), { tick: g.world.tick, entities: [], removed: [other.id] });

    const back = g.world.addPlayer(playerData({ characterId: other.id, name: other.data.name, x: at.x + 3, z: at.z }));
    assert.equal(nextSight(g, t, viewer, back.id)?.name, other.data.name, "logged in again: whole");

    g.world.teleport(back, { x: at.x + KEEP_RADIUS + 1, z: at.z });
    const removed: string[] = [];
    for (let i = 0; i < 4 && removed.length === 0; i++) {
      g.tick();
      removed.push(...(frame(g, t, viewer)?.removed ?? []));
    }
    assert.deepEqual(removed, [back.id], "out of range: removed at the next refresh");
    g.world.teleport(back, { x: at.x + 1, z: at.z });
    assert.equal(nextSight(g, t, viewer, back.id)?.name, other.data.name, "back in range: whole");
  });

  it("sends a crowd as its nearest MAX_PLAYERS_IN_VIEW players, and the next ones as the nearest leave", () => {
    const viewer = g.add({ ...at });
    // Ten players at each distance 1 … 20 along the row: 160 in range, the cap reached at 10.
    const crowd = Array.from({ length: 200 }, (_, i) => g.add({ x: at.x + 1 + (i % 20), z: at.z }));
    const t = new ViewTracker();
    const first = frame(g, t, viewer, true)!;
    const players = first.entities.filter((e) => e.kind === "player");
    assert.equal(players.length, MAX_PLAYERS_IN_VIEW);
    assert.ok(
      players.every((e) => (e.x as number) - at.x <= 10),
      "none beyond the cut",
    );
    assert.equal(players.filter((e) => (e.x as number) - at.x <= 9).length, 91, "the viewer and everyone nearer than the cut");
    // The nearest ten log out: ten more of the crowd come into view, nearest first.
    for (const p of crowd.filter((p) => p.x === at.x + 1)) g.world.removePlayer(p.id);
    const entered: Record<string, unknown>[] = [];
    for (let i = 0; i < 4; i++) {
      g.tick();
      entered.push(...(frame(g, t, viewer)?.entities ?? []).filter((e) => e.kind === "player" && e.name !== undefined));
    }
    assert.equal(entered.length, 10);
    assert.ok(entered.every((e) => (e.x as number) - at.x <= 11));
  });

  it("re-sends a player whose character logged in again within one tick (a new object, the same id)", () => {
    const viewer = g.add({ ...at });
    const other = g.add({ x: at.x + 3, z: at.z });
    const t = new ViewTracker();
    frame(g, t, viewer, true);
    g.world.removePlayer(other.id);
    g.world.addPlayer(playerData({ characterId: other.id, name: "Renamed", x: at.x + 4, z: at.z }));
    g.tick();
    const u = frame(g, t, viewer)!;
    assert.deepEqual(u.removed, []);
    assert.deepEqual(byId(u, other.id), {
      id: other.id,
      kind: "player",
      x: at.x + 4,
      z: at.z,
      name: "Renamed",
      health: 100,
      maxHealth: 100,
      combatLevel: 3,
      running: false,
    });
  });

  it("shows an owned ground item to its owner at once and to others once it is public", () => {
    const owner = g.add({ ...at });
    const other = g.add({ x: at.x + 1, z: at.z });
    const to = new ViewTracker();
    const tt = new ViewTracker();
    frame(g, to, owner, true);
    frame(g, tt, other, true);
    const item = spawnGroundItem(g.world, "logs", 2, { x: at.x + 2, z: at.z }, owner.id);
    g.tick();
    // The owner's view picks it up at its next refresh (within 4 ticks).
    let seenByOwner: Record<string, unknown> | undefined;
    let seenByOther: Record<string, unknown> | undefined;
    for (let i = 0; i < 4 && seenByOwner === undefined; i++) {
      seenByOwner = byId(frame(g, to, owner), item.id);
      seenByOther ??= byId(frame(g, tt, other), item.id);
      g.tick();
    }
    assert.deepEqual(seenByOwner, { id: item.id, kind: "item", x: item.x, z: item.z, ref: "logs", quantity: 2 });
    assert.equal(seenByOther, undefined, "private to its owner");
    while (g.world.tick < item.publicAtTick + 4) {
      g.tick();
      seenByOther ??= byId(frame(g, tt, other), item.id);
      frame(g, to, owner);
    }
    assert.equal(seenByOther?.ref, "logs", "public now");

    item.gone = true;
    g.world.groundItems.delete(item.id);
    g.tick();
    assert.deepEqual(frame(g, to, owner)?.removed, [item.id]);
    assert.deepEqual(frame(g, tt, other)?.removed, [item.id]);
  });
});

describe("ViewTracker compact updates (/ws?updates=compact)", () => {
  it("gives a client the same view as the documented entries, tick by tick, in fewer bytes, through walks, logouts, teleports and ground items", async () => {
    const g = await gameWorld(5);
    const at = openRow(g, KEEP_RADIUS + 4);
    const random = seededRandom(11);
    const viewer = g.add({ ...at });
    const others = Array.from({ length: 14 }, (_, i) => g.add({ x: at.x + (i % 7) - 3, z: at.z + Math.floor(i / 7) }));
    // The same refresh phase: both trackers refresh on the same ticks.
    const full = new ViewTracker(0, false);
    const compact = new ViewTracker(0, true);
    const a = new ViewCopy();
    const b = new ViewCopy();
    let fullBytes = 0;
    let compactBytes = 0;
    let moves = 0;
    let reused = 0;
    const everHandled = new Set<number>();
    for (let tick = 0; tick < 160; tick++) {
      stir(g, others, at, random, { health: 0.35 });
      if (tick % 20 === 5) g.world.removePlayer(others[tick % others.length]!.id);
      if (tick % 20 === 15) {
        const back = others[(tick - 10) % others.length]!;
        if (!g.world.players.has(back.id))
          others[(tick - 10) % others.length] = g.world.addPlayer(playerData({ characterId: back.id, name: back.data.name, x: at.x + 2, z: at.z }));
      }
      if (tick % 30 === 7) spawnGroundItem(g.world, "logs", 1, { x: at.x + 1, z: at.z }, undefined);
      g.tick();
      const world = replicaOf(g.world);
      const tf = full.frame(world, viewer.id, tick === 0);
      const tc = compact.frame(world, viewer.id, tick === 0);
      assert.equal(tc === undefined, tf === undefined, `a frame in both forms or in neither, tick ${tick}`);
      if (tf === undefined || tc === undefined) continue;
      fullBytes += tf.length;
      compactBytes += tc.length;
      const uf = (JSON.parse(tf) as { data: WorldUpdate }).data;
      const uc = (JSON.parse(tc) as { data: WorldUpdate }).data;
      assert.equal(checkServerEvent("world:update", uc), undefined, "the compact form is a valid world:update");
      assert.equal(uf.moved, undefined, "the documented form has no moves by handle");
      const handles = uc.entities.map((e) => (e as { h?: number }).h);
      assert.ok(
        handles.every((h) => h !== undefined),
        "every whole entry names its handle",
      );
      assert.equal(new Set(handles).size, handles.length, "one entity per handle in a frame");
      for (const h of handles) {
        if (everHandled.has(h) && !a.entities.has(uc.entities[handles.indexOf(h)]!.id)) reused++;
        everHandled.add(h);
      }
      moves += (uc.moved ?? []).length / 3;
      a.apply(uf);
      b.apply(uc);
      assert.deepEqual(
        new Map([...b.entities].map(([id, e]) => [id, { ...e }])),
        new Map([...a.entities].map(([id, e]) => [id, { ...e }])),
        `the same view at tick ${tick}`,
      );
    }
    assert.ok(moves > 200, `moves by handle: ${moves}`);
    assert.ok(reused > 0, "handles of entities that left were given out again");
    assert.ok(compactBytes < fullBytes * 0.6, `compact ${compactBytes} bytes against ${fullBytes}`);
  });

  it("refuses a move by a handle that names nothing in the client's view", () => {
    const copy = new ViewCopy();
    copy.apply({ tick: 1, entities: [{ h: 0, id: "p1", kind: "object", x: 1, z: 1, ref: "bank" }], moved: [], removed: [] });
    copy.apply({ tick: 2, entities: [], moved: [0, 2, 2], removed: [] });
    assert.deepEqual({ ...copy.entities.get("p1") }, { id: "p1", kind: "object", x: 2, z: 2, ref: "bank" });
    copy.apply({ tick: 3, entities: [], moved: [], removed: ["p1"] });
    assert.throws(() => copy.apply({ tick: 4, entities: [], moved: [0, 3, 3], removed: [] }), /handle 0/);
    assert.throws(() => copy.apply({ tick: 4, entities: [], moved: [9, 3, 3], removed: [] }), /handle 9/);
  });
});

describe("ViewTracker: a client's copy", () => {
  it("keeps a client's copy equal to the replica's view, tick by tick, through walks, changes, logouts, relogins within a tick, private drops, frames skipped and its viewer away", async () => {
    const g = await gameWorld(5);
    const at = openRow(g, KEEP_RADIUS + 4);
    const random = seededRandom(23);
    let viewer = g.add({ ...at });
    const others = Array.from({ length: 16 }, (_, i) => g.add({ x: at.x + (i % 8) - 4, z: at.z + Math.floor(i / 8) }));
    const trackers = [new ViewTracker(0, false), new ViewTracker(1, true)];
    const copies = trackers.map(() => new ViewCopy());
    let written = 0;
    let viewerAway = 0;
    const privateDrops: ReturnType<typeof spawnGroundItem>[] = [];
    let hiddenChecks = 0;
    const shownAfter = new Set<string>();
    for (let tick = 0; tick < 200; tick++) {
      stir(g, others, at, random, { health: 0.37, relogin: 0.375 });
      // Out on a tick without frames and in again on the next: the frame after sees both diffs, the
      // replica a new object under the same id (on ticks of every refresh phase).
      if (tick % 5 === 3 && g.world.players.has(others[1]!.id)) g.world.removePlayer(others[1]!.id);
      if (tick % 5 === 4 && !g.world.players.has(others[1]!.id)) {
        const p = others[1]!;
        others[1] = g.world.addPlayer(playerData({ characterId: p.id, name: p.data.name, x: p.x, z: p.z }));
      }
      if (tick % 25 === 5) g.world.removePlayer(others[tick % others.length]!.id);
      if (tick % 25 === 17) {
        const back = others[(tick - 12) % others.length]!;
        if (!g.world.players.has(back.id))
          others[(tick - 12) % others.length] = g.world.addPlayer(playerData({ characterId: back.id, name: back.data.name, x: at.x + 2, z: at.z }));
      }
      // A drop private to another player (public a few ticks later), and one of the viewer's own.
      if (tick % 30 === 7) privateDrops.push(spawnGroundItem(g.world, "logs", 1, { x: at.x + 1, z: at.z }, others[0]!.id));
      if (tick % 30 === 9) spawnGroundItem(g.world, "logs", 1, { x: at.x - 1, z: at.z }, viewer.id);
      // The viewer leaves the world for a few ticks (its frames stop) and comes back as a new object.
      if (tick === 120) {
        g.world.removePlayer(viewer.id);
        viewerAway = 6;
      }
      if (viewerAway > 0 && --viewerAway === 0) viewer = g.world.addPlayer(playerData({ characterId: viewer.id, name: viewer.data.name, x: at.x, z: at.z }));
      g.tick();
      const world = replicaOf(g.world);
      // Every fifth tick no frame: the next one covers two diffs.
      if (tick % 5 === 3) continue;
      for (let k = 0; k < trackers.length; k++) {
        const t = trackers[k]!;
        const text = t.frame(world, viewer.id, tick === 0);
        if (!g.world.players.has(viewer.id)) {
          assert.equal(text, undefined, "no frame while the viewer is away");
          continue;
        }
        if (text !== undefined) {
          copies[k]!.apply((JSON.parse(text) as { data: WorldUpdate }).data);
          written++;
        }
        const expected = new Map([...t.interest.visible.keys()].map((id) => [id, JSON.parse(world.byId.get(id)!.full) as Record<string, unknown>]));
        assert.deepEqual(
          new Map([...copies[k]!.entities].map(([id, e]) => [id, { ...e }])),
          expected,
          `tracker ${k}: the client's copy is the view at tick ${tick}`,
        );
        // Another player's drop stays out of the viewer's copy until it is public, and comes in after.
        for (const drop of privateDrops) {
          if (g.world.tick < drop.publicAtTick) {
            assert.equal(copies[k]!.entities.has(drop.id), false, `tracker ${k}: ${drop.id} private at tick ${tick}`);
            hiddenChecks++;
          } else if (copies[k]!.entities.has(drop.id)) shownAfter.add(drop.id);
        }
      }
    }
    assert.ok(written > 200, `frames written: ${written}`);
    assert.ok(hiddenChecks > 10, `private drops checked hidden: ${hiddenChecks}`);
    assert.ok(shownAfter.size > 0, "a private drop shown once public");
  });
});

describe("DeltaBuilder", () => {
  it("forgets a viewer that joined and left between two steps", () => {
    const builder = new DeltaBuilder();
    const info = JSON.stringify({ id: "p1", kind: "player", name: "P" });
    const move = (tick: number, x: number) => ({ tick, changes: ["p1", "player", x, 5, tick === 0 ? info : null, null, 0], removed: [] });
    assert.deepEqual(builder.step({ ...move(0, 5), joined: [[1, "p1", false, 0]], left: [1], groupsJoined: [], groupsLeft: [] }), []);
    for (let tick = 1; tick < 6; tick++)
      assert.deepEqual(builder.step({ ...move(tick, 5 + tick), joined: [], left: [], groupsJoined: [], groupsLeft: [] }), [], `tick ${tick}`);
  });
});

describe("GroupView (a multiplexed /ws connection's one view)", () => {
  /**
   * A group of members in a busy world, tick by tick, against the rule: everything within
   * VIEW_RADIUS of a member that it may see is in the group's copy, where the world has it; nothing
   * is in it that is not within KEEP_RADIUS of a member that may see it.
   */
  async function check(opts: { compact: boolean; seed: number }): Promise<{ frames: number; maxView: number; removedSeen: number; privateSeen: number }> {
    const g = await gameWorld(opts.seed);
    const at = openRow(g, KEEP_RADIUS + 4);
    const random = seededRandom(opts.seed);
    const members = Array.from({ length: 6 }, (_, i) => g.add({ x: at.x + i * 6, z: at.z }));
    const others = Array.from({ length: 12 }, (_, i) => g.add({ x: at.x + (i % 6) * 5, z: at.z + Math.floor(i / 6) }));
    // A tile far from every member: a teleport there leaves the whole group's view.
    const b0 = g.world.collision.bounds;
    let far = { x: at.x, z: at.z };
    for (let z = b0.minZ; z <= b0.maxZ; z++)
      for (let x = b0.minX; x <= b0.maxX; x++)
        if (g.world.collision.isWalkable(x, z) && Math.abs(x - at.x) + Math.abs(z - at.z) > Math.abs(far.x - at.x) + Math.abs(far.z - at.z)) far = { x, z };
    assert.ok(Math.max(Math.abs(far.x - at.x - 15), Math.abs(far.z - at.z)) > 15 + 2 * KEEP_RADIUS, "a tile out of every view");
    const feed = new ViewFeed();
    const builder = new DeltaBuilder();
    const copy = new ViewCopy();
    let inGroup = members.map((m, i) => ({ viewer: i + 1, player: m }));
    let frames = 0;
    let maxView = 0;
    let removedSeen = 0;
    let privateSeen = 0;
    for (let tick = 0; tick < 200; tick++) {
      for (const p of [...members, ...others]) {
        if (!g.world.players.has(p.id)) continue;
        const r = random();
        if (r < 0.3) g.send(p, "player:move", { x: at.x + Math.floor(random() * 48) - 12, z: at.z + Math.floor(random() * 8) - 4 });
        else if (r < 0.32) g.world.teleport(p, { x: at.x + KEEP_RADIUS + 2, z: at.z });
        else if (r < 0.34 && !members.includes(p)) g.world.teleport(p, far);
        else if (r < 0.36 && !members.includes(p)) g.world.teleport(p, { x: at.x + 3, z: at.z });
      }
      // A relogin within one tick: a new object of the same id, near the members.
      if (tick % 40 === 20) {
        const back = others[2]!;
        g.world.removePlayer(back.id);
        others[2] = g.world.addPlayer(playerData({ characterId: back.id, name: back.data.name, x: at.x + 4, z: at.z }));
      }
      // A member's private drop (only it sees it for a while), and someone else's.
      if (tick % 25 === 3) spawnGroundItem(g.world, "logs", 1, { x: members[1]!.x, z: members[1]!.z }, members[1]!.id);
      if (tick % 25 === 9) spawnGroundItem(g.world, "logs", 1, { x: others[0]!.x, z: others[0]!.z }, others[0]!.id);
      // Member 1's drop beside another member, out of member 1's own sight: only member 1 may see it.
      if (tick % 25 === 15) {
        const owner = members[1]!;
        const away = members.find((m) => Math.max(Math.abs(m.x - owner.x), Math.abs(m.z - owner.z)) > KEEP_RADIUS + 2);
        if (away !== undefined) spawnGroundItem(g.world, "logs", 1, { x: away.x, z: away.z }, owner.id);
      }
      g.tick();
      // Member 6 leaves at tick 120, and comes back at 150 as viewer 7.
      const joined: DeltaInput["joined"] =
        tick === 0 ? inGroup.map(({ viewer, player }) => [viewer, player.id, opts.compact, 100] as [number, string, boolean, number]) : [];
      const left = tick === 120 ? [6] : [];
      if (tick === 120) inGroup = inGroup.filter((m) => m.viewer !== 6);
      if (tick === 150) {
        joined.push([7, members[5]!.id, opts.compact, 100]);
        inGroup.push({ viewer: 7, player: members[5]! });
      }
      const out = builder.step({ ...feed.diff(g.world), joined, left, groupsJoined: tick === 0 ? [[100, opts.compact]] : [], groupsLeft: [] });
      assert.ok(out.length <= 2 && out.every((x, i) => i % 2 === 1 || x === -100), "one frame a tick, under the group's id negated");
      if (out.length === 2) {
        const u = (JSON.parse(out[1] as string) as { data: WorldUpdate }).data;
        assert.equal(checkServerEvent("world:update", u), undefined, "a valid world:update");
        const ids = u.entities.map((e) => e.id);
        assert.equal(new Set(ids).size, ids.length, "each entity once in a frame");
        assert.ok(!u.removed.some((id) => ids.includes(id)), `nothing both sent and removed in one frame (tick ${tick})`);
        removedSeen += u.removed.length;
        copy.apply(u);
        frames++;
      }
      const world = builder.world;
      const viewers = inGroup.map((m) => world.byId.get(m.player.id)!);
      const maySee = (e: Shown, radius: number) =>
        viewers.some(
          (v) =>
            Math.max(Math.abs(v.x - e.x), Math.abs(v.z - e.z)) <= radius && (e.ownerId === undefined || world.tick >= e.publicAtTick || e.ownerId === v.id),
        );
      for (const e of world.byId.values()) {
        if (!maySee(e, VIEW_RADIUS)) continue;
        const seen = copy.entities.get(e.id);
        assert.ok(seen !== undefined, `${e.kind} ${e.id} at ${e.x},${e.z} within VIEW_RADIUS of a member is in the group's view (tick ${tick})`);
        assert.deepEqual([seen.x, seen.z], [e.x, e.z], `where the world has it (tick ${tick})`);
        if (e.ownerId !== undefined && world.tick < e.publicAtTick) privateSeen++;
      }
      for (const [id, seen] of copy.entities) {
        const e = world.byId.get(id);
        assert.ok(
          e !== undefined && maySee(e, KEEP_RADIUS),
          `${seen.kind} ${id} in the group's view is within KEEP_RADIUS of a member that may see it (tick ${tick})`,
        );
        assert.deepEqual([seen.x, seen.z], [e.x, e.z], `where the world has it (tick ${tick})`);
      }
      maxView = Math.max(maxView, copy.entities.size);
    }
    return { frames, maxView, removedSeen, privateSeen };
  }

  it("holds what its members may see, and nothing beyond, tick by tick, through walks, teleports, a relogin, a member leaving and private drops (compact updates)", async () => {
    const r = await check({ compact: true, seed: 21 });
    assert.ok(r.frames > 150 && r.maxView > 20 && r.removedSeen > 0 && r.privateSeen > 0, JSON.stringify(r));
  });

  it("the same in the documented form", async () => {
    const r = await check({ compact: false, seed: 22 });
    assert.ok(r.frames > 150 && r.maxView > 20 && r.removedSeen > 0 && r.privateSeen > 0, JSON.stringify(r));
  });

  it("takes in what is within VIEW_RADIUS of a member and keeps it to KEEP_RADIUS, wherever the member stands in its cell", () => {
    const info = (id: string) => JSON.stringify({ id, kind: "player", name: id });
    for (let x0 = 0; x0 < 45; x0++) {
      const builder = new DeltaBuilder();
      const around: [string, number, number][] = [];
      for (const d of [VIEW_RADIUS, VIEW_RADIUS + 1]) {
        for (const [dx, dz] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
          [1, 1],
          [-1, -1],
          [1, -1],
          [-1, 1],
        ] as const)
          around.push([`p${d}_${dx}_${dz}`, x0 + dx * d, 100 + dz * d]);
      }
      const changes = (mx: number, first: boolean): (string | number | null)[] =>
        [["m", mx, 100] as [string, number, number], ...around].flatMap(([id, x, z], i) => [id, "player", x, z, first ? info(id) : null, null, 0, i + 1]);
      const ids = (out: (number | string)[]) => (JSON.parse(out[1] as string) as { data: WorldUpdate }).data;
      const first = ids(
        builder.step({ tick: 1, changes: changes(x0, true), removed: [], joined: [[1, "m", false, 5]], left: [], groupsJoined: [[5, false]], groupsLeft: [] }),
      );
      const sent = first.entities.map((e) => e.id).sort();
      assert.deepEqual(
        sent,
        ["m", ...around.filter(([id]) => id.startsWith(`p${VIEW_RADIUS}_`)).map(([id]) => id)].sort(),
        `member at x ${x0}: within VIEW_RADIUS, and nothing beyond`,
      );
      // The member walks 3 tiles west: what was 16 tiles east is 19 away, still in view (KEEP_RADIUS) …
      const east = `p${VIEW_RADIUS}_1_0`;
      const kept = builder.step({
        tick: 2,
        changes: changes(x0 - KEEP_RADIUS + VIEW_RADIUS, false),
        removed: [],
        joined: [],
        left: [],
        groupsJoined: [],
        groupsLeft: [],
      });
      assert.ok(kept.length === 0 || !ids(kept).removed.includes(east), `x ${x0}: kept within KEEP_RADIUS`);
      // … and one tile more, out of it.
      const gone = ids(
        builder.step({
          tick: 3,
          changes: changes(x0 - KEEP_RADIUS + VIEW_RADIUS - 1, false),
          removed: [],
          joined: [],
          left: [],
          groupsJoined: [],
          groupsLeft: [],
        }),
      );
      assert.ok(gone.removed.includes(east), `x ${x0}: removed beyond KEEP_RADIUS`);
    }
  });

  it("leaves a private ground item out of the frame of a group its owner is not in", async () => {
    const g = await gameWorld(4);
    const at = openRow(g, KEEP_RADIUS + 4);
    const member = g.add({ ...at });
    const owner = g.add({ x: at.x + 2, z: at.z });
    const item = spawnGroundItem(g.world, "logs", 2, { x: at.x + 1, z: at.z }, owner.id);
    const builder = new DeltaBuilder();
    const feed = new ViewFeed();
    g.tick();
    const out = builder.step({ ...feed.diff(g.world), joined: [[1, member.id, false, 9]], left: [], groupsJoined: [[9, false]], groupsLeft: [] });
    const u = (JSON.parse(out[1] as string) as { data: WorldUpdate }).data;
    assert.ok(
      u.entities.some((e) => e.id === owner.id),
      "the owner, a player in view",
    );
    assert.ok(!u.entities.some((e) => e.id === item.id), "not someone else's private drop");
  });
});

describe("ViewFeed: entities' numbers", () => {
  it("numbers each entity once, never gives a number again, and names one that left for a few diffs more (an answer about it may be late)", async () => {
    const g = await gameWorld(5);
    const feed = new ViewFeed();
    const a = g.add({ x: 0, z: 0 });
    const b = g.add({ x: 1, z: 0 });
    const numOf = (diff: ReturnType<ViewFeed["diff"]>, id: string) => {
      for (let i = 0; i < diff.changes.length; i += CHANGE_STRIDE) if (diff.changes[i] === id) return diff.changes[i + 7] as number;
      return undefined;
    };
    g.tick();
    const first = feed.diff(g.world);
    const na = numOf(first, a.id)!;
    const nb = numOf(first, b.id)!;
    assert.ok(na > 0 && nb > 0 && na !== nb);
    assert.equal(feed.idOf(na), a.id);
    // A moves: the same number.
    g.world.teleport(a, { x: 2, z: 0 });
    g.tick();
    assert.equal(numOf(feed.diff(g.world), a.id), na);
    // B leaves: still named for a few diffs, then forgotten; when it comes back it has a new number.
    g.world.removePlayer(b.id);
    let diffs = 0;
    for (; feed.idOf(nb) !== undefined; diffs++) {
      g.tick();
      feed.diff(g.world);
      assert.ok(diffs < NUM_KEPT_DIFFS + 5, "forgotten at last");
    }
    // A view learns that it left at its next refresh, and its answer may come a tick late.
    assert.ok(NUM_KEPT_DIFFS >= REFRESH_TICKS + 2);
    assert.ok(diffs >= NUM_KEPT_DIFFS, `named ${diffs} diffs after it left`);
    const back = g.world.addPlayer(playerData({ characterId: b.id, x: 1, z: 0 }));
    g.tick();
    const nBack = numOf(feed.diff(g.world), back.id)!;
    assert.ok(nBack !== nb && nBack !== na, "a new number");
    assert.equal(feed.idOf(nBack), b.id);
  });
});

describe("ViewFeed: what changed", () => {
  it("sends a player that only walked by its position, and whole again when anything else changed with the walk", async () => {
    const g = await gameWorld(5);
    const feed = new ViewFeed();
    const row = openRow(g, 8);
    const a = g.add(row);
    const infoOf = (diff: ReturnType<ViewFeed["diff"]>) => {
      for (let i = 0; i < diff.changes.length; i += CHANGE_STRIDE) {
        if (diff.changes[i] === a.id)
          return {
            x: diff.changes[i + 2],
            z: diff.changes[i + 3],
            info: diff.changes[i + 4] === null ? null : (JSON.parse(diff.changes[i + 4] as string) as Record<string, unknown>),
          };
      }
      return undefined;
    };
    g.tick();
    assert.equal(infoOf(feed.diff(g.world))?.info?.running, false, "whole at first");
    assert.equal(infoOf(feed.diff(g.world)), undefined, "nothing when nothing changed");
    // It walks: only its position, tick by tick.
    g.send(a, "player:move", { x: row.x + 3, z: row.z });
    for (let step = 1; step <= 2; step++) {
      g.tick();
      assert.deepEqual(infoOf(feed.diff(g.world)), { x: row.x + step, z: row.z, info: null }, `step ${step}`);
    }
    // Hurt while walking: whole, with its health.
    a.data.health -= 1;
    a.publicVersion++;
    g.tick();
    const hurt = infoOf(feed.diff(g.world))!;
    assert.deepEqual([hurt.x, hurt.info?.health], [row.x + 3, a.data.health]);
    // It runs back: whole with running, then running's end comes whole too.
    g.send(a, "player:move", { x: row.x, z: row.z, run: true });
    g.tick();
    const ran = infoOf(feed.diff(g.world))!;
    assert.equal(ran.info?.running, true, "running, whole");
    assert.equal(ran.x, row.x + 1, "two tiles in a tick");
    g.tick();
    const stopped = infoOf(feed.diff(g.world))!;
    assert.deepEqual([stopped.x, stopped.info?.running], [row.x, false], "arrived: running no more, whole");
  });
});
