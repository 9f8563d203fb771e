/**
 * What an operator reads in the logs: one structured line when a player's session starts (who,
 * which transport, from where, whether it took over another), one when it ends (the reason and how
 * long it lasted), and one for each completed trade (both sides, what moved, its value).
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

type Record_ = Record<string, unknown>;

describe("operator log lines: join, leave, trade completed", function () {
  this.timeout(30_000);
  let t: TestServer;
  const records: Record_[] = [];
  const of = (event: string) => records.filter((r) => r.event === event);

  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" }, "bundled", undefined, (r) => records.push(r));
  });
  after(async () => {
    await t?.close();
  });

  async function join(query: string) {
    const ws = await WsTestClient.connect(`${t.wsUrl}?${query}`);
    const welcome = await ws.next("welcome");
    const sync = await ws.next("player:sync");
    return {
      ws,
      id: String(welcome.playerId),
      token: String(welcome.token),
      inventory: sync.inventory as { slot: number; itemId: string; quantity: number }[],
    };
  }

  it("logs a join with the transport, and a leave with its reason and duration", async () => {
    const ann = await join("name=LogAnn");
    const joined = await until(() => of("join").find((r) => r.characterId === ann.id), "the join line");
    assert.equal(joined.msg, "player joined");
    assert.equal(joined.name, "LogAnn");
    assert.equal(joined.transport, "ws");
    assert.equal(joined.takeover, false);
    assert.equal(typeof joined.accountId, "string");
    // The same character from a second connection: a takeover, and the first session ends "replaced".
    const again = await join(`token=${encodeURIComponent(ann.token)}`);
    await until(
      () =>
        of("join")
          .filter((r) => r.characterId === ann.id)
          .at(1),
      "the second join line",
    );
    assert.equal(of("join").filter((r) => r.characterId === ann.id)[1]!.takeover, true);
    const replaced = await until(() => of("leave").find((r) => r.characterId === ann.id), "the replaced session's line");
    assert.equal(replaced.reason, "replaced");
    // The connection goes (no close code: a dropped connection, whose player lingers for a while).
    again.ws.close();
    const left = await until(() => of("leave").find((r) => r.characterId === ann.id && r.reason === "disconnect"), "the disconnect line");
    assert.equal(left.msg, "player session ended");
    assert.equal(left.transport, "ws");
    assert.ok(typeof left.durationMs === "number" && left.durationMs >= 0, String(left.durationMs));
    ann.ws.close();
  });

  it("logs a completed trade with both sides, what moved and its value", async () => {
    const a = await join("name=LogTrA");
    const b = await join("name=LogTrB");
    a.ws.send("tradeRequest", { targetPlayerId: b.id });
    const tradeId = String((await b.ws.next("tradeIncoming")).tradeId);
    b.ws.send("tradeRequestRespond", { tradeId, accept: true });
    await a.ws.next("tradeStarted");
    const given = a.inventory[0]!;
    a.ws.send("tradeAddItem", { tradeId, inventorySlot: given.slot, quantity: given.quantity });
    await b.ws.next("tradeUpdated");
    for (const p of [a, b]) p.ws.send("tradeAccept", { tradeId });
    await a.ws.next("tradeConfirmScreen");
    for (const p of [a, b]) p.ws.send("tradeAccept", { tradeId });
    await b.ws.next("tradeCompleted");
    const line = await until(() => of("trade").find((r) => r.tradeId === tradeId), "the trade line");
    assert.equal(line.msg, "trade completed");
    assert.deepEqual({ aId: line.aId, bId: line.bId }, { aId: a.id, bId: b.id });
    assert.deepEqual(line.aGives, [{ itemId: given.itemId, quantity: given.quantity }]);
    assert.deepEqual(line.bGives, []);
    assert.equal(typeof line.valueAToB, "number");
    assert.equal(of("trade").length, 1, "one line for one trade");
    a.ws.close();
    b.ws.close();
  });
});
