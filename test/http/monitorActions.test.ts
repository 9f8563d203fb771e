/**
 * The Colyseus monitor's buttons on the game's rooms, through the monitor's own HTTP calls (as its
 * panel makes them: `GET /colyseus/api/room/call?roomId&method&args`), against a real server:
 * DISPOSE of the world room is refused and the world goes on, BROADCAST on it is the game's
 * broadcast, its client list names the players, and DISPOSE of a trade room cancels the trade.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { Room } from "@colyseus/sdk";
import type { Browser } from "playwright-core";
import { WORLD_ROOM } from "../../rooms/WorldRoom.ts";
import { TRADE_ROOM } from "../../rooms/TradeRoom.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { launchBrowser, screenshot } from "../client/support.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let counter = 0;
const uniqueName = () => `M${randomBytes(3).toString("hex")}${(counter++).toString(36)}`.slice(0, 16);

describe("the monitor's room actions on the world and trade rooms", function () {
  this.timeout(60_000);
  let t: TestServer;
  let adminToken: string;

  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
    adminToken = await t.server.tokens.signServiceToken({ accountId: "ops", role: "admin" }, 600);
  });
  after(() => t.close());

  /** A monitor API call as the panel makes it: its status and JSON answer. */
  async function monitor(path: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${t.baseUrl}/colyseus/api${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
  }
  /** The panel's remoteRoomCall(roomId, method, ...args). */
  const call = (roomId: string, method: string, ...args: unknown[]) =>
    monitor(`/room/call?${new URLSearchParams({ roomId, method, args: JSON.stringify(args) })}`);
  async function roomOf(name: string): Promise<Json | undefined> {
    const { body } = await monitor("");
    return (body.rooms as Json[]).find((r) => r.name === name);
  }
  const worldRoomId = async () => String((await roomOf(WORLD_ROOM))!.roomId);

  async function wsPlayer(): Promise<{ c: WsTestClient; id: string; name: string }> {
    const name = uniqueName();
    const c = await WsTestClient.connect(`${t.wsUrl}?name=${encodeURIComponent(name)}`);
    const id = String((await c.next("welcome")).playerId);
    await c.next("player:sync");
    return { c, id, name };
  }
  async function sdkPlayer(): Promise<{ c: WorldTestClient; id: string; name: string; token: string }> {
    const name = uniqueName();
    const c = await WorldTestClient.join(t.baseUrl, { name });
    const welcome = await c.next("welcome");
    return { c, id: String(welcome.playerId), name, token: String(welcome.token) };
  }
  /** The world still runs: its tick moves on, and a /ws player's walk shows in its `world:update`s. */
  async function worldRuns(p: { c: WsTestClient; id: string }): Promise<void> {
    const tick = t.server.world.world.tick;
    await until(() => (t.server.world.world.tick > tick + 2 ? true : undefined), "the world ticks on", 10_000);
    const player = t.server.world.world.players.get(p.id)!;
    const to = { x: player.x, z: player.z + 1 };
    if (!t.server.world.world.collision.isWalkable(to.x, to.z)) to.z -= 2;
    p.c.send("player:move", to);
    for (;;) {
      const update = await p.c.next("world:update", 10_000);
      const me = (update.entities as { id: string; x: number; z: number }[]).find((e) => e.id === p.id);
      if (me?.x === to.x && me.z === to.z) break;
    }
  }
  const systemLine = (events: { type: string; data: Json }[], text: string) =>
    events.find((e) => e.type === "chat:message" && e.data.channel === "system" && e.data.message === text);

  it("refuses DISPOSE of the world room with the reason, and the world goes on for every door", async () => {
    const p = await wsPlayer();
    try {
      const roomId = await worldRoomId();
      const res = await call(roomId, "disconnect");
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.error.code, "ROOM_ACTION_REFUSED");
      assert.match(res.body.error.message, /world room cannot be disposed.*\/api\/admin\/restart/);
      // Whichever HTTP method asks.
      const head = await fetch(`${t.baseUrl}/colyseus/api/room/call?${new URLSearchParams({ roomId, method: "disconnect", args: "[]" })}`, {
        method: "HEAD",
        headers: { authorization: `Bearer ${adminToken}` },
      });
      assert.equal(head.status, 409);
      await worldRuns(p);
      assert.equal(await worldRoomId(), roomId, "the same world room is listed");
      const worlds = (await (await fetch(`${t.baseUrl}/api/v1/worlds`)).json()) as Json;
      assert.equal(worlds.worlds.length, 1, "the world is still listed for the cluster");
      // New players of both transports get in and play.
      const late = await wsPlayer();
      await worldRuns(late);
      late.c.close();
      const sdk = await sdkPlayer();
      await sdk.c.room.leave();
    } finally {
      p.c.close();
    }
  });

  it("refuses what else would break the world: state edits, raw messages, methods its panel never calls", async () => {
    const p = await wsPlayer();
    try {
      const roomId = await worldRoomId();
      for (const [method, args] of [
        ["_deleteStateProperty", [["players"]]],
        ["_editStateProperty", [["tick"], 0]],
        ["_sendMessageToClient", [`x (${p.id})`, "error", { code: "KICKED" }]],
      ] as const) {
        const res = await call(roomId, method, ...args);
        assert.equal(res.status, 409, `${method}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, "ROOM_ACTION_REFUSED");
      }
      // Called with no callback, setSimulationInterval stops the tick; nothing but the panel's actions is called.
      for (const method of ["setSimulationInterval", "onDispose", "services", "lock"]) {
        const res = await call(roomId, method);
        assert.equal(res.status, 400, `${method}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, "UNKNOWN_METHOD");
      }
      const bad = await monitor(`/room/call?roomId=${roomId}&method=broadcast&args=${encodeURIComponent("[not json")}`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.code, "INVALID_PAYLOAD");
      await worldRuns(p);
      assert.ok(t.server.world.world.players.has(p.id));
    } finally {
      p.c.close();
    }
  });

  it("makes BROADCAST on the world room the game's broadcast: a system line to every player of both transports, audited", async () => {
    const ws = await wsPlayer();
    const sdk = await sdkPlayer();
    try {
      const roomId = await worldRoomId();
      const res = await call(roomId, "broadcast", "message_type", { message: "maintenance at noon" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await until(() => systemLine(ws.c.events, "maintenance at noon"), "the line on /ws");
      await sdk.c.waitFor(() => systemLine(sdk.c.events, "maintenance at noon"), 5_000, "the line on Colyseus");
      const audit = await fetch(`${t.baseUrl}/api/admin/audit?limit=5`, { headers: { authorization: `Bearer ${adminToken}` } });
      const row = ((await audit.json()) as Json).entries[0] as Json;
      assert.deepEqual(
        { action: row.action, actor: row.actorAccountId, via: row.via, detail: row.detail },
        { action: "broadcast", actor: "ops", via: "monitor", detail: { message: "maintenance at noon" } },
      );

      // A payload without a message, or an empty one, is refused and sends nothing.
      const before = ws.c.events.length;
      for (const data of [{}, { message: "" }, { message: 5 }, { message: "x".repeat(500) }]) {
        const refused = await call(roomId, "broadcast", "message_type", data);
        assert.equal(refused.status, 400, JSON.stringify(data));
        assert.equal(refused.body.error.code, "INVALID_PAYLOAD");
      }
      const again = await fetch(`${t.baseUrl}/api/admin/audit?limit=1`, { headers: { authorization: `Bearer ${adminToken}` } });
      assert.equal((((await again.json()) as Json).entries[0] as Json).id, row.id, "no audit row for a refused broadcast");
      await worldRuns(ws);
      assert.ok(!ws.c.events.slice(before).some((e) => e.type === "chat:message"), "no line for a refused broadcast");
    } finally {
      ws.c.close();
      await sdk.c.room.leave();
    }
  });

  it("names the world's players in the inspector's client list, and its disconnect button kicks the named rows' players, audited under the admin", async () => {
    const ws = await wsPlayer();
    const sdk = await sdkPlayer();
    try {
      const roomId = await worldRoomId();
      const { body } = await monitor(`/room?roomId=${roomId}`);
      const ids = (body.clients as Json[]).map((c) => c.sessionId);
      assert.ok(ids.includes(`${ws.name} (ws:${ws.id})`), JSON.stringify(ids));
      assert.ok(ids.includes(`${sdk.name} (${sdk.c.room.sessionId})`), JSON.stringify(ids));
      const left = new Promise<number>((resolve) => sdk.c.room.onLeave((code: number) => resolve(code)));
      const kicked = async (name: string) => {
        const audit = await fetch(`${t.baseUrl}/api/admin/audit?limit=5`, { headers: { authorization: `Bearer ${adminToken}` } });
        const row = (((await audit.json()) as Json).entries as Json[]).find((r) => r.action === "kick" && r.targetName === name);
        return row === undefined ? undefined : { actor: row.actorAccountId, via: row.via, reason: row.reason };
      };
      const sdkKick = await call(roomId, "_forceClientDisconnect", `${sdk.name} (${sdk.c.room.sessionId})`);
      assert.equal(sdkKick.status, 200, JSON.stringify(sdkKick.body));
      await left;
      assert.deepEqual(await kicked(sdk.name), { actor: "ops", via: "monitor", reason: "disconnected from the monitor" });
      await call(roomId, "_forceClientDisconnect", `${ws.name} (ws:${ws.id})`);
      assert.equal((await ws.c.next("error")).code, "KICKED");
      await ws.c.waitClosed();
      assert.deepEqual(await kicked(ws.name), { actor: "ops", via: "monitor", reason: "disconnected from the monitor" });
    } finally {
      ws.c.close();
    }
  });

  it("makes DISPOSE of a trade room cancel the trade: both players told, nothing moved, the room gone", async () => {
    const ann = await sdkPlayer();
    const ben = await wsPlayer();
    try {
      const annSync = await ann.c.next("player:sync");
      const slot = (annSync.inventory as { slot: number; itemId: string; quantity: number }[])[0]!;
      ann.c.send("tradeRequest", { targetPlayerId: ben.id });
      const tradeId = String((await ben.c.next("tradeIncoming")).tradeId);
      ben.c.send("tradeRequestRespond", { tradeId, accept: true });
      await ann.c.next("tradeStarted");
      ann.c.sdk.auth.token = ann.token;
      const seat: Room = await ann.c.sdk.joinById(tradeId);
      seat.send("tradeAddItem", { tradeId, inventorySlot: slot.slot, quantity: 1 });
      await ben.c.next("tradeUpdated");
      assert.equal((await roomOf(TRADE_ROOM))?.roomId, tradeId);

      const refused = await call(tradeId, "broadcast", "tradeCompleted", { tradeId, receivedItems: [] });
      assert.equal(refused.status, 409);
      const res = await call(tradeId, "disconnect");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await ben.c.next("tradeCancelled")).tradeId, tradeId);
      assert.equal((await ann.c.next("tradeCancelled")).tradeId, tradeId);
      await eventually(async () => ((await roomOf(TRADE_ROOM)) === undefined ? true : undefined), "the trade room closes");
      const annPlayer = t.server.world.world.players.get(ann.id)!;
      assert.equal(annPlayer.inTrade, false);
      assert.deepEqual(annPlayer.data.inventory[slot.slot], { itemId: slot.itemId, quantity: slot.quantity }, "the offered item stayed where it was");
      // They can trade again.
      ann.c.send("tradeRequest", { targetPlayerId: ben.id });
      const next = String((await ben.c.next("tradeIncoming")).tradeId);
      ben.c.send("tradeRequestRespond", { tradeId: next, accept: true });
      await ann.c.next("tradeStarted");
      ben.c.send("tradeCancel", { tradeId: next });
      await ann.c.next("tradeCancelled");
    } finally {
      ben.c.close();
      await ann.c.room.leave();
    }
  });
});

describe("the monitor's panel in Chromium", function () {
  this.timeout(120_000);
  const ADMIN_CODE = "monitor-panel-code-0123";
  let t: TestServer;
  let browser: Browser;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50", ADMIN_CODE });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("shows the reason on screen when DISPOSE of the world room is refused, and the world room stays", async () => {
    const context = await browser.newContext({ httpCredentials: { username: "ops", password: ADMIN_CODE }, viewport: { width: 1200, height: 800 } });
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.on("pageerror", (err) => errors.push(err.message));
      page.on("dialog", (d) => void d.accept());
      await page.goto(`${t.baseUrl}/colyseus/`);
      await page.getByText(WORLD_ROOM, { exact: true }).first().click();
      await page.getByRole("button", { name: /dispose/i }).click();
      const alert = page.getByRole("alert");
      await alert.waitFor({ timeout: 30_000 });
      assert.match((await alert.textContent())!, /Refused: the world room cannot be disposed/);
      await screenshot(page, "monitor-dispose-refused");
      const rooms = (await (
        await fetch(`${t.baseUrl}/colyseus/api`, { headers: { authorization: `Basic ${Buffer.from(`ops:${ADMIN_CODE}`).toString("base64")}` } })
      ).json()) as Json;
      assert.ok(
        (rooms.rooms as Json[]).some((r) => r.name === WORLD_ROOM),
        "the world room is still listed",
      );
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
