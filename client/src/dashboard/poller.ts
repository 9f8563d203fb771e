/**
 * One panel's polling: `run` every `everyMs`; after a failure it is retried after 1 s, 2 s and 4 s
 * (the spec's backoff), then at the panel's own interval until it succeeds again. Every outcome is
 * reported, so the panel can say that it is stale and when it retries: a failure is never silent.
 * A failure `fatal` claims (a token the server no longer accepts) stops the poller instead.
 */

export const RETRY_BACKOFF_MS = [1_000, 2_000, 4_000] as const;

export type PollStatus = { ok: true } | { ok: false; failures: number; retryInMs: number; error: string };

export interface PollerOptions {
  everyMs: number;
  run: () => Promise<void>;
  report: (status: PollStatus) => void;
  /** True when the failure ends polling (it is then handled by the caller). */
  fatal?: (err: unknown) => boolean;
}

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A panel's failure in words, with when it is tried again. */
export function pollErrorText(what: string, status: PollStatus): string {
  if (status.ok) return "";
  return `Could not update the ${what}: ${status.error}. Retrying in ${Math.round(status.retryInMs / 1000)} s.`;
}

/** The wait before the next try after `failures` failures in a row (0: the regular interval). */
export function nextDelay(failures: number, everyMs: number): number {
  return failures === 0 ? everyMs : (RETRY_BACKOFF_MS[failures - 1] ?? everyMs);
}

export class Poller {
  private readonly opts: PollerOptions;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private running = false;
  private again = false;
  private stopped = true;
  /** When the last poll that succeeded ended (Date.now()). */
  private lastOkAt: number | undefined;

  constructor(opts: PollerOptions) {
    this.opts = opts;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // A poll still under way (stopped and started again while it ran) is this poller's one loop:
    // it polls again as soon as it ends, rather than a second loop starting beside it.
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    // Started again within its interval of the last good poll (a card scrolled out and back in):
    // the next poll comes when it is due, not at once, so scrolling does not spend the budget.
    const due = this.failures === 0 && this.lastOkAt !== undefined ? this.lastOkAt + this.opts.everyMs - Date.now() : 0;
    if (due > 0) this.timer = setTimeout(() => void this.tick(), due);
    else void this.tick();
  }

  /** Polls at once (after an action changed what the panel shows), then on the usual schedule. */
  now(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async tick(): Promise<void> {
    this.running = true;
    let delay: number;
    try {
      await this.opts.run();
      this.failures = 0;
      this.lastOkAt = Date.now();
      delay = this.opts.everyMs;
      if (!this.stopped) this.opts.report({ ok: true });
    } catch (err) {
      this.running = false;
      if (this.stopped) return;
      if (this.opts.fatal?.(err) === true) {
        this.stop();
        return;
      }
      this.failures += 1;
      delay = nextDelay(this.failures, this.opts.everyMs);
      this.opts.report({ ok: false, failures: this.failures, retryInMs: delay, error: errorText(err) });
    }
    this.running = false;
    if (this.stopped) return;
    const soon = this.again;
    this.again = false;
    this.timer = setTimeout(() => void this.tick(), soon ? 0 : delay);
  }
}
