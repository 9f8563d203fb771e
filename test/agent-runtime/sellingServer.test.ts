/**
 * A scripted agent selling on a real server (the runtime a separate process, as in production):
 * the server offers a `selling` goal naming the placed stores that buy what it carries, and the
 * agent sells its surplus at the store, keeping its tools. What it does is read on the server (the
 * live character's coins and inventory), never taken from the runtime's word.
 */
import assert from "node:assert/strict";
import { callJson as call } from "../support/http.ts";
import { eventually as waitFor } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const eventually = <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 60_000) => waitFor(probe, what, ms);
const TICK_MS = 150;

describe("a scripted agent selling on a real server", function () {
  this.timeout(120_000);
  let t: TestServer;
  let rt: RuntimeProcess | undefined;
  let owner: { token: string; characterId: string };
  let agentId: string;
  let agentToken: string;

  const player = () => t.server.world.world.players.get(owner.characterId);
  const count = (itemId: string) => player()!.data.inventory.reduce((n, s) => (s?.itemId === itemId ? n + s.quantity : n), 0);

  before(async () => {
    t = await startTestServer({ TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true" });
    const anon = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body;
    const created = await call(t.baseUrl, "POST", "/api/v1/player", anon.token, { name: "Robin" });
    owner = { token: anon.token, characterId: created.body.player.characterId };
    const reg = await call(t.baseUrl, "POST", "/api/agent", owner.token, { characterId: owner.characterId, name: "Robin" });
    assert.equal(reg.status, 201);
    agentId = reg.body.agent.agentId;
    agentToken = reg.body.token;
  });

  after(async () => {
    await rt?.stop();
    await t?.close();
  });

  it("sells its surplus (oak logs) at the general store for coins, and keeps its tools", async () => {
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "selling" } });
    // Paused before it plays: nothing chosen by itself until the items are in place.
    assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal/stop`, owner.token)).status, 200);
    assert.equal((await call(rt.url, "POST", "/agents", owner.token, { agentId, token: agentToken })).status, 201);
    await eventually(() => player(), "the agent's character in the world");
    const p = player()!;
    p.data.inventory[0] = { itemId: "bronze_hatchet", quantity: 1 };
    for (let slot = 1; slot <= 6; slot++) p.data.inventory[slot] = { itemId: "oak_logs", quantity: 1 };
    p.syncDue = true;
    const coins = p.data.coins;
    const { availableGoals } = (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner.token)).body;
    const selling = availableGoals.find((g: { type: string }) => g.type === "selling");
    assert.ok(selling?.targets.includes("brackenford_general"), JSON.stringify(availableGoals));
    assert.ok(!selling.targets.includes("brackenford_runes"), "a specialist that buys none of it is not offered");
    // The owner sets the sale (a goal set by hand while paused is pursued, then it idles).
    assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "selling", target: "brackenford_general" })).status, 200);
    await eventually(() => (count("oak_logs") === 0 ? true : undefined), "the oak logs sold");
    // Oak logs (value 12) at 40 %: 4 coins for the first, less as the store's stock grows.
    assert.ok(player()!.data.coins >= coins + 6 * 2, `coins ${coins} → ${player()!.data.coins}`);
    assert.equal(count("bronze_hatchet"), 1, "the hatchet kept");
  });
});
