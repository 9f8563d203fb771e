/**
 * Carries a trade's swap from the tick to the database and back: waits until both players'
 * queued saves are written (so no older snapshot can land after the swap), stores the swap in
 * one transaction, then, in the next tick, applies it to the live players (or aborts it).
 */
import type { Database } from "../db/orm.ts";
import type { CommitRequest } from "../game/trade/Trades.ts";
import { snapshot, type World } from "../game/world/World.ts";
import type { Logger } from "../logger.ts";
import { storeSwap, TradeCommitError } from "../persistence/trades.ts";
import type { Saver } from "./Saver.ts";

export class TradeCommitter {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly db: Database;
  private readonly world: World;
  private readonly saver: Saver;
  private readonly logger: Logger;
  /** Told of each swap: stored (completed) or rolled back (failed), and its transaction's seconds. */
  private readonly onStored: ((outcome: "completed" | "failed", seconds: number) => void) | undefined;

  constructor(deps: { db: Database; world: World; saver: Saver; logger: Logger; onStored?: (outcome: "completed" | "failed", seconds: number) => void }) {
    this.db = deps.db;
    this.world = deps.world;
    this.saver = deps.saver;
    this.logger = deps.logger;
    this.onStored = deps.onStored;
  }

  commit(req: CommitRequest): void {
    const { session, swap } = req;
    const world = this.world;
    const worth = (list: { itemId: string; quantity: number }[]) => list.reduce((n, s) => n + (world.content.item(s.itemId)?.value ?? 0) * s.quantity, 0);
    // Both players' unsaved changes (a purchase, a pickup since the last autosave) are queued now,
    // in the tick, so the stored inventories are the ones the swap was computed from.
    const players = [session.a.playerId, session.b.playerId].flatMap((id) => world.players.get(id) ?? []);
    for (const p of players) p.saveDue = false;
    this.saver.enqueue(players.map(snapshot));
    const work = (async () => {
      let storing: number | undefined;
      try {
        await this.saver.settled(session.a.playerId);
        await this.saver.settled(session.b.playerId);
        storing = performance.now();
        await storeSwap(this.db, {
          tradeId: session.id,
          aId: session.a.playerId,
          bId: session.b.playerId,
          before: req.before,
          after: swap.inventories,
          aGives: swap.aGives,
          bGives: swap.bGives,
          valueAToB: worth(swap.aGives),
          valueBToA: worth(swap.bGives),
        }, this.saver.versions);
      } catch (err) {
        this.onStored?.("failed", storing === undefined ? 0 : (performance.now() - storing) / 1000);
        const known = err instanceof TradeCommitError;
        if (!known) this.logger.error({ err, tradeId: session.id }, "storing a trade failed; rolled back");
        if (known && err.code === "STALE_CHARACTER") {
          // Another process has written one of them: nothing was stored, and that character is lost to this process.
          for (const id of err.staleIds) {
            this.logger.error({ characterId: id, tradeId: session.id }, "refused a trade of a stale character: it was written by another process; it is lost to this one");
            this.saver.forget(id);
            this.saver.onLost(id);
          }
        }
        this.apply(session.a.playerId, () => world.trades.abort(world, session.id, known ? err.code : "SERVER_ERROR", known ? err.message : "the trade could not be stored"));
        return;
      }
      this.onStored?.("completed", (performance.now() - storing) / 1000);
      this.logger.info(
        { event: "trade", tradeId: session.id, aId: session.a.playerId, bId: session.b.playerId, aGives: swap.aGives, bGives: swap.bGives, valueAToB: worth(swap.aGives), valueBToA: worth(swap.bGives) },
        "trade completed",
      );
      this.apply(session.a.playerId, () => world.trades.finish(world, session.id, swap));
    })();
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Runs in the next tick, in the player's queue (a frozen player cannot leave the world). */
  private apply(playerId: string, fn: () => void): void {
    if (!this.world.enqueueCommand(playerId, fn)) fn();
  }

  /** Resolves when every swap under way has been stored or rolled back. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
