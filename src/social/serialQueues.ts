/**
 * Work run in order per key: each account's social work (SocialService) starts after its earlier
 * work settles, so its messages are published, delivered and confirmed in the order sent.
 */
export class SerialQueues {
  /** Each key's last job, settled either way; gone once it is the last and has settled. */
  private readonly chains = new Map<string, Promise<void>>();

  /** Runs `fn` after the key's earlier work. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const run = previous.then(fn);
    const tail = run.then(
      () => {},
      () => {},
    );
    this.chains.set(key, tail);
    void tail.then(() => {
      if (this.chains.get(key) === tail) this.chains.delete(key);
    });
    return run;
  }
}
