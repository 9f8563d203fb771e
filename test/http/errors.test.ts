import assert from "node:assert/strict";
import { BadRequestError } from "../../src/http/errors.ts";
import { bareApp } from "../support/bareApp.ts";
import { ROUTES } from "../../src/http/openapi.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/** The Express app alone, over real HTTP, with routes that fail on purpose. */
function appWithFailingRoutes(env: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  return bareApp({ LOG_LEVEL: "silent", ...env }, (a) => {
    a.get("/api/boom", () => {
      throw new Error("secret internals at db.internal:5432");
    });
    a.get("/api/async-boom", async () => {
      await Promise.resolve();
      throw new Error("async internals");
    });
    a.post("/api/echo", (req, res) => {
      if (typeof req.body?.n !== "number") throw new BadRequestError("n must be a number");
      res.json({ success: true, n: req.body.n });
    });
  });
}

describe("HTTP errors", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it("answers a malformed JSON body with 400 and the common error shape", async () => {
    const res = await fetch(`${t.baseUrl}/api/auth/anonymous`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"broken": ',
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { success: false, error: { code: "MALFORMED_JSON", message: "request body is not valid JSON" } });
  });

  it("answers an oversized JSON body with 413", async () => {
    const res = await fetch(`${t.baseUrl}/api/auth/anonymous`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ pad: "x".repeat(200_000) }),
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error.code, "PAYLOAD_TOO_LARGE");
  });

  it("answers an unknown route with 404 and the common error shape", async () => {
    for (const [method, path] of [
      ["GET", "/no/such/thing"],
      ["POST", "/api/v9/nothing"],
      ["DELETE", "/health"],
    ] as const) {
      const res = await fetch(t.baseUrl + path, { method });
      assert.equal(res.status, 404, `${method} ${path}`);
      const body = await res.json();
      assert.equal(body.success, false);
      assert.equal(body.error.code, "NOT_FOUND");
    }
  });

  describe("thrown errors", () => {
    it("become a 500 without internals or a stack in production", async () => {
      const app = await appWithFailingRoutes({
        NODE_ENV: "production",
        JWT_SECRET: "x".repeat(32),
        ADMIN_CODE: "admin-code-0123",
        PUBLIC_IDP_APP_ID: "a",
        IDP_APP_SECRET: "b",
        DATABASE_URL: "postgres://h/db",
      });
      try {
        for (const p of ["/api/boom", "/api/async-boom"]) {
          const res = await fetch(app.url + p);
          assert.equal(res.status, 500);
          const text = await res.text();
          assert.deepEqual(JSON.parse(text), { success: false, error: { code: "INTERNAL_ERROR", message: "internal server error" } });
          assert.doesNotMatch(text, /internals|at .*\.ts|Error:/);
        }
      } finally {
        await app.close();
      }
    });

    it("are as generic outside production (the details are in the log only)", async () => {
      for (const NODE_ENV of ["development", "test"]) {
        const app = await appWithFailingRoutes({ NODE_ENV });
        try {
          const res = await fetch(`${app.url}/api/boom`);
          assert.equal(res.status, 500);
          assert.deepEqual(await res.json(), { success: false, error: { code: "INTERNAL_ERROR", message: "internal server error" } }, NODE_ENV);
        } finally {
          await app.close();
        }
      }
    });

    it("keep their status when they are HTTP errors", async () => {
      const app = await appWithFailingRoutes({ NODE_ENV: "test" });
      try {
        const bad = await fetch(`${app.url}/api/echo`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"n":"x"}' });
        assert.equal(bad.status, 400);
        assert.deepEqual(await bad.json(), { success: false, error: { code: "BAD_REQUEST", message: "n must be a number" } });
        const good = await fetch(`${app.url}/api/echo`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"n":4}' });
        assert.deepEqual(await good.json(), { success: true, n: 4 });
      } finally {
        await app.close();
      }
    });
  });
});

forEachDialect("HTTP errors: malformed path parameters", (db) => {
  let t: TestServer;
  let token: string;
  before(async () => {
    t = await startTestServer({ DATABASE_URL: db.url, DISABLE_RATE_LIMIT: "true" });
    token = String(((await (await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" })).json()) as { token: string }).token);
  });
  after(() => t.close());

  // Every route of the document with a path parameter, e.g. /api/characters/{characterId}/skills.
  const withParams = Object.entries(ROUTES)
    .filter(([p]) => p.includes("{"))
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => [m.toUpperCase(), p] as const));

  it("covers every route with a path parameter", () => assert.ok(withParams.length >= 12, String(withParams.length)));

  for (const [method, p] of withParams) {
    it(`${method} ${p}: a NUL, a control character or a broken escape in the parameter is a 400, never a 500`, async () => {
      for (const bad of ["%00", "a%00b", "%0A", "%E0%A4%A"]) {
        const res = await fetch(t.baseUrl + p.replace(/\{(\w+)\}/g, bad), {
          method,
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: method === "GET" || method === "DELETE" ? undefined : "{}",
        });
        const body = (await res.json()) as { success: boolean; error: { code: string; message: string } };
        assert.equal(res.status, 400, `${bad}: ${JSON.stringify(body)}`);
        assert.deepEqual(body, { success: false, error: { code: "BAD_REQUEST", message: "malformed path" } });
      }
    });
  }
});
