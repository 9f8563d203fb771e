import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { FriendRequest, Friendship } from "../../entities/index.ts";
import { FRIENDS_LIMIT, INCOMING_REQUESTS_LIMIT } from "../../src/game/clientEvents.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { befriend, Client, SOCIAL_ENV, socialRows, type Transport } from "./clients.ts";

/** Rows for accounts that exist only as ids: enough to fill a list up to a limit. */
async function seedFriends(t: TestServer, accountId: string, n: number): Promise<void> {
  const rows = Array.from({ length: n }, () => ({ accountId, friendAccountId: `filler-${randomUUID()}` }));
  await t.server.db.em().insertMany(Friendship, rows);
}

forEachDialect("friends", (ctx) => {
  for (const [ta, tb] of [
    ["ws", "colyseus"],
    ["colyseus", "ws"],
  ] as [Transport, Transport][]) {
    describe(`${ta} asks, ${tb} answers`, function () {
      this.timeout(30_000);
      let t: TestServer;
      before(async () => {
        t = await startTestServer({ ...SOCIAL_ENV, DATABASE_URL: ctx.url });
      });
      after(() => t?.close());

      it("asks by name, accepts, and each sees the other online on world 1; two rows in friendships, the request gone", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        a.send("social:addFriend", { name: b.name });
        const sent = await a.list();
        assert.deepEqual(sent.change, { kind: "requestSent", accountId: b.accountId, name: b.name });
        assert.deepEqual(sent.outgoing, [{ accountId: b.accountId, name: b.name }]);
        const received = await b.list();
        assert.deepEqual(received.change, { kind: "requestReceived", accountId: a.accountId, name: a.name });
        assert.deepEqual(received.incoming, [{ accountId: a.accountId, name: a.name }]);
        assert.equal(await t.server.db.em().count(FriendRequest, { fromAccountId: a.accountId, toAccountId: b.accountId }), 1);

        b.send("social:acceptFriend", { name: a.name });
        const bList = await b.list();
        assert.deepEqual(bList.change, { kind: "friendAdded", accountId: a.accountId, name: a.name });
        assert.deepEqual(bList.friends, [{ accountId: a.accountId, name: a.name, online: true, world: 1 }]);
        assert.deepEqual([bList.incoming, bList.outgoing], [[], []]);
        const aList = await a.list();
        assert.deepEqual(aList.friends, [{ accountId: b.accountId, name: b.name, online: true, world: 1 }]);
        const em = t.server.db.em();
        assert.equal(await em.count(Friendship, { accountId: a.accountId, friendAccountId: b.accountId }), 1);
        assert.equal(await em.count(Friendship, { accountId: b.accountId, friendAccountId: a.accountId }), 1);
        assert.equal(await em.count(FriendRequest, { $or: [{ fromAccountId: a.accountId }, { fromAccountId: b.accountId }] }), 0);
        await a.logout();
        await b.logout();
      });

      it("tells a friend of a logout and a login as they happen, and the lists say so", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        await befriend(a, b);
        await a.logout();
        assert.deepEqual(await b.next("social:status"), { accountId: a.accountId, name: a.name, online: false, world: null });
        b.send("social:getList");
        assert.deepEqual((await b.list()).friends, [{ accountId: a.accountId, name: a.name, online: false, world: null }]);

        const again = await Client.join(t, ta, { token: a.token });
        assert.equal(again.playerId, a.playerId);
        assert.deepEqual(await b.next("social:status"), { accountId: a.accountId, name: a.name, online: true, world: 1 });
        again.send("social:getList");
        assert.deepEqual((await again.list()).friends, [{ accountId: b.accountId, name: b.name, online: true, world: 1 }]);
        // Only friends hear of it.
        const stranger = await Client.join(t, tb);
        await again.logout();
        await b.next("social:status");
        await stranger.none("social:status");
        await b.logout();
        await stranger.logout();
      });

      it("finds a player whatever the case of the name, and with spaces around it", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        a.send("social:addFriend", { name: `  ${b.name.toUpperCase()} ` });
        assert.deepEqual((await a.list()).change, { kind: "requestSent", accountId: b.accountId, name: b.name });
        assert.equal((await b.list()).change?.kind, "requestReceived");
        b.send("social:acceptFriend", { name: a.name.toLowerCase() });
        assert.equal((await b.list()).change?.kind, "friendAdded");
        await a.logout();
        await b.logout();
      });

      it("declines a request: both are told, the row is gone", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        a.send("social:addFriend", { name: b.name });
        await a.list();
        await b.list();
        b.send("social:declineFriend", { name: a.name });
        const bList = await b.list();
        assert.deepEqual(bList.change, { kind: "requestDeclined", accountId: a.accountId, name: a.name });
        assert.deepEqual(bList.incoming, []);
        const aList = await a.list();
        assert.deepEqual(aList.change, { kind: "requestDeclined", accountId: b.accountId, name: b.name });
        assert.deepEqual([aList.outgoing, aList.friends], [[], []]);
        assert.equal(await t.server.db.em().count(FriendRequest, { fromAccountId: a.accountId }), 0);
        await a.logout();
        await b.logout();
      });

      it("withdraws a request with social:removeFriend", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        a.send("social:addFriend", { name: b.name });
        await a.list();
        await b.list();
        a.send("social:removeFriend", { name: b.name });
        assert.deepEqual((await a.list()).change, { kind: "requestWithdrawn", accountId: b.accountId, name: b.name });
        const bList = await b.list();
        assert.deepEqual(bList.change, { kind: "requestWithdrawn", accountId: a.accountId, name: a.name });
        assert.deepEqual(bList.incoming, []);
        assert.equal(await t.server.db.em().count(FriendRequest, { fromAccountId: a.accountId }), 0);
        await a.logout();
        await b.logout();
      });

      it("removes a friend from both lists; neither hears of the other's logout after that", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        await befriend(a, b);
        b.send("social:removeFriend", { name: a.name });
        const bList = await b.list();
        assert.deepEqual([bList.change?.kind, bList.friends], ["friendRemoved", []]);
        const aList = await a.list();
        assert.deepEqual(aList.change, { kind: "friendRemoved", accountId: b.accountId, name: b.name });
        assert.deepEqual(aList.friends, []);
        assert.equal(await t.server.db.em().count(Friendship, { $or: [{ accountId: a.accountId }, { accountId: b.accountId }] }), 0);
        await a.logout();
        await b.none("social:status");
        await b.logout();
      });

      it("makes two players friends when one asks the other who had asked first", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        b.send("social:addFriend", { name: a.name });
        await b.list();
        await a.list();
        a.send("social:addFriend", { name: b.name });
        const aList = await a.list();
        assert.deepEqual(aList.change, { kind: "friendAdded", accountId: b.accountId, name: b.name });
        assert.deepEqual(aList.friends, [{ accountId: b.accountId, name: b.name, online: true, world: 1 }]);
        assert.equal((await b.list()).change?.kind, "friendAdded");
        assert.equal(await t.server.db.em().count(FriendRequest, { $or: [{ fromAccountId: a.accountId }, { fromAccountId: b.accountId }] }), 0);
        await a.logout();
        await b.logout();
      });

      it("refuses bad commands with a clear error and changes nothing", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        const c = await Client.join(t, tb);
        await befriend(a, b);
        c.send("social:addFriend", { name: a.name });
        await c.list();
        await a.list();
        const before = await socialRows(t);
        const cases: [string, object, string][] = [
          ["social:addFriend", { name: a.name }, "SELF"],
          ["social:addFriend", { name: "Nobody0000x" }, "UNKNOWN_PLAYER"],
          ["social:addFriend", { name: b.name }, "ALREADY_FRIENDS"],
          ["social:acceptFriend", { name: b.name }, "ALREADY_FRIENDS"],
          ["social:acceptFriend", { name: "Nobody0000x" }, "UNKNOWN_PLAYER"],
          ["social:declineFriend", { name: b.name }, "NO_REQUEST"],
          ["social:removeFriend", { name: "Nobody0000x" }, "UNKNOWN_PLAYER"],
          ["social:removeFriend", { name: a.name }, "SELF"],
          ["social:addFriend", { name: "" }, "INVALID_PAYLOAD"],
          ["social:addFriend", { name: "   " }, "INVALID_PAYLOAD"],
          ["social:addFriend", { name: "x".repeat(17) }, "INVALID_PAYLOAD"],
          ["social:addFriend", { name: 7 }, "INVALID_PAYLOAD"],
          ["social:acceptFriend", {}, "INVALID_PAYLOAD"],
        ];
        for (const [event, data, code] of cases) {
          const error = await a.refused(event, data);
          assert.equal(error.code, code, `${event} ${JSON.stringify(data)}: ${error.message}`);
          assert.ok(error.message.length > 0);
        }
        // From the other side: a request already sent, none to accept or decline, nobody to remove.
        assert.equal((await c.refused("social:addFriend", { name: a.name })).code, "REQUEST_PENDING");
        assert.equal((await c.refused("social:acceptFriend", { name: a.name })).code, "NO_REQUEST");
        assert.equal((await c.refused("social:declineFriend", { name: b.name })).code, "NO_REQUEST");
        assert.equal((await c.refused("social:removeFriend", { name: b.name })).code, "NOT_FRIENDS");
        assert.equal(await socialRows(t), before, "no refused command changed a row");
        await a.none("social:list", 100);
        for (const p of [a, b, c]) await p.logout();
      });

      it(`keeps friends and sent requests at ${FRIENDS_LIMIT} together, and refuses past it (the count stays)`, async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        const c = await Client.join(t, tb);
        await seedFriends(t, a.accountId, FRIENDS_LIMIT - 1);
        // The last place: a request.
        a.send("social:addFriend", { name: b.name });
        assert.equal((await a.list()).change?.kind, "requestSent");
        await b.list();
        const before = await socialRows(t);
        assert.equal((await a.refused("social:addFriend", { name: c.name })).code, "FRIENDS_FULL");
        // c asks a: a can't accept while full, nor make it mutual.
        c.send("social:addFriend", { name: a.name });
        await c.list();
        await a.list();
        const withRequest = await socialRows(t);
        assert.notEqual(withRequest, before);
        assert.equal((await a.refused("social:acceptFriend", { name: c.name })).code, "FRIENDS_FULL");
        assert.equal((await a.refused("social:addFriend", { name: c.name })).code, "FRIENDS_FULL");
        assert.equal(await socialRows(t), withRequest);
        // b accepting a's request keeps a at the limit (the request becomes a friend).
        b.send("social:acceptFriend", { name: a.name });
        assert.equal((await b.list()).change?.kind, "friendAdded");
        assert.equal(await t.server.db.em().count(Friendship, { accountId: a.accountId }), FRIENDS_LIMIT);
        for (const p of [a, b, c]) await p.logout();
      });

      it("refuses to accept when the asker's friends list has filled meanwhile (THEIR_FRIENDS_FULL)", async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        b.send("social:addFriend", { name: a.name });
        await b.list();
        await a.list();
        await seedFriends(t, b.accountId, FRIENDS_LIMIT);
        const before = await socialRows(t);
        assert.equal((await a.refused("social:acceptFriend", { name: b.name })).code, "THEIR_FRIENDS_FULL");
        assert.equal(await socialRows(t), before);
        await a.logout();
        await b.logout();
      });

      it(`refuses a request to a player with ${INCOMING_REQUESTS_LIMIT} waiting (THEIR_REQUESTS_FULL)`, async () => {
        const a = await Client.join(t, ta);
        const b = await Client.join(t, tb);
        await t.server.db.em().insertMany(
          FriendRequest,
          Array.from({ length: INCOMING_REQUESTS_LIMIT }, () => ({ fromAccountId: `filler-${randomUUID()}`, toAccountId: b.accountId })),
        );
        const before = await socialRows(t);
        assert.equal((await a.refused("social:addFriend", { name: b.name })).code, "THEIR_REQUESTS_FULL");
        assert.equal(await socialRows(t), before);
        await a.logout();
        await b.logout();
      });
    });
  }
});
