import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { FriendRequest, Friendship, IgnoreEntry } from "../../entities/index.ts";
import { FRIENDS_LIMIT, IGNORE_LIMIT, INCOMING_REQUESTS_LIMIT } from "../../src/game/clientEvents.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { befriend, Client, SOCIAL_ENV, socialRows, uniqueName } from "./clients.ts";

interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

async function call(t: TestServer, method: string, path: string, token?: string, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(t.baseUrl + path, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** An account with a character, made over REST (no connection). */
async function restAccount(t: TestServer): Promise<{ token: string; accountId: string; name: string }> {
  const { body } = await call(t, "POST", "/api/auth/anonymous");
  const name = uniqueName("R");
  const created = await call(t, "POST", "/api/v1/player", String(body.token), { name });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const me = await call(t, "GET", "/api/v1/player", String(body.token));
  return { token: String(body.token), accountId: String(me.body.account.id), name };
}

const enc = encodeURIComponent;

forEachDialect("REST for friends and ignore lists", (ctx) => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ ...SOCIAL_ENV, DATABASE_URL: ctx.url });
  });
  after(() => t?.close());

  it("needs a bearer token on every route (401)", async () => {
    const routes: [string, string][] = [
      ["GET", "/api/v1/social"],
      ["POST", "/api/v1/social/friends"],
      ["DELETE", "/api/v1/social/friends/Someone"],
      ["POST", "/api/v1/social/requests/Someone/accept"],
      ["POST", "/api/v1/social/requests/Someone/decline"],
      ["POST", "/api/v1/social/ignored"],
      ["DELETE", "/api/v1/social/ignored/Someone"],
    ];
    for (const [method, path] of routes) {
      const res = await call(t, method, path, undefined, method === "POST" ? { name: "Someone" } : undefined);
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.body.success, false);
      const bad = await call(t, method, path, "not-a-token", method === "POST" ? { name: "Someone" } : undefined);
      assert.equal(bad.status, 401, `${method} ${path} with a bad token`);
    }
  });

  it("lists, asks, accepts, removes and ignores, answering with the lists; the players' live connections hear of each change", async () => {
    const a = await restAccount(t);
    const b = await Client.join(t, "ws");
    const c = await Client.join(t, "colyseus");
    assert.deepEqual((await call(t, "GET", "/api/v1/social", a.token)).body, { success: true, friends: [], incoming: [], outgoing: [], ignored: [] });

    const asked = await call(t, "POST", "/api/v1/social/friends", a.token, { name: b.name });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.deepEqual(asked.body, { success: true, friends: [], incoming: [], outgoing: [{ accountId: b.accountId, name: b.name }], ignored: [] });
    assert.deepEqual((await b.list()).change, { kind: "requestReceived", accountId: a.accountId, name: a.name });

    // b answers on its socket; a (offline, no connection) reads it over REST.
    b.send("social:acceptFriend", { name: a.name });
    assert.equal((await b.list()).change?.kind, "friendAdded");
    const lists = await call(t, "GET", "/api/v1/social", a.token);
    assert.deepEqual(lists.body.friends, [{ accountId: b.accountId, name: b.name, online: true, world: 1 }]);
    b.send("social:getList");
    assert.deepEqual((await b.list()).friends, [{ accountId: a.accountId, name: a.name, online: false, world: null }]);

    // c asks a; a accepts over REST; c hears at once.
    c.send("social:addFriend", { name: a.name });
    await c.list();
    const accepted = await call(t, "POST", `/api/v1/social/requests/${enc(c.name)}/accept`, a.token);
    assert.equal(accepted.status, 200);
    assert.deepEqual(
      accepted.body.friends.map((f: { name: string }) => f.name),
      [b.name, c.name],
    );
    assert.deepEqual((await c.list()).change, { kind: "friendAdded", accountId: a.accountId, name: a.name });

    const removed = await call(t, "DELETE", `/api/v1/social/friends/${enc(b.name)}`, a.token);
    assert.equal(removed.status, 200);
    assert.deepEqual(
      removed.body.friends.map((f: { name: string }) => f.name),
      [c.name],
    );
    assert.deepEqual((await b.list()).change, { kind: "friendRemoved", accountId: a.accountId, name: a.name });

    // b asks again and a declines over REST.
    b.send("social:addFriend", { name: a.name });
    await b.list();
    const declined = await call(t, "POST", `/api/v1/social/requests/${enc(b.name)}/decline`, a.token);
    assert.deepEqual([declined.status, declined.body.incoming], [200, []]);
    assert.equal((await b.list()).change?.kind, "requestDeclined");

    // c ignores b over REST: c's live player stops hearing b at once.
    const ignored = await call(t, "POST", "/api/v1/social/ignored", c.token, { name: b.name });
    assert.deepEqual([ignored.status, ignored.body.ignored], [200, [{ accountId: b.accountId, name: b.name }]]);
    assert.equal((await c.list()).change?.kind, "ignoreAdded");
    assert.ok(t.server.world.world.players.get(c.playerId)!.ignored.has(b.accountId));
    b.send("player:chat", { message: "hear me?" });
    await c.none("chat:message");
    const unignored = await call(t, "DELETE", `/api/v1/social/ignored/${enc(b.name)}`, c.token);
    assert.deepEqual([unignored.status, unignored.body.ignored], [200, []]);
    await until(() => (t.server.world.world.players.get(c.playerId)!.ignored.has(b.accountId) ? undefined : true), "c's live set updated");
    await b.logout();
    await c.logout();
  });

  it("refuses bad requests with the common error body and the socket events' codes, and changes nothing", async () => {
    const a = await restAccount(t);
    const b = await restAccount(t);
    const friend = await restAccount(t);
    const ignorer = await restAccount(t);
    const filled = await restAccount(t);
    const full = await restAccount(t);
    const noCharacter = String((await call(t, "POST", "/api/auth/anonymous")).body.token);
    const ok = async (method: string, path: string, token: string, body?: unknown) =>
      assert.equal((await call(t, method, path, token, body)).status, 200, `${method} ${path}`);
    await ok("POST", "/api/v1/social/friends", a.token, { name: friend.name });
    await ok("POST", `/api/v1/social/requests/${enc(a.name)}/accept`, friend.token);
    await ok("POST", "/api/v1/social/ignored", a.token, { name: b.name });
    await ok("POST", "/api/v1/social/ignored", ignorer.token, { name: a.name });
    await t.server.db.em().insertMany(
      FriendRequest,
      Array.from({ length: INCOMING_REQUESTS_LIMIT }, () => ({ fromAccountId: `filler-${randomUUID()}`, toAccountId: filled.accountId })),
    );
    await t.server.db.em().insertMany(
      Friendship,
      Array.from({ length: FRIENDS_LIMIT }, () => ({ accountId: full.accountId, friendAccountId: `filler-${randomUUID()}` })),
    );
    await t.server.db.em().insertMany(
      IgnoreEntry,
      Array.from({ length: IGNORE_LIMIT }, () => ({ accountId: full.accountId, ignoredAccountId: `filler-${randomUUID()}` })),
    );
    const before = await socialRows(t);

    const cases: [string, string, string, unknown, number, string][] = [
      ["POST", "/api/v1/social/friends", a.token, {}, 400, "INVALID_PAYLOAD"],
      ["POST", "/api/v1/social/friends", a.token, { name: "x".repeat(17) }, 400, "INVALID_PAYLOAD"],
      ["POST", "/api/v1/social/friends", a.token, { name: 12 }, 400, "INVALID_PAYLOAD"],
      ["POST", "/api/v1/social/friends", a.token, "{not json", 400, "MALFORMED_JSON"],
      ["POST", "/api/v1/social/friends", a.token, { name: a.name }, 400, "SELF"],
      ["POST", "/api/v1/social/friends", a.token, { name: "Nobody0000x" }, 404, "UNKNOWN_PLAYER"],
      ["POST", "/api/v1/social/friends", a.token, { name: friend.name }, 409, "ALREADY_FRIENDS"],
      ["POST", "/api/v1/social/friends", a.token, { name: b.name }, 409, "IGNORING"],
      ["POST", "/api/v1/social/friends", a.token, { name: ignorer.name }, 403, "IGNORED"],
      ["POST", "/api/v1/social/friends", a.token, { name: filled.name }, 409, "THEIR_REQUESTS_FULL"],
      ["POST", "/api/v1/social/friends", full.token, { name: a.name }, 409, "FRIENDS_FULL"],
      ["POST", "/api/v1/social/friends", noCharacter, { name: a.name }, 409, "NO_CHARACTER"],
      ["DELETE", `/api/v1/social/friends/${enc(b.name)}`, a.token, undefined, 404, "NOT_FRIENDS"],
      ["DELETE", `/api/v1/social/friends/${"x".repeat(17)}`, a.token, undefined, 400, "INVALID_PAYLOAD"],
      ["POST", `/api/v1/social/requests/${enc(b.name)}/accept`, a.token, undefined, 404, "NO_REQUEST"],
      ["POST", `/api/v1/social/requests/${enc(friend.name)}/accept`, a.token, undefined, 409, "ALREADY_FRIENDS"],
      ["POST", `/api/v1/social/requests/Nobody0000x/decline`, a.token, undefined, 404, "UNKNOWN_PLAYER"],
      ["POST", `/api/v1/social/requests/${enc(b.name)}/decline`, a.token, undefined, 404, "NO_REQUEST"],
      ["POST", "/api/v1/social/ignored", a.token, { name: b.name }, 409, "ALREADY_IGNORED"],
      ["POST", "/api/v1/social/ignored", a.token, { name: friend.name }, 409, "ALREADY_FRIENDS"],
      ["POST", "/api/v1/social/ignored", a.token, { name: a.name }, 400, "SELF"],
      ["POST", "/api/v1/social/ignored", full.token, { name: a.name }, 409, "IGNORE_FULL"],
      ["POST", "/api/v1/social/ignored", a.token, [], 400, "INVALID_PAYLOAD"],
      ["DELETE", `/api/v1/social/ignored/${enc(friend.name)}`, a.token, undefined, 404, "NOT_IGNORED"],
      ["DELETE", "/api/v1/social/ignored/Nobody0000x", a.token, undefined, 404, "UNKNOWN_PLAYER"],
    ];
    for (const [method, path, token, body, status, code] of cases) {
      const res = await call(t, method, path, token, body);
      assert.equal(res.status, status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.success, false);
      assert.equal(res.body.error.code, code, `${method} ${path}: ${res.body.error.message}`);
      assert.ok(res.body.error.message.length > 0);
    }
    assert.equal(await socialRows(t), before);
  });

  it("THEIR_FRIENDS_FULL: accepting a request from a player whose list filled meanwhile", async () => {
    const a = await restAccount(t);
    const b = await restAccount(t);
    assert.equal((await call(t, "POST", "/api/v1/social/friends", b.token, { name: a.name })).status, 200);
    await t.server.db.em().insertMany(
      Friendship,
      Array.from({ length: FRIENDS_LIMIT }, () => ({ accountId: b.accountId, friendAccountId: `filler-${randomUUID()}` })),
    );
    const before = await socialRows(t);
    const res = await call(t, "POST", `/api/v1/social/requests/${enc(b.name)}/accept`, a.token);
    assert.deepEqual([res.status, res.body.error.code], [409, "THEIR_FRIENDS_FULL"]);
    assert.equal(await socialRows(t), before);
  });

  it("serves an agent's token the account's lists (an agent plays as its owner's character)", async () => {
    const a = await Client.join(t, "ws");
    const b = await Client.join(t, "ws");
    await befriend(a, b);
    const agent = await call(t, "POST", "/api/agent", a.token, { characterId: a.playerId, name: "Helper" });
    assert.equal(agent.status, 201, JSON.stringify(agent.body));
    const lists = await call(t, "GET", "/api/v1/social", String(agent.body.token));
    assert.deepEqual(lists.body.friends, [{ accountId: b.accountId, name: b.name, online: true, world: 1 }]);
    await a.logout();
    await b.logout();
  });
});
