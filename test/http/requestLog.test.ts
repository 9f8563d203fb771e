/**
 * HTTP request logs (pino-http on the server's logger): one line per request with method, path,
 * status, time and the client's address; credentials never (no header is logged, credential
 * query parameters are replaced); health probes at debug, 5xx at error.
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { redactUrl, requestLogger, REDACTED } from "../../src/http/requestLog.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { adminBasic } from "../support/http.ts";

type Record_ = Record<string, unknown> & { level: number; msg: string; req?: Record<string, unknown>; res?: Record<string, unknown>; responseTime?: number };

const SECRET = "s3cret-token-value-1234567890";

describe("request logs through pino-http", () => {
  describe("the request logger alone", () => {
    let server: http.Server;
    let base: string;
    const records: Record_[] = [];
    before(async () => {
      const logger = pino({ level: "trace" }, { write: (line: string) => records.push(JSON.parse(line) as Record_) });
      const log = requestLogger(logger);
      server = http.createServer((req, res) => {
        log(req, res);
        const status = req.url?.startsWith("/boom") ? 500 : req.url?.startsWith("/missing") ? 404 : 200;
        res.writeHead(status).end("ok");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const logged = async (path: string, init?: RequestInit): Promise<Record_> => {
      records.length = 0;
      await (await fetch(`${base}${path}`, init)).text();
      for (let i = 0; i < 50 && records.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(records.length, 1, `one line for ${path}`);
      return records[0]!;
    };

    it("logs method, path, status, time and address at info, and no header at all", async () => {
      const r = await logged("/api/v1/player?x=1", { headers: { authorization: `Bearer ${SECRET}`, cookie: `sid=${SECRET}`, "x-api-key": SECRET } });
      assert.equal(r.level, 30);
      assert.equal(r.msg, `GET /api/v1/player?x=1 200 in ${Math.round(r.responseTime as number)} ms`);
      assert.equal(r.req!.method, "GET");
      assert.equal(r.req!.url, "/api/v1/player?x=1");
      assert.equal(r.req!.remoteAddress, "127.0.0.1");
      assert.equal(r.res!.statusCode, 200);
      assert.equal(typeof r.responseTime, "number");
      assert.equal(r.req!.headers, undefined);
      assert.ok(!JSON.stringify(r).includes(SECRET), "no credential in the line");
    });

    it("replaces credentials in the query, whatever their case", async () => {
      const r = await logged(`/ws?token=${SECRET}&characterId=c1&reconnectionToken=${SECRET}&Access_Token=${SECRET}`);
      assert.ok(!JSON.stringify(r).includes(SECRET));
      assert.ok(r.msg.startsWith(`GET ${String(r.req!.url)} 200 in `), r.msg);
      assert.equal(
        r.req!.url,
        `/ws?token=${encodeURIComponent(REDACTED)}&characterId=c1&reconnectionToken=${encodeURIComponent(REDACTED)}&Access_Token=${encodeURIComponent(REDACTED)}`,
      );
    });

    it("logs 4xx at info, 5xx at error, health probes at debug", async () => {
      assert.equal((await logged("/missing")).level, 30);
      const boom = await logged("/boom");
      assert.equal(boom.level, 50);
      assert.equal(boom.res!.statusCode, 500);
      assert.equal(boom.msg, "GET /boom 500: failed with status code 500");
      assert.equal((await logged("/status")).level, 20);
      assert.equal((await logged("/health?x=1")).level, 20);
    });
  });

  it("redactUrl leaves a URL without credentials as it is", () => {
    assert.equal(redactUrl("/api/v1/world"), "/api/v1/world");
    assert.equal(redactUrl("/manifests/items.json?v=3"), "/manifests/items.json?v=3");
    assert.equal(redactUrl(undefined), "");
  });

  describe("on a real server", () => {
    let t: TestServer;
    const records: Record_[] = [];
    before(async () => {
      t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" }, "bundled", undefined, (r) => records.push(r as Record_));
    });
    after(() => t?.close());

    const requestLines = () => records.filter((r) => r.req !== undefined && r.res !== undefined);

    it("logs REST and Colyseus matchmaking requests, with the address the server trusts, and never a token", async () => {
      records.length = 0;
      const anonymous = await (await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" })).json();
      const token = String(anonymous.token);
      assert.ok(token.length > 20);
      assert.equal((await fetch(`${t.baseUrl}/api/v1/player`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
      assert.equal((await fetch(`${t.baseUrl}/api/v1/player?token=${token}`)).status, 401);
      assert.equal((await fetch(`${t.baseUrl}/api/admin/metrics`, { headers: { authorization: adminBasic(SECRET, "admin") } })).status, 401);
      const client = await WorldTestClient.join(t.baseUrl, { token, name: "LogLine" });
      await client.room.leave();
      await new Promise((r) => setTimeout(r, 100));

      const lines = requestLines();
      const find = (method: string, url: RegExp) => lines.find((r) => r.req?.method === method && url.test(String(r.req?.url)));
      assert.equal(find("POST", /^\/api\/auth\/anonymous$/)?.res?.statusCode, 201);
      assert.equal(find("GET", /^\/api\/v1\/player$/)?.res?.statusCode, 200);
      assert.equal(find("GET", /^\/api\/v1\/player\?token=/)?.req?.url, `/api/v1/player?token=${encodeURIComponent(REDACTED)}`);
      assert.equal(find("GET", /^\/api\/admin\/metrics$/)?.res?.statusCode, 401);
      assert.ok(find("POST", /^\/matchmake\/joinOrCreate\/world/), "Colyseus' matchmaking request is logged too");
      for (const r of lines) {
        assert.equal(r.component, "http");
        assert.equal(r.req?.remoteAddress, "127.0.0.1");
      }
      const all = JSON.stringify(records);
      assert.ok(!all.includes(token), "the issued token is in no log line");
      assert.ok(!all.includes(SECRET), "the admin credentials are in no log line");
    });

    it("does not log health probes at info", async () => {
      records.length = 0;
      assert.equal((await fetch(`${t.baseUrl}/status`)).status, 200);
      assert.equal((await fetch(`${t.baseUrl}/api/data/skill-unlocks`)).status, 200);
      await new Promise((r) => setTimeout(r, 50));
      const urls = requestLines().map((r) => r.req?.url);
      assert.deepEqual(urls, ["/api/data/skill-unlocks"]);
    });
  });
});
