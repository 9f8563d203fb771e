/**
 * What one account may aim at others, whatever the characters and sessions it uses: one chat
 * budget per account (src/game/accountWindows.ts), a window on its friend requests and private
 * messages shared across the cluster (src/social/socialBudgets.ts), friend requests that lapse
 * after 30 days, and at most one `social:list` a second to a player (src/social/listPacer.ts).
 */
import assert from "node:assert/strict";
import { Redis } from "ioredis";
import { FriendRequest } from "../../entities/index.ts";
import { CHAT_LIMIT, INCOMING_REQUESTS_LIMIT } from "../../src/game/clientEvents.ts";
import { deleteExpiredRequests, FRIEND_REQUEST_TTL_MS, SocialError } from "../../src/persistence/social.ts";
import { FRIEND_REQUESTS_LIMIT, PRIVATE_MESSAGES_LIMIT, SocialBudgets } from "../../src/social/socialBudgets.ts";
import { forEachDialect } from "../support/dialects.ts";
import { callJson } from "../support/http.ts";
import { freshRedisUrl } from "../support/redis.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { Client, SOCIAL_ENV, uniqueName } from "./clients.ts";

/** A new account with a character of that name, over REST: its token. */
async function account(t: TestServer, name: string): Promise<string> {
  const token = String((await callJson(t.baseUrl, "POST", "/api/auth/anonymous")).body.token);
  const player = await callJson(t.baseUrl, "POST", "/api/v1/player", token, { name });
  assert.equal(player.status, 201, JSON.stringify(player.body));
  return token;
}

/** A second character of `a`'s account, logged in on its own socket. */
async function secondCharacter(t: TestServer, a: Client): Promise<WsTestClient> {
  const made = await callJson(t.baseUrl, "POST", "/api/character", a.token, { name: uniqueName("Alt") });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const c = await WsTestClient.connect(`${t.wsUrl}?token=${encodeURIComponent(a.token)}&characterId=${String(made.body.character.id)}`);
  assert.equal((await c.next("welcome")).accountId, a.accountId);
  return c;
}

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);

forEachDialect("per-account social budgets", (ctx) => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ ...SOCIAL_ENV, DATABASE_URL: ctx.url });
  });
  after(() => t?.close());

  it(`shares one chat budget (${CHAT_LIMIT} lines) between two characters of one account`, async () => {
    const a = await Client.join(t, "ws");
    const alt = await secondCharacter(t, a);
    for (let i = 0; i < CHAT_LIMIT; i++) {
      a.send("player:chat", { message: `line ${i}` });
      assert.equal((await a.next("chat:message")).message, `line ${i}`);
    }
    alt.send("player:chat", { message: "one more from the other character" });
    const error = await alt.next("error");
    assert.equal(error.code, "RATE_LIMITED");
    assert.match(String(error.message), /per account/);
    alt.close();
    await a.logout();
  });

  it(`refuses the account's friend request past ${FRIEND_REQUESTS_LIMIT} an hour, whichever character or REST sends it: RATE_LIMITED (429), nothing written`, async function () {
    this.timeout(60_000);
    const a = await Client.join(t, "ws");
    const alt = await secondCharacter(t, a);
    const names = Array.from({ length: FRIEND_REQUESTS_LIMIT + 2 }, () => uniqueName("Tgt"));
    for (const name of names) await account(t, name);
    const sent = () => t.server.db.em().count(FriendRequest, { fromAccountId: a.accountId });
    for (let i = 0; i < FRIEND_REQUESTS_LIMIT; i++) {
      const name = names[i]!;
      if (i % 3 === 0) a.send("social:addFriend", { name });
      else if (i % 3 === 1) alt.send("social:addFriend", { name });
      else assert.equal((await callJson(t.baseUrl, "POST", "/api/v1/social/friends", a.token, { name })).status, 200);
      await eventually(async () => ((await sent()) === i + 1 ? true : undefined), `request ${i + 1} stored`);
    }
    alt.send("social:addFriend", { name: names[FRIEND_REQUESTS_LIMIT]! });
    const error = await alt.next("error");
    assert.deepEqual([error.code, error.event], ["RATE_LIMITED", "social:addFriend"]);
    assert.match(String(error.message), /friend requests an hour per account/);
    const rest = await callJson(t.baseUrl, "POST", "/api/v1/social/friends", a.token, { name: names[FRIEND_REQUESTS_LIMIT + 1]! });
    assert.equal(rest.status, 429);
    assert.equal(rest.body.error.code, "RATE_LIMITED");
    assert.equal(await sent(), FRIEND_REQUESTS_LIMIT, "nothing written for the refused");
    alt.close();
    await a.logout();
  });

  it("lets a friend request lapse after 30 days: not shown, not counted against the incoming limit, deleted", async () => {
    const asker = uniqueName("Old");
    const askerToken = await account(t, asker);
    const b = await Client.join(t, "ws");
    assert.equal((await callJson(t.baseUrl, "POST", "/api/v1/social/friends", askerToken, { name: b.name })).status, 200);
    const em = t.server.db.em();
    const stale = daysAgo(FRIEND_REQUEST_TTL_MS / (24 * 3600 * 1000) + 1);
    await em.nativeUpdate(FriendRequest, { toAccountId: b.accountId }, { createdAt: stale });
    // A full incoming list, all of it lapsed.
    await em.insertMany(
      FriendRequest,
      Array.from({ length: INCOMING_REQUESTS_LIMIT - 1 }, (_, i) => ({
        fromAccountId: `lapsed-${i}-${b.accountId}`,
        toAccountId: b.accountId,
        createdAt: stale,
      })),
    );
    const lists = await callJson(t.baseUrl, "GET", "/api/v1/social", b.token);
    assert.deepEqual(lists.body.incoming, [], "a lapsed request is not shown to the one asked");
    assert.deepEqual((await callJson(t.baseUrl, "GET", "/api/v1/social", askerToken)).body.outgoing, [], "nor to the one who asked");
    assert.equal((await callJson(t.baseUrl, "POST", `/api/v1/social/requests/${asker}/accept`, b.token)).status, 404, "nor can it be accepted");

    // Lapsed requests do not fill the slots: a new one goes in, and the lapsed rows are deleted with it.
    const newcomer = uniqueName("New");
    const newToken = await account(t, newcomer);
    const asked = await callJson(t.baseUrl, "POST", "/api/v1/social/friends", newToken, { name: b.name });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.equal(await em.count(FriendRequest, { toAccountId: b.accountId }), 1, "only the live request is left");
    assert.deepEqual(
      (await callJson(t.baseUrl, "GET", "/api/v1/social", b.token)).body.incoming.map((f: { name: string }) => f.name),
      [newcomer],
    );
    // The sweep deletes the others wherever they are.
    await em.insertMany(FriendRequest, [{ fromAccountId: "lapsed-sweep", toAccountId: "lapsed-sweep-to", createdAt: stale }]);
    assert.ok((await deleteExpiredRequests(t.server.db)) >= 1);
    assert.equal(await em.count(FriendRequest, { fromAccountId: "lapsed-sweep" }), 0);
    assert.equal(await em.count(FriendRequest, { toAccountId: b.accountId }), 1, "the live request stays");
    await b.logout();
  });

  it("sends a player at most one social:list a second through an add/withdraw storm, the last state in the last one", async function () {
    this.timeout(60_000);
    const v = await Client.join(t, "ws");
    const spammer = uniqueName("Spam");
    const token = await account(t, spammer);
    const started = Date.now();
    for (let i = 0; i < 10; i++) {
      assert.equal((await callJson(t.baseUrl, "POST", "/api/v1/social/friends", token, { name: v.name })).status, 200);
      assert.equal((await callJson(t.baseUrl, "DELETE", `/api/v1/social/friends/${v.name}`, token)).status, 200);
    }
    assert.equal((await callJson(t.baseUrl, "POST", "/api/v1/social/friends", token, { name: v.name })).status, 200);
    // The storm is over: once no list has come for 1.5 s, the last one says the request is there (nothing lost).
    const lists = () => v.events.filter((e) => e.type === "social:list");
    for (let seen = -1; seen !== lists().length;) {
      seen = lists().length;
      await new Promise((r) => setTimeout(r, 1_500));
    }
    const elapsedS = (Date.now() - started) / 1000;
    const last = lists().at(-1)?.data as { incoming: { name: string }[] } | undefined;
    assert.deepEqual(
      last?.incoming.map((f) => f.name),
      [spammer],
    );
    assert.ok(lists().length <= Math.floor(elapsedS) + 2, `${lists().length} lists for 21 changes in ${elapsedS} s`);
    await v.logout();
  });
});

describe("SocialBudgets on Redis: one count for the cluster", () => {
  it("counts an account's friend requests and private messages once across two processes' budgets", async () => {
    const url = await freshRedisUrl();
    const [r1, r2] = [new Redis(url), new Redis(url)];
    try {
      // Both connected: before that, each would count in its own memory (the insurance).
      await Promise.all([r1.ping(), r2.ping()]);
      const [one, two] = [new SocialBudgets(r1), new SocialBudgets(r2)];
      const account = `acct-${uniqueName()}`;
      for (let i = 0; i < FRIEND_REQUESTS_LIMIT; i++) await (i % 2 === 0 ? one : two).takeRequest(account);
      await assert.rejects(two.takeRequest(account), (err: unknown) => err instanceof SocialError && err.code === "RATE_LIMITED");
      await one.takeRequest(`${account}-other`);
      for (let i = 0; i < PRIVATE_MESSAGES_LIMIT; i++) await (i % 2 === 0 ? two : one).takeMessage(account);
      await assert.rejects(one.takeMessage(account), (err: unknown) => err instanceof SocialError && err.code === "RATE_LIMITED");
    } finally {
      r1.disconnect();
      r2.disconnect();
    }
  });
});
