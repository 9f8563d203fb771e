import assert from "node:assert/strict";
import type { Room } from "@colyseus/sdk";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("TradeRoom (Colyseus)", function () {
  this.timeout(20_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
  });
  after(() => t.close());

  it("holds the trade's state for its two participants only, takes trade messages, and closes when done", async () => {
    const ann = await WorldTestClient.join(t.baseUrl, { name: "RoomAnn" });
    const ben = await WorldTestClient.join(t.baseUrl, { name: "RoomBen" });
    const annWelcome = await ann.next("welcome");
    const benWelcome = await ben.next("welcome");
    const annSync = await ann.next("player:sync");
    const slot = (annSync.inventory as { slot: number; itemId: string }[])[0]!;
    ann.send("tradeRequest", { targetPlayerId: benWelcome.playerId });
    const tradeId = String((await ben.next("tradeIncoming")).tradeId);
    ben.send("tradeRequestRespond", { tradeId, accept: true });
    await ann.next("tradeStarted");

    // Anonymous players use the token their welcome gave them.
    ann.sdk.auth.token = String(annWelcome.token);
    ben.sdk.auth.token = String(benWelcome.token);
    const annRoom: Room = await ann.sdk.joinById(tradeId);
    const benRoom: Room = await ben.sdk.joinById(tradeId);
    const state = (r: Room) => (r.state as { toJSON(): { tradeId: string; screen: string; a: { playerId: string; items: { itemId: string }[] } } }).toJSON();
    assert.equal(state(annRoom).tradeId, tradeId);
    assert.equal(state(annRoom).a.playerId, annWelcome.playerId);

    const stranger = await WorldTestClient.join(t.baseUrl, { name: "RoomStranger" });
    stranger.sdk.auth.token = String((await stranger.next("welcome")).token);
    await assert.rejects(stranger.sdk.joinById(tradeId), "someone else may not join");

    annRoom.send("tradeAddItem", { tradeId, inventorySlot: slot.slot, quantity: 1 });
    await ben.waitFor(() => (state(benRoom).a.items.length === 1 ? true : undefined), 5_000, "the offer in the synced state");
    assert.equal(state(benRoom).a.items[0]!.itemId, slot.itemId);

    const left = new Promise<void>((resolve) => benRoom.onLeave(() => resolve()));
    for (const r of [annRoom, benRoom]) r.send("tradeAccept", { tradeId });
    await ann.next("tradeConfirmScreen");
    for (const r of [annRoom, benRoom]) r.send("tradeAccept", { tradeId });
    const done = await ben.next("tradeCompleted", 10_000);
    assert.deepEqual(done.receivedItems, [{ itemId: slot.itemId, quantity: 1 }]);
    await left;
    for (const c of [ann, ben, stranger]) await c.room.leave();
  });
});
