import assert from "node:assert/strict";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import jwt from "jsonwebtoken";
import { User } from "../../entities/index.ts";
import { AUTH_LIMIT_PER_MIN } from "../../src/http/rateLimit.ts";
import { CLOSE_TRY_AGAIN_LATER } from "../../src/ws/WsGateway.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

const get = (t: TestServer, token?: string) =>
  fetch(`${t.baseUrl}/api/v1/player`, { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } });

const SERVICE_SECRET = "service-secret-".repeat(4);

describe("tokens", () => {
  describe("with an identity provider (shared secret)", () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ PUBLIC_IDP_APP_ID: "the-app", IDP_APP_SECRET: "idp-secret", JWT_SECRET: SERVICE_SECRET });
    });
    after(() => t.close());
    const idp = (claims: object, opts: jwt.SignOptions = {}, secret = "idp-secret") =>
      jwt.sign({ sub: "user-77", ...claims }, secret, { algorithm: "HS256", audience: "the-app", expiresIn: 60, ...opts });

    it("accepts a valid provider token and creates the users row on first use only", async () => {
      assert.equal((await get(t, idp({}))).status, 200);
      assert.equal((await get(t, idp({}))).status, 200);
      assert.equal(await t.server.db.em().count(User, { idpUserId: "user-77" }), 1);
    });

    for (const [what, token] of [
      ["alg none", () => jwt.sign({ sub: "user-77", aud: "the-app" }, "", { algorithm: "none" })],
      ["a wrong audience", () => idp({}, { audience: "other-app" })],
      ["a wrong key", () => idp({}, {}, "not-the-secret")],
      ["an expired time", () => idp({}, { expiresIn: -30 })],
      ["no subject", () => jwt.sign({ aud: "the-app" }, "idp-secret", { algorithm: "HS256" })],
      ["a service token with a wrong key", () => jwt.sign({ sub: "x", role: "admin" }, "guess", { algorithm: "HS256", issuer: "rs-world-server" })],
      ["an expired service token", () => t.server.tokens.signServiceToken({ accountId: "x" }, -5)],
      ["garbage", () => "not-a-jwt"],
      ["a provider token without an expiry", () => jwt.sign({ sub: "user-77" }, "idp-secret", { algorithm: "HS256", audience: "the-app" })],
      ["a service token without an expiry", () => jwt.sign({ sub: "x", role: "player" }, SERVICE_SECRET, { algorithm: "HS256", issuer: "rs-world-server" })],
      ["an anonymous token (minted by a server in anonymous mode with the same secret)", () => t.server.tokens.signServiceToken({ accountId: "anon-x", anonymous: true }, 600)],
    ] as const) {
      it(`refuses ${what} with 401`, async () => {
        const res = await get(t, token());
        assert.equal(res.status, 401);
        assert.equal((await res.json()).error.code, "UNAUTHORIZED");
      });
    }

    it("refuses a missing token with 401", async () => {
      assert.equal((await get(t)).status, 401);
    });

    it("refuses anonymous identities when a provider is configured", async () => {
      assert.equal((await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" })).status, 403);
    });
  });

  describe("with the provider's published keys (IDP_JWKS_URL)", () => {
    let jwksServer: http.Server;
    let keys: { kid: string; priv: KeyObject; pub: KeyObject }[];
    let fetches = 0;
    let t: TestServer;
    const newKey = (kid: string) => {
      const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      return { kid, priv: privateKey, pub: publicKey };
    };
    before(async () => {
      keys = [newKey("k1")];
      jwksServer = http.createServer((_req, res) => {
        fetches++;
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ keys: keys.map((k) => ({ ...k.pub.export({ format: "jwk" }), kid: k.kid, use: "sig", alg: "RS256" })) }));
      });
      await new Promise<void>((r) => jwksServer.listen(0, "127.0.0.1", r));
      const url = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`;
      t = await startTestServer({ PUBLIC_IDP_APP_ID: "jwks-app", IDP_JWKS_URL: url });
    });
    after(async () => {
      await t.close();
      await new Promise<void>((r) => jwksServer.close(() => r()));
    });
    const sign = (k: { kid: string; priv: KeyObject }, opts: jwt.SignOptions = {}) =>
      jwt.sign({ sub: "jwks-user" }, k.priv, { algorithm: "RS256", keyid: k.kid, audience: "jwks-app", expiresIn: 60, ...opts });

    it("verifies tokens with the fetched keys, and caches them", async () => {
      assert.equal((await get(t, sign(keys[0]!))).status, 200);
      assert.equal((await get(t, sign(keys[0]!))).status, 200);
      assert.equal(fetches, 1);
    });

    it("refuses a token signed with a key the provider does not publish", async () => {
      const rogue = newKey("k1");
      assert.equal((await get(t, sign(rogue))).status, 401);
    });

    it("refuses an HS256 token signed with the public key (algorithm confusion)", async () => {
      const pem = keys[0]!.pub.export({ format: "pem", type: "spki" });
      const forged = jwt.sign({ sub: "jwks-user", aud: "jwks-app" }, pem, { algorithm: "HS256", keyid: "k1" });
      assert.equal((await get(t, forged)).status, 401);
    });

    it("refuses a wrong audience", async () => {
      assert.equal((await get(t, sign(keys[0]!, { audience: "other" }))).status, 401);
    });
  });

  describe("while the provider's keys cannot be fetched", () => {
    let down: http.Server;
    let t: TestServer;
    let token: string;
    before(async () => {
      down = http.createServer((_req, res) => res.writeHead(503).end());
      await new Promise<void>((r) => down.listen(0, "127.0.0.1", r));
      t = await startTestServer({ PUBLIC_IDP_APP_ID: "jwks-app", IDP_JWKS_URL: `http://127.0.0.1:${(down.address() as AddressInfo).port}/jwks` });
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      token = jwt.sign({ sub: "someone" }, privateKey, { algorithm: "RS256", keyid: "k1", audience: "jwks-app", expiresIn: 60 });
    });
    after(async () => {
      await t.close();
      await new Promise<void>((r) => down.close(() => r()));
    });

    it("answers 503 AUTH_UNAVAILABLE on REST, /ws and Colyseus joins, and never counts it as a failed attempt", async () => {
      for (let i = 0; i < AUTH_LIMIT_PER_MIN + 2; i++) {
        const rest = await get(t, token);
        assert.equal(rest.status, 503);
        assert.equal(((await rest.json()) as { error: { code: string } }).error.code, "AUTH_UNAVAILABLE");
        const ws = await WsTestClient.connect(`${t.wsUrl}?token=${encodeURIComponent(token)}`);
        const err = await ws.next("error");
        assert.equal(err.code, "AUTH_UNAVAILABLE", `attempt ${i + 1}`);
        assert.equal((await ws.waitClosed()).code, CLOSE_TRY_AGAIN_LATER);
        const join = await fetch(`${t.baseUrl}/matchmake/joinOrCreate/world`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) });
        assert.equal(join.status, 503, `join attempt ${i + 1}`);
      }
      assert.equal(await t.server.db.em().count(User, {}), 0, "no account was created");
    });
  });

});
