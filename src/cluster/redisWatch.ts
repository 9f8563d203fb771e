/**
 * The cluster's Redis connections (Colyseus' presence and driver), watched: every ioredis client
 * needs an `error` listener, or ioredis prints `[ioredis] Unhandled error event` with a trace on
 * each failed reconnection (every 2 s at most), and Colyseus' presence logged a warning on each.
 *
 * A Redis lost while the process runs is said once when it goes, at most once per
 * {@link REDIS_DOWN_LOG_INTERVAL_MS} while it stays away, and once when it is back. Meanwhile the
 * process serves its own world's players; what needs the other processes (the world list, routing
 * to another world, takeovers, friends elsewhere) fails or waits, and the rate limits count in
 * memory (sharedLimits.ts). `/health` shows it ({@link RedisWatch.state}).
 */
import type { Redis } from "ioredis";
import type { Logger } from "../logger.ts";
import { redisAddress } from "./redisReach.ts";

export const REDIS_DOWN_LOG_INTERVAL_MS = 30_000;

export interface RedisState {
  status: "up" | "down";
  /** When it went away (ISO 8601), while it is down. */
  downSince?: string;
}

export class RedisWatch {
  private readonly clients: Redis[] = [];
  private readonly address: string;
  private readonly logger: Logger;
  private readonly intervalMs: number;
  /** Since the first connection closed or failed (undefined while all are up). */
  private downSince: number | undefined;
  /** When the outage was last logged (undefined: not yet; a connection that comes straight back is not one). */
  private lastLog: number | undefined;

  constructor(url: string, logger: Logger, intervalMs = REDIS_DOWN_LOG_INTERVAL_MS) {
    this.address = redisAddress(url);
    this.logger = logger;
    this.intervalMs = intervalMs;
  }

  /** Watches a client: its errors are this watch's to say (listeners others added are left alone). */
  add(client: Redis): Redis {
    this.clients.push(client);
    client.on("error", (err: Error) => this.failed(err));
    client.on("close", () => (this.downSince ??= Date.now()));
    client.on("ready", () => this.readyAgain());
    return client;
  }

  /** Up while every client is connected and ready. */
  state(): RedisState {
    const up = this.clients.every((c) => c.status === "ready");
    if (up) return { status: "up" };
    return { status: "down", ...(this.downSince !== undefined ? { downSince: new Date(this.downSince).toISOString() } : {}) };
  }

  private failed(err: Error): void {
    const now = Date.now();
    const reason = err.message;
    this.downSince ??= now;
    if (this.lastLog === undefined) {
      this.lastLog = now;
      this.logger.warn(
        { redis: this.address, reason },
        `Redis at ${this.address} (REDIS_URL) cannot be reached: ${reason}; this process serves its own world on (rate limits count in memory, other worlds cannot be reached) and keeps trying`,
      );
      return;
    }
    if (now - this.lastLog < this.intervalMs) return;
    this.lastLog = now;
    this.logger.warn(
      { redis: this.address, reason, downS: Math.round((now - this.downSince) / 1000) },
      `Redis at ${this.address} (REDIS_URL) still cannot be reached: ${reason}`,
    );
  }

  private readyAgain(): void {
    if (this.downSince === undefined || !this.clients.every((c) => c.status === "ready")) return;
    const downS = Math.round((Date.now() - this.downSince) / 1000);
    const said = this.lastLog !== undefined;
    this.downSince = undefined;
    this.lastLog = undefined;
    if (said) this.logger.info({ redis: this.address, downS }, `Redis at ${this.address} (REDIS_URL) answers again, after ${downS} s`);
  }
}
