/**
 * Per-connection message limit (PROTOCOL.md): 60 client messages per second. Excess messages are
 * dropped with at most one `RATE_LIMITED` error per second; a connection over the limit in
 * {@link ABUSE_SECONDS} distinct seconds within that many seconds is closed with 4029.
 */
import type { ServerEvent } from "../game/serverEvents.ts";

export const MESSAGES_PER_SECOND = 60;
export const ABUSE_SECONDS = 10;
export const CLOSE_RATE_LIMITED = 4029;

export type LimitVerdict = "ok" | "drop" | "drop-and-warn" | "close";

export class InputLimiter {
  private second = -1;
  private count = 0;
  private warned = false;
  private readonly overSeconds: number[] = [];

  check(nowMs: number): LimitVerdict {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.second) {
      this.second = second;
      this.count = 0;
      this.warned = false;
    }
    this.count++;
    if (this.count <= MESSAGES_PER_SECOND) return "ok";
    if (this.count === MESSAGES_PER_SECOND + 1) {
      this.overSeconds.push(second);
      while (this.overSeconds.length > 0 && this.overSeconds[0]! <= second - ABUSE_SECONDS) this.overSeconds.shift();
      if (this.overSeconds.length >= ABUSE_SECONDS) return "close";
    }
    if (!this.warned) {
      this.warned = true;
      return "drop-and-warn";
    }
    return "drop";
  }
}

/** Applies a verdict: true when the message may be handled. */
export function admit(
  limiter: InputLimiter,
  nowMs: number,
  conn: { send(type: "error", data: ServerEvent<"error">): void; close(code: number, reason: string): void },
): boolean {
  const verdict = limiter.check(nowMs);
  if (verdict === "ok") return true;
  if (verdict === "close") {
    conn.send("error", { code: "RATE_LIMITED", message: "too many messages for too long: disconnected" });
    conn.close(CLOSE_RATE_LIMITED, "rate limit abuse");
  } else if (verdict === "drop-and-warn") {
    conn.send("error", { code: "RATE_LIMITED", message: `more than ${MESSAGES_PER_SECOND} messages per second: messages dropped` });
  }
  return false;
}
