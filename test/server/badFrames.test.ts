import assert from "node:assert/strict";
import type { Room } from "@colyseus/sdk";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { pino } from "pino";
import type { Room as ServerRoom } from "@colyseus/core";
import { attributeFrames, BAD_FRAME_LOG_INTERVAL_MS, colyseusLogger } from "../../rooms/badFrames.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/** Colyseus ROOM_DATA (13), message type "abc", then bytes msgpack cannot decode (0xC1 is never used). */
const UNDECODABLE = new Uint8Array([13, 0xa3, 0x61, 0x62, 0x63, 0xc1, 0xc1, 0xc1]);

describe("Malformed Colyseus frames", function () {
  this.timeout(20_000);
  let t: TestServer;
  const logs: Record<string, unknown>[] = [];
  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" }, "bundled", undefined, (r) => logs.push(r));
  });
  after(() => t.close());

  const rawSend = (room: Room) => (room as unknown as { connection: { send(d: Uint8Array): void } }).connection;
  const about = (sessionId: string) => logs.filter((l) => JSON.stringify(l).includes(sessionId) || /MessagePack|checkedRead/.test(JSON.stringify(l)));

  it("are logged once per connection, without a stack, however many arrive", async () => {
    for (const name of ["Garbage One", "Garbage Two"]) {
      const c = await WorldTestClient.join(t.baseUrl, { name });
      await c.next("welcome");
      const closed = new Promise<number>((resolve) => c.room.onLeave((code: number) => resolve(code)));
      for (let i = 0; i < 200; i++) rawSend(c.room).send(UNDECODABLE);
      // Colyseus closes a client that sent an undecodable frame (4002), after the frames already received.
      assert.equal(await closed, 4002);
      await c.waitFor(
        () => (t.server.world.connectionOf(String(c.events.find((e) => e.type === "welcome")?.data.playerId ?? "")) === undefined ? true : undefined),
        5_000,
        "the session ended",
      );
      const lines = about(c.room.sessionId);
      assert.equal(lines.length, 1, JSON.stringify(lines.slice(0, 3)));
      assert.equal(lines[0]!.msg, "bad frame from a Colyseus client");
      assert.equal(lines[0]!.sessionId, c.room.sessionId);
      assert.match(String(lines[0]!.error), /MessagePack|buffer/);
      assert.doesNotMatch(JSON.stringify(lines[0]), /\bat .*\.m?js:\d+/);
      logs.length = 0;
    }
  });

  it("in a trade room are logged the same way", async () => {
    const ann = await WorldTestClient.join(t.baseUrl, { name: "GarbageAnn" });
    const ben = await WorldTestClient.join(t.baseUrl, { name: "GarbageBen" });
    const annWelcome = await ann.next("welcome");
    const benId = String((await ben.next("welcome")).playerId);
    ann.send("tradeRequest", { targetPlayerId: benId });
    const tradeId = String((await ben.next("tradeIncoming")).tradeId);
    ben.send("tradeRequestRespond", { tradeId, accept: true });
    await ann.next("tradeStarted");
    ann.sdk.auth.token = String(annWelcome.token);
    const seat: Room = await ann.sdk.joinById(tradeId);
    logs.length = 0;
    const closed = new Promise<number>((resolve) => seat.onLeave((code: number) => resolve(code)));
    for (let i = 0; i < 200; i++) rawSend(seat).send(UNDECODABLE);
    assert.equal(await closed, 4002);
    const lines = about(seat.sessionId);
    assert.equal(lines.length, 1, JSON.stringify(lines.slice(0, 3)));
    assert.equal(lines[0]!.room, "trade");
    ben.send("tradeCancel", { tradeId });
    await ann.next("tradeCancelled");
    for (const c of [ann, ben]) await c.room.leave();
  });

  it("say, once the interval has passed, how many were not logged", () => {
    const lines: Record<string, unknown>[] = [];
    let now = 0;
    const log = colyseusLogger(pino({ level: "info" }, { write: (l: string) => lines.push(JSON.parse(l) as Record<string, unknown>) }), () => now);
    // A stand-in room whose frame handling logs the way Colyseus' decoder does.
    const room = { roomName: "world", roomId: "r1", _onMessage: () => log.error(new Error("bad msgpack").stack) } as unknown as ServerRoom;
    attributeFrames(room);
    const frame = (client: object) => (room as unknown as { _onMessage(c: object, b: Uint8Array): void })._onMessage(client, new Uint8Array());
    const a = { sessionId: "a" };
    const b = { sessionId: "b" };
    for (let i = 0; i < 5; i++) frame(a);
    frame(b);
    now += BAD_FRAME_LOG_INTERVAL_MS;
    frame(a);
    log.error("not a client's frame");
    assert.deepEqual(
      lines.map((l) => [l.sessionId, l.suppressed, l.msg]),
      [
        ["a", 0, "bad frame from a Colyseus client"],
        ["b", 0, "bad frame from a Colyseus client"],
        ["a", 4, "bad frame from a Colyseus client"],
        [undefined, undefined, "not a client's frame"],
      ],
    );
  });
});
