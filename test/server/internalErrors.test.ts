import assert from "node:assert/strict";
import { Client } from "@colyseus/sdk";
import { createTestDatabase, type TestDatabase } from "../support/postgres.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcpProxy.ts";
import { WsTestClient } from "../support/wsClient.ts";

/** Words of the database's own errors (SQLite, PostgreSQL, MikroORM, knex): none may reach a client. */
const DB_TEXT = /sqlite|postgres|knex|mikro|database|connection|pool|select|insert|driver|closed|destroyed|econn/i;

describe("Internal errors reach clients as a generic message only", function () {
  this.timeout(20_000);
  let t: TestServer;
  let proxy: TcpProxy;
  let pgDb: TestDatabase;
  let token: string;
  const logs: Record<string, unknown>[] = [];
  before(async function () {
    if (!process.env.TEST_PG_URL) this.skip();
    // PostgreSQL behind a proxy that the test cuts: the database is gone mid-run.
    pgDb = await createTestDatabase();
    const target = new URL(pgDb.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    target.host = `127.0.0.1:${proxy.port}`;
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true", DATABASE_URL: target.toString() }, "bundled", undefined, (r) => logs.push(r));
    const anon = (await (await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" })).json()) as { token: string };
    token = anon.token;
    // The account is resolved (and remembered) while the database still works.
    assert.equal((await fetch(`${t.baseUrl}/api/v1/player`, { headers: { Authorization: `Bearer ${token}` } })).status, 200);
    await proxy.close();
  });
  after(async () => {
    await t?.close();
    await pgDb?.drop();
  });

  it("REST: a 500 with the generic body", async () => {
    const res = await fetch(`${t.baseUrl}/api/v1/player`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Broken" }),
    });
    const text = await res.text();
    assert.equal(res.status, 500, text);
    assert.deepEqual(JSON.parse(text), { success: false, error: { code: "INTERNAL_ERROR", message: "internal server error" } });
  });

  for (const [what, withToken] of [
    ["a join with a token (the world's load fails)", true],
    ["an anonymous join (the new identity cannot be stored)", false],
  ] as const) {
    it(`Colyseus: ${what} fails with 500 "internal error"`, async () => {
      const sdk = new Client(t.baseUrl);
      if (withToken) sdk.auth.token = token;
      const err = (await sdk.joinOrCreate("world", {}).then(
        () => assert.fail("the join succeeded"),
        (e: unknown) => e,
      )) as { code?: number; message?: string };
      assert.equal(err.message, "internal error", String(err.message));
      assert.equal(err.code, 500);
      assert.doesNotMatch(String(err.message), DB_TEXT);
    });
  }

  for (const [what, query] of [
    ["with a token", () => `?token=${token}`],
    ["anonymous", () => ""],
  ] as const) {
    it(`/ws ${what}: a generic error and close reason`, async () => {
      const ws = await WsTestClient.connect(`${t.wsUrl}${query()}`);
      const closed = await ws.waitClosed();
      assert.equal(closed.code, 1011);
      assert.doesNotMatch(closed.reason, DB_TEXT);
      for (const e of ws.events) assert.doesNotMatch(JSON.stringify(e.data), DB_TEXT);
    });
  }

  it("logs what happened on the server", () => {
    assert.ok(
      logs.some((l) => l.level === 50 && DB_TEXT.test(JSON.stringify(l))),
      "the database error is in the log",
    );
  });
});
