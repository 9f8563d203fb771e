/**
 * At most one `social:list` a second to an account's players ({@link LIST_UPDATE_INTERVAL_MS}):
 * add/withdraw loops aimed at a player otherwise send it its whole lists each time. The first
 * update goes at once; those within the second after it are coalesced into one, sent when the
 * second is over, read then (the last state wins, nothing is lost) and carrying the latest change.
 */
export const LIST_UPDATE_INTERVAL_MS = 1_000;

interface Paced<C> {
  /** When the last update was sent (ms). */
  last: number;
  /** The coalesced update's timer, while one is waiting. */
  timer?: NodeJS.Timeout;
  change?: C;
}

export class ListPacer<C> {
  private readonly accounts = new Map<string, Paced<C>>();
  private readonly send: (accountId: string, change: C | undefined) => void;
  private readonly intervalMs: number;

  constructor(send: (accountId: string, change: C | undefined) => void, intervalMs = LIST_UPDATE_INTERVAL_MS) {
    this.send = send;
    this.intervalMs = intervalMs;
  }

  /** The account's lists changed (`change`: what changed, if said): an update now, or one coalesced. */
  update(accountId: string, change: C | undefined): void {
    const now = Date.now();
    const paced = this.accounts.get(accountId);
    if (paced === undefined || (paced.timer === undefined && now - paced.last >= this.intervalMs)) {
      this.accounts.set(accountId, { last: now });
      this.send(accountId, change);
      return;
    }
    if (change !== undefined) paced.change = change;
    if (paced.timer !== undefined) return;
    paced.timer = setTimeout(
      () => {
        paced.timer = undefined;
        paced.last = Date.now();
        const latest = paced.change;
        paced.change = undefined;
        this.send(accountId, latest);
      },
      paced.last + this.intervalMs - now,
    );
    paced.timer.unref();
  }

  /** The account left this process: nothing more is sent to it. */
  forget(accountId: string): void {
    clearTimeout(this.accounts.get(accountId)?.timer);
    this.accounts.delete(accountId);
  }

  close(): void {
    for (const accountId of [...this.accounts.keys()]) this.forget(accountId);
  }
}
