/**
 * `tradeAccept {tradeId, screen}` on each transport: `/ws`, the Colyseus world room, and a seat in
 * the trade room (WorldService.inputDirect). A double click on the offer screen's Accept, with the
 * partner already accepted, sends two accepts of the offer screen: the first moves the trade to the
 * confirmation screen, the second is refused (TRADE_SCREEN_CHANGED) instead of accepting a screen
 * its player has not seen, and nothing changes; the trade then completes as usual (one side naming
 * the screen, the other not, as the contract's `{tradeId}` still does).
 */
import assert from "node:assert/strict";
import type { Room } from "@colyseus/sdk";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

type Msg = Record<string, unknown>;

/** A player as the scenario sees it: who, an item to offer, where its commands go, what it receives. */
interface Trader {
  id: string;
  slot: { slot: number; itemId: string };
  /** Requests and answers (the world connection). */
  request(type: string, data: object): void;
  /** Offer commands (the world connection, or the trade room's seat once taken). */
  command(type: string, data: object): void;
  next(type: string): Promise<Msg>;
  /** Events received and not taken by next(), by type. */
  pending(type: string): Msg[];
  /** Takes the seat in the trade room, where the transport has one. */
  seat?(tradeId: string): Promise<void>;
  close(): Promise<void>;
}

describe("tradeAccept names its screen: a stale accept is refused on every transport", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
  });
  after(() => t.close());

  async function overWs(name: string): Promise<Trader> {
    const ws = await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
    const id = String((await ws.next("welcome")).playerId);
    const slot = ((await ws.next("player:sync")).inventory as Trader["slot"][])[0]!;
    return {
      id,
      slot,
      request: (type, data) => ws.send(type, data),
      command: (type, data) => ws.send(type, data),
      next: (type) => ws.next(type),
      pending: (type) => ws.events.filter((e) => e.type === type).map((e) => e.data),
      close: async () => ws.close(),
    };
  }

  async function overColyseus(name: string, withSeat: boolean): Promise<Trader> {
    const c = await WorldTestClient.join(t.baseUrl, { name });
    const welcome = await c.next("welcome");
    const slot = ((await c.next("player:sync")).inventory as Trader["slot"][])[0]!;
    let seat: Room | undefined;
    const trader: Trader = {
      id: String(welcome.playerId),
      slot,
      request: (type, data) => c.send(type, data),
      command: (type, data) => (seat ?? c.room).send(type, data),
      next: (type) => c.next(type),
      pending: (type) => c.events.filter((e) => e.type === type).map((e) => e.data),
      close: async () => {
        await c.room.leave();
      },
    };
    if (withSeat) {
      trader.seat = async (tradeId) => {
        c.sdk.auth.token = String(welcome.token);
        seat = await c.sdk.joinById(tradeId);
        seat.onMessage("*", () => {});
      };
    }
    return trader;
  }

  /** The scenario, the same on every transport. */
  async function doubleClickThenTrade(ann: Trader, ben: Trader): Promise<void> {
    ann.request("tradeRequest", { targetPlayerId: ben.id });
    const tradeId = String((await ben.next("tradeIncoming")).tradeId);
    ben.request("tradeRequestRespond", { tradeId, accept: true });
    await ann.next("tradeStarted");
    await ben.next("tradeStarted");
    for (const p of [ann, ben]) await p.seat?.(tradeId);
    const session = t.server.world.world.trades.sessions.get(tradeId)!;

    ann.command("tradeAddItem", { tradeId, inventorySlot: ann.slot.slot, quantity: 1 });
    await ann.next("tradeUpdated");
    ben.command("tradeAccept", { tradeId, screen: "offer" });
    assert.equal(((await ann.next("tradeUpdated")).theirOffer as { accepted: boolean }).accepted, true, "Ben accepted the offers");
    for (let i = 0; i < 2; i++) await ben.next("tradeUpdated");

    // Ann's double click: two accepts of the offer screen, back to back. Whether they land in one
    // tick or two, the first moves the trade to the confirmation screen and the second is refused.
    ann.command("tradeAccept", { tradeId, screen: "offer" });
    ann.command("tradeAccept", { tradeId, screen: "offer" });
    const confirm = await ann.next("tradeConfirmScreen");
    assert.deepEqual([(confirm.myOffer as Msg).accepted, (confirm.theirOffer as Msg).accepted], [false, false]);
    const refused = await ann.next("tradeError");
    assert.equal(refused.tradeId, tradeId);
    assert.equal(refused.code, "TRADE_SCREEN_CHANGED");
    assert.deepEqual([session.screen, session.a.accepted, session.b.accepted], ["confirm", false, false], "the refused accept changed nothing");
    await ben.next("tradeConfirmScreen");
    assert.deepEqual([ben.pending("tradeUpdated").length, ben.pending("tradeError").length], [0, 0], "Ben saw no change");

    // The trade goes on: Ben accepts the confirmation screen by name, Ann without one.
    ben.command("tradeAccept", { tradeId, screen: "confirm" });
    assert.equal(((await ann.next("tradeUpdated")).theirOffer as { accepted: boolean }).accepted, true);
    ann.command("tradeAccept", { tradeId });
    assert.deepEqual(await ben.next("tradeCompleted"), { tradeId, receivedItems: [{ itemId: ann.slot.itemId, quantity: 1 }], receivedCoins: 0 });
    assert.deepEqual(await ann.next("tradeCompleted"), { tradeId, receivedItems: [], receivedCoins: 0 });
    assert.deepEqual(ann.pending("tradeError"), [], "one refusal only");
    for (const p of [ann, ben]) await p.close();
  }

  it("over /ws", async () => {
    await doubleClickThenTrade(await overWs("ScreenWsAnn"), await overWs("ScreenWsBen"));
  });

  it("over the Colyseus world room", async () => {
    await doubleClickThenTrade(await overColyseus("ScreenRoomAnn", false), await overColyseus("ScreenRoomBen", false));
  });

  it("through both seats in the trade room", async () => {
    await doubleClickThenTrade(await overColyseus("ScreenSeatAnn", true), await overColyseus("ScreenSeatBen", true));
  });
});
