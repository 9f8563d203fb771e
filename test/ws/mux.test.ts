/**
 * Multiplexed `/ws` connections (`/ws?mux=1`, src/ws/mux.ts): many sessions on one socket, each
 * logged in with its own token and playing as a plain socket's would; a tick's events in one
 * message; one `world:update` a tick with the union of the sessions' views; and every refusal
 * said per session, leaving the others alone.
 */
import assert from "node:assert/strict";
import { MUX_CLOSED } from "../../src/ws/mux.ts";
import { AuthUnavailable } from "../../src/auth/tokens.ts";
import { AUTH_LIMIT_PER_MIN } from "../../src/http/rateLimit.ts";
import { callJson } from "../support/http.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { MuxClient, waitFor } from "../support/muxClient.ts";
import { WsTestClient } from "../support/wsClient.ts";

describe("/ws?mux=1: many sessions on one socket", () => {
  let t: TestServer;
  const agents: { agentId: string; token: string; characterId: string; owner: string }[] = [];

  before(async () => {
    t = await startTestServer({ TICK_MS: "50", WS_MUX_MAX_SESSIONS: "3" });
    for (const name of ["Muxa", "Muxb", "Muxc", "Muxd"]) {
      const owner = String((await callJson(t.baseUrl, "POST", "/api/auth/anonymous")).body.token);
      const player = await callJson(t.baseUrl, "POST", "/api/v1/player", owner, { name });
      assert.equal(player.status, 201, JSON.stringify(player.body));
      const characterId = String(player.body.player.characterId);
      const reg = await callJson(t.baseUrl, "POST", "/api/agent", owner, { characterId });
      assert.equal(reg.status, 201, JSON.stringify(reg.body));
      agents.push({ agentId: String(reg.body.agent.agentId), token: String(reg.body.token), characterId, owner });
    }
  });
  after(() => t?.close());

  const inWorld = (characterId: string) => t.server.world.world.players.has(characterId);

  it("logs each session in with its own token, tags its events with its sid, and sends one world:update a tick with both players in it", async () => {
    const c = await MuxClient.connect(`${t.wsUrl}?mux=1&updates=compact`);
    c.send(1, "session:open", { token: agents[0]!.token });
    c.send(2, "session:open", { token: agents[1]!.token });
    const w1 = await c.next(1, "welcome");
    const w2 = await c.next(2, "welcome");
    assert.notEqual(w1.playerId, w2.playerId);
    assert.equal((await c.next(1, "player:sync")).id, w1.playerId);
    assert.equal((await c.next(2, "player:sync")).id, w2.playerId);
    assert.equal((await c.next(1, "agent:goal")).goalsPaused, false, "an agent's goal state at login, as on a plain socket");
    await waitFor(() => c.view.entities.has(String(w1.playerId)) && c.view.entities.has(String(w2.playerId)), "both players in the shared view");

    // Session 1 walks; the shared view follows it. Session 2's events stay its own.
    const start = { ...c.view.entities.get(String(w1.playerId))! };
    c.send(1, "player:move", { x: start.x + 3, z: start.z });
    await waitFor(() => c.view.entities.get(String(w1.playerId))!.x !== start.x, "session 1's player moved in the shared view");
    c.send(2, "player:chat", { message: "hello from two" });
    const line = await c.next(2, "chat:message");
    assert.equal(line.fromId, w2.playerId);
    // Session 1 is in view: the same line, tagged with its own sid.
    assert.deepEqual(await c.next(1, "chat:message"), line);

    const before = c.messages;
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(c.messages - before <= 300 / 50 + 2, `about one message a tick, got ${c.messages - before} in 300 ms`);
    assert.equal(c.doubleUpdates, 0, "never two world:updates in one message");
    c.send(1, "session:close");
    assert.deepEqual(await c.next(1, MUX_CLOSED), { code: 1000, reason: "logout" });
    await waitFor(() => !inWorld(agents[0]!.characterId), "the closed session's player logged out");
    assert.ok(inWorld(agents[1]!.characterId), "the other session plays on");
    await waitFor(
      () =>
        !c.view.entities.has(String(w1.playerId)) ||
        Math.max(Math.abs(c.view.entities.get(String(w1.playerId))!.x - c.view.entities.get(String(w2.playerId))!.x)) <= 19,
      "the logged-out player left the shared view",
    );
    c.socket.close(1000);
    await waitFor(() => !inWorld(agents[1]!.characterId), "closing the socket logs every session out");
  });

  it("refuses a bad session, and every frame that names no session, one at a time, and leaves the open session alone", async () => {
    const c = await MuxClient.connect(`${t.wsUrl}?mux=1`);
    c.send(5, "session:open", { token: agents[2]!.token });
    await c.next(5, "welcome");

    c.send(6, "session:open", { token: "not-a-token" });
    assert.equal((await c.next(6, "error")).code, "NOT_AUTHENTICATED");
    assert.equal((await c.next(6, MUX_CLOSED)).code, 4001);
    c.send(7, "session:open", {});
    assert.equal((await c.next(7, "error")).code, "INVALID_PAYLOAD");
    assert.equal((await c.next(7, MUX_CLOSED)).code, 4000);
    c.send(5, "session:open", { token: agents[2]!.token });
    assert.match(String((await c.next(undefined, "error")).message), /already open/);

    const cases: [string, string][] = [
      ["not json", "BAD_JSON"],
      ["[1,2]", "BAD_FRAME"],
      ['{"type":"player:chat","data":{"message":"x"}}', "INVALID_PAYLOAD"],
      ['{"sid":0,"type":"player:chat","data":{"message":"x"}}', "INVALID_PAYLOAD"],
      ['{"sid":1.5,"type":"player:chat","data":{"message":"x"}}', "INVALID_PAYLOAD"],
      ['{"sid":99,"type":"player:chat","data":{"message":"x"}}', "INVALID_PAYLOAD"],
    ];
    for (const [raw, code] of cases) {
      c.socket.send(raw);
      assert.equal((await c.next(undefined, "error")).code, code, raw);
    }
    c.socket.send(Buffer.from([1, 2]), { binary: true });
    assert.equal((await c.next(undefined, "error")).code, "BAD_FRAME");
    // A session's bad event is its own error, as on a plain socket.
    c.send(5, "player:move", { x: "east" });
    assert.equal((await c.next(5, "error")).code, "INVALID_PAYLOAD");
    c.send(5, "authenticate", { token: "x" });
    assert.equal((await c.next(5, "error")).code, "ALREADY_AUTHENTICATED");
    assert.ok(inWorld(agents[2]!.characterId), "the open session is still in the world");
    assert.equal(c.closed, undefined, "the socket stays open");
    c.socket.close(1000);
    await waitFor(() => !inWorld(agents[2]!.characterId), "logged out");
  });

  it(`holds at most WS_MUX_MAX_SESSIONS sessions (3 here): the next is refused with RATE_LIMITED and 1013`, async () => {
    const c = await MuxClient.connect(`${t.wsUrl}?mux=1`);
    for (let i = 0; i < 3; i++) c.send(i + 1, "session:open", { token: agents[i]!.token });
    for (let i = 0; i < 3; i++) await c.next(i + 1, "welcome");
    c.send(4, "session:open", { token: agents[3]!.token });
    assert.equal((await c.next(4, "error")).code, "RATE_LIMITED");
    assert.equal((await c.next(4, MUX_CLOSED)).code, 1013);
    assert.ok(!inWorld(agents[3]!.characterId), "not logged in");
    c.socket.close(1000);
    await waitFor(() => agents.slice(0, 3).every((a) => !inWorld(a.characterId)), "all logged out");
  });

  it("ends one session, not the socket, when its character is taken over (4009) or its agent deleted (4001)", async () => {
    const c = await MuxClient.connect(`${t.wsUrl}?mux=1`);
    c.send(1, "session:open", { token: agents[0]!.token });
    c.send(2, "session:open", { token: agents[1]!.token });
    await c.next(1, "welcome");
    await c.next(2, "welcome");
    const plain = await WsTestClient.connect(`${t.wsUrl}?token=${agents[0]!.token}`);
    await plain.next("welcome");
    assert.equal((await c.next(1, MUX_CLOSED)).code, 4009);
    assert.equal((await callJson(t.baseUrl, "DELETE", `/api/agent/${agents[1]!.agentId}`, agents[1]!.owner)).status, 200);
    assert.equal((await c.next(2, MUX_CLOSED)).code, 4001);
    assert.equal(c.closed, undefined, "the socket stays open");
    plain.close();
  });

  it("limits each session's messages as a plain socket's, and leaves a dropped socket's players in the world for their grace", async () => {
    const c = await MuxClient.connect(`${t.wsUrl}?mux=1`);
    c.send(1, "session:open", { token: agents[2]!.token });
    c.send(2, "session:open", { token: agents[3]!.token });
    await c.next(1, "welcome");
    await c.next(2, "welcome");
    // 130 in a burst: over 60 within one second even if the burst straddles two.
    for (let i = 0; i < 130; i++) c.send(1, "agent:getGoal");
    assert.equal((await c.next(1, "error")).code, "RATE_LIMITED");
    c.send(2, "player:chat", { message: "my own budget" });
    assert.equal((await c.next(2, "chat:message")).message, "my own budget");
    assert.ok(!c.has(2, "error"), "the other session's budget is its own");
    // Dropped without a close frame: a disconnect, not a logout (the players stay for the grace).
    c.socket.terminate();
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(inWorld(agents[2]!.characterId) && inWorld(agents[3]!.characterId), "still in the world within the grace");
    const back = await MuxClient.connect(`${t.wsUrl}?mux=1`);
    back.send(9, "session:open", { token: agents[2]!.token });
    await back.next(9, "welcome");
    back.socket.close(1000);
  });

  it("refuses ?mux other than 1, and a token on the socket itself, with 4000", async () => {
    for (const q of ["mux=2", `mux=1&token=${agents[2]!.token}`]) {
      const c = await WsTestClient.connect(`${t.wsUrl}?${q}`);
      assert.equal((await c.next("error")).code, "INVALID_PAYLOAD", q);
      assert.equal((await c.waitClosed()).code, 4000, q);
    }
  });
});

describe("/ws?mux=1: authentication attempts", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(() => t?.close());

  it(`counts a session's bad tokens against the address's ${AUTH_LIMIT_PER_MIN} a minute, as separate sockets' are: past them, RATE_LIMITED and 4029, no token checked`, async () => {
    const good = await t.server.tokens.signServiceToken({ accountId: "mux-attempts" }, 600);
    const c = await MuxClient.connect(`${t.wsUrl}?mux=1`);
    for (let i = 0; i < AUTH_LIMIT_PER_MIN; i++) {
      c.send(i + 1, "session:open", { token: `not-a-token-${i}` });
      assert.equal((await c.next(i + 1, "error")).code, "NOT_AUTHENTICATED");
      assert.equal((await c.next(i + 1, MUX_CLOSED)).code, 4001);
    }
    c.send(100, "session:open", { token: good });
    assert.equal((await c.next(100, "error")).code, "RATE_LIMITED");
    assert.equal((await c.next(100, MUX_CLOSED)).code, 4029);
    assert.ok(!c.has(100, "welcome"), "not logged in");
    c.socket.close(1000);
  });
});

describe("/ws?mux=1: authentication unavailable", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(() => t?.close());

  it("refuses a session with AUTH_UNAVAILABLE and 1013 while the identity provider's keys cannot be had, and the socket's other sessions go on", async () => {
    const auth = t.server.auth;
    const authenticate = auth.authenticate.bind(auth);
    const unavailable = "keys-unavailable";
    auth.authenticate = async (token: string) => {
      if (token === unavailable) throw new AuthUnavailable("the identity provider's keys are unavailable, try again later");
      return authenticate(token);
    };
    try {
      const c = await MuxClient.connect(`${t.wsUrl}?mux=1`);
      c.send(1, "session:open", { token: unavailable });
      const error = await c.next(1, "error");
      assert.equal(error.code, "AUTH_UNAVAILABLE");
      assert.match(String(error.message), /try again later/);
      assert.equal((await c.next(1, MUX_CLOSED)).code, 1013);
      assert.ok(!c.has(1, "welcome"), "not logged in");
      // The socket stays, and another session on it logs in.
      const good = await t.server.tokens.signServiceToken({ accountId: "mux-unavailable" }, 600);
      c.send(2, "session:open", { token: good });
      assert.equal(typeof (await c.next(2, "welcome")).playerId, "string");
      assert.equal(c.closed, undefined);
      c.socket.close(1000);
    } finally {
      auth.authenticate = authenticate;
    }
  });
});
