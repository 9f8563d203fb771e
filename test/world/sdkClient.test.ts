/**
 * What a plain `@colyseus/sdk` client (no test wrapper) sees of the world room's messages: the SDK
 * warns (`console.warn`) for every message type that has no handler and no `"*"` handler, and a
 * type's own handler takes it instead of `"*"` (README, "Colyseus clients").
 */
/* eslint-disable no-console -- the SDK's warnings go to console.warn: the test captures them there */
import assert from "node:assert/strict";
import { Client, type Room } from "@colyseus/sdk";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function api(t: TestServer, method: string, p: string, token?: string, body?: unknown): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(t.baseUrl + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  assert.ok(res.ok, `${method} ${p}: ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

describe("a plain @colyseus/sdk client of the world room", () => {
  let t: TestServer;
  let agentToken: string;
  const warnings: string[] = [];
  const warn = console.warn;
  before(async () => {
    t = await startTestServer({ DISABLE_RATE_LIMIT: "true", TICK_MS: "50" });
    const { token } = (await api(t, "POST", "/api/auth/anonymous")) as { token: string };
    const created = (await api(t, "POST", "/api/v1/player", token, { name: "Sdk Owner" })) as { player: { characterId: string } };
    agentToken = String(((await api(t, "POST", "/api/agent", token, { characterId: created.player.characterId })) as { token: string }).token);
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  });
  after(async () => {
    console.warn = warn;
    await t.close();
  });
  beforeEach(() => warnings.splice(0));

  async function join(token: string | undefined, register: (room: Room) => void): Promise<Room> {
    const sdk = new Client(t.baseUrl);
    if (token !== undefined) sdk.auth.token = token;
    const room = await sdk.joinOrCreate("world");
    register(room);
    return room;
  }

  const unhandled = () => warnings.flatMap((w) => /onMessage\(\) not registered for type '([^']+)'/.exec(w)?.[1] ?? []);

  it("is warned for each message it has no handler for: welcome and player:sync, and an agent's agent:goal", async () => {
    const player = await join(undefined, () => {});
    await until(() => (unhandled().includes("player:sync") ? true : undefined), "the warnings");
    assert.deepEqual(unhandled().slice(0, 2), ["welcome", "player:sync"]);
    await player.leave();
    warnings.splice(0);

    const agent = await join(agentToken, () => {});
    await until(() => (unhandled().includes("agent:goal") ? true : undefined), "the agent's warnings");
    assert.deepEqual(unhandled().slice(0, 3), ["welcome", "player:sync", "agent:goal"]);
    await agent.leave();
  });

  it("gets every message through one onMessage(\"*\") handler, without warnings; a type's own handler takes that type instead", async () => {
    const all: string[] = [];
    const welcomes: unknown[] = [];
    const agent = await join(agentToken, (room) => {
      room.onMessage("welcome", (data) => welcomes.push(data));
      room.onMessage("*", (type) => all.push(String(type)));
    });
    await until(() => (all.includes("agent:goal") ? true : undefined), "agent:goal through *");
    agent.send("player:chat", { message: "hello" });
    agent.send("player:move", { x: 1_000_000, z: 0 });
    await until(() => (all.includes("chat:message") && all.includes("error") ? true : undefined), "chat:message and error through *");
    await sleep(100);
    assert.deepEqual(all.slice(0, 2), ["player:sync", "agent:goal"]);
    assert.equal(welcomes.length, 1, "welcome went to its own handler, not to *");
    assert.deepEqual(warnings, []);
    await agent.leave();
  });
});
