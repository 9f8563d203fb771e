/**
 * Dialogue and quests on a real server over its transports, on both databases: "A Settler's
 * Charter" from the first talk to the reward over `/ws`, with a restart of the server in the
 * middle (the quest's progress comes back from the database); `quest:list` pushed at login on both
 * transports; a bad `dialogue:choose` refused over Colyseus; `GET /api/characters/:id/quests` for the owner only. The rules themselves:
 * test/gameplay/quests.test.ts.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { forEachDialect } from "../support/dialects.ts";
import { callJson } from "../support/http.ts";
import { completeQuest, talkAndChoose, type QuestActor } from "../support/questDriver.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { WsTestClient } from "../support/wsClient.ts";

const TICK_MS = 50;
const QUEST = "settlers_charter";

function wsActor(t: TestServer, client: WsTestClient, id: string): QuestActor {
  return {
    world: t.server.world.world,
    player: () => t.server.world.world.players.get(id)!,
    send: (type, data) => client.send(type, data),
    events: client.events,
    step: () => sleep(TICK_MS * 2),
  };
}

/** Makes the character a fighter (between two ticks), so the rats die quickly. */
function strengthen(t: TestServer, id: string): void {
  const p = t.server.world.world.players.get(id)!;
  for (const s of ["attack", "strength", "defense"] as const) p.data.skills[s] = { level: 40, xpTenths: 373_000 };
  p.saveDue = true;
}

forEachDialect("quests on a real server", (ctx) => {
  let t: TestServer;
  /** The first server's world directory, reused by the restarted one (which leaves it in place). */
  let reused: string | undefined;
  before(async function () {
    this.timeout(30_000);
    t = await startTestServer({ TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true", DATABASE_URL: ctx.url });
  });
  after(async () => {
    await t.close();
    if (reused !== undefined) fs.rmSync(reused, { recursive: true, force: true });
  });

  it("completes A Settler's Charter over /ws, its progress kept across a restart", async function () {
    this.timeout(120_000);
    let client = await WsTestClient.connect(`${t.wsUrl}?name=Settler`);
    const welcome = await client.next("welcome");
    const id = String(welcome.playerId);
    await client.next("player:sync");
    // Pushed at login, unasked: every quest of the world, none started.
    const atLogin = await client.next("quest:list");
    assert.equal((atLogin.quests as unknown[]).length, t.server.world.world.content.quests.quests.size);
    assert.ok((atLogin.quests as { status: string }[]).every((q) => q.status === "not_started"));
    assert.equal(atLogin.questPoints, 0);
    strengthen(t, id);
    const quest = t.server.world.world.content.quests.quests.get(QUEST)!;
    let actor = wsActor(t, client, id);
    await talkAndChoose(actor, "warden_tamsin", (text) => text === "A Settler's Charter: I'd like to help.");
    // Two rats, then a logout (saved) and a restart of the server.
    for (let kills = 0; kills < 2; ) {
      const rats = [...t.server.world.world.npcs.values()].filter((n) => n.def.id === "meadow_rat" && n.deadUntil === 0);
      const p = actor.player();
      const rat = rats.sort((a, b) => Math.max(Math.abs(a.x - p.x), Math.abs(a.z - p.z)) - Math.max(Math.abs(b.x - p.x), Math.abs(b.z - p.z)))[0]!;
      client.send("player:action", { action: "attack", targetId: rat.id });
      await until(() => (rat.deadUntil !== 0 ? true : undefined), "a rat killed", 20_000);
      kills++;
    }
    await until(() => (actor.player().data.quests?.[QUEST]?.progress === 2 ? true : undefined), "two kills counted");
    client.socket.close(1000, "logout");
    await until(() => (t.server.world.world.players.has(id) ? undefined : true), "the player to leave", 5_000);
    reused = t.worldDir;
    await t.server.close();
    t = await startTestServer({ TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true", DATABASE_URL: ctx.url }, "bundled", reused);
    client = await WsTestClient.connect(`${t.wsUrl}?token=${welcome.token}`);
    assert.equal((await client.next("welcome")).playerId, id);
    // The list at login already shows the saved progress.
    const relogged = await client.next("quest:list");
    client.send("quest:getList", {});
    const list = await client.next("quest:list");
    assert.deepEqual(relogged, list);
    assert.deepEqual(
      (list.quests as Record<string, unknown>[]).find((q) => q.id === QUEST),
      { id: QUEST, name: "A Settler's Charter", status: "in_progress", stage: "cull_rats", stageText: "Kill 5 meadow rats", progress: { count: 2, required: 5 } },
    );
    actor = wsActor(t, client, id);
    await completeQuest(actor, quest);
    const done = await client.next("quest:completed", 10_000);
    assert.deepEqual([done.questId, done.questPoints, done.totalQuestPoints], [QUEST, 1, 1]);
    assert.ok(actor.player().data.inventory.some((s) => s?.itemId === "settlers_charter"));
    // Over REST: the owner sees it; no token, another account: refused.
    const mine = await callJson(t.baseUrl, "GET", `/api/characters/${id}/quests`, String(welcome.token));
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.equal(mine.body.questPoints, 1);
    assert.equal(mine.body.quests.find((q: { id: string }) => q.id === QUEST).status, "completed");
    assert.equal((await callJson(t.baseUrl, "GET", `/api/characters/${id}/quests`)).status, 401);
    const stranger = await callJson(t.baseUrl, "POST", "/api/auth/anonymous");
    assert.equal((await callJson(t.baseUrl, "GET", `/api/characters/${id}/quests`, String(stranger.body.token))).status, 403);
    client.close();
  });

  it("pushes quest:list at login over Colyseus, and refuses a bad dialogue:choose there, changing nothing", async function () {
    this.timeout(30_000);
    const client = await WorldTestClient.join(t.baseUrl, { name: "Chooser" });
    const id = String((await client.next("welcome")).playerId);
    await client.next("player:sync");
    const atLogin = await client.next("quest:list");
    assert.deepEqual((atLogin.quests as { id: string }[]).map((q) => q.id), [...t.server.world.world.content.quests.quests.keys()]);
    assert.deepEqual((atLogin.quests as { id: string; status: string }[]).find((q) => q.id === QUEST)!.status, "not_started");
    const tamsin = [...t.server.world.world.npcs.values()].find((n) => n.def.id === "warden_tamsin")!;
    client.send("player:action", { action: "talk", targetId: tamsin.id });
    const open = await client.next("dialogue:open", 10_000);
    assert.equal(open.npcName, "Warden Tamsin");
    client.send("dialogue:choose", { optionId: "not-an-option" });
    const error = await client.next("error");
    assert.deepEqual([error.code, error.event], ["INVALID_OPTION", "dialogue:choose"]);
    assert.equal(t.server.world.world.players.get(id)!.data.quests?.[QUEST], undefined, "no quest started");
    await client.room.leave();
  });
});
