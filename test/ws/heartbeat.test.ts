import assert from "node:assert/strict";
import { PlayerSession } from "../../entities/index.ts";
import { LINGER_MS } from "../../src/sessions/WorldService.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { startTcpProxy } from "../support/tcpProxy.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

/** Short enough for a test, long enough for a loaded machine to answer a ping in time. */
const HEARTBEAT_MS = 250;

describe("/ws heartbeat", function () {
  this.timeout(LINGER_MS + 30_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50", WS_HEARTBEAT_MS: String(HEARTBEAT_MS) });
  });
  after(() => t.close());

  it("keeps a client that answers the pings connected across many heartbeats", async () => {
    const c = await WsTestClient.connect(`${t.wsUrl}?name=Answerer`);
    const id = String((await c.next("welcome")).playerId);
    let pings = 0;
    c.socket.on("ping", () => pings++);
    await until(() => (pings >= 8 ? true : undefined), "eight heartbeat pings");
    assert.equal(c.closed, undefined, "still open");
    assert.ok(t.server.world.connectionOf(id), "the player is still connected");
    c.close();
  });

  it("terminates a client that stops answering pings, and its player leaves after the grace like a dropped one's", async () => {
    const c = await WsTestClient.connect(`${t.wsUrl}?name=Vanished`, { autoPong: false });
    const id = String((await c.next("welcome")).playerId);
    const closed = await c.waitClosed(20 * HEARTBEAT_MS);
    assert.equal(closed.code, 1006, "terminated without a close frame");
    await until(() => (t.server.world.connectionOf(id) === undefined ? true : undefined), "the server ending the session");
    assert.ok(t.server.world.world.players.has(id), "the player lingers for the reconnection grace");
    await until(() => (t.server.world.world.players.has(id) ? undefined : true), "the player leaving after the grace", LINGER_MS + 20_000);
    const row = await t.server.db.em().findOneOrFail(PlayerSession, { characterId: id });
    assert.equal(row.logoutReason, "disconnect");
    assert.ok(row.logoutAt);
  });

  it("ends the session of a client whose network is gone (no bytes either way, no close frame)", async () => {
    const proxy = await startTcpProxy("127.0.0.1", Number(new URL(t.baseUrl).port));
    try {
      const c = await WsTestClient.connect(`ws://127.0.0.1:${proxy.port}/ws?name=Unplugged`);
      // From here the server's pings reach nobody and nothing comes back, as when a network goes.
      const id = String((await c.next("welcome")).playerId);
      proxy.stall();
      await until(() => (t.server.world.connectionOf(id) === undefined ? true : undefined), "the server ending the session", 20 * HEARTBEAT_MS);
      assert.ok(t.server.world.world.players.has(id), "the player lingers for the reconnection grace");
    } finally {
      await proxy.close();
    }
  });
});
