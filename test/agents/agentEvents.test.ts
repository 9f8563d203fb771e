/**
 * The agent's own events over its socket (src/game/agentEvents.ts): `agent:setGoal` sets an
 * autonomous goal as the REST route would, and is refused in the same cases, changing nothing.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(t: TestServer, method: string, p: string, token?: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(t.baseUrl + p, {
    method,
    headers: { ...(token !== undefined ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe("agent events on the agent's socket", () => {
  let t: TestServer;
  let owner: string;
  let agentId: string;
  let agentToken: string;

  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
    owner = String((await call(t, "POST", "/api/auth/anonymous")).body.token);
    const player = await call(t, "POST", "/api/v1/player", owner, { name: "Setter" });
    const reg = await call(t, "POST", "/api/agent", owner, { characterId: player.body.player.characterId });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    agentId = String(reg.body.agent.agentId);
    agentToken = String(reg.body.token);
  });
  after(() => t?.close());

  const goal = async () => (await call(t, "GET", `/api/agents/${agentId}/goal`, owner)).body;

  it("agent:setGoal sets an autonomous goal; unavailable, malformed, paused and non-agent ones are refused and change nothing", async () => {
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${agentToken}`);
    await ws.next("welcome");
    ws.send("agent:setGoal", { type: "woodcutting", target: "tree_normal" });
    await until(async () => (await goal()).goal?.type === "woodcutting");
    const set = (await goal()).goal;
    assert.equal(set.lockedBy, "autonomous");
    assert.equal(set.target, "tree_normal");

    ws.send("agent:setGoal", { type: "flying" });
    assert.equal((await ws.next("error")).code, "GOAL_UNAVAILABLE");
    ws.send("agent:setGoal", { type: "woodcutting", target: "tree_of_life" });
    assert.equal((await ws.next("error")).code, "GOAL_UNAVAILABLE");
    ws.send("agent:setGoal", { type: "" });
    assert.equal((await ws.next("error")).code, "INVALID_PAYLOAD");
    ws.send("agent:setGoal", { type: "explore", extra: 1 });
    assert.equal((await ws.next("error")).code, "INVALID_PAYLOAD");
    assert.equal((await goal()).goal.id, set.id, "the refused goals changed nothing");

    assert.equal((await call(t, "POST", `/api/agents/${agentId}/goal/stop`, owner)).status, 200);
    ws.send("agent:setGoal", { type: "explore" });
    assert.equal((await ws.next("error")).code, "GOALS_PAUSED");
    assert.equal((await goal()).goal, null);
    ws.close();

    // The owner's own (non-agent) connection plays the character but sets no agent goals.
    assert.equal((await call(t, "POST", `/api/agents/${agentId}/goal/resume`, owner)).status, 200);
    const mine = await WsTestClient.connect(`${t.wsUrl}?token=${owner}`);
    await mine.next("welcome");
    mine.send("agent:setGoal", { type: "explore" });
    assert.equal((await mine.next("error")).code, "FORBIDDEN");
    assert.equal((await goal()).goal, null);
    mine.close();
  });
});

async function until(test: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}
