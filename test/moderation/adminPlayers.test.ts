/**
 * What an operator sees (issue 20 item 4) against a real server: `GET /api/admin/players` lists
 * `/ws` players and Colyseus clients with their transports, world, position and session start, and
 * gives this process's CPU (cores' worth, user/system) and memory, not the machine's; non-admins
 * get the error shape.
 */
import assert from "node:assert/strict";
import os from "node:os";
import { randomBytes } from "node:crypto";
import { CPU_MIN_WINDOW_MS } from "../../src/http/routes/adminPlayers.ts";
import { MONITOR_COLUMNS } from "../../src/http/monitor.ts";
import { WORLD_ROOM, WS_SESSION_PREFIX } from "../../rooms/WorldRoom.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { adminBasic } from "../support/http.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let counter = 0;
const uniqueName = () => `P${randomBytes(3).toString("hex")}${(counter++).toString(36)}`.slice(0, 16);

describe("GET /api/admin/players (issue 20 item 4)", function () {
  this.timeout(60_000);
  let t: TestServer;
  let adminToken: string;

  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
    adminToken = await t.server.tokens.signServiceToken({ accountId: "ops-admin", role: "admin" }, 600);
  });
  after(() => t?.close());

  async function get(headers: Record<string, string>): Promise<{ status: number; body: Json; challenge: string | null }> {
    const res = await fetch(`${t.baseUrl}/api/admin/players`, { headers });
    return { status: res.status, body: (await res.json()) as Json, challenge: res.headers.get("www-authenticate") };
  }
  const asAdmin = () => get({ authorization: `Bearer ${adminToken}` });

  it("lists a /ws player and a Colyseus client with their transports, world, position and session start", async () => {
    const before = Date.now();
    const wsName = uniqueName();
    const ws = await WsTestClient.connect(`${t.wsUrl}?name=${encodeURIComponent(wsName)}`);
    const wsWelcome = await ws.next("welcome");
    const sdkName = uniqueName();
    const sdk = await WorldTestClient.join(t.baseUrl, { name: sdkName });
    const sdkWelcome = await sdk.next("welcome");
    try {
      const res = await asAdmin();
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.success, true);
      assert.equal(res.body.pid, process.pid);
      const players = res.body.players as Json[];
      const wsRow = players.find((p) => p.name === wsName);
      const sdkRow = players.find((p) => p.name === sdkName);
      assert.ok(wsRow, `the /ws player is listed: ${JSON.stringify(players)}`);
      assert.ok(sdkRow, `the Colyseus player is listed: ${JSON.stringify(players)}`);
      assert.equal(wsRow.transport, "ws");
      assert.equal(sdkRow.transport, "colyseus");
      assert.equal(wsRow.characterId, String(wsWelcome.playerId));
      assert.equal(sdkRow.characterId, String(sdkWelcome.playerId));
      assert.equal(wsRow.accountId, String(wsWelcome.accountId));
      for (const [row, id] of [
        [wsRow, String(wsWelcome.playerId)],
        [sdkRow, String(sdkWelcome.playerId)],
      ] as const) {
        const live = t.server.world.world.players.get(id)!;
        assert.equal(row.world, res.body.world);
        assert.equal(typeof row.world, "number");
        assert.deepEqual(row.position, { x: live.data.x, y: live.data.y, z: live.data.z });
        const since = Date.parse(String(row.connectedSince));
        assert.ok(since >= before - 1000 && since <= Date.now(), `connectedSince ${row.connectedSince}`);
      }
      assert.ok(res.body.counts.ws >= 1 && res.body.counts.colyseus >= 1, JSON.stringify(res.body.counts));
      assert.equal(res.body.counts.total, players.length);

      // A /ws player that leaves is no longer listed as ws (it is saved and removed, or lingers as none).
      ws.close();
      await until(() => (t.server.world.connectionOf(String(wsWelcome.playerId)) === undefined ? true : undefined), "the /ws connection gone");
      const after = await asAdmin();
      const row = (after.body.players as Json[]).find((p) => p.name === wsName);
      assert.ok(row === undefined || (row.transport === "none" && row.connectedSince === null), JSON.stringify(row));
    } finally {
      ws.close();
      await sdk.room.leave();
    }
  });

  it("gives this process's CPU (cores' worth, user and system over a window) and memory", async () => {
    // A fresh reading (the previous one is over a second old) starts a window; the next one, a
    // second or more later, covers it.
    await new Promise((r) => setTimeout(r, CPU_MIN_WINDOW_MS + 50));
    const started = Date.now();
    await asAdmin();
    // Burn about 300 ms of CPU in this process, so that the next window shows it.
    await new Promise((r) => setTimeout(r, CPU_MIN_WINDOW_MS));
    // 300 ms of CPU time (not wall time: on a busy machine the process may wait for a core).
    const burnFrom = process.cpuUsage();
    for (;;) {
      for (let i = 0; i < 10_000; i++) Math.sqrt(Math.random());
      const used = process.cpuUsage(burnFrom);
      if (used.user + used.system >= 300_000) break;
    }
    const res = await asAdmin();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const cpu = res.body.process.cpu as Json;
    const cores = os.availableParallelism();
    assert.equal(cpu.cores, cores);
    assert.ok(cpu.windowMs >= CPU_MIN_WINDOW_MS && cpu.windowMs <= Date.now() - started + 50, `window ${cpu.windowMs}`);
    for (const k of ["user", "system", "total"]) assert.ok(typeof cpu[k] === "number" && cpu[k] >= 0 && cpu[k] <= cores, `${k}: ${cpu[k]}`);
    assert.ok(Math.abs(cpu.total - (cpu.user + cpu.system)) < 0.01, JSON.stringify(cpu));
    // The busy loop alone used 0.3 s of CPU in the window.
    assert.ok(cpu.total * (cpu.windowMs / 1000) >= 0.28, `process CPU ${cpu.total} over ${cpu.windowMs} ms should include the busy loop`);
    assert.ok(cpu.percentOfCores >= 0 && cpu.percentOfCores <= 100);
    assert.ok(Math.abs(cpu.percentOfCores - (cpu.total / cores) * 100) < 0.1);
    const mem = res.body.process.memory as Json;
    assert.ok(mem.rssMb > 0 && mem.heapUsedMb > 0 && mem.heapUsedMb <= mem.heapTotalMb, JSON.stringify(mem));
    assert.ok(Math.abs(mem.rssMb - process.memoryUsage().rss / 1024 / 1024) < 200, "the rss is this process's");
  });

  it("makes the monitor's room list show /ws players and this process's CPU, not the machine's", async () => {
    const wsName = uniqueName();
    const ws = await WsTestClient.connect(`${t.wsUrl}?name=${encodeURIComponent(wsName)}`);
    await ws.next("welcome");
    const sdk = await WorldTestClient.join(t.baseUrl, { name: uniqueName() });
    await sdk.next("welcome");
    try {
      const monitorApi = async () => {
        const res = await fetch(`${t.baseUrl}/colyseus/api`, { headers: { authorization: `Bearer ${adminToken}` } });
        assert.equal(res.status, 200);
        return (await res.json()) as Json;
      };
      const list = await monitorApi();
      assert.deepEqual(list.columns, [...MONITOR_COLUMNS]);
      const world = (list.rooms as Json[]).find((r) => r.name === WORLD_ROOM);
      assert.ok(world, JSON.stringify(list.rooms));
      const counts = t.server.world.playersByTransport();
      assert.equal(world.metadata.wsPlayers, counts.ws);
      assert.ok(world.metadata.wsPlayers >= 1);
      const colyseusClients = (list.rooms as Json[]).reduce((n, r) => n + Number(r.clients), 0);
      assert.equal(list.connections, colyseusClients + counts.ws);
      // The CPU card is the sampler's reading of this process (shared with /api/admin/players):
      // read both within one window (a reading lasts at least CPU_MIN_WINDOW_MS) and they agree.
      let agreed = false;
      for (let i = 0; i < 5 && !agreed; i++) {
        const shown = (await monitorApi()).cpu as number;
        const cpu = (await asAdmin()).body.process.cpu as Json;
        assert.ok(shown >= 0 && shown <= 100, `cpu ${shown}`);
        agreed = shown === cpu.percentOfCores;
      }
      assert.ok(agreed, "the monitor's CPU is the process's reading");
      assert.ok("machineCpu" in list, "the machine's figure stays, under its own name");
    } finally {
      ws.close();
      await sdk.room.leave();
    }
  });

  it("makes the monitor's room inspector list /ws players beside Colyseus clients, and its disconnect button kick a /ws player", async () => {
    const wsName = uniqueName();
    const ws = await WsTestClient.connect(`${t.wsUrl}?name=${encodeURIComponent(wsName)}`);
    const wsId = String((await ws.next("welcome")).playerId);
    const sdkName = uniqueName();
    const sdk = await WorldTestClient.join(t.baseUrl, { name: sdkName });
    await sdk.next("welcome");
    try {
      const monitor = async (path: string) => {
        const res = await fetch(`${t.baseUrl}/colyseus/api${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
        assert.equal(res.status, 200, path);
        return (await res.json()) as Json;
      };
      const world = ((await monitor("")).rooms as Json[]).find((r) => r.name === WORLD_ROOM)!;
      const inspect = await monitor(`/room?roomId=${world.roomId}`);
      const clients = inspect.clients as Json[];
      const wsRow = clients.find((c) => c.name === wsName);
      const sdkRow = clients.find((c) => c.name === sdkName);
      assert.ok(wsRow, `the /ws player is in the inspector: ${JSON.stringify(clients)}`);
      assert.ok(sdkRow, `the Colyseus client is named in the inspector: ${JSON.stringify(clients)}`);
      assert.equal(wsRow.transport, "ws");
      assert.equal(wsRow.sessionId, `${wsName} (${WS_SESSION_PREFIX}${wsId})`);
      assert.ok(wsRow.elapsedTime >= 0);
      assert.equal(sdkRow.transport, "colyseus");
      assert.equal(sdkRow.sessionId, `${sdkName} (${sdk.room.sessionId})`);
      assert.equal(inspect.wsPlayers, t.server.world.playersByTransport().ws);

      // The inspector's disconnect button on the /ws row: a kick (error KICKED, close 4011), the player saved and gone.
      await monitor(`/room/call?roomId=${world.roomId}&method=_forceClientDisconnect&args=${encodeURIComponent(JSON.stringify([wsRow.sessionId]))}`);
      assert.equal((await ws.next("error")).code, "KICKED");
      assert.equal((await ws.waitClosed()).code, 4011);
      await until(() => (t.server.world.world.players.has(wsId) ? undefined : true), "the kicked player leaves the world");
      // An id that is nobody's changes nothing; the Colyseus client stays.
      await monitor(`/room/call?roomId=${world.roomId}&method=_forceClientDisconnect&args=${encodeURIComponent(JSON.stringify(["ws:nobody"]))}`);
      const again = (await monitor(`/room?roomId=${world.roomId}`)).clients as Json[];
      assert.ok(again.some((c) => c.name === sdkName));
      assert.ok(!again.some((c) => c.name === wsName));
    } finally {
      ws.close();
      await sdk.room.leave();
    }
  });

  it("answers the admin code over basic auth (as the monitor does), and refuses others with the error shape", async () => {
    const basic = (code: string) => ({ authorization: adminBasic(code) });
    assert.equal((await get(basic(t.server.adminCode))).status, 200);

    const none = await get({});
    assert.equal(none.status, 401);
    assert.equal(none.body.success, false);
    assert.equal(none.body.error.code, "UNAUTHORIZED");
    assert.match(String(none.challenge), /Basic/);

    const wrong = await get(basic(`${t.server.adminCode}x`));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, "UNAUTHORIZED");

    const playerToken = await t.server.tokens.signServiceToken({ accountId: "not-an-admin", role: "player" }, 600);
    const player = await get({ authorization: `Bearer ${playerToken}` });
    assert.equal(player.status, 403);
    assert.deepEqual(Object.keys(player.body).sort(), ["error", "success"]);
    assert.equal(player.body.success, false);
    assert.equal(player.body.error.code, "FORBIDDEN");
    assert.equal(typeof player.body.error.message, "string");
  });
});
