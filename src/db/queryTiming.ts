/**
 * Per-query database timing, taken from MikroORM's own query log: its connection times every query
 * it executes (`took`, whole milliseconds, from Date.now) and hands it to the configured logger
 * whether or not query logging is on. This logger keeps MikroORM's default behaviour (nothing is
 * printed unless debug logging is asked for) and passes each timed query to a hook, which the
 * server points at its Prometheus histogram. Labels are bounded: the statement's kind (its first
 * keyword) and whether it failed, never its text.
 */
import { DefaultLogger, type LogContext, type LoggerOptions } from "@mikro-orm/core";

export type QueryKind = "select" | "insert" | "update" | "delete" | "other";
const KINDS = new Set<QueryKind>(["select", "insert", "update", "delete"]);

/** Receives each executed query: its kind, its time in seconds, and whether it failed. */
export type QueryObserver = (kind: QueryKind, seconds: number, failed: boolean) => void;

/** The statement's kind: its first keyword (after `with …` CTEs it is `other`). */
export function queryKind(sql: string): QueryKind {
  const m = /^\s*([a-z]+)/i.exec(sql);
  const word = (m?.[1] ?? "").toLowerCase() as QueryKind;
  return KINDS.has(word) ? word : "other";
}

export class QueryTimingLogger extends DefaultLogger {
  private readonly observe: () => QueryObserver | undefined;

  constructor(options: LoggerOptions, observe: () => QueryObserver | undefined) {
    super(options);
    this.observe = observe;
  }

  override logQuery(context: { query: string } & LogContext): void {
    // Transaction statements (begin, commit, savepoints) are logged without a time: not queries to time.
    const observer = this.observe();
    if (observer !== undefined && typeof context.took === "number" && context.namespace !== "slow-query") {
      observer(queryKind(context.query), context.took / 1000, context.level === "error");
    }
    super.logQuery(context);
  }
}
