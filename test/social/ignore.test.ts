import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { IgnoreEntry } from "../../entities/index.ts";
import { IGNORE_LIMIT } from "../../src/game/clientEvents.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { befriend, Client, SOCIAL_ENV, socialRows, type Transport } from "./clients.ts";

forEachDialect("ignore lists", (ctx) => {
  for (const [ta, tb] of [
    ["ws", "colyseus"],
    ["colyseus", "ws"],
  ] as [Transport, Transport][]) {
    describe(`${ta} ignores, ${tb} is ignored`, function () {
      this.timeout(30_000);
      let t: TestServer;
      before(async () => {
        t = await startTestServer({ ...SOCIAL_ENV, DATABASE_URL: ctx.url });
      });
      after(() => t?.close());

      const live = (c: Client) => t.server.world.world.players.get(c.playerId)!;

      it("adds and removes by name; the ignored player hears nothing of it", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        a.send("social:addIgnore", { name: b.name.toLowerCase() });
        const added = await a.list();
        assert.deepEqual(added.change, { kind: "ignoreAdded", accountId: b.accountId, name: b.name });
        assert.deepEqual(added.ignored, [{ accountId: b.accountId, name: b.name }]);
        assert.equal(await t.server.db.em().count(IgnoreEntry, { accountId: a.accountId, ignoredAccountId: b.accountId }), 1);
        assert.ok(live(a).ignored.has(b.accountId), "the live player's ignore set follows the list");
        a.send("social:removeIgnore", { name: b.name });
        const removed = await a.list();
        assert.deepEqual(removed.change, { kind: "ignoreRemoved", accountId: b.accountId, name: b.name });
        assert.deepEqual(removed.ignored, []);
        assert.equal(await t.server.db.em().count(IgnoreEntry, { accountId: a.accountId }), 0);
        assert.equal(live(a).ignored.has(b.accountId), false);
        await b.none("social:list", 100);
        await a.logout();
        await b.logout();
      });

      it("keeps an ignored account's chat, private messages and trade requests from the ignorer", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        const c = await Client.join(t, ta);
        a.send("social:addIgnore", { name: b.name });
        await a.list();

        b.send("player:chat", { message: "anyone there" });
        assert.equal((await c.next("chat:message")).message, "anyone there", "others hear it");
        assert.equal((await b.refused("social:sendMessage", { to: a.name, message: "psst" })).code, "IGNORED");
        b.send("tradeRequest", { targetPlayerId: a.playerId });
        assert.equal((await b.next("tradeError")).code, "IGNORED");
        await a.none("chat:message");
        await a.none("social:message", 0);
        await a.none("tradeIncoming", 0);

        // Unignored: b's chat reaches a again.
        a.send("social:removeIgnore", { name: b.name });
        await a.list();
        b.send("player:chat", { message: "hello again" });
        assert.equal((await a.next("chat:message")).message, "hello again");
        for (const p of [a, b, c]) await p.logout();
      });

      it("holds after logging in again: the list is read before the player enters, so it is there by welcome", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        a.send("social:addIgnore", { name: b.name });
        await a.list();
        await a.logout();
        // b talks all the while a logs in.
        const talking = setInterval(() => b.send("player:chat", { message: "still here" }), 100);
        try {
          const again = await Client.join(t, ta, { token: a.token });
          assert.ok(live(again).ignored.has(b.accountId));
          await new Promise((r) => setTimeout(r, 1_200));
          await again.none("chat:message", 0);
          await again.logout();
        } finally {
          clearInterval(talking);
        }
        await b.logout();
      });

      it("drops the requests between the two when one ignores the other", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        b.send("social:addFriend", { name: a.name });
        await b.list();
        await a.list();
        a.send("social:addIgnore", { name: b.name });
        const aList = await a.list();
        assert.deepEqual([aList.change?.kind, aList.incoming], ["ignoreAdded", []]);
        const bList = await b.list();
        assert.equal(bList.change, undefined, "b is not told it is ignored");
        assert.deepEqual(bList.outgoing, []);
        await a.logout();
        await b.logout();
      });

      it("refuses bad commands with a clear error and changes nothing", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        const friend = await Client.join(t, tb);
        await befriend(a, friend);
        a.send("social:addIgnore", { name: b.name });
        await a.list();
        const before = await socialRows(t);
        const cases: [Client, string, object, string][] = [
          [a, "social:addIgnore", { name: a.name }, "SELF"],
          [a, "social:addIgnore", { name: "Nobody0000x" }, "UNKNOWN_PLAYER"],
          [a, "social:addIgnore", { name: b.name }, "ALREADY_IGNORED"],
          [a, "social:addIgnore", { name: friend.name }, "ALREADY_FRIENDS"],
          [a, "social:removeIgnore", { name: friend.name }, "NOT_IGNORED"],
          [a, "social:removeIgnore", { name: "Nobody0000x" }, "UNKNOWN_PLAYER"],
          [a, "social:removeIgnore", { name: "" }, "INVALID_PAYLOAD"],
          [a, "social:addIgnore", { name: ["x"] }, "INVALID_PAYLOAD"],
          // Asking: you ignore them, or they ignore you.
          [a, "social:addFriend", { name: b.name }, "IGNORING"],
          [b, "social:addFriend", { name: a.name }, "IGNORED"],
        ];
        for (const [who, event, data, code] of cases) {
          const error = await who.refused(event, data);
          assert.equal(error.code, code, `${event} ${JSON.stringify(data)}: ${error.message}`);
        }
        assert.equal(await socialRows(t), before);
        for (const p of [a, b, friend]) await p.logout();
      });

      it(`keeps the ignore list at ${IGNORE_LIMIT}`, async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        const c = await Client.join(t, tb);
        await t.server.db.em().insertMany(
          IgnoreEntry,
          Array.from({ length: IGNORE_LIMIT - 1 }, () => ({ accountId: a.accountId, ignoredAccountId: `filler-${randomUUID()}` })),
        );
        a.send("social:addIgnore", { name: b.name });
        assert.equal((await a.list()).change?.kind, "ignoreAdded", "the last place");
        const before = await socialRows(t);
        assert.equal((await a.refused("social:addIgnore", { name: c.name })).code, "IGNORE_FULL");
        assert.equal(await socialRows(t), before);
        assert.equal(live(a).ignored.has(c.accountId), false);
        await until(() => (live(a).ignored.size === IGNORE_LIMIT ? true : undefined), "the live set holds the whole list");
        for (const p of [a, b, c]) await p.logout();
      });
    });
  }
});
