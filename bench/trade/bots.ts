/* eslint-disable no-console */
/**
 * The bots of the trade benchmark, in their own process (forked by run.ts, which talks to it over
 * the IPC channel). `node bench/trade/bots.ts <input.json>`.
 *
 * Two clients per pair, standing next to each other. Even pairs join `world` with the Colyseus
 * SDK, odd pairs speak JSON over `/ws`; both kinds send and receive the same trade events. Each
 * pair trades in a loop, one trade at a time:
 *
 *   A tradeRequest → B tradeRequestRespond {accept} → both tradeStarted → each side
 *   tradeAddItem (1 item, sent on its own tradeStarted, so both offers go in the same tick) → each
 *   side tradeAccept once it sees both offers in a tradeUpdated → tradeConfirmScreen → each side
 *   tradeAccept → tradeCompleted at both.
 *
 * Trade k of a pair swaps 1 log for 1 feather: on even k A gives the log and B the feather, on odd
 * k the other way round, so inventories never run out. Slots are taken from the latest
 * `player:sync` (the next trade starts once both players have had the one that follows
 * `tradeCompleted`).
 *
 * Messages: `trade` starts the loops (warm-up), `start` opens the measured window, `stop` ends it:
 * no new trades start, the ones under way finish (or time out), then the report goes back.
 */
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import WebSocket from "ws";
import { percentile, round } from "../world-load/common.ts";
import type { BotsInput, BotsReport, FromBots, ItemId, Kind, KindReport, PairInput, ToBots } from "./common.ts";
import { parseCli } from "../../src/cli.ts";

// Make the SDK use `ws` (it falls back to it when there is no global WebSocket).
Reflect.deleteProperty(globalThis, "WebSocket");
const { Client } = await import("@colyseus/sdk");

type Data = Record<string, unknown>;

const { positionals } = parseCli(
  {
    positionals: "<input.json>",
    summary: "A child process of npm run bench:trade (its run.ts starts it with the file of its input); not run by hand. See bench/trade/README.md.",
  },
  { options: {}, allowPositionals: true },
);
const input = JSON.parse(fs.readFileSync(positionals[0] ?? "", "utf8")) as BotsInput;
const send = (msg: FromBots) => process.send?.(msg);

/** Sends before this time are not counted (the warm-up before the measured window). */
let windowStart = Number.POSITIVE_INFINITY;
let windowEnd = Number.POSITIVE_INFINITY;
let trading = false;
let stopping = false;
const inWindow = (t: number) => t >= windowStart && t <= windowEnd;

const tradeErrors: Record<string, number> = {};
const tradeCancelled: Record<string, number> = {};
const otherErrors: Record<string, number> = {};
const bump = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
let stuck = 0;
let disconnects = 0;
/** Trade id → how many of its two players got tradeCompleted. */
const completions = new Map<string, number>();
const cancelledIds = new Set<string>();
/** Trade id → when its request was sent (for the log line of a late completion). */
const requestedAt = new Map<string, number>();

interface Timed {
  kind: Kind;
  total: number;
  request: number;
  offer: number;
  commit: number;
}
const timed: Timed[] = [];

/** One connection (either transport): sends events, hands every received event to its player. */
interface Conn {
  send(type: string, data: object): void;
  close(): void;
}

class Side {
  readonly pair: Pair;
  readonly isA: boolean;
  readonly playerId: string;
  conn: Conn | undefined;
  open = false;
  inventory: { slot: number; itemId: string; quantity: number }[] = [];
  /** Got tradeCompleted but not yet the player:sync after it. */
  stale = false;
  // Per trade:
  started = false;
  acceptedOffer = false;
  acceptedConfirm = false;
  completed = false;

  constructor(pair: Pair, isA: boolean, playerId: string) {
    this.pair = pair;
    this.isA = isA;
    this.playerId = playerId;
  }

  reset(): void {
    this.started = false;
    this.acceptedOffer = false;
    this.acceptedConfirm = false;
    this.completed = false;
  }

  send(type: string, data: object): void {
    if (this.open) this.conn?.send(type, data);
  }

  slotOf(itemId: ItemId): number | undefined {
    return this.inventory.find((s) => s.itemId === itemId && s.quantity >= 1)?.slot;
  }

  onEvent(type: string, data: Data): void {
    const p = this.pair;
    const tradeId = typeof data?.tradeId === "string" ? data.tradeId : undefined;
    switch (type) {
      case "player:sync":
        this.inventory = (data.inventory as Side["inventory"]) ?? [];
        this.stale = false;
        p.maybeNext();
        return;
      case "tradeIncoming":
        if (!this.isA && p.phase === "requested" && p.tradeId === undefined && data.fromPlayerId === p.a.playerId && tradeId !== undefined) {
          p.tradeId = tradeId;
          requestedAt.set(tradeId, p.tRequest);
          this.send("tradeRequestRespond", { tradeId, accept: true });
        } else if (tradeId !== undefined) {
          // Not ours (a request from an earlier, abandoned attempt): decline it.
          this.send("tradeRequestRespond", { tradeId, accept: false });
        }
        return;
      case "tradeStarted": {
        if (tradeId === undefined || p.phase !== "requested" || (p.tradeId !== undefined && p.tradeId !== tradeId)) return;
        p.tradeId = tradeId;
        if (this.isA) p.tStarted = Date.now();
        this.started = true;
        const gives: ItemId = (p.count % 2 === 0) === this.isA ? "logs" : "feathers";
        const slot = this.slotOf(gives);
        if (slot === undefined) {
          bump(otherErrors, `bot_has_no_${gives}`);
          p.abandon();
          return;
        }
        this.send("tradeAddItem", { tradeId, inventorySlot: slot, quantity: 1 });
        return;
      }
      case "tradeUpdated": {
        if (tradeId !== p.tradeId || p.phase !== "requested") return;
        const mine = data.myOffer as { items: unknown[] } | undefined;
        const theirs = data.theirOffer as { items: unknown[] } | undefined;
        if (!this.acceptedOffer && (mine?.items.length ?? 0) > 0 && (theirs?.items.length ?? 0) > 0) {
          this.acceptedOffer = true;
          this.send("tradeAccept", { tradeId });
        }
        return;
      }
      case "tradeConfirmScreen":
        if (tradeId !== p.tradeId) return;
        if (this.isA) p.tConfirm = Date.now();
        if (!this.acceptedConfirm) {
          this.acceptedConfirm = true;
          this.send("tradeAccept", { tradeId });
        }
        return;
      case "tradeCompleted":
        if (tradeId !== undefined) completions.set(tradeId, (completions.get(tradeId) ?? 0) + 1);
        this.stale = true;
        if (tradeId !== p.tradeId) {
          const since = tradeId === undefined ? undefined : requestedAt.get(tradeId);
          console.error(
            `pair ${p.index}: late tradeCompleted for ${tradeId ?? "?"}${since === undefined ? "" : `, ${Date.now() - since} ms after its request`}`,
          );
          return;
        }
        this.completed = true;
        if (p.a.completed && p.b.completed) p.finished();
        return;
      case "tradeCancelled":
        if (tradeId !== undefined && !cancelledIds.has(tradeId)) {
          cancelledIds.add(tradeId);
          if (Date.now() >= windowStart) bump(tradeCancelled, String(data.reason));
        }
        if (tradeId !== undefined && tradeId === p.tradeId) p.ended();
        return;
      case "tradeError":
        if (Date.now() >= windowStart) bump(tradeErrors, String(data.code));
        // Whatever went wrong, end this attempt (an abort is followed by tradeCancelled anyway).
        if (tradeId === undefined || tradeId === p.tradeId) p.abandon();
        return;
      case "error":
        if (Date.now() >= windowStart) bump(otherErrors, `${String(data.code)}${data.event ? `(${String(data.event)})` : ""}`);
        return;
      default:
        return;
    }
  }

  onClosed(): void {
    if (this.open && !stopping) disconnects++;
    this.open = false;
  }
}

type Phase = "idle" | "requested";

class Pair {
  readonly index: number;
  readonly kind: Kind;
  readonly a: Side;
  readonly b: Side;
  phase: Phase = "idle";
  /** Trades this pair completed (decides who gives what). */
  count = 0;
  tradeId: string | undefined;
  tRequest = 0;
  tStarted = 0;
  tConfirm = 0;
  private timer: NodeJS.Timeout | undefined;
  private abandoned = false;

  constructor(index: number, p: PairInput) {
    this.index = index;
    this.kind = p.kind;
    this.a = new Side(this, true, p.a.playerId);
    this.b = new Side(this, false, p.b.playerId);
  }

  /** Starts the next trade when everything is ready for it. */
  maybeNext(): void {
    if (!trading || stopping || this.phase !== "idle" || this.timer !== undefined) return;
    if (this.a.stale || this.b.stale || !this.a.open || !this.b.open) return;
    this.phase = "requested";
    this.tradeId = undefined;
    this.abandoned = false;
    this.a.reset();
    this.b.reset();
    this.tRequest = Date.now();
    this.tStarted = 0;
    this.tConfirm = 0;
    this.a.send("tradeRequest", { targetPlayerId: this.b.playerId });
    this.timer = setTimeout(() => this.onStuck(), input.stuckMs);
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  finished(): void {
    const now = Date.now();
    if (inWindow(now)) {
      timed.push({
        kind: this.kind,
        total: now - this.tRequest,
        request: this.tStarted - this.tRequest,
        offer: this.tConfirm - this.tStarted,
        commit: now - this.tConfirm,
      });
    }
    this.count++;
    this.clearTimer();
    this.phase = "idle";
    this.tradeId = undefined;
    this.maybeNext();
  }

  /** The trade was cancelled: start again after a short pause. */
  ended(): void {
    this.clearTimer();
    this.phase = "idle";
    this.tradeId = undefined;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.maybeNext();
    }, 300);
  }

  /** Gives up on the current attempt (cancels it; tradeCancelled then ends it). */
  abandon(): void {
    if (this.phase !== "requested" || this.abandoned) return;
    this.abandoned = true;
    if (this.tradeId !== undefined) this.a.send("tradeCancel", { tradeId: this.tradeId });
    // If no tradeCancelled comes (e.g. the request was refused outright), start over anyway.
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.phase === "requested") {
        this.phase = "idle";
        this.tradeId = undefined;
        this.maybeNext();
      }
    }, 2_000);
  }

  private onStuck(): void {
    this.timer = undefined;
    if (this.phase !== "requested") return;
    if (Date.now() >= windowStart) stuck++;
    console.error(
      `pair ${this.index}: trade ${this.tradeId ?? "(no id)"} stuck for ${input.stuckMs} ms (A started=${this.a.started} B started=${this.b.started} completed A=${this.a.completed} B=${this.b.completed})`,
    );
    this.abandon();
  }

  get busy(): boolean {
    return this.phase !== "idle";
  }
}

function connectWs(side: Side, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${input.port}/ws?token=${encodeURIComponent(token)}`, { perMessageDeflate: false });
    let welcomed = false;
    side.conn = {
      send: (type, data) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type, data }));
      },
      close: () => socket.close(1000),
    };
    socket.on("message", (raw: Buffer) => {
      const text = raw.toString();
      // Position deltas are not needed here.
      if (text.startsWith('{"type":"world:update"')) return;
      const env = JSON.parse(text) as { type: string; data: Data };
      if (env.type === "welcome" && !welcomed) {
        welcomed = true;
        side.open = true;
        resolve();
      } else if (env.type === "error" && !welcomed) {
        reject(new Error(`error before welcome: ${JSON.stringify(env.data)}`));
      }
      side.onEvent(env.type, env.data);
    });
    socket.on("close", (code) => {
      if (!welcomed) reject(new Error(`closed before welcome (${code})`));
      side.onClosed();
    });
    socket.on("error", (err) => {
      if (!welcomed) reject(err);
    });
    socket.on("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

async function connectColyseus(side: Side, token: string): Promise<void> {
  const client = new Client(`http://127.0.0.1:${input.port}`);
  client.auth.token = token;
  const room = await client.joinOrCreate("world");
  side.conn = { send: (type, data) => room.send(type, data), close: () => void room.leave(true).catch(() => {}) };
  side.open = true;
  room.onMessage("*", (type: string | number, message: Data) => side.onEvent(String(type), message));
  room.onLeave(() => side.onClosed());
}

const pairs = input.pairs.map((p, i) => new Pair(i, p));
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
let connected = 0;
let failed = 0;

async function connectAll(): Promise<number> {
  const started = Date.now();
  const gap = 1000 / input.rampPerSecond;
  const joins: Promise<void>[] = [];
  let lastProgress = Date.now();
  const sides = pairs.flatMap((p, i) => [
    { side: p.a, token: input.pairs[i]!.a.token, kind: p.kind },
    { side: p.b, token: input.pairs[i]!.b.token, kind: p.kind },
  ]);
  for (let i = 0; i < sides.length; i++) {
    const { side, token, kind } = sides[i]!;
    const wait = started + i * gap - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    joins.push(
      (kind === "colyseus" ? connectColyseus(side, token) : connectWs(side, token)).then(
        () => void connected++,
        (err: unknown) => {
          failed++;
          if (failed <= 3) console.error(`pair ${side.pair.index} (${kind}) could not connect: ${(err as Error).message}`);
        },
      ),
    );
    if (Date.now() - lastProgress > 2_000) {
      lastProgress = Date.now();
      send({ type: "progress", connected, failed, total: sides.length });
    }
  }
  await Promise.all(joins);
  return Date.now() - started;
}

function kindReport(kind: Kind, windowMs: number): KindReport {
  const t = timed.filter((x) => x.kind === kind).map((x) => x.total);
  return {
    pairs: pairs.filter((p) => p.kind === kind).length,
    completed: t.length,
    perSecond: round(t.length / (windowMs / 1000), 2),
    latencyP50Ms: percentile(t, 50),
    latencyP99Ms: percentile(t, 99),
    latencyMaxMs: t.length === 0 ? 0 : Math.max(...t),
  };
}

let cpuStart = process.cpuUsage();

async function stop(): Promise<void> {
  windowEnd = Date.now();
  stopping = true;
  const windowMs = windowEnd - windowStart;
  const cpu = process.cpuUsage(cpuStart);
  // Let the trades under way finish, so that every stored trade is one the bots saw complete.
  const deadline = Date.now() + input.stuckMs + 5_000;
  while (pairs.some((p) => p.busy) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  // A last tradeCompleted may still be on its way to the second player.
  await new Promise((r) => setTimeout(r, 500));
  const totals = timed.map((x) => x.total);
  const ph = (k: "request" | "offer" | "commit", q: number) =>
    percentile(
      timed.map((x) => x[k]),
      q,
    );
  const report: BotsReport = {
    windowMs,
    completed: timed.length,
    perSecond: round(timed.length / (windowMs / 1000), 2),
    latencyP50Ms: percentile(totals, 50),
    latencyP99Ms: percentile(totals, 99),
    latencyMaxMs: totals.length === 0 ? 0 : Math.max(...totals),
    phasesP50Ms: { request: ph("request", 50), offer: ph("offer", 50), commit: ph("commit", 50) },
    phasesP99Ms: { request: ph("request", 99), offer: ph("offer", 99), commit: ph("commit", 99) },
    byKind: { colyseus: kindReport("colyseus", windowMs), ws: kindReport("ws", windowMs) },
    tradeErrors,
    tradeCancelled,
    otherErrors,
    stuck,
    disconnects,
    completedTradeIds: [...completions.keys()],
    halfCompleted: [...completions.values()].filter((n) => n !== 2).length,
    unfinishedAtEnd: pairs.filter((p) => p.busy).length,
    process: {
      cpuCores: round((cpu.user + cpu.system) / 1000 / windowMs, 2),
      eventLoopP99Ms: round(loop.percentile(99) / 1e6, 1),
      rssBytes: process.memoryUsage().rss,
    },
  };
  for (const p of pairs) for (const s of [p.a, p.b]) s.conn?.close();
  // The report carries every trade id (hundreds of KB on long runs): disconnect only once it is
  // written, or the channel closes under it.
  process.send?.({ type: "report", report } satisfies FromBots, undefined, {}, () => {
    process.disconnect?.();
    setTimeout(() => process.exit(0), 1_000).unref();
  });
}

process.on("message", (msg: ToBots) => {
  if (msg.type === "trade") {
    trading = true;
    // Spread the first requests over a second so the pairs do not all move in step.
    for (const p of pairs) setTimeout(() => p.maybeNext(), Math.random() * 1_000);
  } else if (msg.type === "start") {
    windowStart = Date.now();
    for (const k of Object.keys(tradeErrors)) delete tradeErrors[k];
    for (const k of Object.keys(otherErrors)) delete otherErrors[k];
    for (const k of Object.keys(tradeCancelled)) delete tradeCancelled[k];
    stuck = 0;
    disconnects = 0;
    timed.length = 0;
    cpuStart = process.cpuUsage();
    loop.reset();
  } else if (msg.type === "stop") {
    void stop().catch((err: unknown) => send({ type: "fatal", message: (err as Error).stack ?? String(err) }));
  }
});

try {
  const rampMs = await connectAll();
  send({ type: "ready", connected, failed, rampMs });
} catch (err) {
  send({ type: "fatal", message: (err as Error).stack ?? String(err) });
  process.exit(1);
}
