/**
 * Moderation (issue 20 item 1) against a real server: each action over REST and in game, kicks
 * and bans on both transports (the close codes of the README), a banned account refused at every
 * door, muted chat and private messages refused with the mute's end, the audit rows, bad input.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { AdminAudit, Character, PlayerSession, Sanction } from "../../entities/index.ts";
import { parseModerationCommand, MAX_BAN_MINUTES, MAX_MUTE_MINUTES } from "../../src/game/moderation.ts";
import { CLOSE_BANNED, CLOSE_KICKED } from "../../src/moderation/ModerationService.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Polls an async probe until it gives something other than undefined. */
async function untilAsync<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let counter = 0;
const uniqueName = () => `M${randomBytes(3).toString("hex")}${(counter++).toString(36)}`.slice(0, 16);

interface WsPlayer {
  c: WsTestClient;
  name: string;
  playerId: string;
  accountId: string;
  token: string;
}
interface SdkPlayer {
  c: WorldTestClient;
  name: string;
  playerId: string;
  accountId: string;
  token: string;
  leftWith: Promise<number>;
}

describe("moderation", function () {
  this.timeout(60_000);
  let t: TestServer;
  let adminToken: string;

  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
    adminToken = await t.server.tokens.signServiceToken({ accountId: "ops-admin", role: "admin" }, 600);
  });
  after(() => t?.close());

  async function call(method: string, path: string, token: string | undefined, body?: unknown): Promise<{ status: number; body: Json }> {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${t.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Json };
  }
  const admin = (method: string, path: string, body?: unknown) => call(method, path, adminToken, body);

  async function wsPlayer(name = uniqueName()): Promise<WsPlayer> {
    const c = await WsTestClient.connect(`${t.wsUrl}?name=${encodeURIComponent(name)}`);
    const w = await c.next("welcome");
    return { c, name, playerId: String(w.playerId), accountId: String(w.accountId), token: String(w.token) };
  }
  async function sdkPlayer(name = uniqueName()): Promise<SdkPlayer> {
    const c = await WorldTestClient.join(t.baseUrl, { name });
    const leftWith = new Promise<number>((resolve) => c.room.onLeave((code: number) => resolve(code)));
    const w = await c.next("welcome");
    return { c, name, playerId: String(w.playerId), accountId: String(w.accountId), token: String(w.token), leftWith };
  }
  /** An in-game admin: a `/ws` player granted by `/admin <code>`. */
  async function gameAdmin(): Promise<WsPlayer> {
    const a = await wsPlayer();
    a.c.send("player:chat", { message: `/admin ${t.server.adminCode}` });
    await systemLine(a.c, /Admin access granted/);
    return a;
  }
  async function systemLine(c: WsTestClient | WorldTestClient, pattern: RegExp): Promise<string> {
    const found = await until(
      () => c.events.find((e) => e.type === "chat:message" && e.data.channel === "system" && pattern.test(String(e.data.message))),
      `a system line ${pattern}`,
    );
    return String(found.data.message);
  }
  async function errorOf(c: WsTestClient | WorldTestClient, code: string): Promise<Json> {
    return (await until(() => c.events.find((e) => e.type === "error" && e.data.code === code), `error ${code}`)).data;
  }
  const auditRows = () => t.server.db.em().find(AdminAudit, {}, { orderBy: { id: "asc" } });
  const sanctions = () => t.server.db.em().find(Sanction, {}, { orderBy: { accountId: "asc", kind: "asc" } });
  const walkableNear = (x: number, z: number) => {
    for (let d = 2; d < 20; d++)
      for (const [dx, dz] of [
        [d, 0],
        [0, d],
        [-d, 0],
        [0, -d],
      ] as const)
        if (t.server.world.world.collision.isWalkable(x + dx, z + dz)) return { x: x + dx, z: z + dz };
    throw new Error("no walkable tile near the player");
  };

  describe("parsing the in-game commands", () => {
    it("reads names (quoted when they have spaces), minutes, permanent, coordinates and reasons", () => {
      assert.deepEqual(parseModerationCommand("/kick Bob spamming the bank"), { action: "kick", name: "Bob", reason: "spamming the bank" });
      assert.deepEqual(parseModerationCommand('/mute "Bob Smith" 30 rude'), { action: "mute", name: "Bob Smith", minutes: 30, reason: "rude" });
      assert.deepEqual(parseModerationCommand("/ban Bob permanent"), { action: "ban", name: "Bob", minutes: undefined });
      assert.deepEqual(parseModerationCommand("/ban Bob 60 bots"), { action: "ban", name: "Bob", minutes: 60, reason: "bots" });
      assert.deepEqual(parseModerationCommand("/teleport Bob -3 12"), { action: "teleport", name: "Bob", x: -3, z: 12 });
      assert.deepEqual(parseModerationCommand("/broadcast restart soon"), { action: "broadcast", message: "restart soon" });
    });
    it("refuses negative, zero, fractional and absurd durations, missing names and bad coordinates", () => {
      for (const bad of [
        "/mute Bob -5",
        "/mute Bob 0",
        "/mute Bob 1.5",
        `/mute Bob ${MAX_MUTE_MINUTES + 1}`,
        `/ban Bob ${MAX_BAN_MINUTES + 1}`,
        "/ban Bob",
        "/kick",
        "/teleport Bob x 1",
        "/broadcast",
        '/kick "Bob',
      ])
        assert.equal((parseModerationCommand(bad) as { code?: string }).code, "INVALID_PAYLOAD", bad);
    });
  });

  describe("kick", () => {
    it("over REST ends a /ws session with KICKED and close 4011, saved first, with an audit row", async () => {
      const p = await wsPlayer();
      const player = t.server.world.world.players.get(p.playerId)!;
      const to = walkableNear(player.x, player.z);
      const moved = await admin("POST", "/api/admin/teleport", { name: p.name, x: to.x, z: to.z, reason: "stuck" });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      await until(() => (player.x === to.x && player.z === to.z ? true : undefined), "the teleport");
      const res = await admin("POST", "/api/admin/kick", { name: p.name.toLowerCase(), reason: "afk" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.action.action, "kick");
      assert.equal((await p.c.waitClosed()).code, CLOSE_KICKED);
      assert.match(String((await errorOf(p.c, "KICKED")).message), /afk/);
      await until(() => (t.server.world.world.players.has(p.playerId) ? undefined : true), "the kicked player left the world");
      // Saved as at a logout: where the teleport put it.
      await untilAsync(async () => {
        const row = await t.server.db.em().findOne(Character, { id: p.playerId });
        return row?.positionX === to.x && row.positionZ === to.z ? true : undefined;
      }, "the saved position");
      const row = await t.server.db.em().findOne(Character, { id: p.playerId });
      assert.equal(row?.positionX, to.x);
      const session = await untilAsync(
        async () => (await t.server.db.em().findOne(PlayerSession, { characterId: p.playerId, logoutReason: "kicked" })) ?? undefined,
        "the session's logout",
      );
      assert.ok(session.logoutAt);
      const audit = (await auditRows()).filter((r) => r.targetCharacterId === p.playerId);
      assert.deepEqual(
        audit.map((r) => [r.action, r.actorAccountId, r.via, r.reason]),
        [
          ["teleport", "ops-admin", "rest", "stuck"],
          ["kick", "ops-admin", "rest", "afk"],
        ],
      );
      assert.deepEqual(audit[0]!.detail, { x: to.x, z: to.z });
    });

    it("in game (/kick) ends a Colyseus session with close 4011, and answers the admin", async () => {
      const a = await gameAdmin();
      const p = await sdkPlayer();
      a.c.send("player:chat", { message: `/kick ${p.name} go away` });
      assert.equal(await p.leftWith, CLOSE_KICKED);
      // No way back through the reconnection window: a kick is not a dropped connection.
      await assert.rejects(p.c.sdk.reconnect(p.c.room.reconnectionToken));
      assert.equal(t.server.world.connectionOf(p.playerId), undefined);
      assert.match(await systemLine(a.c, /^Kicked/), new RegExp(p.name));
      await until(() => (t.server.world.world.players.has(p.playerId) ? undefined : true), "the kicked player left the world");
      const audit = (await auditRows()).filter((r) => r.targetCharacterId === p.playerId);
      assert.deepEqual(
        audit.map((r) => [r.action, r.actorAccountId, r.via, r.reason]),
        [["kick", a.accountId, "game", "go away"]],
      );
      a.c.close();
    });
  });

  describe("ban", () => {
    async function refusedEverywhere(p: { name: string; token: string }, until?: string | null): Promise<void> {
      const rest = await call("GET", "/api/v1/player", p.token);
      assert.equal(rest.status, 403);
      assert.equal(rest.body.error.code, "BANNED");
      if (until !== undefined) assert.equal(rest.body.error.until, until);
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${encodeURIComponent(p.token)}`);
      assert.equal((await ws.waitClosed()).code, CLOSE_BANNED);
      const err = ws.events.find((e) => e.type === "error")!.data;
      assert.equal(err.code, "BANNED");
      if (until !== undefined) assert.equal(err.until, until);
      assert.ok(!ws.events.some((e) => e.type === "welcome"));
      await assert.rejects(WorldTestClient.join(t.baseUrl, { token: p.token }), /BANNED/);
    }

    it("over REST (timed) ends a Colyseus session with close 4012, refuses REST, /ws and Colyseus until unbanned", async () => {
      const p = await sdkPlayer();
      const res = await admin("POST", "/api/admin/ban", { name: p.name, minutes: 60, reason: "botting" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const until60 = String(res.body.action.endsAt);
      assert.ok(Math.abs(Date.parse(until60) - (Date.now() + 60 * 60_000)) < 60_000);
      assert.equal(await p.leftWith, CLOSE_BANNED);
      await refusedEverywhere(p, until60);
      const look = await admin("GET", `/api/admin/players/${encodeURIComponent(p.name)}`);
      assert.equal(look.body.player.ban.until, until60);
      assert.equal(look.body.player.online, false);

      const unban = await admin("POST", "/api/admin/unban", { name: p.name, reason: "appeal" });
      assert.equal(unban.status, 200, JSON.stringify(unban.body));
      assert.equal((await call("GET", "/api/v1/player", p.token)).status, 200);
      const back = await WorldTestClient.join(t.baseUrl, { token: p.token });
      assert.equal((await back.next("welcome")).playerId, p.playerId);
      await back.room.leave();
      const audit = (await auditRows()).filter((r) => r.targetAccountId === p.accountId);
      assert.deepEqual(
        audit.map((r) => [r.action, r.reason, r.durationMinutes]),
        [
          ["ban", "botting", 60],
          ["unban", "appeal", null],
        ],
      );
      assert.deepEqual(
        (await sanctions()).filter((s) => s.accountId === p.accountId),
        [],
      );
    });

    it("in game (permanent) ends a /ws session with close 4012 and BANNED until null, and every door stays shut", async () => {
      const a = await gameAdmin();
      const p = await wsPlayer();
      a.c.send("player:chat", { message: `/ban ${p.name} permanent cheating` });
      assert.equal((await p.c.waitClosed()).code, CLOSE_BANNED);
      assert.equal((await errorOf(p.c, "BANNED")).until, null);
      assert.match(await systemLine(a.c, /^Banned/), /permanently/);
      await refusedEverywhere(p, null);
      const rows = (await sanctions()).filter((s) => s.accountId === p.accountId);
      assert.deepEqual(
        rows.map((s) => [s.kind, s.endsAt ?? null, s.byAccountId]),
        [["ban", null, a.accountId]],
      );
      a.c.send("player:chat", { message: `/unban ${p.name}` });
      await systemLine(a.c, /^Unbanned/);
      assert.equal((await call("GET", "/api/v1/player", p.token)).status, 200);
      a.c.close();
    });
  });

  describe("mute", () => {
    it("over REST refuses a /ws player's chat and private messages with MUTED and the end; unmute lifts it", async () => {
      const p = await wsPlayer();
      const other = await wsPlayer();
      const res = await admin("POST", "/api/admin/mute", { name: p.name, minutes: 10, reason: "spam" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const end = String(res.body.action.endsAt);
      await until(() => (t.server.world.world.players.get(p.playerId)?.mutedUntil === Date.parse(end) ? true : undefined), "the mute reached the player");
      p.c.send("player:chat", { message: "hello everyone" });
      const chatErr = await errorOf(p.c, "MUTED");
      assert.equal(chatErr.until, end);
      assert.equal(chatErr.event, "player:chat");
      p.c.events.length = 0;
      p.c.send("social:sendMessage", { to: other.name, message: "psst" });
      const pmErr = await errorOf(p.c, "MUTED");
      assert.equal(pmErr.until, end);
      assert.equal(pmErr.event, "social:sendMessage");
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!other.c.events.some((e) => e.type === "chat:message" && e.data.fromId === p.playerId), "the muted line reached nobody");
      assert.ok(!other.c.events.some((e) => e.type === "social:message"), "the private message reached nobody");

      // A new login reads the mute from the database.
      p.c.socket.close(1000);
      await until(() => (t.server.world.world.players.has(p.playerId) ? undefined : true), "logout");
      const again = await WsTestClient.connect(`${t.wsUrl}?token=${encodeURIComponent(p.token)}`);
      await again.next("welcome");
      again.send("player:chat", { message: "still here" });
      assert.equal((await errorOf(again, "MUTED")).until, end);

      assert.equal((await admin("POST", "/api/admin/unmute", { name: p.name })).status, 200);
      await until(() => (t.server.world.world.players.get(p.playerId)?.mutedUntil === undefined ? true : undefined), "the unmute reached the player");
      again.send("player:chat", { message: "free again" });
      await until(() => other.c.events.find((e) => e.type === "chat:message" && e.data.message === "free again"), "the chat line after the unmute");
      again.close();
      other.c.close();
    });

    it("in game (/mute) refuses a Colyseus player's chat with MUTED", async () => {
      const a = await gameAdmin();
      const p = await sdkPlayer();
      a.c.send("player:chat", { message: `/mute ${p.name} 5 flooding` });
      assert.match(await systemLine(a.c, /^Muted/), new RegExp(p.name));
      await until(() => (t.server.world.world.players.get(p.playerId)?.mutedUntil !== undefined ? true : undefined), "the mute reached the player");
      p.c.send("player:chat", { message: "hi" });
      const err = await errorOf(p.c, "MUTED");
      assert.ok(Math.abs(Date.parse(String(err.until)) - (Date.now() + 5 * 60_000)) < 60_000);
      const audit = (await auditRows()).filter((r) => r.targetAccountId === p.accountId);
      assert.deepEqual(
        audit.map((r) => [r.action, r.via, r.durationMinutes, r.reason]),
        [["mute", "game", 5, "flooding"]],
      );
      await p.c.room.leave();
      a.c.close();
    });
  });

  describe("teleport, broadcast and lookup", () => {
    it("in game: /teleport moves a player, /broadcast reaches players of both transports, /lookup answers", async () => {
      const a = await gameAdmin();
      const ws = await wsPlayer();
      const sdk = await sdkPlayer();
      const player = t.server.world.world.players.get(sdk.playerId)!;
      const to = walkableNear(player.x, player.z);
      a.c.send("player:chat", { message: `/teleport ${sdk.name} ${to.x} ${to.z}` });
      await systemLine(a.c, /^Teleported/);
      await until(() => (player.x === to.x && player.z === to.z ? true : undefined), "the teleport");
      a.c.send("player:chat", { message: "/broadcast the server restarts at noon" });
      await systemLine(ws.c, /the server restarts at noon/);
      await systemLine(sdk.c, /the server restarts at noon/);
      a.c.send("player:chat", { message: `/lookup ${ws.name}` });
      assert.match(await systemLine(a.c, new RegExp(`^${ws.name}`)), /online on world 1/);
      const audit = (await auditRows()).filter((r) => r.actorAccountId === a.accountId);
      assert.deepEqual(
        audit.map((r) => r.action),
        ["teleport", "broadcast"],
      );
      assert.deepEqual(audit[1]!.detail, { message: "the server restarts at noon" });
      ws.c.close();
      await sdk.c.room.leave();
      a.c.close();
    });

    it("over REST: broadcast reaches everyone, lookup shows online state, world and recent sessions", async () => {
      const p = await wsPlayer();
      const res = await admin("POST", "/api/admin/broadcast", { message: "hello from ops" });
      assert.equal(res.status, 200);
      await systemLine(p.c, /hello from ops/);
      const look = await admin("GET", `/api/admin/players/${p.name}`);
      assert.equal(look.status, 200);
      assert.equal(look.body.player.online, true);
      assert.equal(look.body.player.world, 1);
      assert.equal(look.body.player.accountId, p.accountId);
      assert.equal(look.body.player.sessions[0].transport, "ws");
      assert.equal(look.body.player.sessions[0].logoutAt, null);
      p.c.close();
    });
  });

  describe("the audit over REST", () => {
    it("pages newest first and filters by player", async () => {
      const all = await admin("GET", "/api/admin/audit?limit=100");
      assert.equal(all.status, 200);
      assert.ok(all.body.total >= 3);
      const ids = all.body.entries.map((e: Json) => e.id as number);
      assert.deepEqual(
        ids,
        [...ids].sort((x, y) => y - x),
      );
      const page = await admin("GET", "/api/admin/audit?limit=2&offset=1");
      assert.deepEqual(
        page.body.entries.map((e: Json) => e.id),
        ids.slice(1, 3),
      );
      const one = all.body.entries.find((e: Json) => e.targetName !== null);
      const mine = await admin("GET", `/api/admin/audit?name=${encodeURIComponent(one.targetName)}`);
      assert.ok(mine.body.entries.length >= 1);
      assert.ok(mine.body.entries.every((e: Json) => e.targetAccountId === one.targetAccountId));
      for (const q of ["limit=0", "limit=101", "offset=-1", "limit=abc", "bogus=1"]) {
        const bad = await admin("GET", `/api/admin/audit?${q}`);
        assert.equal(bad.status, 400, q);
        assert.equal(bad.body.error.code, "INVALID_PAYLOAD");
      }
    });
  });

  describe("bad input changes nothing", () => {
    it("over REST: non-admins, unknown players, bad durations and bodies, offline targets, unwalkable tiles", async () => {
      const p = await wsPlayer();
      const offline = await wsPlayer();
      offline.c.socket.close(1000);
      await until(() => (t.server.world.world.players.has(offline.playerId) ? undefined : true), "logout");
      const live = t.server.world.world.players.get(p.playerId)!;
      const spot = walkableNear(live.x, live.z);
      const before = JSON.stringify([await auditRows(), await sanctions()]);
      const cases: [string, string, string | undefined, unknown, number, string][] = [
        ["POST", "/api/admin/kick", undefined, { name: p.name }, 401, "UNAUTHORIZED"],
        ["POST", "/api/admin/kick", p.token, { name: p.name }, 403, "FORBIDDEN"],
        ["POST", "/api/admin/ban", p.token, { name: p.name, permanent: true }, 403, "FORBIDDEN"],
        ["GET", "/api/admin/audit", p.token, undefined, 403, "FORBIDDEN"],
        ["GET", `/api/admin/players/${p.name}`, p.token, undefined, 403, "FORBIDDEN"],
        ["POST", "/api/admin/kick", adminToken, { name: "NoSuchPlayer99" }, 404, "UNKNOWN_PLAYER"],
        ["POST", "/api/admin/ban", adminToken, { name: "NoSuchPlayer99", minutes: 5 }, 404, "UNKNOWN_PLAYER"],
        ["GET", "/api/admin/players/NoSuchPlayer99", adminToken, undefined, 404, "UNKNOWN_PLAYER"],
        ["POST", "/api/admin/mute", adminToken, { name: p.name, minutes: -5 }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/mute", adminToken, { name: p.name, minutes: 0 }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/mute", adminToken, { name: p.name, minutes: 2.5 }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/mute", adminToken, { name: p.name, minutes: MAX_MUTE_MINUTES + 1 }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/mute", adminToken, { name: p.name }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/ban", adminToken, { name: p.name, minutes: -1 }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/ban", adminToken, { name: p.name, minutes: 1e12 }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/ban", adminToken, { name: p.name }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/ban", adminToken, { name: p.name, minutes: 5, permanent: true }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/ban", adminToken, { name: p.name, permanent: false }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/kick", adminToken, { name: p.name, extra: 1 }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/kick", adminToken, { name: p.name, reason: "x".repeat(256) }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/kick", adminToken, [], 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/broadcast", adminToken, { message: "" }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/broadcast", adminToken, { message: "\u0000\u0001" }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/teleport", adminToken, { name: p.name, x: 1e7, z: 0 }, 400, "INVALID_DESTINATION"],
        ["POST", "/api/admin/teleport", adminToken, { name: p.name, x: "1", z: 0 }, 400, "INVALID_PAYLOAD"],
        ["POST", "/api/admin/kick", adminToken, { name: offline.name }, 409, "PLAYER_OFFLINE"],
        ["POST", "/api/admin/teleport", adminToken, { name: offline.name, ...spot }, 409, "PLAYER_OFFLINE"],
        ["POST", "/api/admin/unban", adminToken, { name: p.name }, 404, "NOT_BANNED"],
        ["POST", "/api/admin/unmute", adminToken, { name: p.name }, 404, "NOT_MUTED"],
      ];
      for (const [method, path, token, body, status, code] of cases) {
        const res = await call(method, path, token, body);
        assert.equal(res.status, status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.success, false);
        assert.equal(res.body.error.code, code, `${method} ${path} ${JSON.stringify(body)}`);
      }
      assert.equal(JSON.stringify([await auditRows(), await sanctions()]), before, "nothing changed");
      assert.ok(t.server.world.connectionOf(p.playerId), "the player is still online");
      p.c.close();
    });

    it("in game: a non-admin's command is FORBIDDEN, bad arguments INVALID_PAYLOAD, unknown players UNKNOWN_PLAYER; nothing changes", async () => {
      const p = await wsPlayer();
      const a = await gameAdmin();
      const before = JSON.stringify([await auditRows(), await sanctions()]);
      p.c.send("player:chat", { message: `/ban ${a.name} permanent` });
      assert.equal((await errorOf(p.c, "FORBIDDEN")).event, "player:chat");
      for (const bad of [`/mute ${p.name} -5`, `/ban ${p.name} 99999999999`, "/kick", `/teleport ${p.name} here`]) {
        a.c.events.length = 0;
        a.c.send("player:chat", { message: bad });
        await errorOf(a.c, "INVALID_PAYLOAD");
      }
      a.c.send("player:chat", { message: "/kick NoSuchPlayer99" });
      await errorOf(a.c, "UNKNOWN_PLAYER");
      assert.equal(JSON.stringify([await auditRows(), await sanctions()]), before, "nothing changed");
      assert.ok(t.server.world.connectionOf(a.playerId) && t.server.world.connectionOf(p.playerId), "both still online");
      p.c.close();
      a.c.close();
    });
  });
});
