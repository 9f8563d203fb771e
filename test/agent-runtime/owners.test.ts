/**
 * Whose chat commands an agent obeys (agent-runtime/owners.ts): its owner's characters, read from
 * the agent's mapping with the agent's own token (`ownerCharacterIds`), again for an unknown
 * speaker at most once every OWNER_REFRESH_MS, and nobody's when the server cannot say.
 */
import assert from "node:assert/strict";
import http from "node:http";
import { OWNER_REFRESH_MS, OwnerCharacters } from "../../agent-runtime/owners.ts";
import { ServerApi } from "../../agent-runtime/serverApi.ts";
import { callJson } from "../support/http.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("agent runtime: the owner's characters", function () {
  this.timeout(30_000);
  let t: TestServer;
  let owner: string;
  let robin: string;
  let agentId: string;
  let agentToken: string;

  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
    owner = (await callJson(t.baseUrl, "POST", "/api/auth/anonymous")).body.token;
    robin = (await callJson(t.baseUrl, "POST", "/api/v1/player", owner, { name: "Robin" })).body.player.characterId;
    const reg = await callJson(t.baseUrl, "POST", "/api/agent", owner, { characterId: robin });
    agentId = reg.body.agent.agentId;
    agentToken = reg.body.token;
  });
  after(() => t?.close());

  const character = async (token: string, name: string) => {
    const made = await callJson(t.baseUrl, "POST", "/api/character", token, { name });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return String(made.body.character.id);
  };

  it("the agent's mapping names every character of its owner, to the agent's own token", async () => {
    const ada = await character(owner, "Ada");
    const mapping = await callJson(t.baseUrl, "GET", `/api/agents/mapping/${agentId}`, agentToken);
    assert.equal(mapping.status, 200);
    assert.deepEqual([...mapping.body.ownerCharacterIds].sort(), [ada, robin].sort());
  });

  it("knows the owner's characters, not a stranger's, and learns a new one once the refresh interval has passed", async () => {
    let now = 0;
    const owners = new OwnerCharacters(new ServerApi(t.baseUrl), agentId, agentToken, () => now);
    const stranger = (await callJson(t.baseUrl, "POST", "/api/auth/anonymous")).body.token;
    const bob = String((await callJson(t.baseUrl, "POST", "/api/v1/player", stranger, { name: "Bob" })).body.player.characterId);
    assert.equal(await owners.has(robin), true);
    assert.equal(await owners.has(bob), false);
    const cleo = await character(owner, "Cleo");
    now += OWNER_REFRESH_MS - 1;
    assert.equal(await owners.has(cleo), false, "not read again within the interval");
    now += 1;
    assert.equal(await owners.has(cleo), true, "read again after it");
    assert.equal(await owners.has(bob), false);
  });

  it("obeys nobody new when the server cannot say (unreachable)", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const owners = new OwnerCharacters(new ServerApi(`http://127.0.0.1:${port}`), agentId, agentToken);
    assert.equal(await owners.has(robin), false);
  });
});
