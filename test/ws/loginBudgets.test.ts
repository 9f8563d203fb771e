/**
 * What logging in over `/ws` (and joining the Colyseus world room) may cost (src/ws/loginBudgets.ts): a multiplexed socket's opens, and
 * one character's logins on any socket, are budgeted; a refused open writes nothing (no welcome,
 * no takeover, no `playerSessions` row) and is said with RATE_LIMITED and 4029.
 */
import assert from "node:assert/strict";
import { Client } from "@colyseus/sdk";
import { PlayerSession } from "../../entities/index.ts";
import { MUX_CLOSED } from "../../src/ws/mux.ts";
import { LOGINS_PER_CHARACTER, MUX_OPEN_BURST, OpenBucket } from "../../src/ws/loginBudgets.ts";
import { forEachDialect } from "../support/dialects.ts";
import { MuxClient, waitFor } from "../support/muxClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

forEachDialect("/ws login budgets", (ctx) => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DATABASE_URL: ctx.url });
  });
  after(() => t?.close());

  const rows = (characterId: string) => t.server.db.em().count(PlayerSession, { characterId });

  it(`answers 100 session:opens of one token on one socket with at most ${LOGINS_PER_CHARACTER} logins: the rest RATE_LIMITED and 4029, with no row written`, async () => {
    const token = await t.server.tokens.signServiceToken({ accountId: "budget-one-token" }, 600);
    const c = await MuxClient.connect(`${t.wsUrl}?mux=1`);
    for (let sid = 1; sid <= 100; sid++) c.send(sid, "session:open", { token });
    // Every open is answered: a welcome, or a session:closed (refused, or taken over by a later login).
    const answered = (sid: number) => c.envelopes.some((e) => e.sid === sid && e.type === MUX_CLOSED) || (c.has(sid, "welcome") && c.has(sid, "player:sync"));
    // Generous: the logins that go through take one another over, one at a time.
    await until(() => (Array.from({ length: 100 }, (_, i) => i + 1).every(answered) ? true : undefined), "every open answered", 60_000);
    const welcomes = c.envelopes.filter((e) => e.type === "welcome");
    const refused = c.envelopes.filter((e) => e.type === "error" && e.data.code === "RATE_LIMITED");
    assert.ok(welcomes.length >= 1 && welcomes.length <= LOGINS_PER_CHARACTER, `${welcomes.length} logins`);
    assert.equal(refused.length, 100 - welcomes.length, "every other open refused RATE_LIMITED");
    for (const e of refused) {
      assert.match(String(e.data.message), /too many logins of this character/);
      assert.equal(e.data.event, "session:open");
      const closed = c.envelopes.find((x) => x.sid === e.sid && x.type === MUX_CLOSED);
      assert.deepEqual(closed?.data, { code: 4029, reason: "too many logins" });
    }
    const characterId = String(welcomes[0]!.data.playerId);
    // Each login's row is written after its welcome: wait for as many as there were logins, no more.
    await eventually(async () => ((await rows(characterId)) >= welcomes.length ? true : undefined), "the logins' rows");
    assert.equal(await rows(characterId), welcomes.length, "one playerSessions row a login, none for the refused");
    c.socket.close(1000);
  });

  it("refuses a plain socket's login of a character past its budget with RATE_LIMITED and 4029, before it is logged in", async () => {
    const token = await t.server.tokens.signServiceToken({ accountId: "budget-plain" }, 600);
    let characterId = "";
    for (let i = 0; i < LOGINS_PER_CHARACTER; i++) {
      const ok = await WsTestClient.connect(`${t.wsUrl}?token=${token}`);
      characterId = String((await ok.next("welcome")).playerId);
      ok.close();
      await ok.waitClosed();
    }
    // Each login's row is written after its welcome: count once all ten are in, or a late one would
    // look like a row of the refused login.
    await eventually(async () => ((await rows(characterId)) >= LOGINS_PER_CHARACTER ? true : undefined), "the logins' rows");
    const before = await rows(characterId);
    const c = await WsTestClient.connect(`${t.wsUrl}?token=${token}`);
    const error = await c.next("error");
    assert.equal(error.code, "RATE_LIMITED");
    assert.match(String(error.message), /at most 10 a minute/);
    assert.deepEqual(await c.waitClosed(), { code: 4029, reason: "too many logins" });
    assert.equal(await rows(characterId), before, "no row for the refused login");
  });

  it("counts a character's Colyseus joins with its /ws logins: a join past the budget is refused 429 RATE_LIMITED, before it is logged in", async () => {
    const token = await t.server.tokens.signServiceToken({ accountId: "budget-colyseus" }, 600);
    let characterId = "";
    // Half the budget over /ws, half through the Colyseus SDK.
    for (let i = 0; i < LOGINS_PER_CHARACTER / 2; i++) {
      const ok = await WsTestClient.connect(`${t.wsUrl}?token=${token}`);
      characterId = String((await ok.next("welcome")).playerId);
      ok.close();
      await ok.waitClosed();
    }
    const sdkJoin = async () => {
      const sdk = new Client(t.baseUrl);
      sdk.auth.token = token;
      return sdk.joinOrCreate("world");
    };
    for (let i = 0; i < LOGINS_PER_CHARACTER / 2; i++) await (await sdkJoin()).leave();
    await eventually(async () => ((await rows(characterId)) >= LOGINS_PER_CHARACTER ? true : undefined), "the logins' rows");
    const before = await rows(characterId);
    const err = (await sdkJoin().then(
      () => assert.fail("the eleventh login joined"),
      (e: unknown) => e,
    )) as { code?: number; message?: string };
    assert.equal(err.code, 429);
    assert.match(String(err.message), /^RATE_LIMITED: too many logins of this character: at most 10 a minute/);
    assert.equal(await rows(characterId), before, "no row for the refused join");
    assert.equal(t.server.world.world.players.has(characterId), false, "not logged in by the refused join");
  });

  it(`refuses the session:opens of one socket past a burst of ${MUX_OPEN_BURST} (RATE_LIMITED, 4029) before their tokens are checked`, async () => {
    const c = await MuxClient.connect(`${t.wsUrl}?mux=1`);
    // Bad tokens would count against the address's attempts: these are refused before any check.
    const token = await t.server.tokens.signServiceToken({ accountId: "budget-burst" }, 600);
    const n = MUX_OPEN_BURST + 50;
    for (let sid = 1; sid <= n; sid++) c.send(sid, "session:open", { token });
    await waitFor(
      () => c.envelopes.some((e) => e.type === MUX_CLOSED && e.data.reason === "too many session opens"),
      "an open refused for the socket's budget",
    );
    const refusal = c.envelopes.find((e) => e.type === MUX_CLOSED && e.data.reason === "too many session opens")!;
    assert.equal(refusal.data.code, 4029);
    const error = c.envelopes.find((e) => e.sid === refusal.sid && e.type === "error")!;
    assert.equal(error.data.code, "RATE_LIMITED");
    assert.match(String(error.data.message), /too many session:opens on this connection/);
    assert.ok(refusal.sid! > MUX_OPEN_BURST, "the burst itself is let through");
    c.socket.close(1000);
  });
});

describe("OpenBucket", () => {
  it("lets a burst through at once, then opens at its rate", () => {
    let now = 0;
    const bucket = new OpenBucket(100, 50, () => now);
    for (let i = 0; i < 100; i++) assert.equal(bucket.take(), true, `open ${i + 1} of the burst`);
    assert.equal(bucket.take(), false, "past the burst");
    now += 20;
    assert.equal(bucket.take(), true, "one more 20 ms later (50 a second)");
    assert.equal(bucket.take(), false);
    now += 10_000;
    for (let i = 0; i < 100; i++) assert.equal(bucket.take(), true, "refilled to the burst, not beyond");
    assert.equal(bucket.take(), false);
  });
});
