/**
 * The runtime's owner routes take the owner's token only. The server answers `GET /api/v1/player`
 * for an agent's token with its owner's account, so a runtime that took that answer alone let
 * agent A list its owner's agents and stop agent B. Here A's token is refused on every owner
 * route (403 AGENT_TOKEN_FORBIDDEN, the runtime's error shape), and B plays on.
 */
import assert from "node:assert/strict";
import { AGENT_TOKEN_FORBIDDEN } from "../../src/auth/agentScope.ts";
import { callJson, type Json } from "../support/http.ts";
import { eventually } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const call = callJson;

describe("agent runtime: an agent's token on the owner routes", function () {
  this.timeout(60_000);
  let t: TestServer;
  let rt: RuntimeProcess;
  let owner: string;
  const agents: { agentId: string; token: string; characterId: string }[] = [];

  const state = async (agentId: string) => ((await call(rt.url, "GET", `/agents/${agentId}`, owner)).body.agent as Json).state;

  before(async () => {
    t = await startTestServer({ TICK_MS: "60", DISABLE_RATE_LIMIT: "true" });
    owner = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body.token;
    const first = (await call(t.baseUrl, "POST", "/api/v1/player", owner, { name: "Alder" })).body.player.characterId;
    const second = (await call(t.baseUrl, "POST", "/api/character", owner, { name: "Birch" })).body.character.id;
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir });
    for (const characterId of [first, second]) {
      const reg = await call(t.baseUrl, "POST", "/api/agent", owner, { characterId });
      assert.equal(reg.status, 201, JSON.stringify(reg.body));
      agents.push({ agentId: reg.body.agent.agentId, token: reg.body.token, characterId });
      assert.equal((await call(rt.url, "POST", "/agents", owner, { agentId: reg.body.agent.agentId, token: reg.body.token })).status, 201);
    }
    for (const a of agents) await eventually(async () => ((await state(a.agentId)) === "playing" ? true : undefined), `${a.agentId} playing`);
  });

  after(async () => {
    await rt?.stop();
    await t?.close();
  });

  it("refuses agent A's token on POST, GET and DELETE /agents (403 AGENT_TOKEN_FORBIDDEN), and B keeps playing", async () => {
    const [a, b] = agents as [(typeof agents)[0], (typeof agents)[0]];
    const cases: [string, string, unknown][] = [
      ["GET", "/agents", undefined],
      ["GET", `/agents/${b.agentId}`, undefined],
      ["GET", `/agents/${a.agentId}`, undefined],
      ["DELETE", `/agents/${b.agentId}`, undefined],
      ["DELETE", `/agents/${a.agentId}`, undefined],
      ["POST", "/agents", { agentId: b.agentId, token: b.token }],
    ];
    for (const [method, p, body] of cases) {
      const r = await call(rt.url, method, p, a.token, body);
      assert.equal(r.status, 403, `${method} ${p}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(Object.keys(r.body).sort(), ["error", "success"]);
      assert.equal(r.body.success, false);
      assert.equal(r.body.error.code, AGENT_TOKEN_FORBIDDEN, `${method} ${p}`);
      assert.ok(r.body.error.message.length > 0);
    }
    // Both still played: the runtime says so, and so does the server's world.
    for (const x of agents) {
      assert.equal(await state(x.agentId), "playing");
      assert.ok(t.server.world.connectionOf(x.characterId) !== undefined, `${x.agentId} still in the world`);
    }
    // The owner's token still does what the agent's could not.
    const listed = await call(rt.url, "GET", "/agents", owner);
    assert.deepEqual(listed.body.agents.map((x: Json) => x.agentId).sort(), agents.map((x) => x.agentId).sort());
    assert.equal((await call(rt.url, "DELETE", `/agents/${b.agentId}`, owner)).status, 200);
    await eventually(() => (t.server.world.connectionOf(b.characterId) === undefined ? true : undefined), "B stopped by its owner");
  });
});
