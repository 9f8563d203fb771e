/**
 * The language-model brain (agent-runtime/brain/llm.ts) against a local OpenAI-compatible server
 * that this test starts (no network): the request carries the observation and the JSON schema, a
 * valid answer is applied, and every failure (an unavailable goal, malformed JSON, an HTTP error,
 * a server that never answers, a spent budget) falls back to the scripted brain without throwing.
 */
import assert from "node:assert/strict";
import type { Brain, GoalChoice, Observation } from "../../agent-runtime/brain/Brain.ts";
import { MAX_REPLY_CHARS, modelBrainFromEnv, modelConfigFromEnv, type ModelBrain } from "../../agent-runtime/brain/llm.ts";
import { FakeModelServer } from "../support/fakeModel.ts";

/** A stand-in for the scripted brain: fixed answers, and a count of how often it was asked. */
function scriptedStub(): Brain & { asked: number } {
  return {
    name: "scripted",
    asked: 0,
    chooseGoal(): Promise<GoalChoice> {
      this.asked += 1;
      return Promise.resolve({ type: "explore", reason: "nothing else fits" });
    },
    reply(): Promise<string> {
      this.asked += 1;
      return Promise.resolve("scripted reply");
    },
  };
}

const OBS: Observation = {
  name: "Brightwater",
  position: { x: 12, z: -7 },
  health: 9,
  maxHealth: 10,
  combatLevel: 3,
  coins: 25,
  skills: { woodcutting: { level: 17, xp: 3100 }, fishing: { level: 4, xp: 300 }, mining: { level: 1, xp: 0 } },
  inventory: [
    { slot: 0, itemId: "bronze_axe", quantity: 1 },
    { slot: 1, itemId: "logs", quantity: 3 },
  ],
  freeSlots: 26,
  equipment: { weapon: "bronze_sword" },
  nearby: { "resource:tree_normal": 3, "npc:goblin": 1 },
  availableGoals: [
    { type: "woodcutting", description: "Chop trees", targets: ["tree_normal", "tree_oak"] },
    { type: "combat", description: "Fight monsters", targets: ["goblin"] },
    { type: "banking", description: "Bank items", targets: [] },
    { type: "explore", description: "Explore the world", targets: ["lumbridge"] },
  ],
  recentGoals: [{ type: "fishing", outcome: "failed" }],
};

describe("agent runtime: the language-model brain", () => {
  let fake: FakeModelServer;
  let fallback: ReturnType<typeof scriptedStub>;
  before(async () => {
    fake = await FakeModelServer.start();
  });
  after(() => fake?.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.answer = { content: "" };
    fallback = scriptedStub();
  });

  const brain = (extra: Record<string, string> = {}, now?: () => number): ModelBrain => {
    const b = modelBrainFromEnv({ LOCAL_MODEL_URL: fake.url, LOCAL_MODEL_NAME: "test-model", ...extra }, fallback, now !== undefined ? { now } : {});
    assert.ok(b !== undefined, "a local model URL configures a model brain");
    return b;
  };

  it("is not configured without a model, and prefers LOCAL_MODEL_URL, then OpenAI, then Anthropic", () => {
    assert.equal(modelBrainFromEnv({}, fallback), undefined);
    assert.equal(modelBrainFromEnv({ OPENAI_API_KEY: " ", LOCAL_MODEL_URL: "" }, fallback), undefined);
    const all = { LOCAL_MODEL_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-o", ANTHROPIC_API_KEY: "sk-a" };
    assert.equal(modelBrainFromEnv(all, fallback)?.name, "local:llama3.2");
    assert.equal(modelBrainFromEnv({ ...all, LOCAL_MODEL_URL: undefined }, fallback)?.name, "openai:gpt-4o-mini");
    assert.equal(modelBrainFromEnv({ ANTHROPIC_API_KEY: "sk-a", ANTHROPIC_MODEL: "claude-sonnet-4-5" }, fallback)?.name, "anthropic:claude-sonnet-4-5");
    assert.deepEqual(
      { t: modelConfigFromEnv({ OPENAI_API_KEY: "k" })?.timeoutMs, c: modelConfigFromEnv({ OPENAI_API_KEY: "k" })?.callsPerMinute },
      { t: 10_000, c: 6 },
    );
    assert.throws(() => modelConfigFromEnv({ OPENAI_API_KEY: "k", AGENT_MODEL_TIMEOUT_MS: "soon" }), /AGENT_MODEL_TIMEOUT_MS/);
    assert.throws(() => modelConfigFromEnv({ OPENAI_API_KEY: "k", AGENT_MODEL_CALLS_PER_MINUTE: "0" }), /AGENT_MODEL_CALLS_PER_MINUTE/);
    assert.throws(() => modelConfigFromEnv({ LOCAL_MODEL_URL: "localhost 11434" }), /LOCAL_MODEL_URL/);
  });

  it("sends the observation and the JSON schema, and applies a valid choice", async () => {
    fake.answer = { content: JSON.stringify({ type: "Woodcutting", target: "TREE_OAK", reason: "level 17, oaks pay better" }) };
    const b = brain({ LOCAL_MODEL_API_KEY: "local-secret" });
    const choice = await b.chooseGoal(OBS);

    assert.equal(fake.requests.length, 1);
    const req = fake.requests[0]!;
    assert.equal(req.url, "/v1/chat/completions");
    assert.equal(req.authorization, "Bearer local-secret");
    assert.equal(req.body.model, "test-model");
    const prompt = JSON.stringify(req.body.messages);
    assert.match(prompt, /Brightwater/, "the observation's name is in the prompt");
    assert.match(prompt, /\\"woodcutting\\":\{\\"level\\":17/, "a skill level is in the prompt");
    assert.match(prompt, /tree_oak/, "the available goals are in the prompt");
    assert.equal(req.body.response_format?.type, "json_schema");
    const schema = req.body.response_format.json_schema.schema;
    assert.deepEqual(Object.keys(schema.properties).sort(), ["reason", "target", "type"]);
    assert.deepEqual([...schema.required].sort(), ["reason", "target", "type"]);

    assert.deepEqual(choice, { type: "woodcutting", target: "tree_oak", reason: "local:test-model: level 17, oaks pay better" });
    assert.equal(fallback.asked, 0);
    assert.equal(b.stats.calls, 1);
    assert.equal(b.stats.used, 1);
  });

  it("accepts no target, and drops a target on a goal that has none", async () => {
    const b = brain();
    fake.answer = { content: JSON.stringify({ type: "combat", target: null, reason: "goblin nearby" }) };
    assert.deepEqual(await b.chooseGoal(OBS), { type: "combat", reason: "local:test-model: goblin nearby" });
    fake.answer = { content: JSON.stringify({ type: "banking", target: "the bank", reason: "" }) };
    assert.deepEqual(await b.chooseGoal(OBS), { type: "banking", reason: "local:test-model: no reason given" });
    assert.equal(fallback.asked, 0);
  });

  it("offers quests as goals: the quest list in the prompt, a quest id chosen among the quest goal's targets", async () => {
    const b = brain();
    const obs: Observation = {
      ...OBS,
      availableGoals: [...OBS.availableGoals, { type: "quest", description: "Do a quest", targets: ["settlers_charter", "cistern_survey"] }],
      quests: [
        {
          id: "settlers_charter",
          name: "A Settler's Charter",
          status: "in_progress",
          stage: "cull_rats",
          stageText: "Kill 5 meadow rats",
          progress: { count: 2, required: 5 },
        },
      ],
    };
    fake.answer = { content: JSON.stringify({ type: "quest", target: "settlers_charter", reason: "three rats to go" }) };
    assert.deepEqual(await b.chooseGoal(obs), { type: "quest", target: "settlers_charter", reason: "local:test-model: three rats to go" });
    const prompt = JSON.stringify(fake.requests[0]!.body.messages);
    assert.match(prompt, /Kill 5 meadow rats/, "the quest list is in the prompt");
    assert.match(prompt, /quest goal's targets are quest ids/, "the instructions say what a quest target is");
    fake.answer = { content: JSON.stringify({ type: "quest", target: "no_such_quest", reason: "?" }) };
    await b.chooseGoal(obs);
    assert.equal(fallback.asked, 1, "a quest not offered falls back");
  });

  it("an unavailable goal or target falls back to the scripted brain, marked", async () => {
    const b = brain();
    fake.answer = { content: JSON.stringify({ type: "mining", target: "rock_copper", reason: "ore" }) };
    assert.deepEqual(await b.chooseGoal(OBS), { type: "explore", reason: "model chose an unavailable goal; scripted: nothing else fits" });
    fake.answer = { content: JSON.stringify({ type: "combat", target: "dragon", reason: "glory" }) };
    assert.deepEqual(await b.chooseGoal(OBS), { type: "explore", reason: "model chose an unavailable goal; scripted: nothing else fits" });
    assert.equal(fake.requests.length, 2);
    assert.equal(fallback.asked, 2);
    assert.equal(b.stats.fallbacks.unavailable, 2);
    assert.match(b.stats.lastError ?? "", /dragon/);
  });

  it("malformed JSON, or JSON outside the schema, falls back", async () => {
    const b = brain();
    fake.answer = { content: "I think the character should chop {trees" };
    assert.deepEqual(await b.chooseGoal(OBS), { type: "explore", reason: "model answered malformed output; scripted: nothing else fits" });
    fake.answer = { content: JSON.stringify({ goal: "woodcutting" }) };
    assert.deepEqual(await b.chooseGoal(OBS), { type: "explore", reason: "model answered malformed output; scripted: nothing else fits" });
    assert.equal(b.stats.fallbacks.invalid, 2);
    assert.equal(fallback.asked, 2);
  });

  it("an HTTP error falls back, once (no retries)", async () => {
    const b = brain();
    fake.answer = { status: 500 };
    assert.deepEqual(await b.chooseGoal(OBS), { type: "explore", reason: "model call failed; scripted: nothing else fits" });
    assert.equal(await b.reply("hello", "Ann", OBS), "scripted reply");
    assert.equal(fake.requests.length, 2, "one request per decision: retries would multiply the budget");
    assert.equal(b.stats.fallbacks.error, 2);
  });

  it("a server that never answers falls back within the timeout", async () => {
    const b = brain({ AGENT_MODEL_TIMEOUT_MS: "300" });
    fake.answer = "hang";
    const started = performance.now();
    const choice = await b.chooseGoal(OBS);
    const elapsed = performance.now() - started;
    assert.deepEqual(choice, { type: "explore", reason: "model timed out; scripted: nothing else fits" });
    assert.ok(elapsed >= 250 && elapsed < 2_000, `fell back after ${Math.round(elapsed)} ms`);
    assert.equal(fake.requests.length, 1);
    const replyStarted = performance.now();
    assert.equal(await b.reply("are you there?", "Ann", OBS), "scripted reply");
    assert.ok(performance.now() - replyStarted < 2_000);
    assert.equal(b.stats.fallbacks.timeout, 2);
  });

  it("over the per-minute budget it falls back without a request, and the budget refills after a minute", async () => {
    let clock = 1_000_000;
    const b = brain({ AGENT_MODEL_CALLS_PER_MINUTE: "2" }, () => clock);
    fake.answer = { content: JSON.stringify({ type: "banking", target: null, reason: "full" }) };
    assert.equal((await b.chooseGoal(OBS)).type, "banking");
    clock += 10_000;
    assert.equal((await b.chooseGoal(OBS)).type, "banking");
    assert.equal(b.budgetLeft(), 0);
    clock += 10_000;
    assert.deepEqual(await b.chooseGoal(OBS), { type: "explore", reason: "model budget spent; scripted: nothing else fits" });
    assert.equal(await b.reply("hi", "Ann", OBS), "scripted reply");
    assert.equal(fake.requests.length, 2, "no request over budget");
    assert.equal(b.stats.calls, 2);
    assert.equal(b.stats.fallbacks.budget, 2);
    clock += 40_001; // the first call is now more than a minute old
    assert.equal(b.budgetLeft(), 1);
    assert.equal((await b.chooseGoal(OBS)).type, "banking");
    assert.equal(fake.requests.length, 3);
  });

  it("a reply is one short line without control characters; an empty one falls back", async () => {
    const b = brain();
    fake.answer = { content: `"Hi Ann!\nI'm chopping oaks\u0007 at level 17.\tWant to join?"` };
    assert.equal(await b.reply("what are you doing?", "Ann", OBS), "Hi Ann! I'm chopping oaks at level 17. Want to join?");
    const req = fake.requests[0]!;
    assert.equal(req.body.response_format, undefined, "a reply is plain text");
    assert.match(JSON.stringify(req.body.messages), /Ann says: what are you doing\?/);

    fake.answer = { content: "word ".repeat(100) };
    const long = await b.reply("tell me a story", "Ann", OBS);
    assert.ok(long.length <= MAX_REPLY_CHARS, `${long.length} chars`);
    assert.ok(long.startsWith("word word"));

    fake.answer = { content: "\n\u0000  \n" };
    assert.equal(await b.reply("?", "Ann", OBS), "scripted reply");
    assert.equal(b.stats.fallbacks.empty, 1);
    assert.equal(b.stats.used, 2);
  });
});
