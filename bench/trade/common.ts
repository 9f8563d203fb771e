/**
 * Shared by the trade benchmark's orchestrator (run.ts) and its bots (bots.ts): the messages
 * between them and the report's shape. Percentiles, /proc readings and the bundled content come
 * from the world-load benchmark's common.ts.
 */

/** The two items every trade swaps: 1 log (not stackable) one way, 1 feather (stackable) the other. */
export const ITEMS = { logs: 5, feathers: 100 } as const;
export type ItemId = keyof typeof ITEMS;

export type Kind = "colyseus" | "ws";

export interface PairInput {
  kind: Kind;
  a: { token: string; playerId: string };
  b: { token: string; playerId: string };
}

/** What bots.ts reads (a JSON file named on its command line). */
export interface BotsInput {
  port: number;
  /** Even pairs use the Colyseus SDK (both players), odd pairs `/ws` (both players). */
  pairs: PairInput[];
  /** Connections opened per second. */
  rampPerSecond: number;
  /** A trade that has not ended after this long is cancelled and counted as stuck. */
  stuckMs: number;
}

export type ToBots = { type: "trade" } | { type: "start" } | { type: "stop" };
export type FromBots =
  | { type: "progress"; connected: number; failed: number; total: number }
  | { type: "ready"; connected: number; failed: number; rampMs: number }
  | { type: "report"; report: BotsReport }
  | { type: "fatal"; message: string };

export interface KindReport {
  pairs: number;
  /** Trades completed (both players got `tradeCompleted`) inside the window. */
  completed: number;
  perSecond: number;
  /** tradeRequest sent → `tradeCompleted` at both players, trades completed in the window. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
}

export interface BotsReport {
  windowMs: number;
  /** Trades completed inside the window, all pairs. */
  completed: number;
  perSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /**
   * Where the time goes, p50 over the window's trades, measured at player A: request sent →
   * `tradeStarted`; `tradeStarted` → `tradeConfirmScreen`; confirmation screen → `tradeCompleted`
   * at both (the last includes the database commit).
   */
  phasesP50Ms: { request: number; offer: number; commit: number };
  phasesP99Ms: { request: number; offer: number; commit: number };
  byKind: Record<Kind, KindReport>;
  /** `tradeError` events by code, `tradeCancelled` (counted once per trade) by reason, other `error` events by code. */
  tradeErrors: Record<string, number>;
  tradeCancelled: Record<string, number>;
  otherErrors: Record<string, number>;
  /** Trades cancelled by the bots' watchdog after `stuckMs`. */
  stuck: number;
  /** Connections lost while trading. */
  disconnects: number;
  /**
   * Every trade id a bot saw `tradeCompleted` for, over the whole run (warm-up, window and the
   * drain after it): the orchestrator compares them with the `trade_audit` rows.
   */
  completedTradeIds: string[];
  /** Trades where only one of the two players got `tradeCompleted` by the end. */
  halfCompleted: number;
  /** Pairs still inside a trade when the bots gave up waiting at the end. */
  unfinishedAtEnd: number;
  process: { cpuCores: number; eventLoopP99Ms: number; rssBytes: number };
}
