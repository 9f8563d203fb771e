/**
 * The path-finding attack of the world-load benchmark (`--attackers N`), in its own process: N
 * `/ws` clients that each send `player:move` at the full per-connection message rate, always to
 * one of the most expensive targets there are for it. Those are tiles walled off from it (before
 * the connected regions, each was a search that flooded the player's whole region) and the
 * reachable tiles whose searches expand the most nodes (measured here with the server's own
 * path-finding). `node bench/world-load/flood.ts <input.json>`, forked by run.ts.
 */
import fs from "node:fs";
import WebSocket from "ws";
import { findPath, type SearchWork } from "../../src/game/map/pathfinding.ts";
import { seededRandom } from "../../src/game/world/World.ts";
import { bundledCollision, reportAndExit, walkableTiles, type FloodInput, type FloodReport, type FromBots, type ToBots } from "./common.ts";
import { parseCli } from "../../src/cli.ts";

/** Targets a client alternates between: the dearest reachable ones and walled-off ones. */
const TARGETS_PER_CLIENT = 4;
/** Candidate targets measured per client to find its dearest ones. */
const CANDIDATES = 24;

const { positionals } = parseCli(
  {
    positionals: "<input.json>",
    summary: "A child process of npm run bench:world-load (its run.ts starts it with the file of its input); not run by hand. See bench/world-load/README.md.",
  },
  { options: {}, allowPositionals: true },
);
const input = JSON.parse(fs.readFileSync(positionals[0] ?? "", "utf8")) as FloodInput;
const map = await bundledCollision();
const walkable = walkableTiles(map);
const b = map.bounds;
const walledOff: { x: number; z: number }[] = [];
for (let z = b.minZ; z <= b.maxZ; z++) for (let x = b.minX; x <= b.maxX; x++) if (!map.isWalkable(x, z)) walledOff.push({ x, z });
const random = seededRandom(input.seed);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const send = (msg: FromBots) => process.send?.(msg);

/** The dearest targets from a tile: walled-off tiles, and the reachable candidates that cost the most nodes. */
function dearTargets(from: { x: number; z: number }): { x: number; z: number }[] {
  const costed = Array.from({ length: CANDIDATES }, () => {
    const to = pick(walkable);
    const work: SearchWork = { expansions: 0 };
    findPath(map, from, to, 200, work);
    return { to, cost: work.expansions };
  }).sort((a, b) => b.cost - a.cost);
  return [...costed.slice(0, TARGETS_PER_CLIENT / 2).map((c) => c.to), ...Array.from({ length: TARGETS_PER_CLIENT / 2 }, () => pick(walledOff))];
}

const report: FloodReport = { clients: input.tokens.length, connected: 0, connectFailures: 0, disconnects: 0, movesSent: 0, errors: {} };
let measuring = false;
let stopping = false;
const sockets: WebSocket[] = [];
const timers: NodeJS.Timeout[] = [];

function connect(token: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${input.port}/ws?token=${encodeURIComponent(token)}`, { perMessageDeflate: false });
    sockets.push(socket);
    let targets: { x: number; z: number }[] = [];
    let next = 0;
    socket.on("message", (raw: Buffer) => {
      const text = raw.toString();
      if (text.startsWith('{"type":"world:update"') || text.startsWith('{"type":"chat:message"')) return;
      const env = JSON.parse(text) as { type: string; data: Record<string, unknown> };
      if (env.type === "player:sync" && targets.length === 0) {
        const pos = env.data.position as { x: number; z: number };
        targets = dearTargets(pos);
        report.connected++;
        resolve();
        // The full message rate: one move every 1000 / rate ms.
        timers.push(
          setInterval(() => {
            if (stopping || socket.readyState !== WebSocket.OPEN) return;
            socket.send(JSON.stringify({ type: "player:move", data: { ...targets[next++ % targets.length]!, run: true } }));
            if (measuring) report.movesSent++;
          }, 1000 / input.messagesPerSecond),
        );
      } else if (env.type === "error" && measuring) {
        const key = `${String(env.data.code)}${env.data.event ? `(${String(env.data.event)})` : ""}`;
        report.errors[key] = (report.errors[key] ?? 0) + 1;
      }
    });
    socket.on("close", () => {
      if (measuring && !stopping) report.disconnects++;
      resolve();
    });
    socket.on("error", () => {
      report.connectFailures++;
      resolve();
    });
  });
}

process.on("message", (msg: ToBots) => {
  if (msg.type === "start") {
    measuring = true;
  } else if (msg.type === "stop") {
    stopping = true;
    for (const t of timers) clearInterval(t);
    reportAndExit({ type: "flood-report", report });
    for (const s of sockets) s.close(1000);
  }
});

for (const token of input.tokens) {
  await connect(token);
  await new Promise((r) => setTimeout(r, 1000 / input.rampPerSecond));
}
send({ type: "ready", connected: report.connected, failed: report.connectFailures, rampMs: 0 });
