/**
 * A `/ws` replica of a World kept in step on the same thread (what the delta worker holds), for
 * tests and benchmarks of ViewTracker: it applies the world's diff whenever the tick has moved on.
 */
import { ViewFeed, ViewWorld } from "../../src/game/world/ViewWorld.ts";
import type { World } from "../../src/game/world/World.ts";

const replicas = new WeakMap<World, { feed: ViewFeed; view: ViewWorld }>();

export function replicaOf(world: World): ViewWorld {
  let r = replicas.get(world);
  if (r === undefined) replicas.set(world, (r = { feed: new ViewFeed(), view: new ViewWorld() }));
  if (r.view.tick !== world.tick) r.view.apply(r.feed.diff(world));
  return r.view;
}
