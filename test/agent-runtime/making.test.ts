/**
 * A scripted agent making things on a real server (the runtime a separate process, as in
 * production): given ores and a hammer and the `making` goal, it walks to the furnace, smelts bronze
 * bars, then takes them to the anvil and smiths them. What it made is read on the server (the live
 * character), never taken from the runtime's word.
 */
import assert from "node:assert/strict";
import { callJson as call } from "../support/http.ts";
import { eventually as waitFor } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const eventually = <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 60_000) => waitFor(probe, what, ms);
const TICK_MS = 150;

describe("a scripted agent making things on a real server", function () {
  this.timeout(150_000);
  let t: TestServer;
  let rt: RuntimeProcess;
  let owner: { token: string; characterId: string };
  let agentId: string;

  const player = () => t.server.world.world.players.get(owner.characterId);
  const count = (itemId: string) => player()!.data.inventory.reduce((n, s) => (s?.itemId === itemId ? n + s.quantity : n), 0);

  before(async () => {
    t = await startTestServer({ TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true" });
    const anon = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body;
    const created = await call(t.baseUrl, "POST", "/api/v1/player", anon.token, { name: "Smithy" });
    owner = { token: anon.token, characterId: created.body.player.characterId };
    const reg = await call(t.baseUrl, "POST", "/api/agent", owner.token, { characterId: owner.characterId, name: "Smithy" });
    assert.equal(reg.status, 201);
    agentId = reg.body.agent.agentId;
    // Paused: it chooses nothing by itself until the test gives it its goal.
    assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal/stop`, owner.token)).status, 200);
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "making" } });
    assert.equal((await call(rt.url, "POST", "/agents", owner.token, { agentId, token: reg.body.token })).status, 201);
    await eventually(() => player(), "the agent's character in the world");
  });

  after(async () => {
    await rt?.stop();
    await t?.close();
  });

  it("is offered no making goal with nothing to make", async () => {
    const { availableGoals } = (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner.token)).body;
    assert.equal(
      availableGoals.find((g: { type: string }) => g.type === "making"),
      undefined,
      JSON.stringify(availableGoals.map((g: { type: string }) => g.type)),
    );
  });

  it("smelts bronze bars from the ores it was given, then smiths them at the anvil", async () => {
    const p = player()!;
    const free = () => p.data.inventory.findIndex((s, i) => s === null && i >= 10);
    for (const [itemId, quantity] of [
      ["copper_ore", 1],
      ["copper_ore", 1],
      ["tin_ore", 1],
      ["tin_ore", 1],
      ["hammer", 1],
    ] as const)
      p.data.inventory[free()] = { itemId, quantity };
    p.syncDue = true;
    const smithingXp = p.data.skills.smithing.xpTenths;
    // A new character carries a bronze dagger already (the default template).
    const daggers = count("bronze_dagger");
    const { availableGoals } = (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner.token)).body;
    const making = availableGoals.find((g: { type: string }) => g.type === "making");
    assert.deepEqual(making?.targets, ["smelting:bronze_bar"], "only the bars can be made from ores");
    const set = await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "making" });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await eventually(() => (count("copper_ore") === 0 && count("tin_ore") === 0 ? true : undefined), "the ores smelted");
    // Every bar smithed: bronze daggers (1 bar each, Smithing 1) with the hammer kept.
    await eventually(() => (count("bronze_bar") === 0 && count("bronze_dagger") === daggers + 2 ? true : undefined), "two bronze daggers smithed").catch(
      async (err) => {
        const seen = (await call(rt.url, "GET", `/agents/${agentId}`, owner.token)).body;
        throw new Error(`${String(err)}; the agent: ${JSON.stringify(seen.agent?.activity?.slice(0, 16))}`);
      },
    );
    assert.equal(count("hammer"), 1, "the hammer is kept");
    // Smelting 6.5 xp a bar, a bronze dagger 12.5 (the default world's recipes), in tenths.
    assert.equal(player()!.data.skills.smithing.xpTenths - smithingXp, 2 * 65 + 2 * 125);
  });
});
