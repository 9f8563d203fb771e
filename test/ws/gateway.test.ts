import assert from "node:assert/strict";
import http from "node:http";
import WebSocket from "ws";
import type { AddressInfo } from "node:net";
import { Room } from "@colyseus/core";
import { User } from "../../entities/index.ts";
import { Client as ColyseusClient } from "@colyseus/sdk";
import { pino } from "pino";
import { Authenticator } from "../../src/auth/Authenticator.ts";
import { TokenService } from "../../src/auth/tokens.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { MAX_FRAME_BYTES } from "../../src/ws/envelope.ts";
import { CLOSE_NOT_AUTHENTICATED, WsGateway } from "../../src/ws/WsGateway.ts";
import { signJwt, unsignedJwt, type SignOptions } from "../support/jwt.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

/** A room defined by the test only, to prove Colyseus connections share the port with /ws. */
class EchoRoom extends Room {
  override onCreate(): void {
    this.onMessage("echo", (client, message: unknown) => client.send("echo", message));
  }
}

describe("/ws in anonymous mode", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    t.server.colyseus.define("echo_test", EchoRoom);
  });
  after(() => t.close());

  it("gives a connection without a token a temporary identity and a token to come back with", async () => {
    const c = await WsTestClient.connect(t.wsUrl);
    const welcome = await c.next("welcome");
    assert.equal(welcome.anonymous, true);
    assert.match(String(welcome.accountId), /^anon-/);
    assert.equal(typeof welcome.token, "string");
    assert.equal((await t.server.tokens.verify(String(welcome.token))).accountId, welcome.accountId);
    c.close();

    const again = await WsTestClient.connect(`${t.wsUrl}?token=${welcome.token}`);
    const back = await again.next("welcome");
    assert.equal(back.accountId, welcome.accountId, "same temporary player");
    assert.equal(back.token, undefined, "no new token for a returning identity");
    again.close();
  });

  it("answers bad frames with error events and keeps the socket open", async () => {
    const c = await WsTestClient.connect(t.wsUrl);
    await c.next("welcome");
    const cases: [string | Buffer, string, boolean?][] = [
      ["not json", "BAD_JSON"],
      ["[1,2,3]", "BAD_FRAME"],
      ["42", "BAD_FRAME"],
      ['{"data":{}}', "BAD_FRAME"],
      ['{"type":"x","data":[]}', "INVALID_PAYLOAD"],
      ['{"type":"x","data":"str"}', "INVALID_PAYLOAD"],
      ['{"type":"no:such:event","data":{}}', "UNKNOWN_EVENT"],
      ['{"type":"authenticate","data":{"token":"x"}}', "ALREADY_AUTHENTICATED"],
      [Buffer.from([1, 2, 3]), "BAD_FRAME", true],
    ];
    for (const [raw, code, binary] of cases) {
      c.sendRaw(raw, binary);
      const err = await c.next("error");
      assert.equal(err.code, code, String(raw));
      assert.equal(typeof err.message, "string");
    }
    assert.equal(c.closed, undefined);
    c.close();
  });

  it(`closes a socket that sends a frame over ${MAX_FRAME_BYTES / 1024} KiB with 1009`, async () => {
    const c = await WsTestClient.connect(t.wsUrl);
    await c.next("welcome");
    c.sendRaw(JSON.stringify({ type: "player:chat", data: { message: "x".repeat(MAX_FRAME_BYTES) } }));
    assert.equal((await c.waitClosed()).code, 1009);
  });

  it("refuses an invalid token with NOT_AUTHENTICATED and close code 4001", async () => {
    const c = await WsTestClient.connect(`${t.wsUrl}?token=not.a.token`);
    assert.equal((await c.next("error")).code, "NOT_AUTHENTICATED");
    assert.equal((await c.waitClosed()).code, CLOSE_NOT_AUTHENTICATED);
  });

  it("refuses tokens with alg none, a wrong key or an expired time", async () => {
    const none = unsignedJwt({ sub: "x", role: "admin" }, { issuer: "rs-world-server" });
    const wrongKey = await signJwt({ sub: "x", role: "player" }, "another-secret", { issuer: "rs-world-server" });
    const expired = await t.server.tokens.signServiceToken({ accountId: "x" }, -10);
    for (const token of [none, wrongKey, expired]) {
      const c = await WsTestClient.connect(`${t.wsUrl}?token=${token}`);
      assert.equal((await c.next("error")).code, "NOT_AUTHENTICATED");
      assert.equal((await c.waitClosed()).code, CLOSE_NOT_AUTHENTICATED);
    }
  });

  it("shares the port with Colyseus: matchmaking and room connections still work", async () => {
    const sdk = new ColyseusClient(t.baseUrl);
    const room = await sdk.joinOrCreate("echo_test");
    const reply = new Promise((resolve) => room.onMessage("echo", resolve));
    room.send("echo", { hello: "world" });
    assert.deepEqual(await reply, { hello: "world" });
    await room.leave();
  });

  it("does not route /ws lookalike paths to the gateway", async () => {
    await assert.rejects(WsTestClient.connect(t.wsUrl.replace("/ws", "/wsx")).then((c) => c.next("welcome", 1_500)));
  });
});

describe("/ws with an identity provider configured", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ PUBLIC_IDP_APP_ID: "the-app", IDP_APP_SECRET: "the-idp-secret" });
  });
  after(() => t.close());

  const idpToken = (claims: object, opts: SignOptions = {}) => signJwt({ sub: "user-1", ...claims }, "the-idp-secret", { audience: "the-app", ...opts });

  it("accepts an identity-provider token in the query, creating the account's users row on first use", async () => {
    const c = await WsTestClient.connect(`${t.wsUrl}?token=${await idpToken({})}`);
    const welcome = await c.next("welcome");
    const user = await t.server.db.em().findOneOrFail(User, { idpUserId: "user-1" });
    assert.equal(welcome.accountId, user.id);
    assert.equal(user.anonymous, false);
    assert.equal(welcome.anonymous, false);
    c.close();
  });

  it("accepts a token sent as the first message, as the same account", async () => {
    const c = await WsTestClient.connect(t.wsUrl);
    c.send("authenticate", { token: await idpToken({}) });
    const user = await t.server.db.em().findOneOrFail(User, { idpUserId: "user-1" });
    assert.equal((await c.next("welcome")).accountId, user.id);
    assert.equal(await t.server.db.em().count(User, { idpUserId: "user-1" }), 1);
    c.close();
  });

  it("closes with 4001 when the first message is not authenticate", async () => {
    const c = await WsTestClient.connect(t.wsUrl);
    c.send("player:chat", { message: "hi" });
    assert.equal((await c.next("error")).code, "NOT_AUTHENTICATED");
    assert.equal((await c.waitClosed()).code, CLOSE_NOT_AUTHENTICATED);
  });

  it("refuses a provider token for another audience", async () => {
    const c = await WsTestClient.connect(`${t.wsUrl}?token=${await idpToken({}, { audience: "other-app" })}`);
    assert.equal((await c.waitClosed()).code, CLOSE_NOT_AUTHENTICATED);
  });

  it("does not hand out anonymous identities", async () => {
    const c = await WsTestClient.connect(t.wsUrl);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(c.events.length, 0, "no welcome before authentication");
    c.close();
  });
});

describe("/ws authentication timeout", () => {
  it("closes with 4001 when no authenticate message arrives in time", async () => {
    const tokens = new TokenService({ jwtSecret: "k".repeat(32), idp: { appId: "a", appSecret: "b" } });
    const db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: "sqlite::memory:" }), pino({ level: "silent" }));
    const gateway = new WsGateway({ auth: new Authenticator(tokens, db), anonymousMode: false, logger: pino({ level: "silent" }), authTimeoutMs: 200 });
    const server = http.createServer();
    server.on("upgrade", (req, socket, head) => gateway.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const c = await WsTestClient.connect(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`);
      const err = await c.next("error");
      assert.equal(err.code, "NOT_AUTHENTICATED");
      assert.equal((await c.waitClosed()).code, CLOSE_NOT_AUTHENTICATED);
    } finally {
      gateway.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await db.close();
    }
  });

  it("closes a multiplexed connection (/ws?mux=1) with 4001 when no session opens in time", async () => {
    const tokens = new TokenService({ jwtSecret: "k".repeat(32), idp: { appId: "a", appSecret: "b" } });
    const db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: "sqlite::memory:" }), pino({ level: "silent" }));
    const gateway = new WsGateway({ auth: new Authenticator(tokens, db), anonymousMode: true, logger: pino({ level: "silent" }), authTimeoutMs: 200 });
    const server = http.createServer();
    server.on("upgrade", (req, socket, head) => gateway.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      // Even in anonymous mode: a multiplexed socket has no identity of its own to hand out.
      const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws?mux=1`);
      const messages: string[] = [];
      socket.on("message", (raw) => messages.push(raw.toString()));
      const code = await new Promise<number>((resolve) => socket.on("close", resolve));
      assert.equal(code, CLOSE_NOT_AUTHENTICATED);
      assert.deepEqual(
        messages.map((m) => (JSON.parse(m) as { type: string; data: { code: string } }[]).map((e) => [e.type, e.data.code])),
        [[["error", "NOT_AUTHENTICATED"]]],
      );
    } finally {
      gateway.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await db.close();
    }
  });
});
