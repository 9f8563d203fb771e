import assert from "node:assert/strict";
import { ADMIN_ATTEMPTS_PER_ACCOUNT, ADMIN_ATTEMPTS_PER_ADDRESS, ADMIN_WINDOW_MS, AdminCodeGuard } from "../../src/auth/adminCode.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient, type WsEvent } from "../support/wsClient.ts";

describe("/admin guessing budgets", () => {
  describe("AdminCodeGuard", () => {
    it("limits an account's wrong codes without touching another account's", () => {
      let now = 0;
      const guard = new AdminCodeGuard("sesame", () => now);
      for (let i = 0; i < ADMIN_ATTEMPTS_PER_ACCOUNT; i++) assert.equal(guard.check("guess", "a", "10.0.0.1"), "wrong");
      assert.equal(guard.check("sesame", "a", "10.0.0.1"), "limited", "even the right code waits out the window");
      assert.equal(guard.check("sesame", "b", "10.0.0.2"), "granted");
      now += ADMIN_WINDOW_MS;
      assert.equal(guard.check("sesame", "a", "10.0.0.1"), "granted");
    });

    it("limits one address across accounts, so fresh accounts cannot renew the budget", () => {
      const guard = new AdminCodeGuard("sesame", () => 0);
      for (let i = 0; i < ADMIN_ATTEMPTS_PER_ADDRESS; i++) assert.equal(guard.check("guess", `acc${i}`, "10.0.0.1"), "wrong");
      assert.equal(guard.check("sesame", "fresh", "10.0.0.1"), "limited");
      assert.equal(guard.check("sesame", "other", "10.0.0.2"), "granted");
    });

    it("never counts a right code", () => {
      const guard = new AdminCodeGuard("sesame", () => 0);
      for (let i = 0; i < ADMIN_ATTEMPTS_PER_ACCOUNT * 2; i++) assert.equal(guard.check("sesame", "a", "10.0.0.1"), "granted");
    });
  });

  describe("in the world, per client address (TRUST_PROXY)", function () {
    this.timeout(30_000);
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true", TRUST_PROXY: "1" });
    });
    after(() => t.close());

    async function player(address: string): Promise<WsTestClient> {
      const c = await WsTestClient.connect(t.wsUrl, { headers: { "X-Forwarded-For": address } });
      await c.next("welcome");
      return c;
    }
    /** Sends `/admin <code>` and waits for its answer: a system chat line, or an error. */
    async function admin(c: WsTestClient, code: string): Promise<string> {
      c.events.length = 0;
      c.send("player:chat", { message: `/admin ${code}` });
      const reply = await until(
        () => c.events.find((e: WsEvent) => e.type === "error" || (e.type === "chat:message" && e.data.channel === "system")),
        "the answer to /admin",
      );
      return reply.type === "error" ? String(reply.data.code) : String(reply.data.message);
    }

    it("lets another account in with the right code however often one address fails, and limits that address across its accounts", async () => {
      const results: string[] = [];
      // Five accounts from one address, five wrong codes each: more than the old world-wide budget.
      const guessers = [];
      for (let i = 0; i < 5; i++) guessers.push(await player("10.0.0.1"));
      for (const g of guessers) for (let i = 0; i < ADMIN_ATTEMPTS_PER_ACCOUNT; i++) results.push(await admin(g, `guess${i}`));
      assert.equal(results.filter((r) => r === "Wrong admin code.").length, ADMIN_ATTEMPTS_PER_ADDRESS, "the address's budget, across its accounts");
      assert.equal(results.filter((r) => r === "RATE_LIMITED").length, 5 * ADMIN_ATTEMPTS_PER_ACCOUNT - ADMIN_ATTEMPTS_PER_ADDRESS);
      const fresh = await player("10.0.0.1");
      assert.equal(await admin(fresh, t.server.adminCode), "RATE_LIMITED", "a fresh account from that address is limited too");

      const admin2 = await player("10.0.0.2");
      assert.equal(await admin(admin2, t.server.adminCode), "Admin access granted.");
      for (const c of [...guessers, fresh, admin2]) c.socket.close();
    });
  });
});
