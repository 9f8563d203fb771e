/* eslint-disable no-console */
/**
 * Micro-benchmark of the per-tick publishing work, without sockets: N players walking randomly in
 * one world (the bundled content, the real gameplay phases), and one `/ws` view tracker per
 * viewer. Reports the time per tick of the game step, of every viewer's interest refresh and of
 * every viewer's `world:update` frame.
 *
 *   node bench/publish/run.ts [--players 1000] [--viewers 500] [--ticks 200] [--compact] [--walking 1]
 *
 * `--compact`: the viewers take compact updates (`/ws?updates=compact`, as the world-load bots and
 * the agent runtime do). Each frame is turned into the bytes a socket is handed, as `ws` does.
 * `--walking`: the share of the players that walk about (the rest stand still, as idle players do).
 */
import { parseCli } from "../../src/cli.ts";
import { gameWorld } from "../../test/support/game.ts";
import { crowd } from "../crowd.ts";
import { ViewTracker } from "../../src/game/world/ViewTracker.ts";
import { replicaOf } from "../../test/support/viewReplica.ts";

const CLI = {
  command: "npm run bench:publish -- [options]",
  summary: `Micro-benchmark of the per-tick publishing work, without sockets. See bench/publish/README.md.`,
};
const { values } = parseCli(CLI, {
  options: {
    players: { type: "string", default: "1000" },
    viewers: { type: "string", default: "500" },
    ticks: { type: "string", default: "200" },
    compact: { type: "boolean", default: false },
    walking: { type: "string", default: "1" },
  },
});
const players = Number(values.players);
const viewers = Number(values.viewers);
const ticks = Number(values.ticks);
const walking = Number(values.walking);
if (![players, viewers, ticks].every((n) => Number.isInteger(n) && n > 0) || viewers > players || !(walking >= 0 && walking <= 1)) {
  console.error("usage: run.ts [--players 1000] [--viewers 500 (at most --players)] [--ticks 200] [--compact] [--walking 0…1]");
  process.exit(2);
}

const g = await gameWorld(7);
const { world } = g;
const { all, rnd } = crowd(g, players);
// Drawn only when asked, so that the default run walks as it always did.
const walkers = walking === 1 ? all : all.filter(() => rnd() < walking);
const trackers = all.slice(0, viewers).map((p) => ({ p, t: new ViewTracker(undefined, values.compact) }));
for (const { p, t } of trackers) t.frame(replicaOf(world), p.id, true);

const step: number[] = [];
const publish: number[] = [];
let bytes = 0;
for (let i = 0; i < ticks; i++) {
  for (const p of walkers) {
    if (p.path.length === 0 && rnd() < 0.3) {
      const to = { x: p.x + Math.floor(rnd() * 13) - 6, z: p.z + Math.floor(rnd() * 13) - 6 };
      if (world.collision.isWalkable(to.x, to.z)) g.send(p, "player:move", to);
    }
  }
  let t0 = performance.now();
  g.tick();
  g.clearSent();
  step.push(performance.now() - t0);
  t0 = performance.now();
  const view = replicaOf(world);
  for (const { p, t } of trackers) {
    const frame = t.frame(view, p.id);
    // What a socket is handed: the frame's bytes.
    if (frame !== undefined) bytes += Buffer.from(frame).length;
  }
  publish.push(performance.now() - t0);
}
const pct = (xs: number[], q: number) => [...xs].sort((a, c) => a - c)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!.toFixed(2);
const skip = Math.floor(ticks / 10);
console.log(
  JSON.stringify({
    players,
    viewers,
    compact: values.compact,
    walking,
    ticks,
    stepP50Ms: pct(step.slice(skip), 0.5),
    publishP50Ms: pct(publish.slice(skip), 0.5),
    publishP99Ms: pct(publish.slice(skip), 0.99),
    bytesPerViewerPerTick: Math.round(bytes / ticks / viewers),
  }),
);
