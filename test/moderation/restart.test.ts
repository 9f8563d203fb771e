/**
 * Maintenance restarts (issue 20 item 3): scheduling and cancelling over REST and in game, the
 * countdown lines on both transports, logins refused at every door in the last minute, bad input
 * refused with nothing changed, and — with a real process — the restart itself: open trades
 * cancelled with a reason, everyone saved, exit 0, and the database holding every item and the
 * last position after it.
 */
import assert from "node:assert/strict";
import path from "node:path";
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { pino } from "pino";
import { AdminAudit, Character, InventorySlot, PlayerSession } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { parseModerationCommand } from "../../src/game/moderation.ts";
import { countdownLine, countdownPoints, RESTART_CANCELLED_LINE, RESTARTING_NOW_LINE } from "../../src/game/restart.ts";
import { CLOSE_TRY_AGAIN_LATER } from "../../src/ws/WsGateway.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { forEachDialect } from "../support/dialects.ts";
import { spawnServer, type Running } from "../support/process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { makeWorldDir } from "../support/world.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { adminBasic } from "../support/http.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Client = WsTestClient | WorldTestClient;

let counter = 0;
const uniqueName = () => `R${randomBytes(3).toString("hex")}${(counter++).toString(36)}`.slice(0, 16);

async function systemLine(c: Client, pattern: RegExp | string, timeoutMs = 5_000): Promise<string> {
  const matches = (m: string) => (typeof pattern === "string" ? m === pattern : pattern.test(m));
  const found = await until(
    () => c.events.find((e) => e.type === "chat:message" && e.data.channel === "system" && matches(String(e.data.message))),
    `a system line ${pattern}`,
    timeoutMs,
  );
  return String(found.data.message);
}

async function call(baseUrl: string, method: string, p: string, authorization: string | undefined, body?: unknown): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Json };
}

/** A login on every door, each refused with RESTARTING and the restart's time. */
async function assertLoginsRefused(baseUrl: string, wsUrl: string, at: string): Promise<void> {
  const ws = await WsTestClient.connect(`${wsUrl}?name=${uniqueName()}`);
  const err = await ws.next("error");
  assert.equal(err.code, "RESTARTING");
  assert.equal(err.until, at);
  assert.equal((await ws.waitClosed()).code, CLOSE_TRY_AGAIN_LATER);
  assert.ok(!ws.events.some((e) => e.type === "welcome"), "no welcome on a refused /ws login");
  await assert.rejects(WorldTestClient.join(baseUrl, { name: uniqueName() }), (e: Error & { code?: number }) => {
    assert.match(e.message, /RESTARTING/);
    assert.equal(e.code, 503);
    return true;
  });
  const rest = await call(baseUrl, "POST", "/api/auth/anonymous", undefined, {});
  assert.equal(rest.status, 503, JSON.stringify(rest.body));
  assert.equal(rest.body.error.code, "RESTARTING");
  assert.equal(rest.body.error.until, at);
}

describe("maintenance restarts: the rules", () => {
  it("counts down at the fixed points still ahead, and parses /restart", () => {
    assert.deepEqual(countdownPoints(600), [300, 120, 60, 30, 10, 5]);
    assert.deepEqual(countdownPoints(10), [5]);
    assert.deepEqual(countdownPoints(3600), [600, 300, 120, 60, 30, 10, 5]);
    assert.equal(countdownLine(600, "update"), "The server restarts in 10 minutes (update).");
    assert.equal(countdownLine(30, "update"), "The server restarts in 30 seconds (update).");
    assert.deepEqual(parseModerationCommand("/restart 300 new content"), { action: "restart", seconds: 300, reason: "new content" });
    assert.deepEqual(parseModerationCommand("/restart 60"), { action: "restart", seconds: 60, reason: "maintenance" });
    assert.deepEqual(parseModerationCommand("/restart cancel"), { action: "restart", seconds: undefined, reason: "" });
    for (const bad of ["/restart", "/restart 9", "/restart 86401", "/restart -10", "/restart 1.5", "/restart soon", `/restart 60 ${"x".repeat(201)}`])
      assert.equal((parseModerationCommand(bad) as { code?: string }).code, "INVALID_PAYLOAD", bad);
  });
});

describe("maintenance restarts: scheduling and cancelling", function () {
  this.timeout(60_000);
  let t: TestServer;
  let adminToken: string;
  const bearer = (token: string) => `Bearer ${token}`;
  const admin = (method: string, p: string, body?: unknown) => call(t.baseUrl, method, p, bearer(adminToken), body);
  const auditCount = () => t.server.db.em().count(AdminAudit, {});

  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
    adminToken = await t.server.tokens.signServiceToken({ accountId: "ops-admin", role: "admin" }, 600);
  });
  after(() => t?.close());

  it("refuses bad input and non-admins with the error shape, and changes nothing", async () => {
    const before = await auditCount();
    const player = await WsTestClient.connect(`${t.wsUrl}?name=${uniqueName()}`);
    const playerToken = String((await player.next("welcome")).token);
    try {
      const denied = await call(t.baseUrl, "POST", "/api/admin/restart", undefined, { inSeconds: 60, reason: "x" });
      assert.equal(denied.status, 401);
      assert.equal(denied.body.success, false);
      const forbidden = await call(t.baseUrl, "POST", "/api/admin/restart", bearer(playerToken), { inSeconds: 60, reason: "x" });
      assert.equal(forbidden.status, 403);
      assert.equal((await call(t.baseUrl, "DELETE", "/api/admin/restart", bearer(playerToken))).status, 403);
      for (const body of [
        { inSeconds: 9, reason: "x" },
        { inSeconds: 86_401, reason: "x" },
        { inSeconds: -60, reason: "x" },
        { inSeconds: 60.5, reason: "x" },
        { inSeconds: "60", reason: "x" },
        { inSeconds: 60 },
        { inSeconds: 60, reason: "" },
        { inSeconds: 60, reason: "   " },
        { inSeconds: 60, reason: "x".repeat(201) },
        { inSeconds: 60, reason: "x", extra: 1 },
        {},
      ]) {
        const res = await admin("POST", "/api/admin/restart", body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.success, false);
        assert.equal(res.body.error.code, "INVALID_PAYLOAD", JSON.stringify(body));
      }
      const none = await admin("DELETE", "/api/admin/restart");
      assert.equal(none.status, 404);
      assert.equal(none.body.error.code, "NO_RESTART_SCHEDULED");
      assert.equal(await auditCount(), before);
      assert.ok(!player.events.some((e) => e.type === "chat:message"), "no player heard of a refused schedule");
      // Logins go on.
      const other = await WsTestClient.connect(`${t.wsUrl}?name=${uniqueName()}`);
      await other.next("welcome");
      other.close();
    } finally {
      player.close();
    }
  });

  it("over REST: a countdown line on both transports, a second schedule replaces the first, logins refused in the last minute only, a cancel lifts it; each an audit row", async () => {
    const ws = await WsTestClient.connect(`${t.wsUrl}?name=${uniqueName()}`);
    await ws.next("welcome");
    const sdk = await WorldTestClient.join(t.baseUrl, { name: uniqueName() });
    await sdk.next("welcome");
    try {
      const first = await admin("POST", "/api/admin/restart", { inSeconds: 600, reason: "update 1.2" });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.action.action, "restart");
      assert.equal(first.body.action.reason, "update 1.2");
      assert.equal(first.body.action.actorAccountId, "ops-admin");
      assert.equal(first.body.restart.at, first.body.action.endsAt);
      for (const c of [ws, sdk]) await systemLine(c, "The server restarts in 10 minutes (update 1.2).");
      // Ten minutes away: logins go on.
      const early = await WsTestClient.connect(`${t.wsUrl}?name=${uniqueName()}`);
      await early.next("welcome");
      early.close();

      // The second replaces the first: 30 s away, inside the last minute.
      const second = await admin("POST", "/api/admin/restart", { inSeconds: 30, reason: "hotfix" });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      const at = String(second.body.restart.at);
      assert.ok(Date.parse(at) < Date.parse(first.body.restart.at));
      for (const c of [ws, sdk]) await systemLine(c, "The server restarts in 30 seconds (hotfix).");
      await assertLoginsRefused(t.baseUrl, t.wsUrl, at);
      // Players already in stay, and an admin can still act.
      assert.equal(ws.closed, undefined);

      const cancelled = await admin("DELETE", "/api/admin/restart");
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      assert.equal(cancelled.body.action.action, "restart_cancel");
      assert.equal(cancelled.body.restart, null);
      for (const c of [ws, sdk]) await systemLine(c, RESTART_CANCELLED_LINE);
      const after = await WsTestClient.connect(`${t.wsUrl}?name=${uniqueName()}`);
      await after.next("welcome");
      after.close();
      const rows = await t.server.db.em().find(AdminAudit, { action: { $in: ["restart", "restart_cancel"] } }, { orderBy: { id: "asc" } });
      assert.deepEqual(
        rows.map((r) => [r.action, r.actorAccountId, r.via, r.reason ?? null]),
        [
          ["restart", "ops-admin", "rest", "update 1.2"],
          ["restart", "ops-admin", "rest", "hotfix"],
          ["restart_cancel", "ops-admin", "rest", null],
        ],
      );
      assert.deepEqual(rows[1]!.detail, { inSeconds: 30 });
      assert.equal(rows[1]!.endsAt?.toISOString(), at);
    } finally {
      ws.close();
      await sdk.room.leave();
    }
  });

  it("in game: an admin's /restart and /restart cancel answer with a system line; a player's are refused", async () => {
    const adm = await WsTestClient.connect(`${t.wsUrl}?name=${uniqueName()}`);
    await adm.next("welcome");
    const player = await WorldTestClient.join(t.baseUrl, { name: uniqueName() });
    await player.next("welcome");
    try {
      const before = await auditCount();
      player.send("player:chat", { message: "/restart 60 nope" });
      assert.equal((await player.next("error")).code, "FORBIDDEN");
      adm.send("player:chat", { message: `/admin ${t.server.adminCode}` });
      await systemLine(adm, /Admin access granted/);
      adm.send("player:chat", { message: "/restart 5" });
      assert.equal((await adm.next("error")).code, "INVALID_PAYLOAD");
      adm.send("player:chat", { message: "/restart cancel" });
      assert.equal((await adm.next("error")).code, "NO_RESTART_SCHEDULED");
      assert.equal(await auditCount(), before);

      adm.send("player:chat", { message: "/restart 120 new trees" });
      await systemLine(adm, /^Restart scheduled at .* \(new trees\)\.$/);
      await systemLine(player, "The server restarts in 2 minutes (new trees).");
      adm.send("player:chat", { message: "/restart cancel" });
      await systemLine(adm, "Restart cancelled.");
      await systemLine(player, RESTART_CANCELLED_LINE);
      const rows = await t.server.db.em().find(AdminAudit, { id: { $gt: 0 } }, { orderBy: { id: "desc" }, limit: 2 });
      assert.deepEqual(
        rows.map((r) => [r.action, r.via, r.reason ?? null]),
        [
          ["restart_cancel", "game", null],
          ["restart", "game", "new trees"],
        ],
      );
    } finally {
      adm.close();
      await player.room.leave();
    }
  });
});

forEachDialect("maintenance restart of a real process", (ctx) => {
  let world = "";
  let server: Running | undefined;
  afterEach(() => {
    if (server !== undefined && server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    server = undefined;
    if (world) fs.rmSync(world, { recursive: true, force: true });
  });

  it("counts down on both transports, refuses logins, cancels the open trade, saves everyone and exits 0; the database then holds every item", async function () {
    this.timeout(90_000);
    world = makeWorldDir();
    const dbUrl = ctx.dialect === "sqlite" ? `sqlite:${path.join(world, "restart.sqlite")}` : await ctx.newUrl();
    const code = "restart-admin-code-0123";
    // Saves only at a logout or the shutdown: what the database holds afterwards is the last save's.
    const env = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      PORT: "0",
      WORLD: world,
      DATABASE_URL: dbUrl,
      JWT_SECRET: "restart-secret-0123456789abcdef",
      ADMIN_CODE: code,
      TICK_MS: "50",
      DISABLE_RATE_LIMIT: "true",
      SAVE_INTERVAL: "86400",
    };
    server = await spawnServer(env);
    const running = server;
    const baseUrl = `http://127.0.0.1:${running.port}`;
    const wsUrl = `ws://127.0.0.1:${running.port}/ws`;

    const a = await WsTestClient.connect(`${wsUrl}?name=${uniqueName()}`);
    const aId = String((await a.next("welcome")).characterId);
    const aInv = (await a.next("player:sync")).inventory as { slot: number; itemId: string; quantity: number }[];
    const b = await WorldTestClient.join(baseUrl, { name: uniqueName() });
    const bId = String((await b.next("welcome")).characterId);
    const bInv = (await b.next("player:sync")).inventory as { slot: number; itemId: string; quantity: number }[];
    assert.ok(aInv.length > 0 && bInv.length > 0, "both players start with items");

    // B walks: its new position lives only in memory until the shutdown's save.
    const start = await b.waitFor(() => b.state().players[bId] as { x: number; z: number } | undefined, 5_000, "B in the state");
    const from = { x: Math.round(start.x), z: Math.round(start.z) };
    let moved: { x: number; z: number } | undefined;
    for (const [dx, dz] of [
      [3, 0],
      [0, 3],
      [-3, 0],
      [0, -3],
      [2, 2],
      [-2, -2],
    ] as const) {
      b.send("player:move", { x: from.x + dx, z: from.z + dz });
      moved = await b
        .waitFor(
          () => {
            const p = b.state().players[bId] as { x: number; z: number };
            return Math.round(p.x) === from.x + dx && Math.round(p.z) === from.z + dz ? { x: from.x + dx, z: from.z + dz } : undefined;
          },
          3_000,
          "B's walk",
        )
        .catch(() => undefined);
      if (moved !== undefined) break;
    }
    assert.ok(moved !== undefined, "B walked to a tile near the spawn");
    // A follows, to trade.
    const target = moved;
    a.send("player:move", { x: target.x, z: target.z });
    await b.waitFor(
      () => {
        const p = b.state().players[aId] as { x: number; z: number } | undefined;
        return p !== undefined && Math.round(p.x) === target.x && Math.round(p.z) === target.z ? true : undefined;
      },
      5_000,
      "A beside B",
    );

    // An open trade: A's first item offered.
    a.send("tradeRequest", { targetPlayerId: bId });
    const tradeId = String((await b.next("tradeIncoming")).tradeId);
    b.send("tradeRequestRespond", { tradeId, accept: true });
    await a.next("tradeStarted");
    a.send("tradeAddItem", { tradeId, inventorySlot: aInv[0]!.slot, quantity: 1 });
    await a.next("tradeUpdated");

    const basic = adminBasic(code, "admin");
    const scheduled = await call(baseUrl, "POST", "/api/admin/restart", basic, { inSeconds: 10, reason: "test update" });
    assert.equal(scheduled.status, 200, JSON.stringify(scheduled.body));
    const at = String(scheduled.body.restart.at);
    for (const c of [a, b]) await systemLine(c, "The server restarts in 10 seconds (test update).");
    await assertLoginsRefused(baseUrl, wsUrl, at);
    for (const c of [a, b]) await systemLine(c, "The server restarts in 5 seconds (test update).", 10_000);
    // The restart: the last line, the trade cancelled (with a reason) on both sides, then the exit.
    for (const c of [a, b]) await systemLine(c, RESTARTING_NOW_LINE, 10_000);
    assert.equal((await a.next("tradeCancelled", 10_000)).reason, "server_error");
    assert.equal((await b.next("tradeCancelled", 10_000)).reason, "server_error");
    const exited = await running.exited;
    assert.equal(exited.code, 0, exited.stderr);
    assert.match(exited.stdout, /"msg":"scheduled restart: saving everyone and shutting down"/);
    assert.match(exited.stdout, /"msg":"shutdown complete"/);
    assert.ok(Date.now() >= Date.parse(at) - 100, "not before its time");
    a.close();
    try {
      void b.room.leave(false).catch(() => {});
    } catch {
      // the connection is already gone
    }

    // Nothing runs any more (a SIGKILL would find the same): the database holds every item and B's walk.
    const db = await openDatabase(loadConfig({ NODE_ENV: "test", WORLD: world, DATABASE_URL: dbUrl }), pino({ level: "silent" }));
    try {
      const bag = (rows: { itemId: string; quantity: number }[]) =>
        Object.fromEntries([...rows.reduce((m, r) => m.set(r.itemId, (m.get(r.itemId) ?? 0) + r.quantity), new Map<string, number>())].sort());
      assert.deepEqual(bag(await db.em().find(InventorySlot, { characterId: aId })), bag(aInv));
      assert.deepEqual(bag(await db.em().find(InventorySlot, { characterId: bId })), bag(bInv));
      const row = await db.em().findOneOrFail(Character, { id: bId });
      assert.deepEqual({ x: Math.round(Number(row.positionX)), z: Math.round(Number(row.positionZ)) }, moved);
      const sessions = await db.em().find(PlayerSession, { characterId: { $in: [aId, bId] } });
      assert.deepEqual(sessions.map((s) => s.logoutReason).sort(), ["shutdown", "shutdown"]);
      const audit = await db.em().find(AdminAudit, { action: "restart" });
      assert.deepEqual(
        audit.map((r) => [r.actorAccountId, r.via, r.reason]),
        [["admin-code", "rest", "test update"]],
      );
    } finally {
      await db.close();
    }
  });
});

forEachDialect("maintenance restarts across processes", (ctx) => {
  let a: TestServer;
  let b: TestServer;
  let adminToken: string;
  before(async function () {
    this.timeout(60_000);
    const env = { DATABASE_URL: ctx.url, JWT_SECRET: "restart-secret-0123456789abcdef", TICK_MS: "50", DISABLE_RATE_LIMIT: "true" };
    a = await startTestServer(env);
    b = await startTestServer(env);
    adminToken = await a.server.tokens.signServiceToken({ accountId: "ops-admin", role: "admin" }, 600);
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  it("a restart scheduled (and cancelled) on one server counts down and refuses logins on the other", async function () {
    this.timeout(60_000);
    const p = await WsTestClient.connect(`${b.wsUrl}?name=${uniqueName()}`);
    await p.next("welcome");
    try {
      const res = await call(a.baseUrl, "POST", "/api/admin/restart", `Bearer ${adminToken}`, { inSeconds: 45, reason: "both" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // Read from the audit row within a second: a little less is left there.
      await systemLine(p, /^The server restarts in 4[0-5] seconds \(both\)\.$/, 10_000);
      await assertLoginsRefused(b.baseUrl, b.wsUrl, String(res.body.restart.at));
      const cancelled = await call(a.baseUrl, "DELETE", "/api/admin/restart", `Bearer ${adminToken}`);
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      await systemLine(p, RESTART_CANCELLED_LINE, 10_000);
      const again = await WsTestClient.connect(`${b.wsUrl}?name=${uniqueName()}`);
      await again.next("welcome");
      again.close();
      assert.equal(p.closed, undefined);
    } finally {
      p.close();
    }
  });
});
