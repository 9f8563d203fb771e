/**
 * Things done to each member of a set once every `period` ticks, spread over the period: a member
 * has a slot (any integer: a hash of its id), and each tick looks only at the members whose slot
 * falls on it. At 2,000 players and a period of 100 ticks, a tick looks at about 20 of them.
 */
export class Cadence<T> {
  private readonly buckets: Set<T>[];
  readonly period: number;

  constructor(period: number) {
    this.period = period;
    this.buckets = Array.from({ length: period }, () => new Set<T>());
  }

  add(item: T, slot: number): void {
    this.buckets[slot % this.period]!.add(item);
  }

  delete(item: T, slot: number): void {
    this.buckets[slot % this.period]!.delete(item);
  }

  /** The members whose turn this tick is. */
  due(tick: number): ReadonlySet<T> {
    return this.buckets[tick % this.period]!;
  }
}
