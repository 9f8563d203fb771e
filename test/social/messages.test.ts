import assert from "node:assert/strict";
import { CHAT_LIMIT } from "../../src/game/clientEvents.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { befriend, Client, SOCIAL_ENV, socialRows, type Transport } from "./clients.ts";

forEachDialect("private messages", (ctx) => {
  for (const [ta, tb] of [
    ["ws", "colyseus"],
    ["colyseus", "ws"],
  ] as [Transport, Transport][]) {
    describe(`from ${ta} to ${tb}`, function () {
      this.timeout(30_000);
      let t: TestServer;
      before(async () => {
        t = await startTestServer({ ...SOCIAL_ENV, DATABASE_URL: ctx.url });
      });
      after(() => t?.close());

      it("delivers each message once, in the order sent, and confirms each to the sender in that order", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        await befriend(a, b);
        const texts = Array.from({ length: CHAT_LIMIT }, (_, i) => `message ${i} \u0007of ${CHAT_LIMIT}`);
        for (const message of texts) a.send("social:sendMessage", { to: b.name.toLowerCase(), message });
        const received = [];
        const confirmed = [];
        for (let i = 0; i < texts.length; i++) received.push(await b.next("social:message"));
        for (let i = 0; i < texts.length; i++) confirmed.push(await a.next("social:messageSent"));
        const clean = texts.map((m) => m.replace("\u0007", ""));
        assert.deepEqual(
          received.map((m) => [m.from, m.message]),
          clean.map((m) => [a.name, m]),
        );
        assert.deepEqual(
          confirmed.map((m) => [m.id, m.to, m.message, m.timestamp]),
          received.map((m) => [m.id, b.name, m.message, m.timestamp]),
        );
        assert.equal(new Set(received.map((m) => m.id)).size, texts.length);
        // Nothing more, to either, and nothing to a bystander.
        await b.none("social:message");
        await a.none("social:message", 0);
        assert.equal(a.events.filter((e) => e.type === "error").length, 0);

        b.send("social:sendMessage", { to: a.name, message: "got them all" });
        assert.deepEqual([(await a.next("social:message")).message, (await b.next("social:messageSent")).to], ["got them all", a.name]);
        await a.logout();
        await b.logout();
      });

      it("refuses what it cannot deliver, and delivers nothing then", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        const stranger = await Client.join(t, tb);
        const ignorer = await Client.join(t, tb);
        const ignored = await Client.join(t, tb);
        const other = await Client.join(t, ta);
        await befriend(a, b);
        await befriend(other, b);
        ignorer.send("social:addIgnore", { name: a.name });
        await ignorer.list();
        a.send("social:addIgnore", { name: ignored.name });
        await a.list();
        const before = await socialRows(t);
        const cases: [object, string][] = [
          [{ to: "Nobody0000x", message: "hi" }, "UNKNOWN_PLAYER"],
          [{ to: a.name, message: "hi" }, "SELF"],
          [{ to: stranger.name, message: "hi" }, "NOT_FRIENDS"],
          [{ to: ignorer.name, message: "hi" }, "IGNORED"],
          [{ to: ignored.name, message: "hi" }, "IGNORING"],
          [{ to: b.name, message: "   " }, "INVALID_PAYLOAD"],
          [{ to: b.name, message: "x".repeat(256) }, "INVALID_PAYLOAD"],
          [{ to: b.name }, "INVALID_PAYLOAD"],
          [{ to: "", message: "hi" }, "INVALID_PAYLOAD"],
        ];
        for (const [data, code] of cases) {
          const error = await a.refused("social:sendMessage", data);
          assert.equal(error.code, code, `${JSON.stringify(data)}: ${error.message}`);
        }
        for (const p of [b, stranger, ignorer, ignored]) await p.none("social:message", 0);
        assert.equal(await socialRows(t), before);

        // The refusals above used up a's budget (every message the text check passes counts): another friend asks.
        assert.equal((await a.refused("social:sendMessage", { to: b.name, message: "one more" })).code, "RATE_LIMITED");
        // Offline: logged out.
        await b.logout();
        assert.equal((await other.refused("social:sendMessage", { to: b.name, message: "are you there" })).code, "PLAYER_OFFLINE");
        for (const p of [a, stranger, ignorer, ignored, other]) await p.logout();
      });

      it(`takes ${CHAT_LIMIT} messages every 5 s and refuses the rest (RATE_LIMITED), which never arrive`, async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        await befriend(a, b);
        for (let i = 0; i < CHAT_LIMIT + 2; i++) a.send("social:sendMessage", { to: b.name, message: `m${i}` });
        const error = (await a.next("error")) as { code: string; event: string };
        assert.deepEqual([error.code, error.event], ["RATE_LIMITED", "social:sendMessage"]);
        const received = [];
        for (let i = 0; i < CHAT_LIMIT; i++) received.push((await b.next("social:message")).message);
        assert.deepEqual(
          received,
          Array.from({ length: CHAT_LIMIT }, (_, i) => `m${i}`),
        );
        await b.none("social:message");
        await a.logout();
        await b.logout();
      });
    });
  }

  describe("to a friend whose connection dropped", function () {
    this.timeout(30_000);
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ ...SOCIAL_ENV, DATABASE_URL: ctx.url });
    });
    after(() => t?.close());

    it("refuses with PLAYER_OFFLINE while the player lingers without a connection (nothing is kept for later)", async () => {
      const a = await Client.join(t, "colyseus");
      const b = await Client.join(t, "ws");
      await befriend(a, b);
      await b.drop();
      assert.ok(t.server.world.world.players.has(b.playerId), "b lingers in the world");
      assert.equal((await a.refused("social:sendMessage", { to: b.name, message: "hello?" })).code, "PLAYER_OFFLINE");
      const back = await Client.join(t, "ws", { token: b.token });
      await back.none("social:message");
      await a.logout();
      await back.logout();
    });

    it("refuses with PLAYER_OFFLINE while a Colyseus client's seat waits for its reconnection, and delivers once it is back", async () => {
      const a = await Client.join(t, "ws");
      const b = await Client.join(t, "colyseus");
      await befriend(a, b);
      const token = await b.drop();
      assert.ok(t.server.world.connectionOf(b.playerId), "the seat (and its connection) is held");
      assert.equal((await a.refused("social:sendMessage", { to: b.name, message: "lost?" })).code, "PLAYER_OFFLINE");
      await b.reconnect(token!);
      a.send("social:sendMessage", { to: b.name, message: "welcome back" });
      assert.equal((await b.next("social:message")).message, "welcome back");
      assert.equal((await a.next("social:messageSent")).message, "welcome back");
      assert.deepEqual(
        b.events.filter((e) => e.type === "social:message").map((e) => e.data.message),
        [],
        "only the message sent after the reconnection arrived",
      );
      await a.logout();
      await b.logout();
    });
  });
});
