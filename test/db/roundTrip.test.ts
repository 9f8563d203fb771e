/**
 * Save → restart → reload of every persisted part of a player, on both databases, through the real
 * server: a player is logged in, its state is set to values that differ from every default, the
 * server shuts down (its shutdown save), a new server starts on the same database, and the player
 * logs in again. Each part is compared on its own, so a part dropped on save or on load (the
 * loader losing bank rows, the saver skipping equipment, …) fails the test by name.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { NpcKill, PlayerDeath } from "../../entities/index.ts";
import { combatLevel, SKILLS, XP_FOR_LEVEL } from "../../src/game/skills.ts";
import type { DeathRecord, ItemStack, Player, PlayerData } from "../../src/game/world/Player.ts";
import { runRestore } from "../../src/game/world/runEnergy.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { makeWorldDir } from "../support/world.ts";
import { WsTestClient } from "../support/wsClient.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON replies, read field by field
async function call(t: TestServer, method: string, p: string, token?: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(t.baseUrl + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** Logs the token's character in over /ws and returns its live player once it is in the world. */
async function login(t: TestServer, token: string, characterId: string): Promise<{ ws: WsTestClient; player: Player }> {
  const ws = await WsTestClient.connect(`${t.wsUrl}?token=${token}`);
  await ws.next("welcome");
  const player = await until(() => t.server.world.world.players.get(characterId), "the player in the world");
  return { ws, player };
}

forEachDialect("a player's state across a save, a restart and a reload", (ctx) => {
  let worldDir: string;
  let env: Record<string, string>;
  const servers: TestServer[] = [];
  const start = async () => {
    const t = await startTestServer(env, "bundled", worldDir);
    servers.push(t);
    return t;
  };
  before(() => {
    worldDir = makeWorldDir("bundled");
    // A fixed secret: the tokens issued before the restart must still be valid after it.
    env = { DATABASE_URL: ctx.url, TICK_MS: "50", DISABLE_RATE_LIMIT: "true", JWT_SECRET: "round-trip-test-secret-of-at-least-32-bytes" };
  });
  after(async () => {
    for (const t of servers) await t.close().catch(() => {});
    fs.rmSync(worldDir, { recursive: true, force: true });
  });

  it("reloads bank, equipment, inventory, skills and xp, coins, health, position, death locks, kills and agent goal state", async function () {
    this.timeout(60_000);
    const first = await start();
    const content = first.server.content;
    const { body: anon } = await call(first, "POST", "/api/auth/anonymous");
    const token = String(anon.token);
    const created = await call(first, "POST", "/api/v1/player", token, { name: "Round Tripper" });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const characterId = String(created.body.player.characterId);

    // Agent goal state: a manual goal set while goals are paused (both differ from a new agent's);
    // explore is always available, so the goal does not depend on the loaded inventory.
    const agent = await call(first, "POST", "/api/agent", token, { characterId, name: "round trip bot" });
    assert.equal(agent.status, 201, JSON.stringify(agent.body));
    const agentId = String(agent.body.agent.agentId);
    const agentToken = String(agent.body.token);
    assert.equal((await call(first, "POST", `/api/agents/${agentId}/goal/stop`, token)).status, 200);
    const goalSet = await call(first, "POST", `/api/agents/${agentId}/goal`, token, { type: "explore" });
    assert.equal(goalSet.status, 200, JSON.stringify(goalSet.body));
    const goalBefore = await call(first, "GET", `/api/agents/${agentId}/goal`, agentToken);
    assert.equal(goalBefore.body.goal.type, "explore");
    assert.equal(goalBefore.body.goalsPaused, true);

    const { ws, player } = await login(first, token, characterId);
    // Items from the content: two wearables of different slots and a stackable.
    const items = [...content.items.values()];
    const wearables = new Map<string, string>();
    for (const item of items) {
      const slot = (item as { equipSlot?: string }).equipSlot;
      if (slot !== undefined && !wearables.has(slot)) wearables.set(slot, item.id);
    }
    assert.ok(wearables.size >= 2, "the content has wearables of two slots");
    const [[slotA, wearA], [slotB, wearB]] = [...wearables.entries()] as [string, string][] as [[string, string], [string, string]];
    const stackable = items.find((i) => i.stackable && i.id !== "coins")!;
    const single = items.find((i) => !i.stackable && (i as { equipSlot?: string }).equipSlot === undefined)!;
    assert.ok(stackable && single, "the content has a stackable and a non-stackable item");

    // Every skill its own level and an xp inside that level, with a fraction (xp is kept in
    // tenths: half an xp more); constitution sets the health cap.
    const skills = Object.fromEntries(SKILLS.map((s, i) => [s, { level: 5 + i, xpTenths: (XP_FOR_LEVEL[5 + i]! + 17 + i) * 10 + 5 }])) as PlayerData["skills"];
    const levels = Object.fromEntries(SKILLS.map((s) => [s, skills[s].level])) as unknown as Parameters<typeof combatLevel>[0];
    const world = first.server.world.world;
    const spawn = content.world.spawn;
    let x = spawn.x + 3;
    let z = spawn.z + 2;
    for (let d = 3; !world.collision.isWalkable(x, z); d++) [x, z] = [spawn.x + d, spawn.z + (d % 4)];
    const inventory: (ItemStack | null)[] = Array.from({ length: 28 }, () => null);
    inventory[0] = { itemId: single.id, quantity: 1 };
    inventory[9] = { itemId: stackable.id, quantity: 1_234 };
    inventory[27] = { itemId: single.id, quantity: 1 };
    const death: DeathRecord = {
      id: `death-${ctx.dialect}-${Date.now()}`,
      x: spawn.x,
      z: spawn.z,
      killedBy: "goblin",
      items: [
        { itemId: single.id, quantity: 1, outcome: "dropped" },
        { itemId: stackable.id, quantity: 5, outcome: "kept" },
      ],
      diedAt: Date.now(),
    };
    // Set between two ticks (this runs synchronously): nothing of it is a default.
    const expected = {
      position: { x, y: player.data.y, z },
      health: skills.constitution.level * 10,
      coins: 98_765,
      combatLevel: combatLevel(levels),
      // Not the default (accurate), and offered by every melee weapon and unarmed.
      combatStyle: "defensive" as const,
      // Run energy in units (43.21 %): not the default (full). Set directly, the player is not among
      // the recovering ones in the first server: the shutdown saves it as it is. Reloaded below it
      // is, and the second server's ticks restore whole ticks' worth of it (runEnergy.test.ts).
      runEnergy: 4_321,
      // Below the Prayer level (full, the default) and above 0.
      prayerPoints: skills.prayer.level - 3,
      // A spell of the content (none, null, is the default): kept across a logout, as the genre keeps it.
      autocast: [...content.magic.spells.keys()].at(-1)!,
      // A thread begun, three of its five makes left (src/game/productionRules.ts); none begun is the default.
      consumableUses: { thread: 3 },
      skills,
      inventory,
      equipment: { [slotA]: { itemId: wearA, quantity: 1 }, [slotB]: { itemId: wearB, quantity: 1 } } as Record<string, ItemStack>,
      // Order is part of the bank (display order); one stack at the largest quantity.
      bank: [
        { itemId: stackable.id, quantity: 2_147_483_647 },
        { itemId: single.id, quantity: 40 },
        { itemId: wearA, quantity: 3 },
      ],
    };
    Object.assign(player.data, {
      x,
      z,
      health: expected.health,
      coins: expected.coins,
      combatLevel: expected.combatLevel,
      combatStyle: expected.combatStyle,
      runEnergy: expected.runEnergy,
      prayerPoints: expected.prayerPoints,
      autocast: expected.autocast,
      consumableUses: { ...expected.consumableUses },
      skills: structuredClone(skills),
      inventory: structuredClone(inventory),
      equipment: structuredClone(expected.equipment),
      bank: structuredClone(expected.bank),
    });
    player.pendingKills.set("goblin", 2);
    player.pendingDeaths.push(death);
    player.saveDue = true;
    // A tick runs over the new state before the shutdown (nothing in it may change it).
    const tick = world.tick;
    await until(() => (world.tick > tick + 1 ? true : undefined), "two ticks");

    // The restart: the shutdown save, then a new server on the same database.
    await first.close();
    assert.equal(player.data.runEnergy, expected.runEnergy, "run energy at the shutdown");
    await ws.waitClosed().catch(() => {});
    const second = await start();

    const goalAfter = await call(second, "GET", `/api/agents/${agentId}/goal`, agentToken);
    assert.equal(goalAfter.status, 200, JSON.stringify(goalAfter.body));
    assert.deepEqual(goalAfter.body.goal, goalBefore.body.goal, "agent goal");
    assert.equal(goalAfter.body.goalsPaused, true, "agent goals paused");

    const again = await login(second, token, characterId);
    const d = again.player.data;
    assert.deepEqual({ x: d.x, y: d.y, z: d.z }, expected.position, "position");
    assert.equal(d.health, expected.health, "health");
    assert.equal(d.coins, expected.coins, "coins");
    assert.equal(d.combatLevel, expected.combatLevel, "combat level");
    assert.equal(d.combatStyle, expected.combatStyle, "combat style");
    const restored = d.runEnergy! - expected.runEnergy;
    const perTick = runRestore(d.skills.agility.level);
    assert.ok(
      restored >= 0 && restored % perTick === 0 && restored / perTick < 50,
      `run energy ${d.runEnergy}: 4,321 and whole ticks of ${perTick} restored since the login`,
    );
    assert.equal(d.prayerPoints, expected.prayerPoints, "prayer points");
    assert.equal(d.autocast, expected.autocast, "autocast spell");
    assert.deepEqual(d.consumableUses, expected.consumableUses, "makes left of a thread begun");
    for (const s of SKILLS) assert.deepEqual(d.skills[s], expected.skills[s], `skill ${s} (level and xp)`);
    assert.deepEqual(d.inventory, expected.inventory, "inventory, slot by slot");
    assert.deepEqual(d.equipment, expected.equipment, "equipment");
    assert.deepEqual(d.bank, expected.bank, "bank, in order");

    // Death locks and kill counts are rows of their own, written with the saved state.
    const em = second.server.db.em();
    const lock = await em.findOne(PlayerDeath, { id: death.id });
    assert.ok(lock !== null, "the death's lock row");
    assert.equal(lock.characterId, characterId);
    assert.equal(lock.status, "resolved");
    assert.equal(lock.killedBy, "goblin");
    assert.deepEqual([lock.positionX, lock.positionZ], [death.x, death.z]);
    assert.deepEqual(lock.items, death.items, "the death's items and their outcomes");
    assert.equal((await em.findOne(NpcKill, { characterId, npcId: "goblin" }))?.killCount, 2, "kill count");
    again.ws.close();
  });
});
