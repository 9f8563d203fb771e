/**
 * Preloaded into a server process by the crash test (`node --import`): once N - 1 trade audit rows
 * have been inserted (TEST_HOLD_TRADE_AUDIT=N), the next insert of at least two audit rows (a
 * batch of trades stored together) is never made. Its transaction has already replaced every
 * inventory of the batch when it stops there, so a SIGKILL the test sends after the line below is
 * a kill inside an open commit of several trades, by construction rather than by timing. The line
 * names the batch's trades.
 */
import { EntityManager } from "@mikro-orm/core";

const holdAt = Number(process.env.TEST_HOLD_TRADE_AUDIT);
if (!Number.isInteger(holdAt) || holdAt < 1) throw new Error("holdTradeCommit: set TEST_HOLD_TRADE_AUDIT to a positive integer");

let audits = 0;
let holding = false;
const insertMany = EntityManager.prototype.insertMany;
EntityManager.prototype.insertMany = function (this: EntityManager, entityName: unknown, data?: unknown, options?: unknown) {
  const name = typeof entityName === "string" ? entityName : (entityName as { name?: string } | undefined)?.name;
  if (name === "TradeAudit") {
    const rows = data as { tradeId: string }[];
    if (!holding && audits + 1 >= holdAt && rows.length >= 2) {
      holding = true;
      process.stdout.write(`test-hook: holding trades ${rows.map((r) => r.tradeId).join(",")} inside their transaction\n`);
      return new Promise<never>(() => {});
    }
    audits += rows.length;
  }
  return (insertMany as (...args: unknown[]) => Promise<unknown>).call(this, entityName, data, options);
} as typeof EntityManager.prototype.insertMany;
