/**
 * The runtime with a language model configured (LOCAL_MODEL_URL), against a local
 * OpenAI-compatible server this test starts: the model is asked with the agent's observation and
 * the goal schema, its choice becomes the agent's goal on the game server, its words are the
 * agent's chat reply; and an answer the server would refuse falls back to the scripted brain.
 */
import assert from "node:assert/strict";
import { callJson, type Json } from "../support/http.ts";
import { eventually } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { FakeModelServer, type Recorded } from "../support/fakeModel.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const call = callJson;

/** A goal choice asks for structured output; a chat reply does not. */
const isGoalRequest = (r: Recorded) => r.body.response_format !== undefined;
const text = (r: Recorded) => JSON.stringify(r.body.messages);

describe("agent runtime with a language model (a local OpenAI-compatible server)", function () {
  this.timeout(60_000);
  let t: TestServer;
  let model: FakeModelServer;
  let rt: RuntimeProcess;
  let owner: string;
  let characterId: string;
  let agentId: string;
  let choice: Json = { type: "fishing", target: "fishing_spot_net", reason: "the model likes fish" };

  const goal = async () => (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner)).body;
  const activity = async () => ((await call(rt.url, "GET", `/agents/${agentId}`, owner)).body.agent.activity as Json[]).map((a) => String(a.text));

  before(async () => {
    t = await startTestServer({ TICK_MS: "60", DISABLE_RATE_LIMIT: "true" });
    model = await FakeModelServer.start();
    model.answer = (r) => ({ content: isGoalRequest(r) ? JSON.stringify(choice) : "Hello from the model." });
    owner = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body.token;
    characterId = (await call(t.baseUrl, "POST", "/api/v1/player", owner, { name: "Marvin" })).body.player.characterId;
    const reg = await call(t.baseUrl, "POST", "/api/agent", owner, { characterId });
    agentId = reg.body.agent.agentId;
    rt = await startAgentRuntime({
      apiUrl: t.baseUrl,
      wsUrl: t.wsUrl,
      worldDir: t.worldDir,
      env: { LOCAL_MODEL_URL: model.url, LOCAL_MODEL_NAME: "test-model", AGENT_MODEL_TIMEOUT_MS: "5000" },
    });
    assert.equal((await call(rt.url, "POST", "/agents", owner, { agentId, token: reg.body.token })).status, 201);
  });

  after(async () => {
    await rt?.stop();
    await model?.close();
    await t?.close();
  });

  it("asks the model with the observation and the schema, and plays the goal it chose", async () => {
    const g = await eventually(async () => ((await goal()).goal ?? undefined) as Json | undefined, "a goal");
    assert.deepEqual({ type: g.type, target: g.target, lockedBy: g.lockedBy }, { type: "fishing", target: "fishing_spot_net", lockedBy: "autonomous" });
    const asked = model.requests.find(isGoalRequest)!;
    assert.equal(asked.url, "/v1/chat/completions");
    assert.equal(asked.body.model, "test-model");
    // The observation: its name, its skills, the goals the server offers.
    assert.match(text(asked), /Marvin/);
    assert.match(text(asked), /woodcutting/);
    assert.match(text(asked), /fishing_spot_net/);
    // The schema of the answer.
    const schema = JSON.stringify(asked.body.response_format);
    for (const field of ["type", "target", "reason"]) assert.match(schema, new RegExp(`"${field}"`));
    assert.ok(
      (await activity()).some((a) => /choose fishing \(Shallow water\): local:test-model: the model likes fish/.test(a)),
      "the choice (its target by name) and its reason in the activity",
    );
    // And it plays it: fishing xp on the server.
    await eventually(() => ((t.server.world.world.players.get(characterId)?.data.skills.fishing.xpTenths ?? 0) > 0 ? true : undefined), "fishing xp", 30_000);
  });

  it("writes the agent's chat reply to what is not a command", async () => {
    const said: string[] = [];
    const world = t.server.world.world;
    const send = world.send.bind(world);
    world.send = (to: string, type: string, data: Json) => {
      if (to === characterId && type === "chat:message" && data.fromId === characterId) said.push(String(data.message));
      return send(to as never, type as never, data as never);
    };
    try {
      await call(t.baseUrl, "POST", `/api/agents/${agentId}/message`, owner, { message: "what do you think of the weather?" });
      await eventually(() => said.find((m) => m === "Hello from the model."), "the model's reply in chat");
      assert.ok(
        model.requests.some((r) => !isGoalRequest(r) && /weather/.test(text(r))),
        "the message was in the request",
      );
    } finally {
      world.send = send;
    }
  });

  it("never says a model's reply that would be a chat command (one starting with /, however disguised): withheld, and plain replies still said", async () => {
    // Every chat line the agent's connection gives the server, as the server takes it in.
    const lines: string[] = [];
    const service = t.server.world;
    const input = service.input.bind(service);
    service.input = (playerId: string, conn: never, type: string, data: Json) => {
      if (playerId === characterId && type === "player:chat") lines.push(String(data?.message));
      return input(playerId, conn, type, data);
    };
    const answer = model.answer;
    model.answer = (r) =>
      isGoalRequest(r)
        ? typeof answer === "function"
          ? answer(r)
          : answer
        : /inject one/.test(text(r))
          ? { content: "/mute Victim 60 spam" }
          : /inject two/.test(text(r))
            ? { content: " \u200e /broadcast free gold" }
            : { content: "Plain words." };
    try {
      for (const message of ["inject one", "inject two", "and the weather?"])
        await call(t.baseUrl, "POST", `/api/agents/${agentId}/message`, owner, { message });
      // Replies are said in the order asked: once the plain one is in, the two before it were weighed.
      await eventually(() => lines.find((m) => m === "Plain words."), "the plain reply in chat");
      assert.deepEqual(
        lines.filter((m) => m.trimStart().startsWith("/") || m.includes("/broadcast")),
        [],
        "no command line reached the server",
      );
      const withheld = (await activity()).filter((a) => a.startsWith("withheld (it would be a command): "));
      assert.deepEqual(withheld.reverse(), [
        "withheld (it would be a command): /mute Victim 60 spam",
        "withheld (it would be a command): /broadcast free gold",
      ]);
    } finally {
      service.input = input;
      model.answer = answer;
    }
  });

  it("falls back to the scripted brain when the model chooses a goal the server does not offer", async () => {
    choice = { type: "flying", target: null, reason: "wings" };
    const asked = model.requests.length;
    await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal/stop`, owner);
    await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal/resume`, owner);
    const g = await eventually(async () => ((await goal()).goal ?? undefined) as Json | undefined, "a goal after resuming");
    assert.notEqual(g.type, "flying");
    assert.equal(g.lockedBy, "autonomous");
    assert.ok(model.requests.slice(asked).some(isGoalRequest), "the model was asked");
    assert.ok(
      (await activity()).some((a) => /model chose an unavailable goal; scripted/.test(a)),
      "the fallback is in the activity",
    );
  });
});
