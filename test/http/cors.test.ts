import assert from "node:assert/strict";
import { corsSettings, loadConfig } from "../../src/config/env.ts";
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, createOriginCheck } from "../../src/http/cors.ts";
import { startAgentRuntime } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const check = createOriginCheck(
  loadConfig({
    PUBLIC_APP_URL: "https://play.studio.example",
    CLIENT_URL: "http://client.studio.example:8081",
    AGENT_RT_API_URL: "http://agents.studio.example:4100",
    AGENT_RT_URL: "wss://agentrt.studio.example",
  }).cors,
);

describe("CORS allowlist", () => {
  const allowed: [string, string][] = [
    ["production frontend", "https://rsworld.gg"],
    ["production frontend www", "https://www.rsworld.gg"],
    ["static hosting (https)", "https://rsworld.pages.dev"],
    ["static hosting (http fallback)", "http://rsworld.pages.dev"],
    ["production API", "https://api.rsworld.gg"],
    ["localhost, any port, http", "http://localhost:3333"],
    ["localhost, any port, https", "https://localhost:44321"],
    ["localhost, no port", "http://localhost"],
    ["loopback address", "http://127.0.0.1:5173"],
    ["static-hosting preview (https)", "https://feature-x.rsworld.pages.dev"],
    ["static-hosting preview (http)", "http://3f2a9c.rsworld.pages.dev"],
    ["application-hosting preview (https)", "https://rsworld-pr-12.up.railway.app"],
    ["social frame 1", "https://app.farcaster.xyz"],
    ["social frame 2", "https://client.warpcast.com"],
    ["identity provider", "https://auth.privy.io"],
    ["PUBLIC_APP_URL", "https://play.studio.example"],
    ["CLIENT_URL", "http://client.studio.example:8081"],
    ["AGENT_RT_API_URL", "http://agents.studio.example:4100"],
    ["AGENT_RT_URL (ws as its https origin)", "https://agentrt.studio.example"],
  ];
  for (const [what, origin] of allowed) {
    it(`allows ${what}: ${origin}`, () => assert.equal(check(origin), true));
  }

  const refused: [string, string | undefined][] = [
    ["no origin", undefined],
    ["the null origin", "null"],
    ["an unrelated site", "https://evil.example"],
    ["a lookalike suffix", "https://rsworld.gg.evil.example"],
    ["a lookalike prefix", "https://evilrsworld.gg"],
    ["the frontend over http", "http://rsworld.gg"],
    ["the frontend on another port", "https://rsworld.gg:8443"],
    ["an app-hosting preview over http", "http://rsworld-pr-12.up.railway.app"],
    ["a social frame over http", "http://app.farcaster.xyz"],
    ["the bare social domain", "https://farcaster.xyz"],
    ["the identity provider over http", "http://auth.privy.io"],
    ["PUBLIC_APP_URL over another scheme", "http://play.studio.example"],
    ["CLIENT_URL on another port", "http://client.studio.example:8082"],
    ["an origin with a path", "https://rsworld.gg/path"],
    ["an origin with credentials", "https://user@rsworld.gg"],
    ["a non-http scheme", "file://localhost"],
    ["a localhost lookalike", "http://localhost.evil.example"],
    ["garbage", "not an origin"],
  ];
  for (const [what, origin] of refused) {
    it(`refuses ${what}: ${origin}`, () => assert.equal(check(origin), false));
  }

  it("lets a studio point the fixed origins at its own domains", () => {
    const own = createOriginCheck(loadConfig({ CORS_FRONTEND_DOMAIN: "mygame.example", CORS_SOCIAL_DOMAINS: "frames.example" }).cors);
    assert.equal(own("https://www.mygame.example"), true);
    assert.equal(own("https://rsworld.gg"), false);
    assert.equal(own("https://a.frames.example"), true);
    assert.equal(own("https://app.farcaster.xyz"), false);
  });
});

describe("CORS allowlist in production: no localhost", () => {
  const PRODUCTION = {
    NODE_ENV: "production",
    DATABASE_URL: "postgresql://u:p@db.internal:5432/game",
    JWT_SECRET: "s".repeat(32),
    ADMIN_CODE: "admin-code-0123",
    PUBLIC_IDP_APP_ID: "app-id",
    IDP_APP_SECRET: "idp-secret",
  };
  const local = ["http://localhost:3333", "https://localhost:44321", "http://localhost", "http://127.0.0.1:5173", "http://[::1]:8080", "http://localhost:4001"];

  it("refuses every localhost and loopback origin, the agent runtime's default address too", () => {
    const check = createOriginCheck(loadConfig(PRODUCTION).cors);
    for (const origin of local) assert.equal(check(origin), false, origin);
    assert.equal(check("https://rsworld.gg"), true, "the production frontend still passes");
  });

  it("takes a local origin only when it is configured exactly", () => {
    const check = createOriginCheck(loadConfig({ ...PRODUCTION, CLIENT_URL: "http://localhost:8081", AGENT_RT_API_URL: "https://agents.example" }).cors);
    assert.equal(check("http://localhost:8081"), true);
    assert.equal(check("http://localhost:8082"), false);
    assert.equal(check("https://agents.example"), true);
  });

  it("allows them in development and tests", () => {
    for (const NODE_ENV of ["development", "test"]) {
      const check = createOriginCheck(corsSettings({ NODE_ENV }));
      for (const origin of local) assert.equal(check(origin), true, `${NODE_ENV}: ${origin}`);
    }
  });
});

describe("CORS on the running server", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ NODE_ENV: "test" });
  });
  after(() => t.close());

  const paths = ["/health", "/api/nothing-here", "/matchmake/joinOrCreate/world"];

  for (const p of paths) {
    it(`echoes an allowed origin with credentials, methods and headers on GET ${p}`, async () => {
      const res = await fetch(t.baseUrl + p, { headers: { Origin: "http://localhost:3333" } });
      assert.equal(res.headers.get("access-control-allow-origin"), "http://localhost:3333");
      assert.equal(res.headers.get("access-control-allow-credentials"), "true");
      assert.equal(res.headers.get("access-control-allow-methods"), CORS_ALLOWED_METHODS);
      assert.equal(res.headers.get("access-control-allow-headers"), CORS_ALLOWED_HEADERS);
      assert.match(res.headers.get("vary") ?? "", /Origin/);
    });

    it(`answers a preflight for an allowed origin on ${p}`, async () => {
      const res = await fetch(t.baseUrl + p, {
        method: "OPTIONS",
        headers: { Origin: "https://www.rsworld.gg", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,authorization" },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get("access-control-allow-origin"), "https://www.rsworld.gg");
      assert.equal(res.headers.get("access-control-allow-methods"), CORS_ALLOWED_METHODS);
      assert.equal(res.headers.get("access-control-allow-headers"), CORS_ALLOWED_HEADERS);
      assert.equal(res.headers.get("access-control-allow-credentials"), "true");
    });

    it(`gives a refused origin no Access-Control-Allow-Origin on ${p} (GET and preflight)`, async () => {
      for (const method of ["GET", "OPTIONS"]) {
        const res = await fetch(t.baseUrl + p, { method, headers: { Origin: "https://evil.example" } });
        assert.equal(res.headers.get("access-control-allow-origin"), null, `${method} ${p}`);
        assert.equal(res.headers.get("access-control-allow-credentials"), null, `${method} ${p}`);
      }
    });
  }

  it("never answers with the wildcard origin, with or without an Origin header", async () => {
    for (const p of [...paths, "/"]) {
      const plain = await fetch(t.baseUrl + p);
      assert.notEqual(plain.headers.get("access-control-allow-origin"), "*");
      assert.equal(plain.headers.get("access-control-allow-origin"), null);
      const pre = await fetch(t.baseUrl + p, { method: "OPTIONS" });
      assert.equal(pre.headers.get("access-control-allow-origin"), null);
    }
  });

  it("the agent runtime follows: a localhost origin outside production, none in production", async function () {
    this.timeout(60_000);
    const preflight = (url: string) =>
      fetch(`${url}/agents`, {
        method: "OPTIONS",
        headers: { Origin: "http://localhost:3333", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
      });
    for (const [NODE_ENV, allowed] of [
      ["test", "http://localhost:3333"],
      ["production", null],
    ] as const) {
      const rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { NODE_ENV } });
      try {
        assert.equal((await preflight(rt.url)).headers.get("access-control-allow-origin"), allowed, NODE_ENV);
      } finally {
        await rt.stop();
      }
    }
  });

  it("applies the allowlist to Colyseus' matchmaking POST", async () => {
    const res = await fetch(`${t.baseUrl}/matchmake/joinOrCreate/no_such_room`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/json" },
      body: "{}",
    });
    assert.equal(res.headers.get("access-control-allow-origin"), null);
    const ok = await fetch(`${t.baseUrl}/matchmake/joinOrCreate/no_such_room`, {
      method: "POST",
      headers: { Origin: "http://localhost:3333", "Content-Type": "application/json" },
      body: "{}",
    });
    assert.equal(ok.headers.get("access-control-allow-origin"), "http://localhost:3333");
  });
});
