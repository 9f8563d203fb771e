/**
 * A time-boxed database health probe. At most one probe query runs at a time: while one is in
 * flight (say, against a hung server), later checks wait for it only up to their own timeout
 * instead of piling up more queries.
 */
export type DbStatus = "up" | "down" | "timeout";

export interface ProbeResult {
  status: DbStatus;
  latencyMs: number | null;
}

export class DatabaseProbe {
  readonly dialect: string;
  private readonly ping: () => Promise<unknown>;
  private inFlight: Promise<ProbeResult> | undefined;

  constructor(dialect: string, ping: () => Promise<unknown>) {
    this.dialect = dialect;
    this.ping = ping;
  }

  check(timeoutMs: number): Promise<ProbeResult> {
    if (this.inFlight === undefined) {
      const started = performance.now();
      this.inFlight = this.ping()
        .then(
          (): ProbeResult => ({ status: "up", latencyMs: Math.round(performance.now() - started) }),
          (): ProbeResult => ({ status: "down", latencyMs: null }),
        )
        .finally(() => {
          this.inFlight = undefined;
        });
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<ProbeResult>((resolve) => {
      timer = setTimeout(() => resolve({ status: "timeout", latencyMs: null }), timeoutMs);
    });
    return Promise.race([this.inFlight, timeout]).finally(() => clearTimeout(timer));
  }
}
