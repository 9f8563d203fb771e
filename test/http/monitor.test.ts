import assert from "node:assert/strict";
import { AUTH_LIMIT_PER_MIN } from "../../src/http/rateLimit.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { adminBasic } from "../support/http.ts";

const basic = (user: string, password: string) => adminBasic(password, user);

describe("the Colyseus monitor at /colyseus", () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer({ ADMIN_CODE: "let-me-in" });
  });
  afterEach(() => t.close());

  const pages = ["/colyseus", "/colyseus/", "/colyseus/api", "/colyseus/api/room?roomId=x", "/colyseus/api/room/call?roomId=x&method=disconnect&args=[]"];

  it("answers 401 with a basic-auth challenge without credentials, on every monitor path", async () => {
    for (const p of pages) {
      const res = await fetch(t.baseUrl + p, { redirect: "manual" });
      assert.equal(res.status, 401, p);
      assert.match(res.headers.get("www-authenticate") ?? "", /^Basic realm=/);
      assert.equal((await res.json()).error.code, "UNAUTHORIZED");
    }
  });

  it("answers 401 to a wrong admin code", async () => {
    const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: basic("admin", "wrong") } });
    assert.equal(res.status, 401);
  });

  it("answers 401 to a malformed or forged bearer token", async () => {
    for (const token of ["garbage", "a.b.c", (await t.server.tokens.signServiceToken({ accountId: "x", role: "admin" }, 60)).slice(0, -2) + "xx"]) {
      const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(res.status, 401, token);
    }
  });

  it("serves the monitor API with the admin code as the basic-auth password", async () => {
    const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: basic("anyone", "let-me-in") } });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.ok(Array.isArray(body.rooms));
    assert.ok(Array.isArray(body.columns));
  });

  it("serves the monitor UI to an admin", async () => {
    const res = await fetch(`${t.baseUrl}/colyseus/`, { headers: { Authorization: basic("admin", "let-me-in") } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
  });

  it("serves it to a bearer token with the admin role", async () => {
    const token = await t.server.tokens.signServiceToken({ accountId: "ops", role: "admin" }, 60);
    const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
  });

  it("answers 403 to a valid player token", async () => {
    const token = await t.server.tokens.signServiceToken({ accountId: "p1", role: "player" }, 60);
    const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error.code, "FORBIDDEN");
  });

  it("refuses basic credentials a browser attached to another site's request (CSRF), on every monitor path and admin route", async () => {
    // Refusals count as failed admin logins: a server without the limit, so that all of them are checked.
    await t.close();
    t = await startTestServer({ ADMIN_CODE: "let-me-in", DISABLE_RATE_LIMIT: "true" });
    const admin = basic("admin", "let-me-in");
    const crossSite: Record<string, string>[] = [
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { Origin: "not a url" },
    ];
    for (const p of [...pages, "/api/admin/metrics"]) {
      for (const h of crossSite) {
        const res = await fetch(t.baseUrl + p, { redirect: "manual", headers: { Authorization: admin, ...h } });
        assert.equal(res.status, 403, `${p} ${JSON.stringify(h)}`);
        assert.equal((await res.json()).error.code, "CROSS_SITE");
      }
    }
    const reset = await fetch(`${t.baseUrl}/api/admin/metrics/reset`, { method: "POST", headers: { Authorization: admin, Origin: "https://evil.example" } });
    assert.equal(reset.status, 403);
  });

  it("does not count cross-site refusals as failed admin logins (another site cannot lock the admin out)", async () => {
    const admin = basic("admin", "let-me-in");
    for (let i = 0; i < AUTH_LIMIT_PER_MIN + 5; i++) {
      const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: admin, "Sec-Fetch-Site": "cross-site" } });
      assert.equal(res.status, 403);
    }
    const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: admin, "Sec-Fetch-Site": "same-origin" } });
    assert.equal(res.status, 200);
  });

  it("accepts basic credentials from the monitor's own pages and from non-browser clients, and a bearer token from anywhere", async () => {
    const admin = basic("admin", "let-me-in");
    const sameOrigin: Record<string, string>[] = [
      {},
      { "Sec-Fetch-Site": "same-origin" },
      { "Sec-Fetch-Site": "none" },
      { Origin: t.baseUrl, "Sec-Fetch-Site": "same-origin" },
    ];
    for (const h of sameOrigin) {
      const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: admin, ...h } });
      assert.equal(res.status, 200, JSON.stringify(h));
    }
    const token = await t.server.tokens.signServiceToken({ accountId: "ops", role: "admin" }, 60);
    const res = await fetch(`${t.baseUrl}/colyseus/api`, {
      headers: { Authorization: `Bearer ${token}`, Origin: "https://ops.example", "Sec-Fetch-Site": "cross-site" },
    });
    assert.equal(res.status, 200);
  });

  it(`limits failed admin logins to ${AUTH_LIMIT_PER_MIN} a minute, then refuses even the right code`, async () => {
    for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) {
      const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: basic("admin", `guess-${i}`) } });
      assert.equal(res.status, 401);
    }
    const blocked = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: basic("admin", "let-me-in") } });
    assert.equal(blocked.status, 429);
  });

  it("does not count a signed-in admin's polling against the limit", async () => {
    for (let i = 0; i < AUTH_LIMIT_PER_MIN + 5; i++) {
      const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { Authorization: basic("admin", "let-me-in") } });
      assert.equal(res.status, 200);
    }
  });
});

describe("POST /api/auth/anonymous", () => {
  it("issues a temporary identity and a token the server accepts, in anonymous mode", async () => {
    const t = await startTestServer();
    try {
      const res = await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" });
      assert.equal(res.status, 201);
      const body = await res.json();
      assert.equal(body.success, true);
      assert.match(body.accountId, /^anon-[0-9a-f-]{36}$/);
      const principal = await t.server.tokens.verify(body.token);
      assert.deepEqual(principal, { accountId: body.accountId, role: "player", anonymous: true, source: "service" });
    } finally {
      await t.close();
    }
  });

  it("is refused with 403 when an identity provider is configured", async () => {
    const t = await startTestServer({ PUBLIC_IDP_APP_ID: "app", IDP_APP_SECRET: "secret" });
    try {
      const res = await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" });
      assert.equal(res.status, 403);
      assert.equal((await res.json()).error.code, "ANONYMOUS_DISABLED");
    } finally {
      await t.close();
    }
  });
});

describe("GET /api/admin/metrics", () => {
  it("gives admins tick, event-loop, CPU and memory figures, and nobody else", async () => {
    const t = await startTestServer({ ADMIN_CODE: "metrics-code", TICK_MS: "20" });
    try {
      assert.equal((await fetch(`${t.baseUrl}/api/admin/metrics`)).status, 401);
      const player = await t.server.tokens.signServiceToken({ accountId: "p" }, 60);
      assert.equal((await fetch(`${t.baseUrl}/api/admin/metrics`, { headers: { Authorization: `Bearer ${player}` } })).status, 403);
      await new Promise((r) => setTimeout(r, 200));
      const res = await fetch(`${t.baseUrl}/api/admin/metrics`, { headers: { Authorization: basic("ops", "metrics-code") } });
      assert.equal(res.status, 200);
      const { metrics } = await res.json();
      assert.ok(metrics.ticks.count > 0, "ticks were counted");
      assert.equal(typeof metrics.ticks.p99Ms, "number");
      const phases = metrics.ticks.phasesMeanMs as Record<string, number>;
      assert.deepEqual(Object.keys(phases).sort(), [
        "colyseusFlush",
        "colyseusInterest",
        "colyseusPatch",
        "colyseusViews",
        "game",
        "messages",
        "schemaMirror",
        "wsDeltas",
        "wsFeed",
        "wsFlush",
      ]);
      for (const v of Object.values(phases)) assert.ok(v >= 0 && v <= metrics.ticks.maxMs, `a phase takes part of a tick: ${v}`);
      assert.equal(metrics.ticks.slowest.ms, metrics.ticks.maxMs, "the slowest tick is the longest one");
      assert.deepEqual(Object.keys(metrics.ticks.slowest.phasesMs).sort(), Object.keys(phases).sort());
      // The ticking thread's CPU time (an empty world's tick may round to 0; see test/metrics for the figures).
      assert.ok(metrics.ticks.cpuMeanMs >= 0, `CPU per tick: ${metrics.ticks.cpuMeanMs}`);
      assert.ok(
        metrics.ticks.slowest.cpuMs >= 0 && metrics.ticks.slowest.cpuMs <= metrics.ticks.slowest.ms + 10,
        `the slowest tick's CPU: ${metrics.ticks.slowest.cpuMs} of ${metrics.ticks.slowest.ms} ms`,
      );
      assert.equal(typeof metrics.eventLoopDelay.p99Ms, "number");
      assert.ok(metrics.memory.rssBytes > 0);
      assert.equal(metrics.players, 0);
      const reset = await fetch(`${t.baseUrl}/api/admin/metrics/reset`, { method: "POST", headers: { Authorization: basic("ops", "metrics-code") } });
      assert.equal(reset.status, 200);
    } finally {
      await t.close();
    }
  });
});
