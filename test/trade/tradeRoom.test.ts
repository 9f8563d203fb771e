import assert from "node:assert/strict";
import type { Room } from "@colyseus/sdk";
import { WORLD_BUFFER_BYTES } from "../../rooms/worldBuffers.ts";
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
    // A trade room's encoder and serializer have the library's small buffers; the world's large
    // ones are its own (a trade room of 2 × 512 KiB cost ~1 MiB of garbage a trade).
    const { matchMaker } = await import("@colyseus/core");
    const { Encoder } = await import("@colyseus/schema");
    const buffers = (roomId: string) => {
      const serializer = (
        matchMaker.getLocalRoomById(roomId) as unknown as { _serializer: { encoder: { sharedBuffer: Uint8Array }; fullEncodeBuffer: Uint8Array } }
      )._serializer;
      return [serializer.encoder.sharedBuffer.byteLength, serializer.fullEncodeBuffer.byteLength];
    };
    assert.equal(Encoder.BUFFER_SIZE, 16 * 1024, "the library's default, for every room");
    assert.deepEqual(buffers(tradeId), [16 * 1024, 16 * 1024]);
    const world = (await fetchRooms()).find((r) => r.name === "world")!;
    // (They grow from there: the world's encoding keeps that much room ahead of what it writes.)
    assert.ok(
      buffers(world.roomId).every((n) => n >= WORLD_BUFFER_BYTES),
      `the world's own: ${buffers(world.roomId).join(", ")}`,
    );
    const benRoom: Room = await ben.sdk.joinById(tradeId);
    const state = (r: Room) =>
      (r.state as { toJSON(): { tradeId: string; screen: string; a: { playerId: string; coins: number; items: { itemId: string }[] } } }).toJSON();
    assert.equal(state(annRoom).tradeId, tradeId);
    assert.equal(state(annRoom).a.playerId, annWelcome.playerId);

    const stranger = await WorldTestClient.join(t.baseUrl, { name: "RoomStranger" });
    stranger.sdk.auth.token = String((await stranger.next("welcome")).token);
    await assert.rejects(stranger.sdk.joinById(tradeId), "someone else may not join");

    annRoom.send("tradeAddItem", { tradeId, inventorySlot: slot.slot, quantity: 1 });
    await ben.waitFor(() => (state(benRoom).a.items.length === 1 ? true : undefined), 5_000, "the offer in the synced state");
    assert.equal(state(benRoom).a.items[0]!.itemId, slot.itemId);
    // Coins too (the starter kit's 25 are in Ann's pouch).
    assert.ok(Number(annSync.coins) >= 5, `Ann carries coins: ${String(annSync.coins)}`);
    annRoom.send("tradeSetCoins", { tradeId, amount: 5 });
    await ben.waitFor(() => (state(benRoom).a.coins === 5 ? true : undefined), 5_000, "the coins in the synced state");

    const left = new Promise<void>((resolve) => benRoom.onLeave(() => resolve()));
    for (const r of [annRoom, benRoom]) r.send("tradeAccept", { tradeId });
    await ann.next("tradeConfirmScreen");
    for (const r of [annRoom, benRoom]) r.send("tradeAccept", { tradeId });
    const done = await ben.next("tradeCompleted", 10_000);
    assert.deepEqual(done.receivedItems, [{ itemId: slot.itemId, quantity: 1 }]);
    assert.equal(done.receivedCoins, 5);
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

  /** Two players of whom `a` asked `b` to trade and `b` accepted: the trade id. */
  async function startTrade(a: WorldTestClient, b: WorldTestClient, bId: string): Promise<string> {
    a.send("tradeRequest", { targetPlayerId: bId });
    const tradeId = String((await b.next("tradeIncoming")).tradeId);
    b.send("tradeRequestRespond", { tradeId, accept: true });
    await a.next("tradeStarted");
    return tradeId;
  }

  const left = (r: Room) => new Promise<number>((resolve) => r.onLeave((code: number) => resolve(code)));

  it("gives a seat only to the session that controls the character, and closes it when a newer login takes the character over", async () => {
    const ann = await WorldTestClient.join(t.baseUrl, { name: "SeatAnn" });
    const ben = await WorldTestClient.join(t.baseUrl, { name: "SeatBen" });
    const annWelcome = await ann.next("welcome");
    const benId = String((await ben.next("welcome")).playerId);
    const annId = String(annWelcome.playerId);
    const annToken = String(annWelcome.token);
    const first = await startTrade(ann, ben, benId);
    ann.sdk.auth.token = annToken;
    const seat: Room = await ann.sdk.joinById(first);
    const seatClosed = left(seat);
    const oldSession = t.server.world.connectionOf(annId)!;

    // A newer login with the same token takes the character over: the trade ends, and so does the seat.
    const again = await WorldTestClient.join(t.baseUrl, { token: annToken });
    await again.next("welcome");
    assert.equal(await seatClosed, 4009);
    assert.equal((await ben.next("tradeCancelled")).tradeId, first);

    // The new session trades again; anything still arriving through the old session's seat is refused and changes nothing.
    const second = await startTrade(again, ben, benId);
    const replies: string[] = [];
    assert.equal(
      t.server.world.inputDirect(annId, oldSession, "tradeCancel", { tradeId: second }, (code) => replies.push(code)),
      false,
    );
    assert.deepEqual(replies, ["SESSION_REPLACED"]);
    const slot = ((await again.next("player:sync")).inventory as { slot: number }[])[0]!.slot;
    again.send("tradeAddItem", { tradeId: second, inventorySlot: slot, quantity: 1 });
    await ben.next("tradeUpdated");
    assert.equal(t.server.world.world.trades.sessions.has(second), true, "the second trade is still open");
    assert.equal(
      ben.events.some((e) => e.type === "tradeCancelled"),
      false,
    );

    // A seat of one trade does not speak for another.
    again.sdk.auth.token = annToken;
    const seat2: Room = await again.sdk.joinById(second);
    const errors: { code: string }[] = [];
    seat2.onMessage("error", (e: { code: string }) => errors.push(e));
    seat2.send("tradeCancel", { tradeId: first });
    await again.waitFor(() => (errors.length > 0 ? true : undefined), 5_000, "an error from the trade room");
    assert.equal(errors[0]!.code, "INVALID_TRADE");
    again.send("tradeCancel", { tradeId: second });
    await ben.next("tradeCancelled");
    for (const c of [again, ben]) await c.room.leave();
  });

  describe("an agent's seat", () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const api = async (method: string, p: string, token: string, body?: unknown): Promise<Record<string, any>> => {
      const res = await fetch(t.baseUrl + p, {
        method,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.ok(res.ok, `${method} ${p}: ${res.status}`);
      return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    async function ownerWithAgent(name: string): Promise<{ token: string; characterId: string; agentId: string; agentToken: string }> {
      const { token } = await api("POST", "/api/auth/anonymous", "");
      const characterId = String((await api("POST", "/api/v1/player", token, { name })).player.characterId);
      const made = await api("POST", "/api/agent", token, { characterId, name: `${name} bot` });
      return { token, characterId, agentId: String(made.agent.agentId), agentToken: String(made.token) };
    }

    it("is refused while its owner's session controls the character", async () => {
      const owner = await ownerWithAgent("SeatOwner");
      const ownerClient = await WorldTestClient.join(t.baseUrl, { token: owner.token, characterId: owner.characterId });
      const ben = await WorldTestClient.join(t.baseUrl, { name: "SeatPartner" });
      await ownerClient.next("welcome");
      const benId = String((await ben.next("welcome")).playerId);
      const tradeId = await startTrade(ownerClient, ben, benId);
      const agent = new WorldTestClient(t.baseUrl, owner.agentToken);
      await assert.rejects(agent.sdk.joinById(tradeId), /log in to the world with this token first/);
      ownerClient.send("tradeCancel", { tradeId });
      await ben.next("tradeCancelled");
      for (const c of [ownerClient, ben]) await c.room.leave();
    });

    it("closes with the agent's deletion, and a message sent through it then changes nothing", async () => {
      const owner = await ownerWithAgent("SeatAgentOwner");
      const agent = await WorldTestClient.join(t.baseUrl, { token: owner.agentToken });
      const ben = await WorldTestClient.join(t.baseUrl, { name: "SeatAgentPartner" });
      await agent.next("welcome");
      const slot = ((await agent.next("player:sync")).inventory as { slot: number }[])[0]!.slot;
      const benId = String((await ben.next("welcome")).playerId);
      const tradeId = await startTrade(agent, ben, benId);
      const seat: Room = await agent.sdk.joinById(tradeId);
      const seatClosed = left(seat);
      const worldClosed = left(agent.room);
      await api("DELETE", `/api/agent/${owner.agentId}`, owner.token);
      seat.send("tradeAddItem", { tradeId, inventorySlot: slot, quantity: 1 });
      assert.equal(await seatClosed, 4001);
      assert.equal(await worldClosed, 4001);
      assert.equal((await ben.next("tradeCancelled")).reason, "disconnected");
      assert.equal(
        ben.events.some((e) => e.type === "tradeUpdated"),
        false,
        "the offer never changed",
      );
      await ben.room.leave();
    });
  });

  async function fetchRooms(): Promise<{ name: string; roomId: string }[]> {
    const { matchMaker } = await import("@colyseus/core");
    return (await matchMaker.query({})) as { name: string; roomId: string }[];
  }
});
