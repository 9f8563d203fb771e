/**
 * Preloaded into a server process by the crash test (`node --import`): the Nth trade audit row
 * (TEST_HOLD_TRADE_AUDIT=N) is never inserted. Its transaction has already replaced both
 * inventories when it stops there, so a SIGKILL the test sends after the line below is a kill
 * inside an open commit, by construction rather than by timing. The line names the trade.
 */
import { EntityManager } from "@mikro-orm/core";

const holdAt = Number(process.env.TEST_HOLD_TRADE_AUDIT);
if (!Number.isInteger(holdAt) || holdAt < 1) throw new Error("holdTradeCommit: set TEST_HOLD_TRADE_AUDIT to a positive integer");

let audits = 0;
const insertMany = EntityManager.prototype.insertMany;
EntityManager.prototype.insertMany = function (this: EntityManager, entityName: unknown, data?: unknown, options?: unknown) {
  const name = typeof entityName === "string" ? entityName : (entityName as { name?: string } | undefined)?.name;
  if (name === "TradeAudit" && ++audits === holdAt) {
    const rows = data as { tradeId: string }[];
    process.stdout.write(`test-hook: holding trade ${rows[0]!.tradeId} inside its transaction\n`);
    return new Promise<never>(() => {});
  }
  return (insertMany as (...args: unknown[]) => Promise<unknown>).call(this, entityName, data, options);
} as typeof EntityManager.prototype.insertMany;
