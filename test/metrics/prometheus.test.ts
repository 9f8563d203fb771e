/**
 * `GET /metrics` (Prometheus text, prom-client) on METRICS_PORT of a real server: it parses, and
 * its counters move with real traffic of both transports (a `/ws` client and a Colyseus client,
 * commands, refusals, a trade between them, logouts that save).
 */
import assert from "node:assert/strict";
import net from "node:net";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { parsePrometheus, valueOf, type Family } from "../support/prometheus.ts";
import { until } from "../support/until.ts";

async function scrape(port: number): Promise<Map<string, Family>> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return parsePrometheus(text);
}

describe("Prometheus metrics at /metrics on METRICS_PORT", () => {
  let t: TestServer;
  let port: number;
  before(async () => {
    t = await startTestServer({ METRICS_PORT: "0", TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
    port = t.server.metricsPort!;
    assert.ok(port > 0 && port !== t.server.port, "a port of its own");
  });
  after(() => t?.close());

  it("serves every family the operator expects, in the exposition format", async () => {
    // After the world's first tick (it starts with the server).
    let m = await scrape(port);
    for (const deadline = Date.now() + 5_000; valueOf(m, "rsworld_tick_duration_seconds_count") === 0; m = await scrape(port)) {
      assert.ok(Date.now() < deadline, "a tick within 5 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    const expected: Record<string, string> = {
      rsworld_tick_duration_seconds: "histogram",
      rsworld_tick_phase_duration_seconds: "histogram",
      rsworld_players: "gauge",
      rsworld_connections: "gauge",
      rsworld_messages_received_total: "counter",
      rsworld_messages_sent_total: "counter",
      rsworld_errors_total: "counter",
      rsworld_view_changes_total: "counter",
      rsworld_trades_total: "counter",
      rsworld_trade_store_duration_seconds: "histogram",
      rsworld_saves_total: "counter",
      rsworld_save_batch_duration_seconds: "histogram",
      rsworld_save_queue: "gauge",
      rsworld_database_up: "gauge",
      rsworld_database_ping_seconds: "gauge",
      rsworld_database_query_duration_seconds: "histogram",
      // prom-client's defaults: the process's CPU, memory and event-loop delay.
      process_cpu_user_seconds_total: "counter",
      process_cpu_system_seconds_total: "counter",
      process_resident_memory_bytes: "gauge",
      nodejs_heap_size_used_bytes: "gauge",
      nodejs_eventloop_lag_p99_seconds: "gauge",
      nodejs_gc_duration_seconds: "histogram",
    };
    for (const [name, type] of Object.entries(expected)) {
      assert.equal(m.get(name)?.type, type, `${name} is a ${type}`);
      assert.ok(m.get(name)!.help.length > 0, `${name} has a help text`);
    }
    assert.equal(valueOf(m, "rsworld_database_up"), 1);
    assert.ok(valueOf(m, "rsworld_database_ping_seconds") >= 0);
    assert.ok(valueOf(m, "process_resident_memory_bytes") > 0);
    // The phases are the ones GET /api/admin/metrics reports, from the same measurement.
    const phases = new Set(m.get("rsworld_tick_phase_duration_seconds")!.samples.map((s) => s.labels.phase));
    for (const phase of ["game", "messages", "schemaMirror", "colyseusPatch", "wsDeltas"]) assert.ok(phases.has(phase), `phase ${phase}`);
  });

  it("counts ticks, players, connections, messages, errors, a trade and saves as real clients play", async function () {
    this.timeout(30_000);
    const before = await scrape(port);
    const ticksBefore = valueOf(before, "rsworld_tick_duration_seconds_count");
    // Error codes are counted from their first occurrence; everything else exists from the start.
    const absent = (name: string) => (name === "rsworld_errors_total" ? 0 : undefined);
    const delta = (after: Map<string, Family>, name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels, absent(name));

    // A /ws player (anonymous mode: an identity is issued) and a Colyseus player, side by side at the spawn.
    const ws = await WsTestClient.connect(`${t.wsUrl}?name=MetricsWs`);
    const wsId = String((await ws.next("welcome")).playerId);
    const sync = await ws.next("player:sync");
    const colyseus = await WorldTestClient.join(t.baseUrl, { name: "MetricsCol" });
    const colId = String((await colyseus.next("welcome")).playerId);

    let m = await scrape(port);
    // The Colyseus player's view took in the /ws player (and whatever else is at the spawn).
    for (const deadline = Date.now() + 5_000; delta(m, "rsworld_view_changes_total", { change: "entered" }) < 1; m = await scrape(port)) {
      assert.ok(Date.now() < deadline, "the Colyseus view's entries within 5 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(valueOf(m, "rsworld_players", { world: "1", transport: "ws" }), 1);
    assert.equal(valueOf(m, "rsworld_players", { world: "1", transport: "colyseus" }), 1);
    assert.equal(valueOf(m, "rsworld_players", { world: "1", transport: "none" }), 0);
    assert.equal(valueOf(m, "rsworld_connections", { transport: "ws" }), 1);
    assert.equal(valueOf(m, "rsworld_connections", { transport: "colyseus" }), 1);
    assert.equal(delta(m, "rsworld_messages_sent_total", { transport: "ws", event: "welcome" }), 1);
    assert.equal(delta(m, "rsworld_messages_sent_total", { transport: "colyseus", event: "welcome" }), 1);

    // Commands, and refusals the server answers with an error code.
    // One line to both players (one message to many: counted once for each of them).
    ws.send("player:chat", { message: "hello metrics" });
    await ws.next("chat:message");
    assert.equal((await colyseus.next("chat:message")).message, "hello metrics");
    ws.send("no:such-event", {});
    assert.equal((await ws.next("error")).code, "UNKNOWN_EVENT");
    ws.send("player:move", { x: "east" });
    assert.equal((await ws.next("error")).code, "INVALID_PAYLOAD");
    colyseus.send("player:move", { x: 1e9, z: 0 });
    assert.equal((await colyseus.next("error")).code, "INVALID_PAYLOAD");

    // A trade between the two transports, to completion.
    ws.send("tradeRequest", { targetPlayerId: colId });
    const tradeId = String((await colyseus.next("tradeIncoming")).tradeId);
    colyseus.send("tradeRequestRespond", { tradeId, accept: true });
    await ws.next("tradeStarted");
    await colyseus.next("tradeStarted");
    const slot = (sync.inventory as { slot: number }[])[0]!.slot;
    ws.send("tradeAddItem", { tradeId, inventorySlot: slot, quantity: 1 });
    await colyseus.next("tradeUpdated");
    ws.send("tradeAccept", { tradeId });
    colyseus.send("tradeAccept", { tradeId });
    await ws.next("tradeConfirmScreen");
    await colyseus.next("tradeConfirmScreen");
    ws.send("tradeAccept", { tradeId });
    colyseus.send("tradeAccept", { tradeId });
    await ws.next("tradeCompleted");
    await colyseus.next("tradeCompleted");

    m = await scrape(port);
    assert.ok(valueOf(m, "rsworld_tick_duration_seconds_count") > ticksBefore, "ticks are observed");
    assert.equal(delta(m, "rsworld_messages_received_total", { transport: "ws", event: "player:chat" }), 1);
    assert.equal(
      delta(m, "rsworld_messages_received_total", { transport: "ws", event: "unknown" }),
      1,
      "an unknown event is counted as unknown, not by its name",
    );
    assert.equal(delta(m, "rsworld_messages_received_total", { transport: "ws", event: "player:move" }), 1);
    assert.equal(delta(m, "rsworld_messages_received_total", { transport: "colyseus", event: "player:move" }), 1);
    assert.equal(delta(m, "rsworld_messages_received_total", { transport: "ws", event: "tradeAccept" }), 2);
    assert.equal(delta(m, "rsworld_messages_received_total", { transport: "colyseus", event: "tradeAccept" }), 2);
    assert.equal(delta(m, "rsworld_messages_received_total", { transport: "colyseus", event: "tradeRequestRespond" }), 1);
    assert.equal(delta(m, "rsworld_errors_total", { transport: "ws", code: "UNKNOWN_EVENT" }), 1);
    assert.equal(delta(m, "rsworld_errors_total", { transport: "ws", code: "INVALID_PAYLOAD" }), 1);
    assert.equal(delta(m, "rsworld_errors_total", { transport: "colyseus", code: "INVALID_PAYLOAD" }), 1);
    assert.equal(delta(m, "rsworld_messages_sent_total", { transport: "ws", event: "tradeCompleted" }), 1);
    assert.equal(delta(m, "rsworld_messages_sent_total", { transport: "colyseus", event: "tradeCompleted" }), 1);
    assert.ok(delta(m, "rsworld_messages_sent_total", { transport: "ws", event: "world:update" }) > 0, "/ws deltas are counted");
    assert.equal(delta(m, "rsworld_messages_sent_total", { transport: "ws", event: "chat:message" }), 1);
    assert.equal(delta(m, "rsworld_messages_sent_total", { transport: "colyseus", event: "chat:message" }), 1);
    assert.equal(delta(m, "rsworld_trades_total", { outcome: "completed" }), 1);
    assert.equal(delta(m, "rsworld_trades_total", { outcome: "failed" }), 0);
    assert.equal(delta(m, "rsworld_trade_store_duration_seconds_count", { outcome: "completed" }), 1);
    // Nothing of a player's is a label: names and ids appear nowhere in the text.
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const secret of [wsId, colId, "MetricsWs", "MetricsCol", "hello metrics", "no:such-event"])
      assert.ok(!text.includes(secret), `${secret} is not in the metrics`);

    // Logouts save both players (the trade's swap was stored first; these are their final saves).
    const savedBefore = valueOf(m, "rsworld_saves_total", { outcome: "stored" });
    ws.socket.close(1000);
    await colyseus.room.leave();
    await until(() => (t.server.world.world.players.size === 0 ? true : undefined), "both players leave the world");
    for (const deadline = Date.now() + 5_000; ;) {
      m = await scrape(port);
      if (valueOf(m, "rsworld_saves_total", { outcome: "stored" }) >= savedBefore + 2) break;
      assert.ok(Date.now() < deadline, "both final saves are counted");
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(delta(m, "rsworld_save_batch_duration_seconds_count", { outcome: "stored" }) >= 1);
    assert.equal(valueOf(m, "rsworld_players", { world: "1", transport: "ws" }), 0);
    assert.equal(valueOf(m, "rsworld_players", { world: "1", transport: "colyseus" }), 0);
  });

  it("counts REST and matchmaking errors by code, and times every database query by kind", async () => {
    const before = await scrape(port);
    const errors = (m: Map<string, Family>, code: string) => valueOf(m, "rsworld_errors_total", { transport: "http", code }, 0);
    const queries = (m: Map<string, Family>, kind: string) => valueOf(m, "rsworld_database_query_duration_seconds_count", { kind, outcome: "ok" });

    // A REST refusal with our code, a missing route, and Colyseus' own matchmaking refusal (no code of ours).
    assert.equal((await fetch(`${t.baseUrl}/api/v1/player`)).status, 401);
    assert.equal((await fetch(`${t.baseUrl}/api/no-such-route`)).status, 404);
    const matchmake = await fetch(`${t.baseUrl}/matchmake/joinOrCreate/no_such_room`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.ok(matchmake.status >= 400, `matchmaking refuses an unknown room (${matchmake.status})`);
    // A success is no error; and it reads the database (an identity is stored).
    assert.equal((await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" })).status, 201);

    const after = await scrape(port);
    assert.equal(errors(after, "UNAUTHORIZED") - errors(before, "UNAUTHORIZED"), 1);
    assert.equal(errors(after, "NOT_FOUND") - errors(before, "NOT_FOUND"), 1);
    assert.equal(errors(after, `HTTP_${matchmake.status}`) - errors(before, `HTTP_${matchmake.status}`), 1, "a matchmaking refusal counts by its status");
    const httpTotal = (m: Map<string, Family>) =>
      m
        .get("rsworld_errors_total")!
        .samples.filter((s) => s.labels.transport === "http")
        .reduce((sum, s) => sum + s.value, 0);
    assert.equal(httpTotal(after) - httpTotal(before), 3, "the success counted nothing");
    assert.ok(queries(after, "select") > queries(before, "select"), "selects are timed");
    assert.ok(queries(after, "insert") > queries(before, "insert"), "the stored identity's insert is timed");
    const family = after.get("rsworld_database_query_duration_seconds")!;
    assert.ok(
      family.samples.every((s) => ["select", "insert", "update", "delete", "other", undefined].includes(s.labels.kind)),
      "kinds are bounded",
    );
  });

  it("is served on METRICS_PORT only: the public port has no /metrics", async () => {
    const res = await fetch(`${t.baseUrl}/metrics`);
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.code, "NOT_FOUND");
  });

  it("serves nothing else on METRICS_PORT, and only GET and HEAD", async () => {
    assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/admin/metrics`)).status, 404);
    const post = await fetch(`http://127.0.0.1:${port}/metrics`, { method: "POST" });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get("allow"), "GET, HEAD");
    const head = await fetch(`http://127.0.0.1:${port}/metrics`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), "");
  });
});

describe("the metrics server's configuration", () => {
  it("is off without METRICS_PORT", async () => {
    const t = await startTestServer();
    try {
      assert.equal(t.server.metricsPort, undefined);
    } finally {
      await t.close();
    }
  });

  it("a METRICS_PORT in use stops the start with the port's error, and a later start works", async function () {
    this.timeout(20_000);
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const busy = (taken.address() as net.AddressInfo).port;
    try {
      await assert.rejects(startTestServer({ METRICS_PORT: String(busy) }), /EADDRINUSE/);
    } finally {
      taken.close();
    }
    const t = await startTestServer({ METRICS_PORT: "0" });
    try {
      assert.equal((await fetch(`http://127.0.0.1:${t.server.metricsPort}/metrics`)).status, 200);
    } finally {
      await t.close();
    }
  });
});
