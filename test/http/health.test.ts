import assert from "node:assert/strict";
import pkg from "../../package.json" with { type: "json" };
import { forEachDialect } from "../support/dialects.ts";
import { createTestDatabase, type TestDatabase } from "../support/postgres.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcpProxy.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

forEachDialect("health endpoints", (db) => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ DATABASE_URL: db.url });
  });
  after(() => t?.close());

  it("GET /health answers status, an ISO 8601 timestamp, the package version and the database status", async () => {
    const res = await fetch(`${t.baseUrl}/health`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, "ok");
    assert.match(body.timestamp, ISO_8601);
    assert.ok(Math.abs(Date.parse(body.timestamp) - Date.now()) < 5_000);
    assert.equal(body.version, pkg.version);
    assert.equal(body.database.status, "up");
    assert.equal(body.database.dialect, db.dialect);
    assert.equal(typeof body.database.latencyMs, "number");
  });

  it("GET /status answers 200 with the database state", async () => {
    const res = await fetch(`${t.baseUrl}/status`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, "ok");
    assert.equal(body.database, "up");
  });
});

describe("health endpoints with a hung database", function () {
  let proxy: TcpProxy;
  let t: TestServer;
  let pgDb: TestDatabase;
  before(async function () {
    if (!process.env.TEST_PG_URL) this.skip();
    pgDb = await createTestDatabase();
    const target = new URL(pgDb.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    target.host = `127.0.0.1:${proxy.port}`;
    t = await startTestServer({ DATABASE_URL: target.toString() });
  });
  after(async () => {
    proxy?.resume();
    await t?.close();
    await proxy?.close();
    await pgDb?.drop();
  });

  it("GET /status still answers within 3 s, and says the database timed out", async () => {
    proxy.stall();
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await fetch(`${t.baseUrl}/status`, { signal: AbortSignal.timeout(3_000) });
      const elapsed = Date.now() - started;
      assert.equal(res.status, 200);
      assert.equal((await res.json()).database, "timeout");
      assert.ok(elapsed < 3_000, `answered in ${elapsed} ms`);
    }
  });

  it("GET /health answers 503 degraded within 3 s", async () => {
    proxy.stall();
    const res = await fetch(`${t.baseUrl}/health`, { signal: AbortSignal.timeout(3_000) });
    assert.equal(res.status, 503);
    const body = await res.json();
    assert.equal(body.status, "degraded");
    assert.equal(body.database.status, "timeout");
  });

  it("reports the database up again once it answers", async () => {
    proxy.resume();
    let status = "";
    for (let i = 0; i < 20 && status !== "up"; i++) {
      status = (await (await fetch(`${t.baseUrl}/status`)).json()).database;
      if (status !== "up") await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(status, "up");
  });
});

describe("GET /env.js", () => {
  const secrets = {
    JWT_SECRET: "jwt-secret-value-0123456789",
    ADMIN_CODE: "admin-code-value",
    IDP_APP_SECRET: "idp-secret-value",
    PUBLIC_IDP_APP_ID: "public-app-id",
    VOICE_API_KEY: "voice-key-value",
    VOICE_API_SECRET: "voice-secret-value",
    VOICE_URL: "wss://voice.example.com",
    PUBLIC_APP_URL: "https://play.example.com",
    AGENT_RT_URL: "https://agents.example.com",
  };
  let t: TestServer;
  before(async () => {
    t = await startTestServer(secrets);
  });
  after(() => t.close());

  it("is JavaScript that sets the public client environment, identity-provider app id included", async () => {
    const res = await fetch(`${t.baseUrl}/env.js`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/javascript/);
    const text = await res.text();
    const sandbox: { window: { env?: Record<string, string> } } = { window: {} };
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the served script, as a browser would
    new Function("window", text)(sandbox.window);
    const env = sandbox.window.env!;
    assert.equal(env.PUBLIC_IDP_APP_ID, "public-app-id");
    assert.equal(env.PUBLIC_APP_URL, "https://play.example.com");
    assert.equal(env.PUBLIC_WS_URL, `ws://localhost:0/ws`);
    // The agent dashboard's runtime address.
    assert.equal(env.PUBLIC_AGENT_RT_URL, "https://agents.example.com");
    assert.ok(Object.keys(env).every((k) => k.startsWith("PUBLIC_")));
  });

  it("never contains a secret", async () => {
    const text = await (await fetch(`${t.baseUrl}/env.js`)).text();
    for (const name of ["JWT_SECRET", "ADMIN_CODE", "IDP_APP_SECRET", "VOICE_API_KEY", "VOICE_API_SECRET"] as const) {
      assert.ok(!text.includes(secrets[name]), `${name} leaked`);
      assert.ok(!text.includes(name), `${name} named`);
    }
  });
});
