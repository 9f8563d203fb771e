/**
 * The agent runtime against a real server, as its users drive it: an owner registers an agent on
 * the server, hands it to the runtime (a separate process, over its HTTP API), and watches it play;
 * stops and resumes it, gives it a goal, talks to it; deletes it on the server; restarts the
 * runtime. What the agent does is read on the server (the live world, the goal routes): the
 * runtime's word for it is not taken.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { callJson, type Json } from "../support/http.ts";
import { eventually as waitFor } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const call = callJson;

const eventually = <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 20_000) => waitFor(probe, what, ms);

// Slow enough that "a goal within two ticks" holds on a loaded 2-core machine (two ticks: 300 ms).
const TICK_MS = 150;

describe("agent runtime (a separate process) playing agents on a real server", function () {
  this.timeout(120_000);
  let t: TestServer;
  let rt: RuntimeProcess;
  let owner: { token: string; characterId: string };
  let stranger: string;
  let agentId: string;
  let agentToken: string;

  const player = () => t.server.world.world.players.get(owner.characterId);
  const serverTick = () => t.server.world.world.tick;
  const goal = async () => (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner.token)).body;
  const runtimeAgent = async () => (await call(rt.url, "GET", `/agents/${agentId}`, owner.token)).body.agent as Json;
  const totalXp = () => Object.values(player()?.data.skills ?? {}).reduce((n, s) => n + s.xpTenths, 0);

  before(async () => {
    // Many polls from one address: the REST budget would get in the way of watching.
    t = await startTestServer({ TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true" });
    const anon = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body;
    const created = await call(t.baseUrl, "POST", "/api/v1/player", anon.token, { name: "Robin" });
    owner = { token: anon.token, characterId: created.body.player.characterId };
    stranger = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body.token;
    const reg = await call(t.baseUrl, "POST", "/api/agent", owner.token, { characterId: owner.characterId, name: "Robin" });
    assert.equal(reg.status, 201);
    agentId = reg.body.agent.agentId;
    agentToken = reg.body.token;
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "test" } });
  });

  after(async () => {
    await rt?.stop();
    await t?.close();
  });

  it("stops with one clear line (exit 1) when its port is taken, and leaves its agents' saved state alone", async () => {
    const port = new URL(rt.url).port;
    const file = path.join(t.worldDir, "local", "agent-runtime.json");
    const saved = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
    await assert.rejects(startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_RT_PORT: port } }), (err: Error) => {
      assert.match(err.message, /exited \(1\) before it was ready/);
      assert.match(
        err.message,
        new RegExp(`the agent runtime cannot start: AGENT_RT_PORT: port ${port} on 127\\.0\\.0\\.1 is already in use \\(EADDRINUSE\\)`),
      );
      assert.doesNotMatch(err.message, /\bat \S+ \(node:net/, "no stack trace");
      return true;
    });
    assert.equal(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined, saved);
    assert.equal((await fetch(`${rt.url}/health`)).status, 200, "the first runtime goes on");
  });

  it("answers bad input with the error shape and changes nothing", async () => {
    const cases: [string, string | undefined, unknown, number, string][] = [
      ["no bearer", undefined, { agentId, token: agentToken }, 401, "UNAUTHORIZED"],
      ["a bad bearer", "not-a-token", { agentId, token: agentToken }, 401, "UNAUTHORIZED"],
      ["someone else's agent", stranger, { agentId, token: agentToken }, 403, "FORBIDDEN"],
      ["the agent's own token as the bearer", agentToken, { agentId, token: agentToken }, 403, "AGENT_TOKEN_FORBIDDEN"],
      ["a malformed body", owner.token, "{not json", 400, "MALFORMED_JSON"],
      ["a missing token", owner.token, { agentId }, 400, "INVALID_PAYLOAD"],
      ["an unknown field", owner.token, { agentId, token: agentToken, extra: 1 }, 400, "INVALID_PAYLOAD"],
      ["the owner's token in place of the agent's", owner.token, { agentId, token: owner.token }, 400, "INVALID_PAYLOAD"],
      ["a token that is not one", owner.token, { agentId, token: "x".repeat(40) }, 400, "INVALID_PAYLOAD"],
    ];
    for (const [what, bearer, body, status, code] of cases) {
      const r = await call(rt.url, "POST", "/agents", bearer, body);
      assert.equal(r.status, status, `${what}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(Object.keys(r.body).sort(), ["error", "success"], what);
      assert.equal(r.body.success, false, what);
      assert.equal(r.body.error.code, code, what);
    }
    assert.equal((await call(rt.url, "GET", `/agents/${agentId}`, owner.token)).status, 404);
    assert.equal((await call(rt.url, "DELETE", `/agents/${agentId}`, owner.token)).status, 404);
    assert.equal((await call(rt.url, "GET", "/agents", undefined)).status, 401);
    assert.deepEqual((await call(rt.url, "GET", "/agents", owner.token)).body, { success: true, agents: [] });
    assert.deepEqual((await call(rt.url, "GET", "/health")).body, { status: "ok", agents: 0 });
    assert.equal(player(), undefined, "nothing logged the character in");
  });

  it("plays an agent handed to it: an autonomous goal, moves, gains xp", async () => {
    const start = { xp: 0 };
    const r = await call(rt.url, "POST", "/agents", owner.token, { agentId, token: agentToken });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.agent.agentId, agentId);
    await eventually(() => player(), "the agent's character in the world");
    start.xp = totalXp();
    const from = { x: player()!.x, z: player()!.z };
    const g = await eventually(
      async () => ((await goal()).goal?.lockedBy === "autonomous" ? (await goal()).goal : undefined),
      "an autonomous goal on the server",
    );
    // A new character's first choice: A Settler's Charter (its rats and logs train too), or training.
    assert.ok(["quest", "woodcutting", "mining", "fishing", "combat"].includes(g.type), g.type);
    await eventually(() => (player()!.x !== from.x || player()!.z !== from.z ? true : undefined), "the agent to move");
    await eventually(() => (totalXp() > start.xp ? true : undefined), "xp gained", 60_000);
    const seen = await runtimeAgent();
    assert.equal(seen.state, "playing");
    assert.ok(seen.activity.length > 0 && seen.activity.length <= 50);
    assert.ok(
      seen.activity.some((a: Json) => a.kind === "decision" && /^choose /.test(a.text)),
      "the choice is in the activity",
    );
    assert.deepEqual((await call(rt.url, "GET", "/health")).body, { status: "ok", agents: 1 });
    assert.equal((await call(rt.url, "GET", `/agents/${agentId}`, stranger)).status, 403);
  });

  it("stop: idles within a tick, no move or action for 20 ticks, goal null; resume: a goal within two ticks", async () => {
    // Auto Retaliate off for this check: a monster it was fighting may keep hitting it, and the game
    // answers that (a fight back, src/game/retaliate.ts), not the agent. (No xp check, for the same reason.)
    player()!.autoRetaliate = false;
    assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal/stop`, owner.token)).status, 200);
    await eventually(() => (player()!.path.length === 0 && player()!.action === undefined ? true : undefined), "the agent to idle", 2_000);
    const at = { x: player()!.x, z: player()!.z, tick: serverTick() };
    while (serverTick() < at.tick + 20) {
      const p = player()!;
      assert.deepEqual({ x: p.x, z: p.z }, { x: at.x, z: at.z }, "no move while stopped");
      assert.equal(p.action, undefined, "no action while stopped");
      await new Promise((r) => setTimeout(r, TICK_MS / 3));
    }
    assert.equal((await goal()).goal, null);
    assert.equal((await runtimeAgent()).state, "paused");

    const resumed = serverTick();
    assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal/resume`, owner.token)).status, 200);
    const g = await eventually(async () => (await goal()).goal ?? undefined, "a goal after resuming", 5_000);
    assert.ok(serverTick() - resumed <= 2, `a goal ${serverTick() - resumed} ticks after resuming`);
    assert.equal(g.lockedBy, "autonomous");
    assert.equal((await runtimeAgent()).state, "playing");
    player()!.autoRetaliate = true;
  });

  it("pursues a goal set over REST, and reports its progress", async () => {
    const set = await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "fishing" });
    assert.equal(set.status, 200);
    const fishingXp = player()!.data.skills.fishing.xpTenths;
    await eventually(() => (player()!.data.skills.fishing.xpTenths > fishingXp ? true : undefined), "fishing xp", 60_000);
    const g = await eventually(
      async () => {
        const now = (await goal()).goal;
        return now?.id === set.body.goal.id && now.progress > 0 ? now : undefined;
      },
      "progress reported on the REST goal",
      30_000,
    );
    assert.equal(g.type, "fishing");
  });

  it("gives up an autonomous training goal that gains no experience (its monsters all taken) and chooses another", async () => {
    // Every meadow rat dead for good, as if other players got to them first.
    const world = t.server.world.world;
    const rats = [...world.npcs.values()].filter((n) => n.def.id === "meadow_rat");
    assert.ok(rats.length > 0, "the content has meadow rats");
    for (const n of rats) n.deadUntil = world.tick + 1_000_000;
    try {
      const set = await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal`, agentToken, { type: "combat", target: "meadow_rat", source: "autonomous" });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const started = serverTick();
      const next = await eventually(
        async () => {
          const now = (await goal()).goal;
          return now !== null && now.id !== set.body.goal.id ? now : undefined;
        },
        "another goal",
        60_000,
      );
      // Not before the stall window (80 ticks), and not the same fight again.
      assert.ok(serverTick() - started >= 80, `gave up after ${serverTick() - started} ticks`);
      assert.ok(!(next.type === "combat" && next.target === "meadow_rat"), JSON.stringify(next));
      const activity = ((await runtimeAgent()).activity as Json[]).map((x) => String(x.text));
      assert.ok(
        activity.some((x) => /^goal failed: .*no experience in 80 ticks/.test(x)),
        activity.slice(0, 10).join("\n"),
      );
    } finally {
      for (const n of rats) n.deadUntil = world.tick + 1;
    }
  });

  it("answers `status` in chat, and replies to what it does not understand", async () => {
    // Every chat line the server sends to the agent's own connection (its own included).
    const lines: string[] = [];
    const world = t.server.world.world;
    const send = world.send.bind(world);
    world.send = (to: string, type: string, data: Json) => {
      if (to === owner.characterId && type === "chat:message" && data.fromId === owner.characterId) lines.push(String(data.message));
      return send(to as never, type as never, data as never);
    };
    try {
      assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/message`, owner.token, { message: "status" })).body.delivered, true);
      const status = await eventually(() => lines.find((l) => l.startsWith("Goal:")), "the status line in chat", 5_000);
      assert.match(status, /fish/i);
      assert.match(status, /Inventory \d+\/28/);
      await call(t.baseUrl, "POST", `/api/agents/${agentId}/message`, owner.token, { message: "dance a jig" });
      await eventually(() => lines.find((l) => l.includes("dance a jig")), "a reply to an unknown command", 5_000);
    } finally {
      world.send = send;
    }
  });

  it("survives a restart of the runtime: its agents play again", async () => {
    const code = await rt.stop("SIGTERM");
    assert.equal(code, 0);
    await eventually(() => (player() === undefined ? true : undefined), "the character to leave the world", 10_000);
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "test" } });
    await eventually(() => player(), "the agent back in the world", 30_000);
    const again = await eventually(async () => ((await runtimeAgent()).state === "playing" ? true : undefined), "playing again", 30_000);
    assert.ok(again);
  });

  it("the agent deleted on the server: its session ends and the runtime shows it stopped, without crashing", async () => {
    assert.equal((await call(t.baseUrl, "DELETE", `/api/agent/${agentId}`, owner.token)).status, 200);
    await eventually(() => (player() === undefined ? true : undefined), "the session to end", 10_000);
    const shown = await eventually(
      async () => {
        const a = await runtimeAgent();
        return a.state === "error" ? a : undefined;
      },
      "the runtime to show it",
      10_000,
    );
    assert.match(shown.reason, /deleted|token/);
    assert.deepEqual((await call(rt.url, "GET", "/health")).body, { status: "ok", agents: 0 });
    // It does not come back by itself (no reconnection loop against a deleted agent).
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(player(), undefined);
    assert.equal(rt.child.exitCode, null, "the runtime is still running");
  });

  it("DELETE /agents/:id stops playing an agent; it stays registered on the server", async () => {
    const reg = await call(t.baseUrl, "POST", "/api/agent", owner.token, { characterId: owner.characterId });
    const id = reg.body.agent.agentId;
    assert.equal((await call(rt.url, "POST", "/agents", owner.token, { agentId: id, token: reg.body.token })).status, 201);
    await eventually(() => player(), "playing");
    assert.equal((await call(rt.url, "DELETE", `/agents/${id}`, stranger)).status, 403);
    const del = await call(rt.url, "DELETE", `/agents/${id}`, owner.token);
    assert.equal(del.status, 200);
    assert.equal(del.body.agent.state, "stopped");
    await eventually(() => (player() === undefined ? true : undefined), "the character to leave", 10_000);
    assert.equal((await call(t.baseUrl, "GET", `/api/agents/${id}/goal`, owner.token)).status, 200, "still registered on the server");
  });

  it("after a restart, shows the agents it does not play as stopped, with why, and plays none of them", async () => {
    assert.equal(await rt.stop("SIGTERM"), 0);
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "test" } });
    const list = (await call(rt.url, "GET", "/agents", owner.token)).body.agents as { agentId: string; state: string; reason?: string }[];
    assert.ok(list.length >= 2, JSON.stringify(list));
    for (const a of list) assert.equal(a.state, "stopped", JSON.stringify(a));
    // The agent the server deleted keeps the server's reason; the one its owner stopped, its owner's.
    assert.match(list.find((a) => a.agentId === agentId)!.reason!, /deleted|token/);
    assert.ok(
      list.some((a) => a.agentId !== agentId && a.reason === "stopped by its owner"),
      JSON.stringify(list),
    );
    assert.deepEqual((await call(rt.url, "GET", "/health")).body, { status: "ok", agents: 0 });
    const stats = (await call(rt.url, "GET", "/stats", owner.token)).body as { byState: Record<string, number> };
    assert.equal(stats.byState.connecting, undefined, JSON.stringify(stats.byState));
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(player(), undefined, "none of them plays");
  });
});
