/**
 * Moderation across processes: two servers sharing one database (on SQLite and PostgreSQL). An
 * admin acting on one reaches a player on the other: a mute, a broadcast, a kick (close 4011) and
 * a ban (close 4012, then refused at that server's doors), learned from the admin_audit rows.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { CLOSE_BANNED, CLOSE_KICKED } from "../../src/moderation/ModerationService.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

const name = () => `X${randomBytes(4).toString("hex")}`.slice(0, 12);

forEachDialect("moderation across processes", (ctx) => {
  let a: TestServer;
  let b: TestServer;
  let adminToken: string;
  before(async function () {
    this.timeout(60_000);
    const env = { DATABASE_URL: ctx.url, JWT_SECRET: "moderation-secret-0123456789abcdef", TICK_MS: "50", DISABLE_RATE_LIMIT: "true" };
    a = await startTestServer(env);
    b = await startTestServer(env);
    adminToken = await a.server.tokens.signServiceToken({ accountId: "ops-admin", role: "admin" }, 600);
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  async function admin(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${a.baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it("a mute, a broadcast, a kick and a ban on one server reach players on the other", async function () {
    this.timeout(60_000);
    const pName = name();
    const p = await WsTestClient.connect(`${b.wsUrl}?name=${pName}`);
    const welcome = await p.next("welcome");
    const playerId = String(welcome.playerId);
    const token = String(welcome.token);
    const qName = name();
    const q = await WorldTestClient.join(b.baseUrl, { name: qName });
    const qLeft = new Promise<number>((resolve) => q.room.onLeave((code: number) => resolve(code)));
    await q.next("welcome");

    const muted = await admin("/api/admin/mute", { name: pName, minutes: 10 });
    assert.equal(muted.status, 200, JSON.stringify(muted.body));
    await until(() => (b.server.world.world.players.get(playerId)?.mutedUntil !== undefined ? true : undefined), "the mute reached the other server", 10_000);
    p.send("player:chat", { message: "hello" });
    const err = await until(() => p.events.find((e) => e.type === "error" && e.data.code === "MUTED"), "MUTED");
    assert.equal(err.data.until, (muted.body.action as { endsAt: string }).endsAt);

    assert.equal((await admin("/api/admin/broadcast", { message: "across processes" })).status, 200);
    await until(() => p.events.find((e) => e.type === "chat:message" && e.data.message === "across processes"), "the broadcast on the other server", 10_000);

    const kicked = await admin("/api/admin/kick", { name: qName });
    assert.equal(kicked.status, 200, JSON.stringify(kicked.body));
    assert.equal(await qLeft, CLOSE_KICKED);

    assert.equal((await admin("/api/admin/ban", { name: pName, minutes: 30 })).status, 200);
    assert.equal((await p.waitClosed(10_000)).code, CLOSE_BANNED);
    const rest = await fetch(`${b.baseUrl}/api/v1/player`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(rest.status, 403);
    assert.equal(((await rest.json()) as { error: { code: string } }).error.code, "BANNED");
    const again = await WsTestClient.connect(`${b.wsUrl}?token=${encodeURIComponent(token)}`);
    assert.equal((await again.waitClosed()).code, CLOSE_BANNED);
    await assert.rejects(WorldTestClient.join(b.baseUrl, { token }), /BANNED/);
  });
});
