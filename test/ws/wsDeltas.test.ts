/**
 * WsDeltas: the `/ws` frames built in the worker thread are exactly those built on the calling
 * thread, tick by tick, through viewers joining and leaving, players logging out and in, ground
 * items and teleports; a late worker's frames arrive later but complete and in order; a failed
 * worker is replaced by building on the main thread, with a full frame for every viewer.
 */
import assert from "node:assert/strict";
import { pino } from "pino";
import { spawnGroundItem } from "../../src/game/groundItems.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { INTEREST_PARTS, WsDeltas, type InterestChange } from "../../src/ws/WsDeltas.ts";
import { Interest } from "../../src/game/world/Interest.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";
import { playerData } from "../support/players.ts";
import { until } from "../support/until.ts";

const logger = pino({ level: "silent" });
/** A wait for the worker's answer no loaded machine outlasts (see `make`). */
const ON_TIME_MS = 30_000;

/** A seeded walk of `players` players around one spot, with the random events of a busy world. */
function scenario(g: GameHarness, players: number, seed: number) {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const { collision, content } = g.world;
  const spawn = content.world.spawn;
  const near = (r: number) => {
    for (;;) {
      const x = Math.round(spawn.x) + Math.floor(rnd() * (2 * r + 1)) - r;
      const z = Math.round(spawn.z) + Math.floor(rnd() * (2 * r + 1)) - r;
      if (collision.isWalkable(x, z)) return { x, z };
    }
  };
  const all: Player[] = Array.from({ length: players }, () => g.add(near(20)));
  return {
    all,
    rnd,
    /** One tick of the world, then each builder's start and finish (all start before any finishes, as in a server tick). */
    tick(...builders: WsDeltas[]) {
      this.stir();
      g.tick();
      g.clearSent();
      for (const b of builders) b.start(g.world);
      for (const b of builders) b.finish();
    },
    /** One tick's random inputs and events. */
    stir() {
      for (const p of all) {
        if (g.world.players.get(p.id) !== p) continue;
        if (p.path.length === 0 && rnd() < 0.4) {
          const to = near(40);
          g.send(p, "player:move", to);
        }
      }
      const r = rnd();
      if (r < 0.1) spawnGroundItem(g.world, "logs", 1, near(20), rnd() < 0.5 ? all[0]!.id : undefined);
      else if (r < 0.15) {
        // Logs out and straight back in: a new object with the same id.
        const i = 1 + Math.floor(rnd() * (all.length - 1));
        const old = all[i]!;
        g.world.removePlayer(old.id);
        all[i] = g.world.addPlayer(playerData({ characterId: old.id, name: old.data.name, ...near(20) }));
      } else if (r < 0.2) g.world.teleport(all[Math.floor(rnd() * all.length)]!, near(60));
    },
  };
}

type Streams = Map<number, string[]>;

/** The same frames in the same order (the first difference is reported, not the whole streams). */
function sameStream(actual: string[] | undefined, expected: string[], what: string): void {
  assert.ok(actual !== undefined, `${what}: no stream`);
  const n = Math.max(actual.length, expected.length);
  for (let i = 0; i < n; i++) {
    const got: string = actual[i] ?? "";
    const want: string = expected[i] ?? "";
    if (got === want) continue;
    let j = 0;
    while (j < got.length && got[j] === want[j]) j++;
    assert.fail(
      `${what}: frame ${i} of ${expected.length} (got ${actual.length}), from character ${j}:\n  got      …${got.slice(Math.max(0, j - 150), j + 150)}\n  expected …${want.slice(Math.max(0, j - 150), j + 150)}`,
    );
  }
}

function attach(deltas: WsDeltas, playerId: string, streams: Streams, key: number): number {
  streams.set(key, []);
  return deltas.add(playerId, (frame) => streams.get(key)!.push(frame));
}

describe("WsDeltas (the /ws delta worker)", function () {
  this.timeout(60_000);
  let g: GameHarness;
  const open: WsDeltas[] = [];
  /**
   * `waitMs`: how long `finish` and `takeInterests` wait for the worker. Unless a test is about
   * late answers, far longer than the server's: the worker's first answer comes after it has
   * loaded its modules, which on a loaded machine took over the server's second, and a test that
   * compares tick by tick must not find that answer a tick late.
   */
  const make = (worker: boolean, waitMs = ON_TIME_MS) => {
    const d = new WsDeltas({ logger, worker, waitMs });
    assert.equal(d.threaded, worker);
    open.push(d);
    return d;
  };
  /**
   * A builder under test (`tested`, made with `worker` and `waitMs`) and one on the main thread,
   * both given the world's first `viewers` players as viewers: their frames in `a` and `b`.
   */
  const pair = (worker: boolean, viewers: number, world: ReturnType<typeof scenario>, waitMs?: number) => {
    const pairOf = { tested: make(worker, waitMs), inline: make(false), a: new Map() as Streams, b: new Map() as Streams };
    world.all.slice(0, viewers).forEach((p, i) => {
      attach(pairOf.tested, p.id, pairOf.a, i);
      attach(pairOf.inline, p.id, pairOf.b, i);
    });
    return pairOf;
  };
  beforeEach(async () => {
    g = await gameWorld(11);
  });
  afterEach(async () => {
    for (const d of open.splice(0)) await d.close();
  });

  it("delivers, every tick, exactly the frames built on the main thread", () => {
    const world = scenario(g, 80, 7);
    const threaded = make(true);
    const inline = make(false);
    const a: Streams = new Map();
    const b: Streams = new Map();
    const ids = new Map<number, [number, number]>();
    let key = 0;
    const join = (p: Player) => {
      key++;
      ids.set(key, [attach(threaded, p.id, a, key), attach(inline, p.id, b, key)]);
    };
    for (const p of world.all.slice(0, 30)) join(p);
    let frames = 0;
    for (let tick = 0; tick < 150; tick++) {
      if (world.rnd() < 0.3) join(world.all[Math.floor(world.rnd() * world.all.length)]!);
      if (world.rnd() < 0.2 && ids.size > 1) {
        const [k, [ta, tb]] = [...ids][Math.floor(world.rnd() * ids.size)]!;
        threaded.remove(ta);
        inline.remove(tb);
        ids.delete(k);
      }
      world.tick(threaded, inline);
      assert.ok(threaded.threaded, "still in the worker");
      for (const [k, stream] of b) {
        sameStream(a.get(k), stream, `viewer ${k} at tick ${g.world.tick}`);
        frames += stream.length;
      }
    }
    assert.ok(frames > 1_000, `a busy world (${frames} frames)`);
    // The frames say what they should: some carry players' moves, some removals.
    const all = [...b.values()].flat().map((f) => JSON.parse(f) as { type: string; data: { entities: unknown[]; removed: string[] } });
    assert.ok(all.every((f) => f.type === "world:update"));
    assert.ok(all.some((f) => f.data.removed.length > 0));
    assert.ok(all.some((f) => f.data.entities.length > 0));
  });

  it("gives a late answer with the next tick: nothing lost, nothing out of order", () => {
    const world = scenario(g, 60, 3);
    const { tested: late, inline, a, b } = pair(true, 20, world, 0);
    let lateTicks = 0;
    for (let tick = 0; tick < 60; tick++) {
      world.tick(late, inline);
      if (a.get(0)!.length < b.get(0)!.length) lateTicks++;
    }
    assert.ok(lateTicks > 0, "with no time to wait, some answers came a tick late");
    // No new ticks: whatever was still on its way arrives.
    const deadline = Date.now() + ON_TIME_MS;
    while ([...b].some(([k, s]) => a.get(k)!.length < s.length) && Date.now() < deadline) late.finish();
    for (const [k, stream] of b) sameStream(a.get(k), stream, `viewer ${k}`);
  });

  it("poll: delivers a tick's frames as soon as the worker's answer is in, without waiting, and never before", () => {
    const world = scenario(g, 60, 9);
    const { tested: threaded, inline, a, b } = pair(true, 20, world);
    assert.equal(threaded.poll(), true, "before any tick, nothing to wait for");
    let waitedTicks = 0;
    for (let tick = 0; tick < 40; tick++) {
      world.stir();
      g.tick();
      g.clearSent();
      threaded.start(g.world);
      inline.start(g.world);
      assert.equal(inline.poll(), false, "without a worker, the frames are built by finish");
      inline.finish();
      assert.equal(inline.poll(), true);
      const before = a.get(0)!.length;
      const deadline = Date.now() + ON_TIME_MS;
      let polls = 0;
      while (!threaded.poll()) {
        polls++;
        assert.equal(a.get(0)!.length, before, "no frame of this tick before the answer is in");
        assert.ok(Date.now() < deadline, "the worker answers");
      }
      if (polls > 0) waitedTicks++;
      for (const [k, stream] of b) sameStream(a.get(k), stream, `viewer ${k} at tick ${g.world.tick}`);
      // Nothing is left for finish to deliver (or wait for).
      threaded.finish();
      for (const [k, stream] of b) assert.equal(a.get(k)!.length, stream.length, `viewer ${k}: nothing twice`);
    }
    assert.ok(waitedTicks > 0, "some ticks' answers were not in at once (poll did not wait for them)");
  });

  it("builds on the main thread when the worker dies, starting each viewer over with a full frame", async () => {
    const world = scenario(g, 40, 5);
    const deltas = make(true);
    const a: Streams = new Map();
    world.all.slice(0, 10).forEach((p, i) => attach(deltas, p.id, a, i));
    for (let i = 0; i < 3; i++) {
      world.tick(deltas);
    }
    assert.ok(a.get(0)!.length >= 1);
    await (deltas as unknown as { worker: { thread: { terminate(): Promise<number> } } }).worker.thread.terminate();
    await until(() => !deltas.threaded, "falls back to the main thread");
    for (const s of a.values()) s.splice(0);
    g.tick();
    deltas.start(g.world);
    deltas.finish();
    for (const [i, s] of a) {
      assert.equal(s.length, 1, `viewer ${i}: one frame`);
      const f = JSON.parse(s[0]!) as { data: { entities: { id: string; name?: string }[] } };
      const self = f.data.entities.find((e) => e.id === world.all[i]!.id);
      assert.ok(self?.name, `viewer ${i}: the full frame has the viewer itself, whole`);
    }
  });

  it("skips the work while no /ws connection is open, and catches up when one joins", () => {
    const world = scenario(g, 60, 13);
    const threaded = make(true);
    const posted: unknown[] = [];
    const port = (threaded as unknown as { worker: { port: { postMessage(m: unknown): void } } }).worker.port;
    const post = port.postMessage.bind(port);
    port.postMessage = (m: unknown) => {
      posted.push(m);
      post(m);
    };
    const run = (ticks: number) => {
      for (let i = 0; i < ticks; i++) {
        world.tick(threaded);
      }
    };
    run(5);
    assert.equal(posted.length, 0, "nothing sent to the worker");
    // One viewer for a while: the replica fills; then it leaves (one more tick tells the worker).
    const first = threaded.add(world.all[0]!.id, () => {});
    run(5);
    threaded.remove(first);
    run(30);
    assert.equal(posted.length, 6, "five ticks with the viewer, one for its leaving, then nothing");
    // A viewer joins now: its frames are those of a builder that starts from scratch at this tick.
    const fresh = make(false);
    // Viewer ids set each view's refresh phase: take the id the first viewer used above, too.
    fresh.remove(fresh.add("nobody", () => {}));
    const a: Streams = new Map();
    const b: Streams = new Map();
    const viewers = world.all.slice(0, 10).filter((p) => g.world.players.get(p.id) === p);
    viewers.forEach((p, i) => {
      attach(threaded, p.id, a, i);
      attach(fresh, p.id, b, i);
    });
    for (let i = 0; i < 20; i++) {
      world.tick(threaded, fresh);
    }
    assert.equal(posted.length, 26);
    // The same content; the order of entities within a frame follows each replica's own history.
    const sorted = (frames: string[] | undefined) =>
      (frames ?? []).map((f) => {
        const { type, data } = JSON.parse(f) as { type: string; data: { tick: number; entities: { id: string }[]; removed: string[] } };
        return JSON.stringify({ type, tick: data.tick, entities: data.entities.sort((x, y) => x.id.localeCompare(y.id)), removed: data.removed.sort() });
      });
    for (const [k, stream] of b) sameStream(sorted(a.get(k)), sorted(stream), `viewer ${k}`);
  });

  it("drops frames for a viewer that left, and sends nothing after close", async () => {
    const world = scenario(g, 20, 9);
    const deltas = make(true);
    const a: Streams = new Map();
    const id = attach(deltas, world.all[0]!.id, a, 0);
    attach(deltas, world.all[1]!.id, a, 1);
    g.tick();
    deltas.start(g.world);
    deltas.remove(id);
    deltas.finish();
    assert.equal(a.get(0)!.length, 0, "left before its first frame was delivered");
    assert.equal(a.get(1)!.length, 1);
    await deltas.close();
    world.tick(deltas);
    assert.equal(a.get(1)!.length, 1, "closed: nothing more");
  });

  /**
   * Colyseus clients' views (interest viewers): each joins with a view filled on the main thread
   * (a forced refresh, as WorldRoom's onJoin does), handed to the builder under test, and a
   * reference Interest on the World starts from the same view with the same refresh phase. `ids`:
   * viewer id → [player, reference, the ids in its view as the worker's changes leave it].
   */
  const interestViewers = (deltas: WsDeltas, players: Player[]) => {
    const ids = new Map<number, { player: Player; ref: Interest; view: Set<string> }>();
    for (const player of players) {
      const first = new Interest();
      const seed = [...(first.refresh(g.world, player, true)?.entered ?? [])];
      const id = deltas.addInterest(player.id, seed);
      assert.ok(id !== undefined, "a worker takes interest viewers");
      const ref = new Interest(id);
      ref.seed(seed.map((e) => g.world.entityById(e)!));
      ids.set(id, { player, ref, view: new Set(seed) });
    }
    return ids;
  };
  const applyInterests = (ids: ReturnType<typeof interestViewers>, changes: InterestChange[]) => {
    for (const change of changes) {
      const v = ids.get(change.viewer)!;
      for (const e of change.entered) {
        assert.ok(!v.view.has(e), `${e} entered a view it was in`);
        v.view.add(e);
      }
      for (const e of change.left) assert.ok(v.view.delete(e), `${e} left a view it was not in`);
    }
  };

  it("works out Colyseus clients' views in the worker: each tick, what entered and left each is what an Interest on the World finds", () => {
    const world = scenario(g, 80, 21);
    const deltas = make(true);
    const ids = interestViewers(deltas, world.all.slice(0, 25));
    let enteredCount = 0;
    let leftCount = 0;
    for (let tick = 0; tick < 120; tick++) {
      world.stir();
      g.tick();
      g.clearSent();
      deltas.start(g.world);
      assert.equal((deltas as unknown as { awaitingInterests: number }).awaitingInterests, g.world.tick, "this tick's answer is awaited");
      const changes = deltas.takeInterests();
      assert.equal((deltas as unknown as { awaitingInterests: number }).awaitingInterests, -1, `tick ${g.world.tick}: the answer came in time`);
      const got = new Map<number, [string[], string[]]>();
      for (const c of changes) {
        assert.ok(!got.has(c.viewer), "one change a viewer a tick");
        got.set(c.viewer, [c.entered, c.left]);
      }
      applyInterests(ids, changes);
      for (const [id, v] of ids) {
        const player = g.world.players.get(v.player.id);
        const before = new Set(v.ref.visible.keys());
        const change = player === undefined ? undefined : v.ref.refresh(g.world, player);
        // On the World a player who logged out and back in is another object under the same id,
        // which the reference finds "entering" a view that holds its id; the replica keeps one
        // entity per id (and WorldRoom gives the views the new schema when it comes back).
        const entered = change?.entered.filter((e) => !before.has(e)) ?? [];
        const want: [string[], string[]] = change === undefined || (entered.length === 0 && change.left.length === 0) ? [[], []] : [entered, change.left];
        const have = got.get(id) ?? [[], []];
        assert.deepEqual(
          have.map((xs) => [...xs].sort()),
          want.map((xs) => [...xs].sort()),
          `viewer ${id} at tick ${g.world.tick}`,
        );
        enteredCount += want[0].length;
        leftCount += want[1].length;
      }
      deltas.finish();
    }
    assert.ok(enteredCount > 100 && leftCount > 100, `views changed (${enteredCount} entered, ${leftCount} left)`);
    // What the worker's changes left in each view is what the reference holds.
    for (const [id, v] of ids) assert.deepEqual([...v.view].sort(), [...v.ref.visible.keys()].sort(), `viewer ${id}`);
  });

  it(`answers the interest changes in ${INTEREST_PARTS} parts: the first part taken alone, the rest with the second call, every view as the reference's`, () => {
    const world = scenario(g, 80, 27);
    const deltas = make(true);
    const viewers = world.all.slice(0, 24);
    const ids = interestViewers(deltas, viewers);
    const order = [...ids.keys()];
    // The parts are runs of the viewers in join order.
    const partOf = (viewer: number) => Math.floor((order.indexOf(viewer) * INTEREST_PARTS) / order.length);
    const seen = { first: 0, rest: 0 };
    for (let tick = 0; tick < 80; tick++) {
      world.stir();
      g.tick();
      g.clearSent();
      deltas.start(g.world);
      const first = deltas.takeInterests(false);
      assert.ok(
        first.every((c) => partOf(c.viewer) === 0),
        `tick ${g.world.tick}: the first call has the first part only (${first.map((c) => partOf(c.viewer))})`,
      );
      const rest = deltas.takeInterests(true);
      assert.equal((deltas as unknown as { awaitingInterests: number }).awaitingInterests, -1, "every part is in after the second call");
      assert.ok(
        rest.every((c) => partOf(c.viewer) > 0),
        `tick ${g.world.tick}: the second call has the rest`,
      );
      seen.first += first.length;
      seen.rest += rest.length;
      applyInterests(ids, [...first, ...rest]);
      for (const v of ids.values()) {
        const player = g.world.players.get(v.player.id);
        if (player !== undefined) v.ref.refresh(g.world, player);
      }
      deltas.finish();
    }
    assert.ok(seen.first > 20 && seen.rest > 20, `both parts changed views (${seen.first}, ${seen.rest})`);
    for (const [id, v] of ids) assert.deepEqual([...v.view].sort(), [...v.ref.visible.keys()].sort(), `viewer ${id}`);
  });

  it("gives late interest changes with the next call, in tick order: every view ends as the reference's", () => {
    const world = scenario(g, 60, 23);
    const late = make(true, 0);
    const ids = interestViewers(late, world.all.slice(0, 15));
    let lateTicks = 0;
    for (let tick = 0; tick < 60; tick++) {
      world.stir();
      g.tick();
      g.clearSent();
      late.start(g.world);
      const pending = (late as unknown as { awaitingInterests: number }).awaitingInterests;
      const changes = late.takeInterests();
      if ((late as unknown as { awaitingInterests: number }).awaitingInterests === pending && pending >= 0) lateTicks++;
      applyInterests(ids, changes);
      for (const v of ids.values()) {
        const player = g.world.players.get(v.player.id);
        if (player !== undefined) v.ref.refresh(g.world, player);
      }
      late.finish();
    }
    assert.ok(lateTicks > 0, "with no time to wait, some changes came a tick late");
    const deadline = Date.now() + ON_TIME_MS;
    while ((late as unknown as { awaitingInterests: number }).awaitingInterests >= 0 && Date.now() < deadline) late.finish();
    applyInterests(ids, late.takeInterests());
    for (const [id, v] of ids) assert.deepEqual([...v.view].sort(), [...v.ref.visible.keys()].sort(), `viewer ${id}`);
  });

  it("takes no interest viewer without a worker, and none once the worker died (their callers work their views out again)", async () => {
    const world = scenario(g, 20, 25);
    assert.equal(make(false).addInterest(world.all[0]!.id, []), undefined);
    const deltas = make(true);
    interestViewers(deltas, world.all.slice(0, 3));
    world.tick(deltas);
    assert.equal(deltas.interestsThreaded, true);
    await (deltas as unknown as { worker: { thread: { terminate(): Promise<number> } } }).worker.thread.terminate();
    await until(() => !deltas.interestsThreaded, "the worker is given up");
    assert.equal(deltas.addInterest(world.all[4]!.id, []), undefined);
    world.tick(deltas);
    assert.deepEqual(deltas.takeInterests(), []);
  });

  it("says that a view lost what left the world between the join and the worker's first tick", async () => {
    const spawn = g.world.content.world.spawn;
    const at = { x: Math.round(spawn.x), z: Math.round(spawn.z) };
    const viewer = g.add(at);
    const other = g.add(at);
    const deltas = make(true);
    g.tick();
    g.clearSent();
    const seed = new Interest().refresh(g.world, viewer, true)!.entered;
    assert.ok(seed.includes(other.id));
    const id = deltas.addInterest(viewer.id, seed)!;
    // `other` logs out before the worker's first tick: it is never in the worker's replica.
    g.world.removePlayer(other.id);
    const view = new Set(seed);
    for (let t = 0; t < 3; t++) {
      g.tick();
      g.clearSent();
      deltas.start(g.world);
      for (const c of deltas.takeInterests()) {
        assert.equal(c.viewer, id);
        for (const e of c.entered) view.add(e);
        for (const e of c.left) view.delete(e);
      }
      deltas.finish();
    }
    assert.ok(!view.has(other.id), "the worker said it left");
    assert.ok(view.has(viewer.id));
  });

  for (const late of [false, true]) {
    it(`says that players who logged out left the views near them, with answers ${late ? "applied a tick late" : "on time"}`, async () => {
      const spawn = g.world.content.world.spawn;
      const at = { x: Math.round(spawn.x), z: Math.round(spawn.z) };
      const viewer = g.add(at);
      const others = Array.from({ length: 12 }, () => g.add(at));
      const deltas = make(true);
      g.tick();
      g.clearSent();
      const seed = new Interest().refresh(g.world, viewer, true)!.entered;
      const id = deltas.addInterest(viewer.id, seed)!;
      const view = new Set(seed);
      const apply = (changes: InterestChange[]) => {
        for (const c of changes) {
          assert.equal(c.viewer, id);
          for (const e of c.entered) view.add(e);
          for (const e of c.left) view.delete(e);
        }
      };
      const internals = deltas as unknown as { awaitingInterests: number };
      for (let t = 0; t < 40; t++) {
        if (t >= 2 && t - 2 < others.length) g.world.removePlayer(others[t - 2]!.id); // one logs out a tick
        g.tick();
        g.clearSent();
        deltas.start(g.world);
        if (!late) apply(deltas.takeInterests());
        else {
          // Late: this tick's answer is not waited for (as one later than the wait); the last
          // tick's, taken in by finish, is read now, after this tick's diff.
          const awaiting = internals.awaitingInterests;
          internals.awaitingInterests = -1;
          apply(deltas.takeInterests());
          internals.awaitingInterests = awaiting;
        }
        deltas.finish();
      }
      apply(deltas.takeInterests());
      assert.deepEqual(
        [...view].filter((e) => g.world.entityById(e) === undefined),
        [],
        "nothing that left the world is still in the view",
      );
      assert.ok(view.has(viewer.id));
    });
  }

  it("gives up a worker that stops answering (stuck, not dead): the frames and the views are worked out on the main thread from then on", async () => {
    const world = scenario(g, 30, 27);
    const deltas = new WsDeltas({ logger, worker: true, waitMs: 20, hungMs: 300, workerEntry: new URL("../support/hangingDeltaWorker.ts", import.meta.url) });
    open.push(deltas);
    const a: Streams = new Map();
    attach(deltas, world.all[0]!.id, a, 0);
    assert.notEqual(deltas.addInterest(world.all[1]!.id, []), undefined);
    const deadline = Date.now() + 10_000;
    let before = 0;
    while (deltas.threaded) {
      assert.ok(Date.now() < deadline, "given up");
      before = a.get(0)!.length;
      world.tick(deltas);
      deltas.takeInterests();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(deltas.interestsThreaded, false);
    // The tick that gave it up built the viewer's frame here: a full one, to start over.
    assert.equal(a.get(0)!.length, before + 1);
    const full = JSON.parse(a.get(0)!.at(-1)!) as { data: { entities: { id: string; name?: string }[] } };
    assert.ok(full.data.entities.find((e) => e.id === world.all[0]!.id)?.name, "a full frame");
  });
});
