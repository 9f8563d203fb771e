/**
 * A fresh scripted agent doing the default world's first quest on a real server (the runtime a
 * separate process, as in production): offered the `quest` goal, it talks to Warden Tamsin and
 * takes A Settler's Charter in her dialogue, kills five meadow rats, chops five logs and brings
 * them back, and gets the charter. Everything is read on the server (the live character), never
 * taken from the runtime's word.
 */
import assert from "node:assert/strict";
import { callJson as call } from "../support/http.ts";
import { eventually as waitFor } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const TICK_MS = 50;

describe("a scripted agent doing a quest on a real server", function () {
  this.timeout(400_000);
  let t: TestServer;
  let rt: RuntimeProcess;
  let owner: { token: string; characterId: string };
  let agentId: string;

  const player = () => t.server.world.world.players.get(owner.characterId);

  before(async () => {
    t = await startTestServer({ TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true" });
    const anon = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body;
    const created = await call(t.baseUrl, "POST", "/api/v1/player", anon.token, { name: "Questor" });
    owner = { token: anon.token, characterId: created.body.player.characterId };
    const reg = await call(t.baseUrl, "POST", "/api/agent", owner.token, { characterId: owner.characterId, name: "Questor" });
    assert.equal(reg.status, 201);
    agentId = reg.body.agent.agentId;
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "quest" } });
    assert.equal((await call(rt.url, "POST", "/agents", owner.token, { agentId, token: reg.body.token })).status, 201);
    await waitFor(() => player(), "the agent's character in the world", 30_000);
  });

  after(async () => {
    await rt?.stop();
    await t?.close();
  });

  it("is offered the quests it can start, and completes one by itself, with its reward", async () => {
    const { availableGoals } = (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner.token)).body;
    const quest = availableGoals.find((g: { type: string }) => g.type === "quest");
    // A new character may start every quest without requirements; the one in the content's first place comes first.
    assert.equal(quest?.targets[0], "settlers_charter");
    const offered: string[] = quest.targets;
    const completed = () => Object.entries(player()?.data.quests ?? {}).flatMap(([id, s]) => (s.status === "completed" ? [id] : []));
    const [first] = await waitFor(() => (completed().length > 0 ? completed() : undefined), "a quest completed", 300_000).catch(async (err) => {
      const seen = (await call(rt.url, "GET", `/agents/${agentId}`, owner.token)).body;
      throw new Error(`${String(err)}; the quests: ${JSON.stringify(player()?.data.quests)}; the agent: ${JSON.stringify(seen.activity?.slice(0, 25))}`);
    });
    // One it was offered, completed once, and no longer offered.
    assert.ok(offered.includes(first!), `${first} was among ${offered.join(", ")}`);
    assert.equal(player()?.data.quests?.[first!]?.completions, 1);
    const after = (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner.token)).body;
    const still: string[] = after.availableGoals.find((g: { type: string }) => g.type === "quest")?.targets ?? [];
    assert.ok(!still.includes(first!));
  });
});
