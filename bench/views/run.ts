/* eslint-disable no-console */
/**
 * Micro-benchmark of the Colyseus side of a tick, without sockets: N players walking about in
 * one world (the bundled content, the real gameplay phases) and one Colyseus client's view for
 * each of the first V players, as WorldRoom keeps them. Per tick it times the interest refreshes
 * (each view's Interest on the World, as without the delta worker), the view changes (StateView
 * adds and removes, through WorldView), and the patch of every view (the indexed encoder of
 * rooms/visibleChanges.ts and `encodeView`, as Colyseus' broadcastPatch does), and counts what
 * entered the views, the patch bytes, and the players near a viewer that its view leaves out.
 *
 *   npm run bench:views [-- --players 2000 --views 1000 --ticks 120 --library]
 *
 * `--library`: the library's own StateView (no fast add or dispose) and the plain encoder, for a
 * before/after of what this project changes in them (the same bytes either way: see
 * test/world/visibleChanges.test.ts).
 */
import { parseCli } from "../../src/cli.ts";
import { Encoder, StateView } from "@colyseus/schema";
import { gameWorld } from "../../test/support/game.ts";
import { crowd } from "../crowd.ts";
import { CLAIM_RADIUS, Interest } from "../../src/game/world/Interest.ts";
import { describe as describeEntity, VIEW_RADIUS, type Entity } from "../../src/game/world/World.ts";
import { WorldView } from "../../rooms/WorldView.ts";
import { indexVisibleChanges } from "../../rooms/visibleChanges.ts";
import { EntityState, PlayerState, TAG_OWNER, WorldState } from "../../schema/WorldState.ts";

const CLI = {
  command: "npm run bench:views -- [options]",
  summary: `Micro-benchmark of the Colyseus side of a tick, without sockets. See bench/views/README.md.`,
};
const { values } = parseCli(CLI, {
  options: {
    players: { type: "string", default: "2000" },
    views: { type: "string", default: "1000" },
    ticks: { type: "string", default: "120" },
    library: { type: "boolean", default: false },
  },
});
const players = Number(values.players);
const viewCount = Number(values.views);
const ticks = Number(values.ticks);
if (![players, viewCount, ticks].every((n) => Number.isInteger(n) && n > 0) || viewCount > players || ticks < 20) {
  console.error("usage: run.ts [--players 2000] [--views 1000 (at most --players)] [--ticks 120 (at least 20)] [--library]");
  process.exit(2);
}

const g = await gameWorld(7);
const { world } = g;
const { all, rnd } = crowd(g, players);

// The state, mirrored from the world as WorldRoom does it (public fields; private ones for the viewers).
const state = new WorldState();
const encoder = new Encoder(state);
if (!values.library) indexVisibleChanges(encoder);
const schemaOf = new Map<string, PlayerState | EntityState>();
const mirror = () => {
  for (const p of all) {
    let s = schemaOf.get(p.id) as PlayerState | undefined;
    if (s === undefined) {
      schemaOf.set(
        p.id,
        (s = new PlayerState({ id: p.id, name: p.data.name, health: p.data.health, maxHealth: p.maxHealth, combatLevel: p.data.combatLevel })),
      );
      s.coins = p.data.coins;
      state.players.set(p.id, s);
    }
    s.x = p.x;
    s.z = p.z;
  }
  world.forEachShown(false, (e: Entity) => {
    if (schemaOf.has(e.id)) return;
    const v = describeEntity(e) as { id: string; kind: string; x: number; z: number; ref: string };
    const s = new EntityState({ id: v.id, kind: v.kind, x: v.x, z: v.z, ref: v.ref });
    schemaOf.set(e.id, s);
    state.entities.set(e.id, s);
  });
};
mirror();
const views = all.slice(0, viewCount).map((p) => ({ p, interest: new Interest(), view: values.library ? new StateView() : new WorldView() }));
for (const v of views) {
  v.view.add(schemaOf.get(v.p.id)!, TAG_OWNER);
  for (const id of v.interest.refresh(world, v.p, true)?.entered ?? []) v.view.add(schemaOf.get(id)!);
}
{
  const it = { offset: 0 };
  encoder.encodeAll(it);
  for (const v of views) encoder.encodeAllView(v.view, it.offset, { offset: it.offset });
  encoder.discardChanges();
}

const times = { interest: [] as number[], views: [] as number[], patch: [] as number[] };
let entered = 0;
// What the views show (every 10th tick, untimed): the players each holds, and the players within
// CLAIM_RADIUS and within VIEW_RADIUS of its viewer that it does not hold: what a rule for the cap
// costs the players, next to what it saves the server.
const unseen = { within8: 0, within16: 0, held: 0, samples: 0 };
const countUnseen = () => {
  unseen.samples++;
  for (const v of views) {
    world.forEachNear(v.p, v.p.id, VIEW_RADIUS, (e, isPlayer) => {
      if (!isPlayer || v.interest.visible.has(e.id)) return;
      unseen.within16++;
      if (Math.max(Math.abs(e.x - v.p.x), Math.abs(e.z - v.p.z)) <= CLAIM_RADIUS) unseen.within8++;
    });
    for (const id of v.interest.visible.keys()) if (world.players.has(id)) unseen.held++;
  }
};
let bytes = 0;
for (let t = 0; t < ticks; t++) {
  for (const p of all) {
    if (p.path.length === 0 && rnd() < 0.15) {
      const to = { x: p.x + Math.floor(rnd() * 13) - 6, z: p.z + Math.floor(rnd() * 13) - 6 };
      if (world.collision.isWalkable(to.x, to.z)) g.send(p, "player:move", to);
    }
  }
  g.tick();
  g.clearSent();
  mirror();
  let at = performance.now();
  const changes = views.map((v) => v.interest.refresh(world, v.p));
  times.interest.push(performance.now() - at);
  at = performance.now();
  views.forEach((v, i) => {
    const change = changes[i];
    if (change === undefined) return;
    entered += change.entered.length;
    for (const id of change.entered) v.view.add(schemaOf.get(id)!);
    for (const id of change.left) v.view.remove(schemaOf.get(id)!);
  });
  times.views.push(performance.now() - at);
  at = performance.now();
  const it = { offset: 0 };
  encoder.encode(it);
  const shared = it.offset;
  for (const v of views) bytes += encoder.encodeView(v.view, shared, { offset: shared }).length;
  encoder.discardChanges();
  times.patch.push(performance.now() - at);
  if (t % 10 === 9) countUnseen();
}
const skip = Math.floor(ticks / 10);
const median = (xs: number[]) => [...xs.slice(skip)].sort((x, y) => x - y)[Math.floor((xs.length - skip) / 2)]!.toFixed(2);
console.log(
  JSON.stringify({
    players,
    views: viewCount,
    ticks,
    library: values.library,
    interestMsP50: median(times.interest),
    viewChangesMsP50: median(times.views),
    patchMsP50: median(times.patch),
    enteredPerTick: Math.round(entered / ticks),
    patchBytesPerTick: Math.round(bytes / ticks),
    // Per view, on average: players it holds, and players within CLAIM_RADIUS (8) / VIEW_RADIUS (16) tiles it does not.
    playersHeld: +(unseen.held / unseen.samples / viewCount).toFixed(1),
    unseenWithin8: +(unseen.within8 / unseen.samples / viewCount).toFixed(2),
    unseenWithin16: +(unseen.within16 / unseen.samples / viewCount).toFixed(2),
  }),
);
process.exit(0);
