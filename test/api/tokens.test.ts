import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, type CryptoKey } from "jose";
import { User } from "../../entities/index.ts";
import { AUTH_LIMIT_PER_MIN } from "../../src/http/rateLimit.ts";
import { CLOSE_TRY_AGAIN_LATER } from "../../src/ws/WsGateway.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { signJwt, unsignedJwt, type SignOptions } from "../support/jwt.ts";
import { WsTestClient } from "../support/wsClient.ts";

const get = (t: TestServer, token?: string) =>
  fetch(`${t.baseUrl}/api/v1/player`, { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } });

const SERVICE_SECRET = "service-secret-".repeat(4);

describe("tokens", () => {
  // On both databases: a provider's user gets its users row on first use.
  forEachDialect("with an identity provider (shared secret)", (ctx) => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ PUBLIC_IDP_APP_ID: "the-app", IDP_APP_SECRET: "idp-secret", JWT_SECRET: SERVICE_SECRET, DATABASE_URL: ctx.url });
    });
    after(() => t.close());
    const idp = (claims: object, opts: SignOptions = {}, secret = "idp-secret") =>
      signJwt({ sub: "user-77", ...claims }, secret, { audience: "the-app", ...opts });

    it("accepts a valid provider token and creates the users row on first use only", async () => {
      assert.equal((await get(t, await idp({}))).status, 200);
      assert.equal((await get(t, await idp({}))).status, 200);
      assert.equal(await t.server.db.em().count(User, { idpUserId: "user-77" }), 1);
    });

    for (const [what, token] of [
      ["alg none", () => unsignedJwt({ sub: "user-77" }, { audience: "the-app" })],
      ["a wrong audience", () => idp({}, { audience: "other-app" })],
      ["a wrong key", () => idp({}, {}, "not-the-secret")],
      ["an expired time", () => idp({}, { expiresIn: -30 })],
      ["no subject", () => signJwt({}, "idp-secret", { audience: "the-app" })],
      ["a service token with a wrong key", () => signJwt({ sub: "x", role: "admin" }, "guess", { issuer: "rs-world-server" })],
      ["an expired service token", () => t.server.tokens.signServiceToken({ accountId: "x" }, -5)],
      ["garbage", () => "not-a-jwt"],
      ["a provider token without an expiry", () => idp({}, { expiresIn: null })],
      ["a service token without an expiry", () => signJwt({ sub: "x", role: "player" }, SERVICE_SECRET, { issuer: "rs-world-server", expiresIn: null })],
      [
        "an anonymous token (minted by a server in anonymous mode with the same secret)",
        () => t.server.tokens.signServiceToken({ accountId: "anon-x", anonymous: true }, 600),
      ],
    ] as const) {
      it(`refuses ${what} with 401`, async () => {
        const res = await get(t, await token());
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
    /** What the provider publishes: each key with the `alg` it names for it, or none. */
    let keys: { kid: string; priv: CryptoKey; pub: CryptoKey; alg: string | null }[];
    let fetches = 0;
    let t: TestServer;
    const newKey = async (kid: string, alg: string, published: string | null = alg) => {
      const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
      return { kid, priv: privateKey, pub: publicKey, alg: published };
    };
    before(async () => {
      keys = [await newKey("k1", "RS256"), await newKey("ec1", "ES256"), await newKey("ed1", "EdDSA", null)];
      const jwks = {
        keys: await Promise.all(keys.map(async (k) => ({ ...(await exportJWK(k.pub)), kid: k.kid, use: "sig", ...(k.alg ? { alg: k.alg } : {}) }))),
      };
      jwksServer = http.createServer((_req, res) => {
        fetches++;
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify(jwks));
      });
      await new Promise<void>((r) => jwksServer.listen(0, "127.0.0.1", r));
      const url = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`;
      t = await startTestServer({ PUBLIC_IDP_APP_ID: "jwks-app", IDP_JWKS_URL: url });
    });
    after(async () => {
      await t.close();
      await new Promise<void>((r) => jwksServer.close(() => r()));
    });
    const key = (kid: string) => keys.find((k) => k.kid === kid)!;
    /** Signs with k's private key, taken as a key of `alg` (a Web Crypto key is bound to one algorithm). */
    const sign = async (k: { kid: string; priv: CryptoKey }, alg: string, opts: SignOptions = {}) => {
      const priv = /^(RS|PS)/.test(alg) ? await importPKCS8(await exportPKCS8(k.priv), alg) : k.priv;
      return signJwt({ sub: "jwks-user" }, priv, { alg, kid: k.kid, audience: "jwks-app", ...opts });
    };

    it("verifies RS256, ES256 and EdDSA (Ed25519) tokens with the fetched keys, and caches them", async () => {
      for (const [kid, alg] of [
        ["k1", "RS256"],
        ["ec1", "ES256"],
        ["ed1", "EdDSA"],
        ["ed1", "Ed25519"],
        ["k1", "RS256"],
      ] as const) {
        const res = await get(t, await sign(key(kid), alg));
        assert.equal(res.status, 200, `${alg} with ${kid}: ${await res.text()}`);
      }
      assert.equal(fetches, 1);
      assert.equal(await t.server.db.em().count(User, { idpUserId: "jwks-user" }), 1);
    });

    it("refuses a token signed with an algorithm its key is not for", async () => {
      // Valid signatures by the right private key, but k1 is published for RS256 only.
      for (const alg of ["PS256", "RS384"]) assert.equal((await get(t, await sign(key("k1"), alg))).status, 401, alg);
      // An Ed25519 key under the id of the RSA key, and the RSA key under the id of the EC key.
      assert.equal((await get(t, await sign({ ...key("ed1"), kid: "k1" }, "EdDSA"))).status, 401);
      assert.equal((await get(t, await sign({ ...key("k1"), kid: "ec1" }, "RS256"))).status, 401);
    });

    it("refuses a token signed with a key the provider does not publish", async () => {
      const rogue = await newKey("k1", "RS256");
      assert.equal((await get(t, await sign(rogue, "RS256"))).status, 401);
      const unknown = await newKey("k-unknown", "ES256");
      assert.equal((await get(t, await sign(unknown, "ES256"))).status, 401);
    });

    it("refuses an HS256 token signed with the public key (algorithm confusion), and alg none", async () => {
      const pem = await exportSPKI(key("k1").pub);
      for (const secret of [pem, `${pem}\n`, JSON.stringify(await exportJWK(key("k1").pub))]) {
        const forged = await signJwt({ sub: "jwks-user" }, secret, { alg: "HS256", kid: "k1", audience: "jwks-app" });
        assert.equal((await get(t, forged)).status, 401);
      }
      assert.equal((await get(t, unsignedJwt({ sub: "jwks-user" }, { audience: "jwks-app" }))).status, 401);
    });

    it("refuses a wrong audience, an expired token and one without an expiry", async () => {
      assert.equal((await get(t, await sign(key("ed1"), "EdDSA", { audience: "other" }))).status, 401);
      assert.equal((await get(t, await sign(key("ec1"), "ES256", { expiresIn: -30 }))).status, 401);
      assert.equal((await get(t, await sign(key("k1"), "RS256", { expiresIn: null }))).status, 401);
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
      const { privateKey } = await generateKeyPair("RS256");
      token = await signJwt({ sub: "someone" }, privateKey, { alg: "RS256", kid: "k1", audience: "jwks-app" });
    });
    after(async () => {
      await t.close();
      await new Promise<void>((r) => down.close(() => r()));
    });

    it("answers 503 AUTH_UNAVAILABLE on REST, /ws and Colyseus joins, and never counts it as a failed attempt", async () => {
      for (let i = 0; i < AUTH_LIMIT_PER_MIN + 2; i++) {
        const rest = await get(t, token);
        assert.equal(rest.status, 503);
        const body = (await rest.json()) as { error: { code: string; message: string } };
        assert.deepEqual(
          body.error,
          { code: "AUTH_UNAVAILABLE", message: "the identity provider's keys are unavailable, try again later" },
          "no detail of the key fetch",
        );
        const ws = await WsTestClient.connect(`${t.wsUrl}?token=${encodeURIComponent(token)}`);
        const err = await ws.next("error");
        assert.equal(err.code, "AUTH_UNAVAILABLE", `attempt ${i + 1}`);
        assert.doesNotMatch(String(err.message), /HTTP|fetch/);
        assert.equal((await ws.waitClosed()).code, CLOSE_TRY_AGAIN_LATER);
        const join = await fetch(`${t.baseUrl}/matchmake/joinOrCreate/world`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ token }),
        });
        assert.equal(join.status, 503, `join attempt ${i + 1}`);
      }
      assert.equal(await t.server.db.em().count(User, {}), 0, "no account was created");
    });
  });
});
