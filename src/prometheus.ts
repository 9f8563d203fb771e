/**
 * Prometheus metrics (`GET /metrics` on METRICS_PORT, see src/http/metricsServer.ts), through
 * prom-client. One {@link GameMetrics} per server, fed at the points that already measure or
 * decide things: ticks and their phases from ServerMetrics.recordTick (the same numbers as
 * `GET /api/admin/metrics`), messages where the transports send and the world service receives,
 * saves in the Saver, trades in the TradeCommitter; gauges (players, connections, the save queue,
 * the database's answer time) are read when scraped. The process's own metrics (CPU, memory,
 * event-loop delay, garbage collection) are prom-client's defaults, registered once per process.
 *
 * Label values are bounded: event names from the event tables (anything else is `unknown` or
 * `other`), error codes as the server writes them (an upper-case identifier) up to
 * {@link MAX_ERROR_CODES} distinct ones, then `OTHER`; never a player, account or message.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { AGENT_EVENTS } from "./game/agentEvents.ts";
import { CLIENT_EVENTS } from "./game/clientEvents.ts";
import { SERVER_EVENTS } from "./game/serverEvents.ts";
import type { QueryKind } from "./db/queryTiming.ts";

export type Transport = "colyseus" | "ws";
export const TRANSPORTS: readonly Transport[] = ["colyseus", "ws"];

/** The label of a received event that is in no event table. */
export const UNKNOWN_EVENT = "unknown";
/** The label of a sent event that is in no event table. */
export const OTHER_EVENT = "other";
/** Distinct error-code labels kept; later codes are counted as {@link OTHER_CODE}. */
export const MAX_ERROR_CODES = 100;
export const OTHER_CODE = "OTHER";
const CODE_SHAPE = /^[A-Z][A-Z0-9_]{0,47}$/;

/** Every client event a connection may send: the game's and an agent's own. */
const RECEIVED_EVENTS: readonly string[] = [...Object.keys(CLIENT_EVENTS), ...Object.keys(AGENT_EVENTS)];
const SENT_EVENTS: readonly string[] = Object.keys(SERVER_EVENTS);
/** Server events that carry an error `code`. */
const ERROR_EVENTS = new Set(["error", "tradeError"]);

/** Tick durations: the budget is the 600 ms tick; most ticks take a few milliseconds. */
const TICK_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.6, 1, 2.5];
const PHASE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5];
const DB_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Query times come in whole milliseconds (MikroORM's `took`): the first bucket holds the sub-millisecond ones. */
const QUERY_BUCKETS = [0, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const QUERY_KINDS: readonly QueryKind[] = ["select", "insert", "update", "delete", "other"];

/** What the transports report of the messages they carry (see GameMetrics). */
export interface Traffic {
  /** A client message taken for handling (after the connection's rate limit). */
  received(transport: Transport, event: string): void;
  /** A server message sent; an `error` or `tradeError` with its code. */
  sent(transport: Transport, event: string, code?: string): void;
}

/** What a scrape reads from the running server. */
export interface GameSources {
  /** The world's number (a label): until worlds are numbered, the one world of the process. */
  world: string;
  /** Players in the world by the transport of the connection controlling them (`none`: lingering after a drop). */
  players(): Record<Transport | "none", number>;
  /** Open client sockets of the process, by transport. */
  connections(): Record<Transport, number>;
  /** Snapshots waiting to be saved. */
  saveQueue(): number;
  /** One trivial query: seconds, or undefined when the database is down or does not answer in time. */
  pingDatabase(): Promise<number | undefined>;
  /** The socket process (SOCKET_PROCESS), if the server has one: whether a child is up and ready, and how many started. */
  socketProcess?(): { up: boolean; starts: number } | undefined;
}

let processRegistry: Registry | undefined;

/**
 * The process's metrics, registered once: prom-client's default collectors each start a
 * garbage-collection observer and an event-loop monitor that are never stopped, so every server
 * of a process (tests start many) shares this one.
 */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export class GameMetrics {
  /** The process's default metrics and this server's. */
  readonly registry: Registry;
  private readonly own = new Registry();
  private readonly tickSeconds: Histogram;
  private readonly phaseSeconds: Histogram<"phase">;
  private readonly phaseChildren = new Map<string, { observe(v: number): void }>();
  /**
   * Messages and errors are counted here, per transport, and copied into their counters when
   * scraped: a message costs one map lookup and an addition, not prom-client's label hashing.
   */
  private readonly received = TRANSPORTS.map(() => new Map(RECEIVED_EVENTS.concat(UNKNOWN_EVENT).map((e) => [e, 0])));
  private readonly sentCounts = TRANSPORTS.map(() => new Map(SENT_EVENTS.concat(OTHER_EVENT).map((e) => [e, 0])));
  private readonly errorCounts = TRANSPORTS.map(() => new Map<string, number>());
  /** REST and matchmaking answers of 400 and above, by code (see httpError). */
  private readonly httpErrorCounts = new Map<string, number>();
  private readonly querySeconds: Histogram<"kind" | "outcome">;
  private readonly queryChildren = new Map<string, { observe(v: number): void }>();
  private readonly errorCodes = new Set<string>();
  private readonly viewEntries: Counter.Internal;
  private readonly viewLeaves: Counter.Internal;
  private readonly trades: Counter<"outcome">;
  private readonly tradeStoreSeconds: Histogram<"outcome">;
  private readonly saves: Counter<"outcome">;
  private readonly saveSeconds: Histogram<"outcome">;
  private sources: GameSources | undefined;

  constructor() {
    const registers = [this.own];
    this.tickSeconds = new Histogram({
      name: "rsworld_tick_duration_seconds",
      help: "Duration of a game tick: the game step, its messages, the schema mirror and sending to every client",
      buckets: TICK_BUCKETS,
      registers,
    });
    this.phaseSeconds = new Histogram({
      name: "rsworld_tick_phase_duration_seconds",
      help: "Duration of each phase of a game tick (game, messages, schemaMirror, wsFeed, colyseusInterest, colyseusViews, colyseusPatch, colyseusFlush, wsDeltas, wsFlush)",
      labelNames: ["phase"],
      buckets: PHASE_BUCKETS,
      registers,
    });
    const copy = (counts: Map<string, number>[], label: string) =>
      function (this: Counter<string>) {
        this.reset();
        TRANSPORTS.forEach((transport, i) => {
          for (const [value, n] of counts[i]!) this.inc({ transport, [label]: value }, n);
        });
      };
    new Counter({
      name: "rsworld_messages_received_total",
      help: "Client messages taken for handling (after the per-connection rate limit), by transport and event (unknown: not an event of the protocol)",
      labelNames: ["transport", "event"],
      registers,
      collect: copy(this.received, "event"),
    });
    new Counter({
      name: "rsworld_messages_sent_total",
      help: "Server messages sent to clients, by transport and event (world:update: a /ws delta)",
      labelNames: ["transport", "event"],
      registers,
      collect: copy(this.sentCounts, "event"),
    });
    const socketErrors = copy(this.errorCounts, "code");
    const httpErrors = this.httpErrorCounts;
    new Counter({
      name: "rsworld_errors_total",
      help: "Errors answered to clients, by transport and code: error and tradeError events on the sockets (colyseus, ws), REST and matchmaking answers of 400 and above (http; HTTP_<status> when the answer had no code of ours)",
      labelNames: ["transport", "code"],
      registers,
      collect(this: Counter<"transport" | "code">) {
        socketErrors.call(this);
        for (const [code, n] of httpErrors) this.inc({ transport: "http", code }, n);
      },
    });
    this.querySeconds = new Histogram({
      name: "rsworld_database_query_duration_seconds",
      help: "Time of each database query the server ran, by statement kind (select, insert, update, delete, other) and outcome (ok, error); whole milliseconds as the ORM measures them",
      labelNames: ["kind", "outcome"],
      buckets: QUERY_BUCKETS,
      registers,
    });
    for (const kind of QUERY_KINDS) this.querySeconds.zero({ kind, outcome: "ok" });
    const viewChanges = new Counter({
      name: "rsworld_view_changes_total",
      help: "Entries (players, NPCs, items…) that entered or left the Colyseus clients' views, all views together: each is a StateView change, and an entering one a whole entry in a patch",
      labelNames: ["change"],
      registers,
    });
    this.viewEntries = viewChanges.labels({ change: "entered" });
    this.viewLeaves = viewChanges.labels({ change: "left" });
    // Both samples from the start, at 0.
    this.viewEntries.inc(0);
    this.viewLeaves.inc(0);
    this.trades = new Counter({
      name: "rsworld_trades_total",
      help: "Trades both players confirmed: completed (the swap is stored) or failed (it could not be stored and was rolled back)",
      labelNames: ["outcome"],
      registers,
    });
    this.tradeStoreSeconds = new Histogram({
      name: "rsworld_trade_store_duration_seconds",
      help: "Time from a trade's confirmation (both players' last accept) to its swap stored or rolled back, by outcome: waiting for the players' saves and the group commit's transaction (the tick's trades in one) included",
      labelNames: ["outcome"],
      buckets: DB_BUCKETS,
      registers,
    });
    this.saves = new Counter({
      name: "rsworld_saves_total",
      help: "Character saves: stored, stale (another process wrote the character; dropped) or failed (retried)",
      labelNames: ["outcome"],
      registers,
    });
    this.saveSeconds = new Histogram({
      name: "rsworld_save_batch_duration_seconds",
      help: "Time to write one batch of character saves, by outcome",
      labelNames: ["outcome"],
      buckets: DB_BUCKETS,
      registers,
    });
    for (const outcome of ["completed", "failed"]) {
      this.trades.inc({ outcome }, 0);
      this.tradeStoreSeconds.zero({ outcome });
    }
    for (const outcome of ["stored", "stale", "failed"]) this.saves.inc({ outcome }, 0);
    for (const outcome of ["stored", "failed"]) this.saveSeconds.zero({ outcome });

    // The gauges' collectors run with the gauge as `this`; the server's parts are read through this.
    const sources = () => this.sources;
    new Gauge({
      name: "rsworld_players",
      help: "Players in the world, by the transport of the connection controlling them (none: lingering after a dropped connection)",
      labelNames: ["world", "transport"],
      registers,
      collect() {
        const s = sources();
        if (s === undefined) return;
        for (const [transport, n] of Object.entries(s.players())) this.set({ world: s.world, transport }, n);
      },
    });
    new Gauge({
      name: "rsworld_connections",
      help: "Open client sockets of the process, by transport (colyseus: clients of the world and trade rooms, including those held for a reconnection; ws: /ws sockets, authenticated or not)",
      labelNames: ["transport"],
      registers,
      collect() {
        const s = sources();
        if (s === undefined) return;
        for (const [transport, n] of Object.entries(s.connections())) this.set({ transport }, n);
      },
    });
    new Gauge({
      name: "rsworld_save_queue",
      help: "Character snapshots waiting to be saved",
      registers,
      collect() {
        const s = sources();
        if (s !== undefined) this.set(s.saveQueue());
      },
    });
    // One query per scrape answers both: the first collector starts it, the second waits for it.
    let ping: Promise<number | undefined> | undefined;
    new Gauge({
      name: "rsworld_database_up",
      help: "1 when the database answered a trivial query within 1 s at this scrape, else 0",
      registers,
      async collect() {
        const s = sources();
        if (s === undefined) return;
        ping = s.pingDatabase();
        this.set((await ping) === undefined ? 0 : 1);
      },
    });
    new Gauge({
      name: "rsworld_database_ping_seconds",
      help: "Time the database took to answer a trivial query at this scrape (absent when it did not answer)",
      registers,
      async collect() {
        const seconds = await ping;
        if (seconds === undefined) this.reset();
        else this.set(seconds);
      },
    });
    new Gauge({
      name: "rsworld_socket_process_up",
      help: "1 when the socket process (SOCKET_PROCESS) is running and takes connections, 0 when it is not (restarting, or given up: connections are held by the world's process); absent without one",
      registers,
      collect() {
        const sp = sources()?.socketProcess?.();
        if (sp === undefined) this.reset();
        else this.set(sp.up ? 1 : 0);
      },
    });
    let startsSeen = 0;
    new Counter({
      name: "rsworld_socket_process_starts_total",
      help: "Socket processes started: 1 at startup, one more after each death (each death closed its connections as dropped ones)",
      registers,
      collect() {
        const sp = sources()?.socketProcess?.();
        if (sp === undefined || sp.starts <= startsSeen) return;
        this.inc(sp.starts - startsSeen);
        startsSeen = sp.starts;
      },
    });
    this.registry = Registry.merge([processMetrics(), this.own]);
  }

  /** What scrapes read (set once the server's parts exist). */
  observe(sources: GameSources): void {
    this.sources = sources;
  }

  /** One tick's duration and its phases, in milliseconds (from ServerMetrics.recordTick). */
  tick(ms: number, phases?: Record<string, number>): void {
    this.tickSeconds.observe(ms / 1000);
    if (phases === undefined) return;
    for (const phase in phases) {
      let child = this.phaseChildren.get(phase);
      if (child === undefined) this.phaseChildren.set(phase, (child = this.phaseSeconds.labels({ phase })));
      child.observe(phases[phase]! / 1000);
    }
  }

  /** One tick's Colyseus view changes (from ServerMetrics.recordViewChanges). */
  viewChanges(entered: number, left: number): void {
    if (entered > 0) this.viewEntries.inc(entered);
    if (left > 0) this.viewLeaves.inc(left);
  }

  /** The transports' hooks (see Traffic). */
  readonly traffic: Traffic = {
    received: (transport, event) => {
      const counts = this.received[transport === "ws" ? 1 : 0]!;
      const n = counts.get(event);
      if (n !== undefined) counts.set(event, n + 1);
      else counts.set(UNKNOWN_EVENT, counts.get(UNKNOWN_EVENT)! + 1);
    },
    sent: (transport, event, code) => {
      const i = transport === "ws" ? 1 : 0;
      const counts = this.sentCounts[i]!;
      const n = counts.get(event);
      if (n !== undefined) counts.set(event, n + 1);
      else counts.set(OTHER_EVENT, counts.get(OTHER_EVENT)! + 1);
      if (ERROR_EVENTS.has(event)) {
        const errors = this.errorCounts[i]!;
        const label = this.codeLabel(code);
        errors.set(label, (errors.get(label) ?? 0) + 1);
      }
    },
  };

  /** A database query's kind, time and outcome (from the ORM's query log, see src/db/queryTiming.ts). */
  query(kind: QueryKind, seconds: number, failed: boolean): void {
    const key = failed ? `${kind}:error` : kind;
    let child = this.queryChildren.get(key);
    if (child === undefined) this.queryChildren.set(key, (child = this.querySeconds.labels({ kind, outcome: failed ? "error" : "ok" })));
    child.observe(seconds);
  }

  /** An HTTP answer of 400 or above: its error code when the server wrote one, else `HTTP_<status>`. */
  httpError(status: number, code: string | undefined): void {
    const label = this.codeLabel(code ?? `HTTP_${status}`);
    this.httpErrorCounts.set(label, (this.httpErrorCounts.get(label) ?? 0) + 1);
  }

  /** An error code as a label: as written while it has the shape of one and the set is not full. */
  private codeLabel(code: string | undefined): string {
    if (code === undefined || !CODE_SHAPE.test(code)) return OTHER_CODE;
    if (this.errorCodes.has(code)) return code;
    if (this.errorCodes.size >= MAX_ERROR_CODES) return OTHER_CODE;
    this.errorCodes.add(code);
    return code;
  }

  /** A batch of character saves: how many characters were stored, found stale or failed, and how long it took. */
  saveBatch(result: { stored: number; stale: number; failed: number; seconds: number }): void {
    if (result.stored > 0) this.saves.inc({ outcome: "stored" }, result.stored);
    if (result.stale > 0) this.saves.inc({ outcome: "stale" }, result.stale);
    if (result.failed > 0) this.saves.inc({ outcome: "failed" }, result.failed);
    this.saveSeconds.observe({ outcome: result.failed > 0 ? "failed" : "stored" }, result.seconds);
  }

  /** A confirmed trade's swap: stored (completed) or rolled back (failed), and the seconds from its confirmation to then. */
  trade(outcome: "completed" | "failed", seconds: number): void {
    this.trades.inc({ outcome });
    this.tradeStoreSeconds.observe({ outcome }, seconds);
  }

  /** The exposition text of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
