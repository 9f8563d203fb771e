/* eslint-disable no-console */
/**
 * The bots of the world-load benchmark, in their own process (forked by run.ts, which talks to it
 * over the IPC channel). `node bench/world-load/bots.ts <input.json>`.
 *
 * Half the bots (even indexes) join the `world` room with the Colyseus SDK, half speak JSON over
 * `/ws`. Each bot walks to a random reachable tile within 6 tiles every 2–5 s and chats every
 * 20–40 s. Move latency = time from sending `player:move` to the first position change of the
 * bot's own player that it observes (Colyseus: `room.state.players[me]`; `/ws`: its own entity in
 * a `world:update`). It is only timed when the bot stands still at the time of sending (otherwise
 * the next change would belong to the previous walk).
 *
 * Both kinds use the `ws` package as their WebSocket (the SDK's Node fallback), so both count the
 * same TCP bytes and the bots spend as little of the shared CPU as possible.
 */
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import WebSocket from "ws";
import type { CollisionMap } from "../../src/game/map/CollisionMap.ts";
import { findPath } from "../../src/game/map/pathfinding.ts";
import { seededRandom } from "../../src/game/world/World.ts";
import {
  bundledCollision,
  isProbe,
  percentile,
  reportAndExit,
  round,
  type BotsInput,
  type BotsReport,
  type FromBots,
  type KindReport,
  type ToBots,
} from "./common.ts";
import { parseCli } from "../../src/cli.ts";

// Make the SDK use `ws` (it falls back to it when there is no global WebSocket).
Reflect.deleteProperty(globalThis, "WebSocket");
const { Client } = await import("@colyseus/sdk");

/**
 * When, within a tick's burst of updates, each bot of this process sees its own player move: the
 * time since the first bot of the burst saw its own (a burst: changes less than 200 ms apart).
 * Bots share a thread, so the last of a burst waits for all the others' decoding; this is that
 * wait, which the move latencies include and real clients (one each) do not have.
 */
const spread = {
  offsets: { colyseus: [] as number[], ws: [] as number[] },
  first: 0,
  last: Number.NEGATIVE_INFINITY,
  saw(kind: Kind): void {
    const now = performance.now();
    if (now - this.last > 200) this.first = now;
    this.last = now;
    if (Date.now() >= windowStart) this.offsets[kind].push(now - this.first);
  },
};

/**
 * Frames are handled after the poll phase that read them, not as each is read: every frame a poll
 * read is stamped with its arrival first. A move is timed twice: to when the bot saw it (after the
 * decoding of every frame handled before its own, as above), and to the arrival of the frame that
 * showed it, which is what a client decoding only its own frames would see (its one decode takes
 * well under a millisecond).
 */
const arrivals = {
  bots: [] as Bot[],
  at: [] as number[],
  handle: [] as (() => void)[],
  scheduled: false,
  add(bot: Bot, handle: () => void): void {
    this.bots.push(bot);
    this.at.push(Date.now());
    this.handle.push(handle);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  },
  drain(): void {
    this.scheduled = false;
    const { bots, at, handle } = this;
    this.bots = [];
    this.at = [];
    this.handle = [];
    for (let i = 0; i < bots.length; i++) {
      const bot = bots[i]!;
      bot.arrivedAt = at[i];
      try {
        handle[i]!();
      } finally {
        bot.arrivedAt = undefined;
      }
    }
  },
};

/** A timed move that sees no position change within this long counts as a timeout. */
const LATENCY_TIMEOUT_MS = 10_000;
/** A bot that has not moved for this long counts as standing still even off its target. */
const STUCK_MS = 3_000;
const MOVE_RADIUS = 6;

type Kind = "colyseus" | "ws";

interface Stats {
  connected: number;
  connectFailures: number;
  disconnects: number;
  movesSent: number;
  latencies: number[];
  /** The same moves, timed to the arrival of the frame that showed them (see arrivals). */
  arrivalLatencies: number[];
  latencyTimeouts: number;
  chatsSent: number;
  chatsReceived: number;
  payloadBytes: number;
  messages: number;
  errors: Record<string, number>;
  /** Why joins failed: the error's message (and its cause's, as fetch gives it), with counts. */
  connectFailureReasons: Record<string, number>;
  /** Each successful join's time (ms), from the first request to joined. */
  joinMs: number[];
}

function newStats(): Stats {
  return {
    connected: 0,
    connectFailures: 0,
    disconnects: 0,
    movesSent: 0,
    latencies: [],
    arrivalLatencies: [],
    latencyTimeouts: 0,
    chatsSent: 0,
    chatsReceived: 0,
    payloadBytes: 0,
    messages: 0,
    errors: {},
    connectFailureReasons: {},
    joinMs: [],
  };
}

const { positionals } = parseCli(
  {
    positionals: "<input.json>",
    summary: "A child process of npm run bench:world-load (its run.ts starts it with the file of its input); not run by hand. See bench/world-load/README.md.",
  },
  { options: {}, allowPositionals: true },
);
const input = JSON.parse(fs.readFileSync(positionals[0] ?? "", "utf8")) as BotsInput;
const map: CollisionMap = await bundledCollision();
const stats: Record<Kind, Stats> = { colyseus: newStats(), ws: newStats() };
/** Sends before this time are not timed (the warm-up before the measured window). */
let windowStart = Number.POSITIVE_INFINITY;
let stopping = false;

const send = (msg: FromBots) => process.send?.(msg);
const random = seededRandom(input.seed);
const rand = (min: number, max: number) => min + random() * (max - min);

abstract class Bot {
  readonly index: number;
  readonly kind: Kind;
  playerId: string | undefined;
  x = Number.NaN;
  z = Number.NaN;
  target: { x: number; z: number } | undefined;
  lastChangeAt = 0;
  /** The timed move waiting for its first position change. */
  pendingSince: number | undefined;
  /** While a frame is handled: when it arrived (see arrivals). */
  arrivedAt: number | undefined;
  open = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(index: number, kind: Kind) {
    this.index = index;
    this.kind = kind;
  }

  get stats(): Stats {
    return stats[this.kind];
  }

  abstract connect(token: string): Promise<void>;
  abstract sendEvent(type: string, data: object): void;
  /** TCP bytes received so far. */
  abstract wireBytes(): number;
  abstract close(): void;

  /** Starts walking and chatting. */
  begin(): void {
    this.timers.push(setTimeout(() => this.moveLoop(), rand(500, 2_000)));
    this.timers.push(setTimeout(() => this.chatLoop(), rand(1_000, 30_000)));
  }

  /** Brings the next move forward (see {@link BotsInput.quickStart}). */
  moveSoon(): void {
    if (!this.open) return;
    clearTimeout(this.timers[0]);
    this.timers[0] = setTimeout(() => this.moveLoop(), rand(100, 1_500));
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }

  private moveLoop(): void {
    if (!this.open || stopping) return;
    this.move();
    this.timers[0] = setTimeout(() => this.moveLoop(), rand(2_000, 5_000));
  }

  private chatLoop(): void {
    if (!this.open || stopping) return;
    this.sendEvent("player:chat", { message: `hello from bot ${this.index}` });
    if (Date.now() >= windowStart) this.stats.chatsSent++;
    this.timers[1] = setTimeout(() => this.chatLoop(), rand(20_000, 40_000));
  }

  private move(): void {
    if (Number.isNaN(this.x)) return;
    const now = Date.now();
    if (this.pendingSince !== undefined && now - this.pendingSince > LATENCY_TIMEOUT_MS) {
      if (this.pendingSince >= windowStart) this.stats.latencyTimeouts++;
      this.pendingSince = undefined;
    }
    const here = { x: this.x, z: this.z };
    let target: { x: number; z: number } | undefined;
    for (let attempt = 0; attempt < 12 && target === undefined; attempt++) {
      const t = { x: this.x + Math.round(rand(-MOVE_RADIUS, MOVE_RADIUS)), z: this.z + Math.round(rand(-MOVE_RADIUS, MOVE_RADIUS)) };
      if ((t.x === this.x && t.z === this.z) || !map.isWalkable(t.x, t.z)) continue;
      const r = findPath(map, here, t, 20);
      if (r.ok && r.reachesTarget && r.path.length > 0) target = t;
    }
    if (target === undefined) return;
    const standing = this.target === undefined || (this.target.x === this.x && this.target.z === this.z) || now - this.lastChangeAt > STUCK_MS;
    this.target = target;
    this.sendEvent("player:move", target);
    if (now >= windowStart) this.stats.movesSent++;
    if (standing && this.pendingSince === undefined) this.pendingSince = now;
  }

  /** The bot's own player is at (x, z) now. */
  observe(x: number, z: number): void {
    if (x === this.x && z === this.z) return;
    spread.saw(this.kind);
    const first = Number.isNaN(this.x);
    this.x = x;
    this.z = z;
    const now = Date.now();
    this.lastChangeAt = now;
    if (first) return;
    if (this.pendingSince !== undefined) {
      if (this.pendingSince >= windowStart) {
        this.stats.latencies.push(now - this.pendingSince);
        this.stats.arrivalLatencies.push((this.arrivedAt ?? now) - this.pendingSince);
      }
      this.pendingSince = undefined;
    }
  }

  onError(data: { code?: unknown; event?: unknown }): void {
    const key = `${String(data?.code)}${data?.event ? `(${String(data.event)})` : ""}`;
    if (Date.now() >= windowStart) this.stats.errors[key] = (this.stats.errors[key] ?? 0) + 1;
    if (data?.event === "player:move") this.pendingSince = undefined;
  }

  onClosed(): void {
    if (this.open && !stopping && Date.now() >= windowStart) this.stats.disconnects++;
    this.open = false;
    this.stop();
  }
}

type SdkRoom = Awaited<ReturnType<InstanceType<typeof Client>["joinOrCreate"]>>;

class ColyseusBot extends Bot {
  room: SdkRoom | undefined;

  constructor(index: number) {
    super(index, "colyseus");
  }

  async connect(token: string): Promise<void> {
    const client = new Client(`http://127.0.0.1:${input.port}`);
    client.auth.token = token;
    const room = await client.joinOrCreate("world");
    this.room = room;
    this.open = true;
    const events = room.connection.events;
    const dispatch = events.onmessage!;
    events.onmessage = (ev: MessageEvent) => {
      if (Date.now() >= windowStart) {
        this.stats.payloadBytes += (ev.data as ArrayBuffer).byteLength;
        this.stats.messages++;
      }
      arrivals.add(this, () => dispatch(ev));
    };
    room.onMessage("welcome", (d: { playerId: string }) => {
      this.playerId = d.playerId;
      this.check();
    });
    room.onMessage("player:sync", () => {});
    room.onMessage("chat:message", () => {
      if (Date.now() >= windowStart) this.stats.chatsReceived++;
    });
    room.onMessage("error", (d: { code?: unknown; event?: unknown }) => this.onError(d));
    room.onMessage("*", () => {});
    room.onStateChange(() => this.check());
    room.onLeave(() => this.onClosed());
  }

  private check(): void {
    if (this.playerId === undefined || this.room === undefined) return;
    const p = (this.room.state as { players?: Map<string, { x: number; z: number }> }).players?.get(this.playerId);
    if (p !== undefined) this.observe(p.x, p.z);
  }

  sendEvent(type: string, data: object): void {
    this.room?.send(type, data);
  }

  wireBytes(): number {
    const ws = (this.room?.connection.transport as { ws?: { _socket?: { bytesRead?: number } } } | undefined)?.ws;
    return ws?._socket?.bytesRead ?? 0;
  }

  close(): void {
    void this.room?.leave(true).catch(() => {});
  }
}

class WsBot extends Bot {
  socket: WebSocket | undefined;
  /** Matches the bot's own entity in a `world:update` without parsing the whole frame. */
  private own: RegExp | undefined;
  /** Compact updates: the handle of the bot's own entity, once a whole entry has named it. */
  private handle = -1;
  private ownHandle: RegExp | undefined;

  constructor(index: number) {
    super(index, "ws");
  }

  connect(token: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${input.port}/ws?token=${encodeURIComponent(token)}&updates=${input.wsUpdates}`, {
        perMessageDeflate: false,
      });
      this.socket = socket;
      let welcomed = false;
      socket.on("message", (raw: Buffer) => arrivals.add(this, () => handle(raw)));
      const handle = (raw: Buffer) => {
        if (Date.now() >= windowStart) {
          this.stats.payloadBytes += raw.byteLength;
          this.stats.messages++;
        }
        const text = raw.toString();
        if (text.startsWith('{"type":"world:update"')) {
          if (input.wsUpdates === "compact") {
            // The whole entry names the handle ({"h":…,"id":…); moves come by handle.
            if (this.handle < 0) {
              const h = this.ownHandle?.exec(text);
              if (h) this.handle = Number(h[1]);
            }
            if (this.handle >= 0) this.observeMoved(text);
            return;
          }
          // A position-only entry: {"id", "kind", "x", "z"} in that order.
          const m = this.own?.exec(text);
          if (m) this.observe(Number(m[1]), Number(m[2]));
          return;
        }
        if (text.startsWith('{"type":"chat:message"')) {
          if (Date.now() >= windowStart) this.stats.chatsReceived++;
          return;
        }
        const env = JSON.parse(text) as { type: string; data: Record<string, unknown> };
        if (env.type === "welcome") {
          this.playerId = String(env.data.playerId);
          const me = this.playerId.replace(/[^\w-]/g, "");
          this.own = new RegExp(`"id":"${me}","kind":"player","x":(-?\\d+),"z":(-?\\d+)`);
          this.ownHandle = new RegExp(`"h":(\\d+),"id":"${me}"`);
          if (!welcomed) {
            welcomed = true;
            this.open = true;
            resolve();
          }
        } else if (env.type === "player:sync") {
          const pos = env.data.position as { x: number; z: number } | undefined;
          if (pos !== undefined && Number.isNaN(this.x)) this.observe(pos.x, pos.z);
        } else if (env.type === "error") {
          if (!welcomed) reject(new Error(`error before welcome: ${JSON.stringify(env.data)}`));
          this.onError(env.data);
        }
      };
      socket.on("close", (code) => {
        if (!welcomed) reject(new Error(`closed before welcome (${code})`));
        this.onClosed();
      });
      socket.on("error", (err) => {
        if (!welcomed) reject(err);
      });
      socket.on("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
  }

  /**
   * Compact updates: the bot's own move among `"moved":[h,x,z,…]`, read without parsing the frame
   * (nor splitting the list: the numbers are read in place, every third one compared with its handle).
   */
  private observeMoved(text: string): void {
    const at = text.indexOf('"moved":[');
    if (at < 0) return;
    let i = at + 9;
    /** The integer at `i` (optionally negative), moving `i` past it and its comma; NaN if none. */
    const int = (): number => {
      let sign = 1;
      if (text.charCodeAt(i) === 45) {
        sign = -1;
        i++;
      }
      let v = 0;
      let digits = 0;
      for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) {
        v = v * 10 + (c - 48);
        digits++;
      }
      if (text.charCodeAt(i) === 44) i++;
      return digits === 0 ? Number.NaN : sign * v;
    };
    for (;;) {
      const h = int();
      if (Number.isNaN(h)) return;
      const x = int();
      const z = int();
      if (h === this.handle) {
        this.observe(x, z);
        return;
      }
    }
  }

  sendEvent(type: string, data: object): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type, data }));
  }

  wireBytes(): number {
    return (this.socket as unknown as { _socket?: { bytesRead?: number } } | undefined)?._socket?.bytesRead ?? 0;
  }

  close(): void {
    this.socket?.close(1000);
  }
}

const bots: Bot[] = input.tokens.flatMap((_, i) => {
  const kind: Kind = i % 2 === 0 ? "colyseus" : "ws";
  if (input.kind !== undefined && input.kind !== kind) return [];
  if (input.probes !== undefined && isProbe(i, input.probes) !== input.probes.only) return [];
  if (input.share !== undefined && Math.floor(i / 2) % input.share.of !== input.share.index) return [];
  return [kind === "colyseus" ? new ColyseusBot(i) : new WsBot(i)];
});
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

async function connectAll(): Promise<number> {
  const started = Date.now();
  const gap = 1000 / input.rampPerSecond;
  const joins: Promise<void>[] = [];
  let lastProgress = Date.now();
  for (let k = 0; k < bots.length; k++) {
    const bot = bots[k]!;
    const i = bot.index;
    const at = started + k * gap;
    const wait = at - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const joinStarted = Date.now();
    joins.push(
      bot.connect(input.tokens[i]!).then(
        () => {
          bot.stats.joinMs.push(Date.now() - joinStarted);
          bot.stats.connected++;
          bot.begin();
        },
        (err: unknown) => {
          bot.stats.connectFailures++;
          const e = err as Error & { code?: unknown; cause?: { message?: string; code?: string } };
          // An error without a message (the SDK rejects a join some ways with a bare event) is named by its kind and its text.
          const reason =
            [e?.code, e?.message, e?.cause?.code ?? e?.cause?.message].filter((v) => v !== undefined && v !== "").join(": ") ||
            `${(err as object)?.constructor?.name ?? typeof err}: ${JSON.stringify(err) ?? String(err)}`.slice(0, 200);
          bot.stats.connectFailureReasons[reason] = (bot.stats.connectFailureReasons[reason] ?? 0) + 1;
          if (bot.stats.connectFailures <= 3) console.error(`bot ${i} (${bot.kind}) could not connect: ${(err as Error).message}`);
        },
      ),
    );
    if (Date.now() - lastProgress > 2_000) {
      lastProgress = Date.now();
      send({
        type: "progress",
        connected: stats.colyseus.connected + stats.ws.connected,
        failed: stats.colyseus.connectFailures + stats.ws.connectFailures,
        total: bots.length,
      });
    }
  }
  await Promise.all(joins);
  return Date.now() - started;
}

let cpuStart = process.cpuUsage();
let wireStart = new Map<Bot, number>();

function kindReport(kind: Kind, windowMs: number): KindReport {
  const s = stats[kind];
  const mine = bots.filter((b) => b.kind === kind);
  const clients = Math.max(1, s.connected);
  const wire = mine.reduce((sum, b) => sum + Math.max(0, b.wireBytes() - (wireStart.get(b) ?? 0)), 0);
  const perClientPerS = (v: number) => round(v / clients / (windowMs / 1000), 1);
  return {
    bots: mine.length,
    connected: s.connected,
    connectFailures: s.connectFailures,
    connectFailureReasons: s.connectFailureReasons,
    joinMs: s.joinMs,
    joinP50Ms: percentile(s.joinMs, 50),
    joinP99Ms: percentile(s.joinMs, 99),
    disconnects: s.disconnects,
    movesSent: s.movesSent,
    latencySamples: s.latencies.length,
    latencyTimeouts: s.latencyTimeouts,
    latencyP50Ms: percentile(s.latencies, 50),
    latencyP99Ms: percentile(s.latencies, 99),
    latencyMaxMs: s.latencies.length === 0 ? 0 : Math.max(...s.latencies),
    arrivalLatencyP50Ms: percentile(s.arrivalLatencies, 50),
    arrivalLatencyP99Ms: percentile(s.arrivalLatencies, 99),
    spreadP50Ms: round(percentile(spread.offsets[kind], 50)),
    spreadP99Ms: round(percentile(spread.offsets[kind], 99)),
    chatsSent: s.chatsSent,
    chatsReceived: s.chatsReceived,
    payloadBytesPerClientPerS: perClientPerS(s.payloadBytes),
    wireBytesPerClientPerS: perClientPerS(wire),
    messagesPerClientPerS: perClientPerS(s.messages),
    errors: s.errors,
    latencies: s.latencies,
    arrivalLatencies: s.arrivalLatencies,
  };
}

process.on("message", (msg: ToBots) => {
  if (msg.type === "start") {
    windowStart = Date.now();
    for (const k of ["colyseus", "ws"] as const) {
      const s = stats[k];
      s.latencies = [];
      s.arrivalLatencies = [];
      s.payloadBytes = 0;
      s.messages = 0;
    }
    wireStart = new Map(bots.map((b) => [b, b.wireBytes()]));
    cpuStart = process.cpuUsage();
    loop.reset();
    if (input.quickStart) for (const b of bots) b.moveSoon();
  } else if (msg.type === "stop") {
    const windowMs = Date.now() - windowStart;
    // Timed moves still waiting past the timeout count as timeouts.
    for (const b of bots) {
      if (b.pendingSince !== undefined && b.pendingSince >= windowStart && Date.now() - b.pendingSince > LATENCY_TIMEOUT_MS) stats[b.kind].latencyTimeouts++;
    }
    const cpu = process.cpuUsage(cpuStart);
    const report: BotsReport = {
      windowMs,
      colyseus: kindReport("colyseus", windowMs),
      ws: kindReport("ws", windowMs),
      process: {
        cpuCores: round((cpu.user + cpu.system) / 1000 / windowMs, 2),
        eventLoopP99Ms: round(loop.percentile(99) / 1e6, 1),
        eventLoopMaxMs: round(loop.max / 1e6, 1),
        rssBytes: process.memoryUsage().rss,
      },
    };
    stopping = true;
    for (const b of bots) b.stop();
    reportAndExit({ type: "report", report });
    for (const b of bots) b.close();
  }
});

try {
  const rampMs = await connectAll();
  send({ type: "ready", connected: stats.colyseus.connected + stats.ws.connected, failed: stats.colyseus.connectFailures + stats.ws.connectFailures, rampMs });
} catch (err) {
  send({ type: "fatal", message: (err as Error).stack ?? String(err) });
  process.exit(1);
}
