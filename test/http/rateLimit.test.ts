import assert from "node:assert/strict";
import { AUTH_LIMIT_PER_MIN, REST_LIMIT_PER_MIN } from "../../src/http/rateLimit.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

async function hammer(url: string, n: number, init: RequestInit = {}): Promise<Response[]> {
  const out: Response[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    out.push(res);
  }
  return out;
}

describe("rate limits", () => {
  describe("with limits on", () => {
    let t: TestServer;
    beforeEach(async () => {
      t = await startTestServer();
    });
    afterEach(() => t.close());

    it(`answers the REST request after ${REST_LIMIT_PER_MIN} in a minute with 429, the error body and standard headers`, async () => {
      const ok = await hammer(`${t.baseUrl}/api/nothing`, REST_LIMIT_PER_MIN);
      assert.ok(
        ok.every((r) => r.status === 404),
        "the first 100 get through to routing",
      );
      assert.equal(ok[0]!.headers.get("ratelimit-limit"), String(REST_LIMIT_PER_MIN));
      assert.equal(ok[99]!.headers.get("ratelimit-remaining"), "0");
      const res = await fetch(`${t.baseUrl}/api/nothing`);
      assert.equal(res.status, 429);
      assert.deepEqual(Object.keys(await res.json()), ["success", "error"]);
      assert.equal(res.headers.get("ratelimit-limit"), String(REST_LIMIT_PER_MIN));
      assert.equal(res.headers.get("ratelimit-remaining"), "0");
      assert.ok(Number(res.headers.get("ratelimit-reset")) > 0);
      assert.ok(Number(res.headers.get("retry-after")) > 0, "Retry-After is set");
    });

    it("sends the common error body on 429", async () => {
      await hammer(`${t.baseUrl}/api/nothing`, REST_LIMIT_PER_MIN);
      const res = await fetch(`${t.baseUrl}/api/nothing`);
      assert.deepEqual(await res.json(), {
        success: false,
        error: { code: "RATE_LIMITED", message: `rate limit exceeded: at most ${REST_LIMIT_PER_MIN} requests per minute` },
      });
    });

    it(`limits authentication to ${AUTH_LIMIT_PER_MIN} attempts a minute`, async () => {
      const attempts = await hammer(`${t.baseUrl}/api/auth/anonymous`, AUTH_LIMIT_PER_MIN, { method: "POST" });
      assert.ok(attempts.every((r) => r.status === 201));
      const res = await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" });
      assert.equal(res.status, 429);
      assert.equal((await res.json()).error.code, "RATE_LIMITED");
      assert.ok(Number(res.headers.get("retry-after")) > 0);
    });

    it("does not limit /health and /status (the hosting platform polls them)", async () => {
      const res = await hammer(`${t.baseUrl}/status`, REST_LIMIT_PER_MIN + 5);
      assert.ok(res.every((r) => r.status === 200));
    });
  });

  it("turns off with DISABLE_RATE_LIMIT=true outside production", async () => {
    const t = await startTestServer({ NODE_ENV: "development", DISABLE_RATE_LIMIT: "true", LOG_LEVEL: "silent" });
    try {
      const res = await hammer(`${t.baseUrl}/api/auth/anonymous`, AUTH_LIMIT_PER_MIN + 5, { method: "POST" });
      assert.ok(res.every((r) => r.status === 201));
      assert.equal(res[0]!.headers.get("ratelimit-limit"), null);
    } finally {
      await t.close();
    }
  });

  it("ignores DISABLE_RATE_LIMIT in production", async () => {
    const t = await startTestServer({
      NODE_ENV: "production",
      DISABLE_RATE_LIMIT: "true",
      LOG_LEVEL: "silent",
      JWT_SECRET: "x".repeat(32),
      ADMIN_CODE: "admin-code-0123",
      PUBLIC_IDP_APP_ID: "app",
      IDP_APP_SECRET: "secret",
      DATABASE_URL: "sqlite::memory:",
    });
    try {
      const res = await hammer(`${t.baseUrl}/api/nothing`, REST_LIMIT_PER_MIN + 1);
      assert.equal(res.at(-1)!.status, 429);
    } finally {
      await t.close();
    }
  });
});
