/**
 * Background saving: snapshots are queued (the latest per character wins) and written by one
 * save at a time, in batches, off the tick: a batch starts in a later turn of the event loop than
 * the tick that queued it, and its chunks (short transactions, players.ts) let the loop run
 * between them. `settled(id)` resolves once no save for that character is queued or running, so a
 * re-login never loads older data than the world last had. It waits for that character's chunk
 * only, not for the queue to empty: under load other players keep joining the queue, and a trade
 * waiting on its two players must not wait on everyone.
 *
 * Saves write only the item rows that changed since the character's last save (or its load):
 * `images` remembers what the database holds of each character (see playerRows.ts).
 *
 * Saves check each character's row version (`versions`, registered at load with {@link track}):
 * a stale save (another process wrote the character) is refused, logged, dropped (never retried)
 * and reported to {@link onLost}: the character is no longer this process's to save.
 */
import type { Database } from "../db/orm.ts";
import type { PlayerData } from "../game/world/Player.ts";
import type { Logger } from "../logger.ts";
import { savePlayers, yieldToLoop } from "../persistence/players.ts";
import { deleteGroundItems } from "../persistence/ground.ts";
import { imageOf, type StoredImage } from "../persistence/playerRows.ts";

/** After a failed save, the next attempt waits 100 ms, doubling up to this. */
export const MAX_RETRY_DELAY_MS = 5_000;

export class Saver {
  private readonly db: Database;
  private readonly logger: Logger;
  private pending = new Map<string, PlayerData>();
  private inFlight = new Set<string>();
  /** Characters of each account in `inFlight`. */
  private inFlightAccounts = new Map<string, number>();
  private running: Promise<void> | undefined;
  /** Woken whenever a batch ends (stored or failed) and when a drain stops. */
  private batchWaiters: (() => void)[] = [];
  /** Failed attempts in a row (a database outage): waiters retry with a growing pause, not in a tight loop. */
  private failures = 0;
  /** Each character's row version as this process last read or wrote it (see savePlayers). */
  readonly versions = new Map<string, number>();
  /** What the database holds of each character's item rows, at the version it was written or read (see playerRows.ts). */
  readonly images = new Map<string, StoredImage>();
  /** A character whose save was refused as stale (set by the world service). */
  onLost: (characterId: string) => void = () => {};
  /** Ground items whose drop has been stored with its dropper's save (set by the world service). */
  onGroundStored: (ids: string[]) => void = () => {};
  /** Despawned stored ground items whose rows are still to be deleted. */
  private despawned = new Set<string>();
  /** Told of every batch: characters stored, stale and failed, and its seconds (the Prometheus metrics). */
  onBatch: ((result: { stored: number; stale: number; failed: number; seconds: number }) => void) | undefined;

  /** The world whose ground the saved players' drops lie on (this process's WORLD_ID). */
  private readonly world: number;

  constructor(db: Database, logger: Logger, world = 1) {
    this.db = db;
    this.logger = logger;
    this.world = world;
  }

  /**
   * A character was loaded with this row version: its saves must find it. With the data loaded,
   * its first save writes only what changed since.
   */
  track(characterId: string, version: number, loaded?: PlayerData): void {
    this.versions.set(characterId, version);
    if (loaded === undefined) this.images.delete(characterId);
    else this.images.set(characterId, imageOf(loaded, version));
  }

  /** The character has left this process (final save done, or lost): its version is no longer known. */
  forget(characterId: string): void {
    this.versions.delete(characterId);
    this.images.delete(characterId);
  }

  /** Despawned ground items: their rows are deleted with the next batch. */
  enqueueDespawns(ids: readonly string[]): void {
    for (const id of ids) this.despawned.add(id);
  }

  /** Whether a save of the character is queued or running. */
  busy(characterId: string): boolean {
    return this.pending.has(characterId) || this.inFlight.has(characterId);
  }

  enqueue(snapshots: readonly PlayerData[]): void {
    for (const s of snapshots) this.pending.set(s.characterId, merge(this.pending.get(s.characterId), s));
  }

  /** Writes everything queued (including what is queued while writing). */
  flush(): Promise<void> {
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      this.wakeBatchWaiters();
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    // Not in the tick that asked for it (nor in its turn of the event loop).
    await yieldToLoop();
    if (this.despawned.size > 0) {
      const ids = [...this.despawned];
      this.despawned.clear();
      try {
        await deleteGroundItems(this.db, ids);
      } catch (err) {
        // Kept for the next batch; a row left behind by a crash is deleted at startup (expired).
        for (const id of ids) this.despawned.add(id);
        this.logger.warn({ err, items: ids.length }, "deleting despawned ground items failed; will retry");
      }
    }
    while (this.pending.size > 0) {
      const batch = [...this.pending.values()];
      this.pending = new Map();
      this.inFlight = new Set(batch.map((s) => s.characterId));
      this.inFlightAccounts = new Map();
      for (const s of batch) this.inFlightAccounts.set(s.accountId, (this.inFlightAccounts.get(s.accountId) ?? 0) + 1);
      const stored = new Set<string>();
      let staleCount = 0;
      const started = performance.now();
      const report = (failed: number) =>
        this.onBatch?.({ stored: stored.size - staleCount, stale: staleCount, failed, seconds: (performance.now() - started) / 1000 });
      try {
        await savePlayers(
          this.db,
          batch,
          this.versions,
          (chunk, stale) => {
            staleCount += stale.length;
            for (const s of chunk) stored.add(s.characterId);
            const dropped = chunk.flatMap((s) => (s.ground ?? []).flatMap((o) => (o.op === "drop" ? [o.id] : [])));
            if (dropped.length > 0) this.onGroundStored(dropped);
            for (const s of stale) {
              // Not retried: its row has another writer, and writing this snapshot would undo that.
              stored.add(s.characterId);
              this.pending.delete(s.characterId);
              this.forget(s.characterId);
              this.logger.error({ characterId: s.characterId }, "refused a stale save: the character was written by another process; it is lost to this one");
              this.onLost(s.characterId);
            }
            // This chunk's characters are done: whoever waits on one of them need not wait for the rest of the batch.
            for (const s of [...chunk, ...stale]) this.landed(s);
            this.wakeBatchWaiters();
          },
          this.world,
          this.images,
        );
      } catch (err) {
        // Put back what was not stored (a newer snapshot wins, keeping the older one's kills and
        // deaths). Chunks that committed stay out: their kill counts are already added.
        for (const s of batch) {
          if (stored.has(s.characterId)) continue;
          const newer = this.pending.get(s.characterId);
          this.pending.set(s.characterId, newer === undefined ? s : merge(s, newer));
        }
        this.failures++;
        report(batch.length - stored.size);
        this.logger.error({ err, players: batch.length, failures: this.failures }, "saving players failed; will retry");
        this.inFlight.clear();
        this.inFlightAccounts.clear();
        return; // the waiters wake once `running` is cleared, so their retry starts a new drain
      }
      this.failures = 0;
      report(0);
      this.inFlight.clear();
      this.inFlightAccounts.clear();
      this.wakeBatchWaiters();
    }
  }

  /** A character of the running batch has been stored (or refused): no longer in flight. */
  private landed(s: PlayerData): void {
    if (!this.inFlight.delete(s.characterId)) return;
    const n = (this.inFlightAccounts.get(s.accountId) ?? 1) - 1;
    if (n > 0) this.inFlightAccounts.set(s.accountId, n);
    else this.inFlightAccounts.delete(s.accountId);
  }

  private wakeBatchWaiters(): void {
    for (const wake of this.batchWaiters.splice(0)) wake();
  }

  /** Resolves when the character has no queued or running save. */
  settled(characterId: string): Promise<void> {
    return this.waitWhile(() => this.busy(characterId));
  }

  /** Resolves when no character of the account has a queued or running save (a login that does not yet know which character it loads). */
  settledAccount(accountId: string): Promise<void> {
    return this.waitWhile(() => this.inFlightAccounts.has(accountId) || [...this.pending.values()].some((s) => s.accountId === accountId));
  }

  private async waitWhile(busy: () => boolean): Promise<void> {
    while (busy()) {
      if (this.failures > 0) await new Promise((r) => setTimeout(r, Math.min(MAX_RETRY_DELAY_MS, 100 * 2 ** (this.failures - 1))));
      const batchEnded = new Promise<void>((resolve) => this.batchWaiters.push(resolve));
      void this.flush();
      await batchEnded;
    }
  }

  get queued(): number {
    return this.pending.size;
  }
}

/**
 * The later snapshot, carrying the kills, deaths and ground-item changes of the earlier one too
 * (each snapshot hands over only what was recorded since the previous one, so none may be lost
 * when one replaces another in the queue; ground changes keep their order).
 */
function merge(older: PlayerData | undefined, newer: PlayerData): PlayerData {
  if (older === undefined || (older.kills === undefined && older.deaths === undefined && older.ground === undefined)) return newer;
  const kills: Record<string, number> = { ...(older.kills ?? {}) };
  for (const [id, n] of Object.entries(newer.kills ?? {})) kills[id] = (kills[id] ?? 0) + n;
  return { ...newer, kills, deaths: [...(older.deaths ?? []), ...(newer.deaths ?? [])], ground: [...(older.ground ?? []), ...(newer.ground ?? [])] };
}
