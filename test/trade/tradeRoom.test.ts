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
    await assert.rejects(ann.sdk.joinById(tradeId), "a participant holds one seat, not both");
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

  it("refuses rooms made by clients: no second world, no trade room for a made-up trade", async () => {
    const eve = await WorldTestClient.join(t.baseUrl, { name: "RoomEve" });
    eve.sdk.auth.token = String((await eve.next("welcome")).token);
    const worldRooms = async () => (await fetchRooms()).filter((r) => r.name === "world").length;
    assert.equal(await worldRooms(), 1);
    await assert.rejects(eve.sdk.create("world", {}), "a second world room");
    await assert.rejects(eve.sdk.create("trade", { tradeId: "made-up" }), "a trade room by create");
    await assert.rejects(eve.sdk.joinOrCreate("trade", { tradeId: "made-up-2" }), "a trade room by joinOrCreate");
    await assert.rejects(eve.sdk.create("world", { createKey: "guess" }), "a guessed key");
    assert.equal(await worldRooms(), 1);
    assert.equal((await fetchRooms()).filter((r) => r.name === "trade").length, 0);
    await eve.room.leave();
  });

  it("holds trade-room messages to the per-connection limit", async () => {
    const ann = await WorldTestClient.join(t.baseUrl, { name: "FloodRoomAnn" });
    const ben = await WorldTestClient.join(t.baseUrl, { name: "FloodRoomBen" });
    const annWelcome = await ann.next("welcome");
    const benWelcome = await ben.next("welcome");
    ann.send("tradeRequest", { targetPlayerId: benWelcome.playerId });
    const tradeId = String((await ben.next("tradeIncoming")).tradeId);
    ben.send("tradeRequestRespond", { tradeId, accept: true });
    await ann.next("tradeStarted");
    ann.sdk.auth.token = String(annWelcome.token);
    const annRoom: Room = await ann.sdk.joinById(tradeId);
    const errors: { code: string }[] = [];
    annRoom.onMessage("error", (e: { code: string }) => errors.push(e));
    for (let i = 0; i < 200; i++) annRoom.send("tradeAccept", { tradeId });
    await ann.waitFor(() => (errors.some((e) => e.code === "RATE_LIMITED") ? true : undefined), 5_000, "RATE_LIMITED from the trade room");
    ben.send("tradeCancel", { tradeId });
    await ann.next("tradeCancelled");
    for (const c of [ann, ben]) await c.room.leave();
  });

  async function fetchRooms(): Promise<{ name: string; roomId: string }[]> {
    const { matchMaker } = await import("@colyseus/core");
    return (await matchMaker.query({})) as { name: string; roomId: string }[];
  }
});
