import assert from "node:assert/strict";
import { NpcKill, PlayerDeath } from "../../entities/index.ts";
import { hitChance, maxHitHitpoints } from "../../src/game/combat.ts";
import { chebyshev } from "../../src/game/map/CollisionMap.ts";
import { killPlayer } from "../../src/game/death.ts";
import { snapshot } from "../../src/game/world/World.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { createCharacter, loadOrCreatePlayer, savePlayers } from "../../src/persistence/players.ts";
import { pino } from "pino";
import { forEachDialect } from "../support/dialects.ts";
import { bundledContent } from "../support/content.ts";
import { count, gameWorld, holdings } from "../support/game.ts";
import { holdStill } from "../support/placing.ts";

function ratNear(g: Awaited<ReturnType<typeof gameWorld>>) {
  const rats = [...g.world.npcs.values()].filter((n) => n.def.id === "meadow_rat");
  assert.ok(rats.length > 0);
  return rats[0]!;
}

describe("combat", () => {
  it("uses the classic accuracy and max-hit formulas", () => {
    assert.equal(maxHitHitpoints(1, 0), 1);
    assert.equal(maxHitHitpoints(99, 0), 11);
    assert.ok(Math.abs(hitChance(1000, 500) - (1 - 502 / 2002)) < 1e-12);
    assert.ok(Math.abs(hitChance(500, 1000) - 500 / 2002) < 1e-12);
  });

  // OSRS wiki "Attack speed" (and each weapon's infobox): daggers, swords, scimitars and maces 4
  // ticks, unarmed 4, longswords 5, staves 5 in melee, two-handed swords 6; shortbows 4, longbows 6.
  it("gives each weapon its genre's attack speed", async () => {
    const content = await bundledContent();
    const speeds: Record<string, number> = { DAGGER: 4, SWORD: 4, SCIMITAR: 4, MACE: 4, LONGSWORD: 5, STAFF: 5, "2H_SWORD": 6 };
    const weapons = [...content.items.values()].filter((i) => i.equipSlot === "weapon" && speeds[i.weaponType ?? ""] !== undefined);
    assert.ok(weapons.length >= 5, "the content's melee weapons are checked");
    for (const w of weapons) assert.equal(w.attackSpeed, speeds[w.weaponType!], `${w.id} (${w.weaponType})`);
    const bow = (id: string) => content.item(id)!.attackSpeed;
    assert.deepEqual([bow("shortbow"), bow("oak_shortbow"), bow("longbow"), bow("oak_longbow")], [4, 4, 6, 6]);
  });

  it("kills a rat: hits are announced to players in view, xp is given, the drop and the kill are the killer's", async () => {
    const g = await gameWorld(11);
    const rat = ratNear(g);
    const p = g.add({ x: rat.x + 1, z: rat.z, equipment: { weapon: { itemId: "bronze_sword", quantity: 1 } } });
    const watcher = g.add({ x: rat.x + 2, z: rat.z + 2 });
    for (let i = 0; i < 400 && rat.deadUntil === 0; i++) {
      if (p.action === undefined) g.send(p, "player:action", { action: "attack", targetId: rat.id });
      g.tick();
    }
    assert.ok(rat.deadUntil > 0, "the rat died");
    const hits = g.events(watcher, "combat:hit").filter((h) => h.targetId === rat.id);
    assert.ok(hits.length > 0, "the watcher saw the hits");
    assert.ok(hits.every((h) => h.attackerId === p.id && typeof h.damage === "number" && h.style === "melee" && h.targetMaxHealth === rat.maxHealth));
    const onPlayer = g.events(watcher, "combat:hit").filter((h) => h.targetId === p.id);
    assert.ok(
      onPlayer.every((h) => h.attackerId === rat.id && h.style === "melee"),
      "the rat's hits are melee",
    );
    assert.ok(p.data.skills.attack.xpTenths > 0);
    assert.ok(p.data.skills.constitution.xpTenths > 11540);
    assert.equal(p.pendingKills.get("meadow_rat"), 1);
    assert.deepEqual(
      g
        .events(p, "chat:message")
        .filter((m) => m.channel === "system")
        .map((m) => m.message),
      [`You have defeated the ${rat.def.name}.`],
      "the killer is told, once",
    );
    assert.ok(!g.events(watcher, "chat:message").some((m) => m.channel === "system"), "the watcher is not");
    const drops = [...g.world.groundItems.values()];
    assert.ok(drops.length > 0, "the rat dropped something");
    assert.ok(drops.every((d) => d.ownerId === p.id));
    g.tick(rat.def.combat!.respawnTicks + 1);
    assert.equal(rat.deadUntil, 0, "the rat respawned");
    assert.equal(rat.health, rat.maxHealth);
  });

  it("refuses to attack a banker", async () => {
    const g = await gameWorld();
    const banker = [...g.world.npcs.values()].find((n) => n.service?.type === "bank")!;
    const p = g.add({ x: banker.x + 1, z: banker.z });
    g.send(p, "player:action", { action: "attack", targetId: banker.id });
    g.tick();
    assert.equal(g.errors(p)[0]!.code, "NOT_ATTACKABLE");
  });

  it("lets a rat fight back when attacked", async () => {
    const g = await gameWorld(5);
    const rat = ratNear(g);
    const p = g.add({ x: rat.x + 1, z: rat.z });
    g.send(p, "player:action", { action: "attack", targetId: rat.id });
    g.tick(2);
    assert.equal(rat.targetId, p.id);
  });

  // The rule (src/game/npcs.ts): aggression never picks a player inside a safe zone; a mob
  // attacked there still fights back, and one already chasing may follow, so "out of town" is
  // not promised.
  it("never lets an aggressive mob pick a player in the safe town, and lets it attack one step outside", async () => {
    const g = await gameWorld(9);
    const town = g.world.content.areas.find((a) => a.safeZone)!;
    const hound = [...g.world.npcs.values()].find((n) => n.def.id === "cinder_hound")!;
    const aggro = hound.def.combat!.aggroRange;
    // An east edge row where the player can stand inside, step out, and the hound wait 3 tiles out.
    const edge = town.bounds.maxX;
    const walk = (x: number, z: number) => g.world.collision.isWalkable(x, z);
    let z = town.bounds.minZ;
    while (z <= town.bounds.maxZ && !(walk(edge, z) && walk(edge + 1, z) && walk(edge + 3, z) && g.world.collision.canStep(edge, z, 1, 0))) z++;
    assert.ok(z <= town.bounds.maxZ, "a walkable stretch across the town's east edge");
    assert.ok(aggro >= 3, "the player is within the hound's aggression range");
    // The hound idles there, alone (no wandering, no target): nothing else keeps it busy.
    holdStill(hound, { at: { x: edge + 3, z } }).targetId = undefined;
    const p = g.add({ x: edge, z });
    g.tick(10);
    assert.equal(hound.targetId, undefined, "a player in town is never picked");
    assert.equal(p.data.health, p.maxHealth, "nor hit");
    g.send(p, "player:move", { x: edge + 1, z });
    g.tick(2);
    assert.deepEqual([p.x, p.z], [edge + 1, z], "one step out of town");
    g.tick(3);
    assert.equal(hound.targetId, p.id, "outside, the hound goes for the low-level player");
  });
});

describe("death", () => {
  it("dies and respawns without losing or duplicating items", async () => {
    const g = await gameWorld();
    const items = [
      { itemId: "steel_sword", quantity: 1 },
      { itemId: "bread", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "iron_sword", quantity: 1 },
      { itemId: "feathers", quantity: 40 },
      { itemId: "bronze_sword", quantity: 1 },
    ];
    const p = g.add({ x: 5, z: 5, equipment: { weapon: { itemId: "bronze_dagger", quantity: 1 } } }, items);
    const before = holdings(g.world, p);
    killPlayer(g.world, p, "meadow_rat");
    assert.deepEqual({ x: p.x, z: p.z, health: p.data.health }, { x: 0, z: 0, health: p.maxHealth });
    assert.equal(p.data.equipment.weapon?.itemId, "bronze_dagger", "equipment is kept");
    assert.equal(p.data.inventory.filter((s) => s !== null).length, 3, "three stacks are kept");
    assert.ok(count(p, "steel_sword") === 1 && count(p, "iron_sword") === 1, "the most valuable ones");
    assert.deepEqual(holdings(g.world, p), before, "nothing lost, nothing doubled");
    const death = p.pendingDeaths[0]!;
    assert.equal(death.items.filter((i) => i.outcome === "dropped").length, 3);
    // Walk back and pick everything up.
    for (const item of [...g.world.groundItems.values()]) {
      g.send(p, "player:action", { action: "pickup", targetId: item.id });
      g.tick(30);
    }
    assert.equal(g.world.groundItems.size, 0);
    assert.deepEqual(holdings(g.world, p), before);
    assert.deepEqual(
      g.events(p, "player:death").map((e) => e.killedBy),
      ["meadow_rat"],
    );
  });

  it("a player who respawns far away is seen at the spawn, by itself and by those there", async () => {
    const g = await gameWorld();
    const p = g.add({ x: 30, z: 24 });
    const there = g.add({ x: 1, z: 1 });
    killPlayer(g.world, p, "meadow_rat");
    const near = (viewer: { id: string }) => {
      const ids: string[] = [];
      g.world.forEachNear({ x: 0, z: 0 }, viewer.id, 4, (e) => ids.push(e.id));
      return ids;
    };
    assert.ok(near(p).includes(p.id), "in its own view at the spawn");
    assert.ok(near(there).includes(p.id), "in the view of a player at the spawn");
  });
});

forEachDialect("kills and death locks", (ctx) => {
  it("saves kill counts and a death lock with the player's state, exactly once each", async () => {
    const content = await bundledContent();
    const db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
    try {
      const data = await createCharacter(db, content, `acc-death-${ctx.dialect}`, `Doomed ${ctx.dialect.slice(0, 4)}`);
      const g = await gameWorld();
      const p = g.world.addPlayer(data);
      p.pendingKills.set("meadow_rat", 2);
      killPlayer(g.world, p, "meadow_rat");
      const snap = snapshot(p);
      const versions = new Map([[p.id, data.version]]);
      await savePlayers(db, [snap], versions);
      await savePlayers(db, [snap], versions);
      const deaths = await db.em().find(PlayerDeath, { characterId: p.id });
      assert.equal(deaths.length, 1, "a replayed save records the death once");
      assert.equal(deaths[0]!.status, "resolved");
      const kills = await db.em().findOneOrFail(NpcKill, { characterId: p.id, npcId: "meadow_rat" });
      assert.equal(kills.killCount, 4, "each save adds its own kills (two saves of 2)");
      const reloaded = await loadOrCreatePlayer(db, content, { accountId: data.accountId });
      assert.deepEqual({ x: reloaded.x, z: reloaded.z }, { x: 0, z: 0 });
      assert.deepEqual(reloaded.inventory, p.data.inventory);
    } finally {
      await db.close();
    }
  });
});

describe("ranged combat and NPC interaction", () => {
  it("shoots with a bow from range, one arrow a shot, and refuses without arrows", async () => {
    const g = await gameWorld(21);
    const rat = ratNear(g);
    // A rat that outlives three arrows: every step below happens on every run, none by chance.
    rat.maxHealth = rat.health = 10_000;
    const p = g.add({ x: rat.x + 4, z: rat.z, equipment: { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 3 } } });
    g.send(p, "player:action", { action: "attack", targetId: rat.id });
    const shots: { distance: number; arrowsLeft: number; damage: number }[] = [];
    for (let i = 0; i < 60 && !g.errors(p).some((e) => e.code === "NO_AMMO"); i++) {
      const before = g.events(p, "combat:hit").filter((h) => h.attackerId === p.id).length;
      g.tick();
      const hits = g.events(p, "combat:hit").filter((h) => h.attackerId === p.id);
      for (const h of hits.slice(before))
        shots.push({ distance: chebyshev(p, rat), arrowsLeft: p.data.equipment.arrows?.quantity ?? 0, damage: Number(h.damage) });
    }
    assert.deepEqual(
      shots.map((s) => s.arrowsLeft),
      [2, 1, 0],
      "one arrow a shot, three shots",
    );
    assert.ok(shots[0]!.distance > 1, `the first shot from ${shots[0]!.distance} tiles`);
    assert.equal(p.data.equipment.arrows, undefined, "the empty quiver is unequipped");
    assert.ok(
      g.errors(p).some((e) => e.code === "NO_AMMO"),
      "the next attack is refused",
    );
    const damage = shots.reduce((n, s) => n + s.damage, 0);
    assert.equal(p.data.skills.ranged.xpTenths > 0, damage > 0, "ranged xp for the damage dealt");
  });

  it("opens the bank and the store when talking to their keepers", async () => {
    const g = await gameWorld();
    const banker = [...g.world.npcs.values()].find((n) => n.service?.type === "bank")!;
    const keeper = [...g.world.npcs.values()].find((n) => n.service?.storeId === "brackenford_general")!;
    const p = g.add({ x: 0, z: 0, bank: [{ itemId: "logs", quantity: 4 }] });
    g.send(p, "player:action", { action: "interact", targetId: banker.id });
    g.tick(10);
    const bank = g.events(p, "interface:open")[0]!;
    assert.equal(bank.type, "bank");
    assert.deepEqual(bank.bank, [{ itemId: "logs", quantity: 4 }]);
    g.send(p, "player:action", { action: "interact", targetId: keeper.id });
    g.tick(40);
    const store = g.events(p, "interface:open")[1]!;
    assert.equal(store.type, "store");
    assert.equal(store.storeId, "brackenford_general");
    assert.ok((store.items as unknown[]).length > 0);
  });

  it("keeps wandering mobs within their radius of their spawn point", async () => {
    const g = await gameWorld(13);
    const mobs = [...g.world.npcs.values()].filter((n) => n.def.combat?.attackable && n.wanderRadius > 0);
    const moved = new Set<string>();
    for (let i = 0; i < 300; i++) {
      g.tick();
      for (const m of mobs) {
        if (m.x !== m.spawnX || m.z !== m.spawnZ) moved.add(m.id);
        assert.ok(Math.max(Math.abs(m.x - m.spawnX), Math.abs(m.z - m.spawnZ)) <= m.wanderRadius, `${m.id} strayed`);
        assert.ok(g.world.collision.isWalkable(m.x, m.z));
      }
    }
    assert.ok(moved.size > 0, "some mobs wandered");
  });
});
