/**
 * Maintenance restarts (issue 20 item 3), the rules without the server: the limits of a schedule,
 * the fixed countdown points at which every player gets a `system` chat line, the window in which
 * logins are refused, and the lines' text. The scheduling itself is src/moderation/RestartSchedule.ts.
 */

/** A restart is scheduled 10 s to 24 h ahead. */
export const RESTART_MIN_SECONDS = 10;
export const RESTART_MAX_SECONDS = 86_400;
export const RESTART_REASON_MAX_LENGTH = 200;
/** The reason of an in-game `/restart <seconds>` without one. */
export const RESTART_DEFAULT_REASON = "maintenance";
/** Seconds before the restart at which every player gets a countdown line (besides the one at scheduling). */
export const RESTART_COUNTDOWN_POINTS: readonly number[] = [600, 300, 120, 60, 30, 10, 5];
/** In the restart's last this-many seconds, logins are refused (RESTARTING). */
export const RESTART_REFUSE_LOGINS_S = 60;
/** The line every player gets as the server goes down (a scheduled restart, or SIGTERM). */
export const RESTARTING_NOW_LINE = "The server is restarting now.";

/** The countdown points still ahead of a restart `inSeconds` away (the scheduling has its own line). */
export function countdownPoints(inSeconds: number): number[] {
  return RESTART_COUNTDOWN_POINTS.filter((s) => s < inSeconds);
}

/** "10 minutes", "1 minute", "90 seconds", "1 hour 5 minutes". */
export function describeSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (s < 120 && s % 60 !== 0) return plural(s, "second");
  if (s < 3600) return s % 60 === 0 ? plural(s / 60, "minute") : `${plural(Math.floor(s / 60), "minute")} ${plural(s % 60, "second")}`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return m === 0 ? plural(h, "hour") : `${plural(h, "hour")} ${plural(m, "minute")}`;
}

/** The countdown line: "The server restarts in 5 minutes (update to 1.2)." */
export function countdownLine(secondsLeft: number, reason: string): string {
  return `The server restarts in ${describeSeconds(secondsLeft)} (${reason}).`;
}

export const RESTART_CANCELLED_LINE = "The scheduled server restart was cancelled.";

/** Whether a login at `now` falls in the refusal window of a restart at `at` (epoch ms). */
export function refusesLogins(at: number, now: number): boolean {
  return at - now <= RESTART_REFUSE_LOGINS_S * 1000;
}
