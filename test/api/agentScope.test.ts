/**
 * What an agent's token may do, route by route and event by event (src/http/agentScope.ts,
 * src/game/eventScopes.ts): every authenticated route of the OpenAPI document has a decision and
 * is called here with a real agent token; an owner route refused to the agent is then called with
 * the owner's token and succeeds, so the refusal is the token's, not the request's.
 */
import assert from "node:assert/strict";
import { AGENT_TOKEN_FORBIDDEN } from "../../src/auth/agentScope.ts";
import { EVENT_SCOPES } from "../../src/game/eventScopes.ts";
import { AGENT_TOKEN_SCOPES } from "../../src/http/agentScope.ts";
import { ROUTES } from "../../src/http/openapi.ts";
import { callJson, type Json } from "../support/http.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { Client, socialRows, TRANSPORTS, uniqueName } from "../social/clients.ts";

const ENV = { TICK_MS: "50", DISABLE_RATE_LIMIT: "true", VOICE_API_KEY: "voice-key", VOICE_API_SECRET: "voice-secret", VOICE_URL: "wss://voice.example.com" };

interface Player {
  token: string;
  characterId: string;
  name: string;
}

/** One call of a route: its path and body, and what must hold first (a request to accept). */
interface Case {
  path: () => string;
  body?: () => unknown;
  setup?: () => Promise<void>;
  /** What the owner's successful call changed, for the cases after it. */
  then?: (body: Json) => void;
}

describe("agent tokens: a scope for every route and event", function () {
  this.timeout(60_000);
  let t: TestServer;
  let owner: Player;
  let other: Player;
  let third: Player;
  let agentId: string;
  let agentToken: string;
  let siblingAgentId: string;
  let altCharacterId: string;

  const call = (method: string, p: string, token?: string, body?: unknown) => callJson(t.baseUrl, method, p, token, body);
  const player = async (name: string): Promise<Player> => {
    const anon = await call("POST", "/api/auth/anonymous");
    const created = await call("POST", "/api/v1/player", anon.body.token, { name });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return { token: anon.body.token, characterId: created.body.player.characterId, name };
  };
  const ok = (r: { status: number; body: Json }, what: string) =>
    assert.ok(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${JSON.stringify(r.body)}`);

  before(async () => {
    t = await startTestServer(ENV);
    owner = await player(uniqueName("Own"));
    other = await player(uniqueName("Oth"));
    third = await player(uniqueName("Thi"));
    const reg = await call("POST", "/api/agent", owner.token, { characterId: owner.characterId, name: "scoped" });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    agentId = reg.body.agent.agentId;
    agentToken = reg.body.token;
    const alt = await call("POST", "/api/character", owner.token, { name: uniqueName("Alt") });
    altCharacterId = alt.body.character.id;
    const sibling = await call("POST", "/api/agent", owner.token, { characterId: altCharacterId, name: "sibling" });
    siblingAgentId = sibling.body.agent.agentId;
  });
  after(() => t?.close());

  // Each route's call, in the order run (the social ones build on each other). Owner routes that
  // remove something remove what the previous one made, so the owner's call succeeds.
  const cases: Record<string, Case> = {
    "get /api/v1/player": { path: () => "/api/v1/player" },
    "post /api/v1/player": {
      path: () => "/api/v1/player",
      body: () => ({ name: uniqueName("Ren") }),
      then: (body) => {
        owner.name = body.player.name;
      },
    },
    "get /api/v1/world": { path: () => "/api/v1/world" },
    "get /api/v1/world/areas": { path: () => "/api/v1/world/areas" },
    "get /api/characters/{characterId}/skills": { path: () => `/api/characters/${owner.characterId}/skills` },
    "get /api/characters/{characterId}/position": { path: () => `/api/characters/${owner.characterId}/position` },
    "get /api/characters/{characterId}/hiscores": { path: () => `/api/characters/${owner.characterId}/hiscores` },
    "get /api/characters/{characterId}/quests": { path: () => `/api/characters/${owner.characterId}/quests` },
    "get /api/character": { path: () => "/api/character" },
    "post /api/character": { path: () => "/api/character", body: () => ({ name: uniqueName("New") }) },
    "delete /api/character/{characterId}": {
      path: () => `/api/character/${altCharacterId}`,
      // The agent of the alt goes with it; the next owner route registers one again.
    },
    "get /api/player/online": { path: () => "/api/player/online" },
    "get /api/player/by-name/{name}": { path: () => `/api/player/by-name/${other.name}` },
    "get /api/template": { path: () => "/api/template" },
    "get /api/template/{templateId}": { path: () => "/api/template/adventurer" },
    "get /api/agent": { path: () => "/api/agent" },
    "post /api/agent": {
      path: () => "/api/agent",
      setup: async () => {
        const made = await call("POST", "/api/character", owner.token, { name: uniqueName("Alt") });
        altCharacterId = made.body.character.id;
      },
      body: () => ({ characterId: altCharacterId, name: "again" }),
    },
    // Both on the agent the owner's call above registered (not the scoped agent: its token would go).
    "post /api/agent/{agentId}/token": {
      path: () => `/api/agent/${siblingAgentId}/token`,
      setup: async () => {
        siblingAgentId = (await call("GET", "/api/agent", owner.token)).body.agents.find((a: Json) => a.characterId === altCharacterId).agentId;
      },
    },
    "delete /api/agent/{agentId}": { path: () => `/api/agent/${siblingAgentId}` },
    "get /api/agents/{agentId}/goal": { path: () => `/api/agents/${agentId}/goal` },
    "post /api/agents/{agentId}/goal": { path: () => `/api/agents/${agentId}/goal`, body: () => ({ type: "explore" }) },
    "post /api/agents/{agentId}/goal/stop": { path: () => `/api/agents/${agentId}/goal/stop` },
    "post /api/agents/{agentId}/goal/resume": { path: () => `/api/agents/${agentId}/goal/resume` },
    "post /api/agents/{agentId}/message": { path: () => `/api/agents/${agentId}/message`, body: () => ({ message: "hello" }) },
    "get /api/agents/{agentId}/quick-actions": { path: () => `/api/agents/${agentId}/quick-actions` },
    "get /api/agents/mapping/{agentId}": { path: () => `/api/agents/mapping/${agentId}` },
    "get /api/v1/social": { path: () => "/api/v1/social" },
    "post /api/v1/social/friends": { path: () => "/api/v1/social/friends", body: () => ({ name: other.name }) },
    // Withdraws the request the previous case sent.
    "delete /api/v1/social/friends/{name}": { path: () => `/api/v1/social/friends/${other.name}` },
    "post /api/v1/social/requests/{name}/accept": {
      path: () => `/api/v1/social/requests/${other.name}/accept`,
      setup: async () => ok(await call("POST", "/api/v1/social/friends", other.token, { name: owner.name }), "the other's request"),
    },
    "post /api/v1/social/requests/{name}/decline": {
      path: () => `/api/v1/social/requests/${third.name}/decline`,
      setup: async () => ok(await call("POST", "/api/v1/social/friends", third.token, { name: owner.name }), "the third's request"),
    },
    "post /api/v1/social/ignored": { path: () => "/api/v1/social/ignored", body: () => ({ name: third.name }) },
    "delete /api/v1/social/ignored/{name}": { path: () => `/api/v1/social/ignored/${third.name}` },
    "post /api/voice/token": { path: () => "/api/voice/token", body: () => ({}) },
    "get /api/admin/metrics": { path: () => "/api/admin/metrics" },
    "post /api/admin/metrics/reset": { path: () => "/api/admin/metrics/reset" },
    "post /api/admin/kick": { path: () => "/api/admin/kick", body: () => ({ name: other.name }) },
    "post /api/admin/mute": { path: () => "/api/admin/mute", body: () => ({ name: other.name, minutes: 5 }) },
    "post /api/admin/unmute": { path: () => "/api/admin/unmute", body: () => ({ name: other.name }) },
    "post /api/admin/ban": { path: () => "/api/admin/ban", body: () => ({ name: other.name, minutes: 5 }) },
    "post /api/admin/unban": { path: () => "/api/admin/unban", body: () => ({ name: other.name }) },
    "post /api/admin/teleport": { path: () => "/api/admin/teleport", body: () => ({ name: other.name, x: 0, z: 0 }) },
    "post /api/admin/broadcast": { path: () => "/api/admin/broadcast", body: () => ({ message: "hello" }) },
    "get /api/admin/players": { path: () => "/api/admin/players" },
    "get /api/admin/players/{name}": { path: () => `/api/admin/players/${other.name}` },
    "post /api/admin/restart": { path: () => "/api/admin/restart", body: () => ({ inSeconds: 600, reason: "test" }) },
    "delete /api/admin/restart": { path: () => "/api/admin/restart" },
    "get /api/admin/audit": { path: () => "/api/admin/audit" },
  };

  it("has decided every authenticated route of the document, and only those", () => {
    const authenticated = Object.entries(ROUTES).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.auth !== "none")
        .map(([m]) => `${m} ${p}`),
    );
    assert.deepEqual(Object.keys(AGENT_TOKEN_SCOPES).sort(), [...authenticated].sort(), "AGENT_TOKEN_SCOPES against the OpenAPI document");
    assert.deepEqual(Object.keys(cases).sort(), [...authenticated].sort(), "this test's cases against the OpenAPI document");
  });

  for (const [route, c] of Object.entries(cases)) {
    const scope = AGENT_TOKEN_SCOPES[route];
    const method = route.split(" ")[0]!.toUpperCase();
    it(`${route}: ${scope === "character" ? "allowed" : scope === "owner" ? "refused (403 AGENT_TOKEN_FORBIDDEN), the owner's token allowed" : "refused (403 FORBIDDEN): admins only"}`, async () => {
      await c.setup?.();
      const before = await socialRows(t);
      const agentsBefore = (await call("GET", "/api/agent", owner.token)).body.agents.length;
      const r = await call(method, c.path(), agentToken, c.body?.());
      if (scope === "character") {
        ok(r, `${route} with the agent's token`);
        return;
      }
      assert.equal(r.status, 403, `${route}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(r.body.error.code, scope === "owner" ? AGENT_TOKEN_FORBIDDEN : "FORBIDDEN", route);
      assert.ok(r.body.error.message.length > 0);
      assert.equal(await socialRows(t), before, "the account's lists are unchanged");
      assert.equal((await call("GET", "/api/agent", owner.token)).body.agents.length, agentsBefore, "no agent added or removed");
      if (scope !== "owner") return;
      const own = await call(method, c.path(), owner.token, c.body?.());
      ok(own, `${route} with the owner's token`);
      c.then?.(own.body);
    });
  }

  it("says whose token it is in GET /api/v1/player: the agent's, or the account's own", async () => {
    const a = await call("GET", "/api/v1/player", agentToken);
    assert.equal(a.body.principal, "agent");
    assert.deepEqual(
      a.body.characters.map((c: Json) => c.id),
      [owner.characterId],
    );
    assert.equal((await call("GET", "/api/v1/player", owner.token)).body.principal, "user");
  });

  for (const transport of TRANSPORTS) {
    it(`over ${transport}: an agent's connection reads the lists and messages a friend, and every account event is refused (AGENT_TOKEN_FORBIDDEN) and changes nothing`, async () => {
      const friend = await player(uniqueName("Fr"));
      ok(await call("POST", "/api/v1/social/friends", owner.token, { name: friend.name }), "asking the friend");
      ok(await call("POST", `/api/v1/social/requests/${owner.name}/accept`, friend.token), "the friend accepting");
      const stranger = await player(uniqueName("St"));
      ok(await call("POST", "/api/v1/social/friends", stranger.token, { name: owner.name }), "a request to the owner");
      const agent = await Client.join(t, transport, { token: agentToken });
      const friendConn = await Client.join(t, "ws", { token: friend.token });
      try {
        const before = await socialRows(t);
        const account = Object.entries(EVENT_SCOPES).filter(([, s]) => s === "account");
        assert.ok(account.length >= 6);
        for (const [event] of account) {
          const named =
            event === "social:acceptFriend" || event === "social:declineFriend" ? stranger.name : event === "social:removeFriend" ? friend.name : stranger.name;
          const error = await agent.refused(event, { name: named });
          assert.equal(error.code, AGENT_TOKEN_FORBIDDEN, event);
        }
        assert.equal(await socialRows(t), before, "nothing changed");
        agent.send("social:getList");
        assert.ok((await agent.list()).friends.some((f) => f.name === friend.name));
        agent.send("social:sendMessage", { to: friend.name, message: "hello from the agent" });
        assert.equal((await friendConn.next("social:message")).message, "hello from the agent");
      } finally {
        await agent.logout();
        await friendConn.logout();
      }
    });
  }
});
