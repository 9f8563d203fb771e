/**
 * Authentication attempts on the socket transports (src/auth/attemptLimiter.ts): new anonymous
 * identities and failed token checks are limited per client address, as REST limits them
 * (10 per minute), over `/ws` and Colyseus joins alike; a good token is never counted, and a
 * client cannot pick its own address with `X-Real-IP` or `X-Forwarded-For`.
 */
import assert from "node:assert/strict";
import { User } from "../../entities/index.ts";
import { AttemptLimiter, AuthAttempts, TooManyAttempts } from "../../src/auth/attemptLimiter.ts";
import { TokenError } from "../../src/auth/tokens.ts";
import { clientAddress } from "../../src/http/clientAddress.ts";
import { AUTH_LIMIT_PER_MIN } from "../../src/http/rateLimit.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";
import type { IncomingMessage } from "node:http";

/** A Colyseus join request made by hand, so that its headers can be chosen. */
async function matchmake(t: TestServer, headers: Record<string, string> = {}, body: object = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${t.baseUrl}/matchmake/joinOrCreate/world`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function anonymousWs(t: TestServer): Promise<WsTestClient> {
  return WsTestClient.connect(t.wsUrl);
}

describe("authentication attempts on /ws and Colyseus", () => {
  describe("AttemptLimiter", () => {
    it("allows the limit per address per window, then refuses until the window ends", () => {
      let now = 1_000;
      const l = new AttemptLimiter({ limit: 3, windowMs: 60_000, now: () => now });
      assert.deepEqual(
        [1, 2, 3, 4].map(() => l.take("a")),
        [true, true, true, false],
      );
      assert.equal(l.allows("a"), false);
      assert.equal(l.take("b"), true, "another address has its own budget");
      assert.equal(l.retryAfterS("a"), 60);
      now += 59_999;
      assert.equal(l.allows("a"), false);
      now += 1;
      assert.equal(l.take("a"), true, "a new window");
    });

    it("reads the address behind trusted proxies only", () => {
      const req = (peer: string, xff?: string) =>
        ({ socket: { remoteAddress: peer }, headers: xff === undefined ? {} : { "x-forwarded-for": xff } }) as unknown as IncomingMessage;
      const trustNone = () => false;
      const trustLoopback = (addr: string) => addr === "127.0.0.1";
      assert.equal(clientAddress(trustNone, req("10.0.0.5", "6.6.6.6")), "10.0.0.5", "no trusted proxy: the peer, whatever the header says");
      assert.equal(clientAddress(trustLoopback, req("127.0.0.1", "6.6.6.6, 9.9.9.9")), "9.9.9.9", "one trusted hop: the address it saw");
      assert.equal(clientAddress(trustLoopback, req("127.0.0.1")), "127.0.0.1");
    });
  });

  describe("AuthAttempts.checkToken", () => {
    const slow =
      <T>(outcome: () => T) =>
      () =>
        new Promise<T>((resolve, reject) =>
          setTimeout(() => {
            try {
              resolve(outcome());
            } catch (err) {
              reject(err instanceof Error ? err : new Error(String(err)));
            }
          }, 20),
        );
    const bad = slow(() => {
      throw new TokenError("bad token");
    });

    it("never counts good tokens or the server's own failures, however many run at once", async () => {
      const attempts = new AuthAttempts();
      const good = await Promise.all(
        Array.from({ length: AUTH_LIMIT_PER_MIN * 2 }, () =>
          attempts.checkToken(
            "8.8.8.8",
            slow(() => "ok"),
          ),
        ),
      );
      assert.equal(good.length, AUTH_LIMIT_PER_MIN * 2);
      for (let i = 0; i < AUTH_LIMIT_PER_MIN * 2; i++) {
        await assert.rejects(
          attempts.checkToken(
            "8.8.8.8",
            slow(() => {
              throw new Error("database down");
            }),
          ),
          /database down/,
        );
      }
      for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) await assert.rejects(attempts.checkToken("8.8.8.8", bad), TokenError);
      await assert.rejects(attempts.checkToken("8.8.8.8", bad), TooManyAttempts);
    });
  });

  // On both databases: the limit is checked against the users rows it must not add.
  forEachDialect("anonymous identities", (ctx) => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ TICK_MS: "50", DATABASE_URL: ctx.url });
    });
    after(async () => t.close());

    it(`gives ${AUTH_LIMIT_PER_MIN} per minute per address over /ws and Colyseus together, then RATE_LIMITED (4029 / 429) and no new user`, async () => {
      const open: WsTestClient[] = [];
      try {
        for (let i = 0; i < AUTH_LIMIT_PER_MIN - 1; i++) {
          const ws = await anonymousWs(t);
          open.push(ws);
          await ws.next("welcome");
        }
        // The 10th through Colyseus' matchmaking, with a made-up forwarded address that must not count.
        const tenth = await matchmake(t, { "X-Real-IP": "203.0.113.7" });
        assert.equal(tenth.status, 200, JSON.stringify(tenth.body));
        const users = await t.server.db.em().count(User, {});
        const ws = await anonymousWs(t);
        open.push(ws);
        assert.equal((await ws.next("error")).code, "RATE_LIMITED");
        assert.equal((await ws.waitClosed()).code, 4029);
        const spoofs: Record<string, string>[] = [{}, { "X-Real-IP": "198.51.100.1" }, { "X-Forwarded-For": "198.51.100.2" }];
        for (const headers of spoofs) {
          const refused = await matchmake(t, headers);
          assert.notEqual(refused.status, 200, JSON.stringify(headers));
          assert.match(String(refused.body.error ?? refused.body.message ?? JSON.stringify(refused.body)), /too many authentication attempts/);
        }
        assert.equal(await t.server.db.em().count(User, {}), users, "no identity was created for refused attempts");
      } finally {
        for (const ws of open) ws.close();
      }
    });
  });

  describe("token checks", () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ TICK_MS: "50" });
    });
    after(async () => t.close());

    it("never counts a good token, counts failures, and past the limit checks no token", async () => {
      const good = await t.server.tokens.signServiceToken({ accountId: "attempts-good" }, 600);
      // More good logins than the failure budget, each of its own account: one character's logins
      // have a budget of their own (10 a minute, src/ws/loginBudgets.ts), not what is tested here.
      for (let i = 0; i < AUTH_LIMIT_PER_MIN + 2; i++) {
        const each = await t.server.tokens.signServiceToken({ accountId: `attempts-good-${i}` }, 600);
        const ws = await WsTestClient.connect(`${t.wsUrl}?token=${each}`);
        await ws.next("welcome");
        ws.close();
        await ws.waitClosed();
      }
      for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) {
        const ws = await WsTestClient.connect(`${t.wsUrl}?token=not-a-token-${i}`);
        assert.equal((await ws.next("error")).code, "NOT_AUTHENTICATED");
        assert.equal((await ws.waitClosed()).code, 4001);
      }
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${good}`);
      assert.equal((await ws.next("error")).code, "RATE_LIMITED");
      assert.equal((await ws.waitClosed()).code, 4029);
      const join = await matchmake(t, { Authorization: `Bearer ${good}` });
      assert.notEqual(join.status, 200);
      assert.match(JSON.stringify(join.body), /too many authentication attempts/);
    });
  });
});
