/**
 * A scheduled maintenance restart of this process (issue 20 item 3; the rules: src/game/restart.ts).
 * Every player gets a `system` chat line when it is scheduled and at each countdown point; in the
 * last {@link RESTART_REFUSE_LOGINS_S} seconds logins are refused ({@link RestartingError}); when
 * it is due, {@link RestartSchedule.onRestart} runs: the server's graceful close (trades cancelled,
 * everyone saved) and, under src/main.ts, exit 0 so that the supervisor starts it again. A new
 * schedule replaces the one before; a cancel clears it. Scheduling goes through
 * ModerationService (audited, and applied by every process sharing the database).
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "../logger.ts";
import { systemLine } from "../game/serverEvents.ts";
import { countdownLine, countdownPoints, describeSeconds, refusesLogins, RESTART_CANCELLED_LINE, RESTART_REFUSE_LOGINS_S } from "../game/restart.ts";
import type { WorldService } from "../sessions/WorldService.ts";

/** A login refused in a restart's last minute; `until`: when the restart happens (ISO). */
export class RestartingError extends Error {
  readonly code = "RESTARTING";
  readonly until: string;
  constructor(at: number) {
    super(`the server restarts in ${describeSeconds((at - Date.now()) / 1000)} (at ${new Date(at).toISOString()}); log in again once it is back`);
    this.name = "RestartingError";
    this.until = new Date(at).toISOString();
  }
}

export interface ScheduledRestart {
  /** When (ISO). */
  at: string;
  reason: string;
}

/** A `system` chat line to every player of this process. */
export function systemLineToAll(service: WorldService, message: string): void {
  const event = systemLine(randomUUID(), message, Date.now());
  for (const p of service.world.players.values()) service.connectionOf(p.id)?.send("chat:message", event);
}

export class RestartSchedule {
  /** What happens when the restart is due (set by the server; by default nothing beyond the log line). */
  onRestart: (reason: string) => void = () => {};
  private readonly service: WorldService;
  private readonly logger: Logger;
  private current: { at: number; reason: string } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private fired = false;

  constructor(service: WorldService, logger: Logger) {
    this.service = service;
    this.logger = logger;
  }

  /** The scheduled restart, if any. */
  get scheduled(): ScheduledRestart | undefined {
    return this.current && { at: new Date(this.current.at).toISOString(), reason: this.current.reason };
  }

  /** Schedules the restart at `at` (epoch ms), replacing any scheduled one; every player hears of it. */
  schedule(at: number, reason: string): void {
    if (this.fired) return;
    clearTimeout(this.timer);
    this.current = { at, reason };
    const left = Math.max(0, Math.round((at - Date.now()) / 1000));
    this.logger.info({ event: "restart_scheduled", at: new Date(at).toISOString(), inSeconds: left, reason }, "restart scheduled");
    if (left > 0) systemLineToAll(this.service, countdownLine(left, reason));
    this.arm(countdownPoints(left));
  }

  /** Cancels the scheduled restart (false: none was); every player hears of it. */
  cancel(): boolean {
    if (this.current === undefined || this.fired) return false;
    clearTimeout(this.timer);
    this.current = undefined;
    this.logger.info({ event: "restart_cancelled" }, "restart cancelled");
    systemLineToAll(this.service, RESTART_CANCELLED_LINE);
    return true;
  }

  /** Refuses a login in the restart's last minute (and once it is under way). */
  admit(): void {
    if (this.current !== undefined && refusesLogins(this.current.at, Date.now())) throw new RestartingError(this.current.at);
  }

  close(): void {
    clearTimeout(this.timer);
  }

  /** Waits for the next countdown point (seconds before the restart, descending), then for the restart. */
  private arm(points: number[]): void {
    const current = this.current!;
    const [next, ...rest] = points;
    const wakeAt = current.at - (next ?? 0) * 1000;
    this.timer = setTimeout(
      () => {
        if (this.current !== current) return;
        if (next !== undefined) {
          systemLineToAll(this.service, countdownLine(next, current.reason));
          this.arm(rest);
          return;
        }
        this.fired = true;
        this.logger.info(
          { event: "restart", reason: current.reason, refusedLoginsForS: RESTART_REFUSE_LOGINS_S },
          "scheduled restart: saving everyone and shutting down",
        );
        try {
          this.onRestart(current.reason);
        } catch (err) {
          this.logger.error({ err }, "the restart failed to begin");
        }
      },
      Math.max(0, wakeAt - Date.now()),
    );
  }
}
