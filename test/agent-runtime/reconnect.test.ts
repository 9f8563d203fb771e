/**
 * The runtime keeps playing through network trouble: a connection the network drops is retried
 * with backoff (1 s, doubling) while the server is unreachable, and the agent carries on as the
 * same player when it is back. A TCP proxy between the runtime and the server plays the network.
 */
import assert from "node:assert/strict";
import { callJson, type Json } from "../support/http.ts";
import { eventually } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcpProxy.ts";

const call = callJson;

// Both ways of reaching the world: the default, agents as sessions of a multiplexed socket
// (`/ws?mux=1`), and a socket per agent (AGENT_RT_MUX=0).
for (const [mux, how] of [
  ["1", "multiplexed"],
  ["0", "a socket per agent"],
] as const)
  describe(`agent runtime: a lost connection to the server (${how})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let proxy: TcpProxy;
    let rt: RuntimeProcess;
    let owner: string;
    let characterId: string;
    let agentId: string;

    const agent = async () => (await call(rt.url, "GET", `/agents/${agentId}`, owner)).body.agent as Json;

    before(async () => {
      t = await startTestServer({ TICK_MS: "60", DISABLE_RATE_LIMIT: "true" });
      proxy = await startTcpProxy("127.0.0.1", t.server.port);
      owner = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body.token;
      characterId = (await call(t.baseUrl, "POST", "/api/v1/player", owner, { name: "Wanderer" })).body.player.characterId;
      const reg = await call(t.baseUrl, "POST", "/api/agent", owner, { characterId });
      agentId = reg.body.agent.agentId;
      // REST goes straight to the server; the world socket goes through the proxy.
      rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: `ws://127.0.0.1:${proxy.port}/ws`, worldDir: t.worldDir, env: { AGENT_RT_MUX: mux } });
      assert.equal((await call(rt.url, "POST", "/agents", owner, { agentId, token: reg.body.token })).status, 201);
      await eventually(async () => ((await agent()).state === "playing" ? true : undefined), "playing");
    });

    after(async () => {
      await rt?.stop();
      await proxy?.close();
      await t?.close();
    });

    it("retries with backoff while the server is unreachable, then plays on as the same player", async () => {
      const player = t.server.world.world.players.get(characterId)!;
      proxy.refuse(true);
      proxy.cut();
      await eventually(async () => ((await agent()).state === "connecting" ? true : undefined), "the runtime to notice");
      // Unreachable for 3.5 s: attempts at about 1 s and 3 s (1 s, then 2 s more) fail.
      await new Promise((r) => setTimeout(r, 3_500));
      assert.equal(rt.child.exitCode, null, "no crash");
      const down = (await agent()).activity.filter((a: Json) => /^disconnected/.test(a.text));
      assert.ok(down.length >= 2 && down.length <= 4, `${down.length} failed attempts in 3.5 s (backoff 1 s, 2 s, …)`);
      proxy.refuse(false);
      await eventually(async () => ((await agent()).state === "playing" ? true : undefined), "playing again", 15_000);
      // The same player, still in the world (it lingered through the outage), and it keeps playing.
      assert.equal(t.server.world.world.players.get(characterId), player);
      assert.equal(t.server.world.playersByTransport().ws, 1, "its one session is a /ws one");
      const xp = Object.values(player.data.skills).reduce((n, s) => n + s.xpTenths, 0);
      const at = { x: player.x, z: player.z };
      await eventually(
        () => (player.x !== at.x || player.z !== at.z || Object.values(player.data.skills).reduce((n, s) => n + s.xpTenths, 0) > xp ? true : undefined),
        "it to act again",
        20_000,
      );
    });
  });
