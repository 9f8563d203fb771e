/**
 * Carries trades' swaps from the tick to the database and back, by group commit: the swaps that
 * become due in one tick are stored together, in one or two transactions (persistence/trades.ts); in
 * the next tick each is applied to the live players (or aborted).
 *
 * - A trade joins the queue once neither player has a save queued or running (an older snapshot
 *   must not land after the swap); in the usual case that is at once. While it is being stored the
 *   world queues no save of either player (`tradeCommitting`).
 * - The queue is written after the tick that filled it, shared among the free writers (at most
 *   {@link COMMIT_WRITERS} batches at a time, of up to TRADE_BATCH_MAX trades each); what arrives
 *   meanwhile waits for a writer and goes in its next batch, so a slow database makes batches
 *   larger rather than queues longer.
 * - A trade whose stored inventory is not the live one it was computed from (a purchase or a
 *   pickup since the last save) is not stored with its batch: both players are saved first
 *   (Saver), then it is stored again, once; a second mismatch rolls it back.
 * - When a batch's transaction fails as a whole (nothing of it is stored), its trades are stored
 *   one by one, each in its own transaction, so one trade the database refuses does not take the
 *   others with it. A trade is applied in memory only after a transaction holding it has
 *   committed, and the audit row keyed by its id means no trade is stored twice.
 */
import type { Database } from "../db/orm.ts";
import type { CommitRequest } from "../game/trade/Trades.ts";
import { snapshot, type World } from "../game/world/World.ts";
import type { Logger } from "../logger.ts";
import { storeSwap, storeSwaps, TRADE_BATCH_MAX, TradeCommitError, type StoredSwap } from "../persistence/trades.ts";
import type { Saver } from "./Saver.ts";

/** Batches written at once, each in its own transaction on its own pooled connection. */
export const COMMIT_WRITERS = 2;

interface Job {
  req: CommitRequest;
  swap: StoredSwap;
  /** When the trade reached the committer (performance.now()), for the stored-in time. */
  queuedAt: number;
  /** Both players were saved after a stored inventory differed: a second mismatch is final. */
  presaved: boolean;
  done: () => void;
}

export class TradeCommitter {
  private readonly db: Database;
  private readonly world: World;
  private readonly saver: Saver;
  private readonly logger: Logger;
  /**
   * Told of each trade once it is stored (completed) or rolled back (failed), with the seconds
   * from its commit request (both players' last accept) to then: waiting for the players' saves
   * and a writer included.
   */
  private readonly onStored: ((outcome: "completed" | "failed", seconds: number) => void) | undefined;
  /** Ready to be written, oldest first. */
  private queue: Job[] = [];
  private writers = 0;
  private scheduled = false;
  /** Every trade not yet stored or rolled back. */
  private readonly unsettled = new Set<Promise<void>>();

  constructor(deps: { db: Database; world: World; saver: Saver; logger: Logger; onStored?: (outcome: "completed" | "failed", seconds: number) => void }) {
    this.db = deps.db;
    this.world = deps.world;
    this.saver = deps.saver;
    this.logger = deps.logger;
    this.onStored = deps.onStored;
  }

  commit(req: CommitRequest): void {
    const { session, swap } = req;
    const worth = (list: { itemId: string; quantity: number }[]) => list.reduce((n, s) => n + (this.world.content.item(s.itemId)?.value ?? 0) * s.quantity, 0);
    let done!: () => void;
    const settled = new Promise<void>((resolve) => (done = resolve));
    this.unsettled.add(settled);
    void settled.finally(() => this.unsettled.delete(settled));
    const job: Job = {
      req,
      swap: {
        tradeId: session.id,
        aId: session.a.playerId,
        bId: session.b.playerId,
        before: req.before,
        after: swap.inventories,
        aGives: swap.aGives,
        bGives: swap.bGives,
        coinsBefore: req.coinsBefore,
        coinsAfter: swap.coins,
        aGivesCoins: swap.aGivesCoins,
        bGivesCoins: swap.bGivesCoins,
        // A coin is worth one.
        valueAToB: worth(swap.aGives) + swap.aGivesCoins,
        valueBToA: worth(swap.bGives) + swap.bGivesCoins,
      },
      queuedAt: performance.now(),
      presaved: false,
      done,
    };
    const ids = [job.swap.aId, job.swap.bId];
    if (ids.some((id) => this.saver.busy(id))) void this.afterSaves(job, ids);
    else this.enqueue(job);
  }

  /** Resolves when every trade handed over has been stored or rolled back. */
  async idle(): Promise<void> {
    while (this.unsettled.size > 0) await Promise.allSettled([...this.unsettled]);
  }

  /** Queues the job once both players' saves under way are stored. */
  private async afterSaves(job: Job, ids: string[]): Promise<void> {
    try {
      for (const id of ids) await this.saver.settled(id);
    } catch (err) {
      this.failed(job, err);
      return;
    }
    this.enqueue(job);
  }

  private enqueue(job: Job): void {
    this.queue.push(job);
    if (this.scheduled) return;
    // After the current tick: every trade whose last accept it processes goes in the same batch.
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.writers < COMMIT_WRITERS && this.queue.length > 0) {
      // Shared among the free writers: a burst is stored by both at once, not one after the other.
      const size = Math.min(TRADE_BATCH_MAX, Math.ceil(this.queue.length / (COMMIT_WRITERS - this.writers)));
      const batch = this.queue.splice(0, size);
      this.writers++;
      void this.write(batch).finally(() => {
        this.writers--;
        this.pump();
      });
    }
  }

  private async write(batch: Job[]): Promise<void> {
    let outcomes: Map<string, TradeCommitError | undefined>;
    try {
      outcomes = await storeSwaps(
        this.db,
        batch.map((j) => j.swap),
        this.saver.versions,
      );
    } catch (err) {
      if (batch.length === 1) {
        this.failed(batch[0]!, err);
        return;
      }
      // Nothing of the batch is stored: each trade on its own, so that one the database refuses
      // (or whose rows conflict) is the only one rolled back.
      this.logger.warn({ err, trades: batch.length }, "storing a batch of trades failed; storing them one at a time");
      for (const job of batch) {
        try {
          await storeSwap(this.db, job.swap, this.saver.versions);
        } catch (one) {
          this.outcome(job, one);
          continue;
        }
        this.outcome(job, undefined);
      }
      return;
    }
    for (const job of batch) {
      const id = job.swap.tradeId;
      this.outcome(job, outcomes.has(id) ? outcomes.get(id) : new Error(`the batch reported nothing for trade ${id}`));
    }
  }

  private outcome(job: Job, err: unknown): void {
    if (err === undefined) this.completed(job);
    else if (err instanceof TradeCommitError && err.code === "ITEMS_CHANGED" && !job.presaved) void this.presave(job);
    else this.failed(job, err);
  }

  /**
   * A stored inventory is not the live one the swap was computed from: the players have changes
   * not saved yet. Both are saved now (they are frozen, so their inventories are still the ones the
   * swap started from), then the trade goes back in the queue.
   */
  private async presave(job: Job): Promise<void> {
    job.presaved = true;
    const players = [job.swap.aId, job.swap.bId].flatMap((id) => this.world.players.get(id) ?? []);
    for (const p of players) p.saveDue = false;
    this.saver.enqueue(players.map(snapshot));
    await this.afterSaves(job, [job.swap.aId, job.swap.bId]);
  }

  private completed(job: Job): void {
    const { session, swap } = job.req;
    this.onStored?.("completed", (performance.now() - job.queuedAt) / 1000);
    this.logger.info(
      {
        event: "trade",
        tradeId: session.id,
        aId: job.swap.aId,
        bId: job.swap.bId,
        aGives: swap.aGives,
        bGives: swap.bGives,
        aGivesCoins: swap.aGivesCoins,
        bGivesCoins: swap.bGivesCoins,
        valueAToB: job.swap.valueAToB,
        valueBToA: job.swap.valueBToA,
      },
      "trade completed",
    );
    this.apply(job.swap.aId, () => this.world.trades.finish(this.world, session.id, swap));
    job.done();
  }

  private failed(job: Job, err: unknown): void {
    const { session } = job.req;
    this.onStored?.("failed", (performance.now() - job.queuedAt) / 1000);
    const known = err instanceof TradeCommitError;
    if (!known) this.logger.error({ err, tradeId: session.id }, "storing a trade failed; rolled back");
    if (known && err.code === "STALE_CHARACTER") {
      // Another process has written one of them: nothing was stored, and that character is lost to this process.
      for (const id of err.staleIds) {
        this.logger.error(
          { characterId: id, tradeId: session.id },
          "refused a trade of a stale character: it was written by another process; it is lost to this one",
        );
        this.saver.forget(id);
        this.saver.onLost(id);
      }
    }
    this.apply(job.swap.aId, () =>
      this.world.trades.abort(this.world, session.id, known ? err.code : "SERVER_ERROR", known ? err.message : "the trade could not be stored"),
    );
    job.done();
  }

  /** Runs in the next tick, in the player's queue (a frozen player cannot leave the world). */
  private apply(playerId: string, fn: () => void): void {
    if (!this.world.enqueueCommand(playerId, fn)) fn();
  }
}
