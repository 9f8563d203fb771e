import assert from "node:assert/strict";
import { combatLevel, levelForXp, MAX_XP, XP_FOR_LEVEL } from "../../src/game/skills.ts";
import { addXp } from "../../src/game/progression.ts";
import { besideTile, count, gameWorld, resourceNear } from "../support/game.ts";

const HATCHET = { itemId: "bronze_hatchet", quantity: 1 };
const PICKAXE = { itemId: "bronze_pickaxe", quantity: 1 };
const NET = { itemId: "small_fishing_net", quantity: 1 };

describe("skills", () => {
  it("uses RuneScape's experience table: level 2 at 83 xp, 10 at 1,154, 99 at 13,034,431", () => {
    assert.equal(XP_FOR_LEVEL[2], 83);
    assert.equal(XP_FOR_LEVEL[10], 1154);
    assert.equal(XP_FOR_LEVEL[99], 13_034_431);
    assert.equal(levelForXp(82), 1);
    assert.equal(levelForXp(83), 2);
    assert.equal(levelForXp(MAX_XP), 99);
  });

  it("computes a new character's combat level as 3", () => {
    assert.equal(combatLevel({ attack: 1, strength: 1, defense: 1, constitution: 10, ranged: 1, magic: 1, prayer: 1 }), 3);
    assert.equal(combatLevel({ attack: 99, strength: 99, defense: 99, constitution: 99, ranged: 1, magic: 1, prayer: 99 }), 126, "the classic maximum");
  });

  it("caps xp at 200,000,000 and announces gains and level-ups", async () => {
    const g = await gameWorld();
    const p = g.add();
    addXp(g.world, p, "attack", 83);
    addXp(g.world, p, "attack", MAX_XP);
    assert.equal(p.data.skills.attack.xpTenths, MAX_XP * 10);
    assert.equal(p.data.skills.attack.level, 99);
    const events = g.world
      .drainOutbox()
      .filter((m) => m.type === "skill:xp")
      .map((m) => m.data as Record<string, unknown>);
    assert.deepEqual(events[0], { skill: "attack", xp: 83, gained: 83, xpExact: 83, gainedExact: 83, level: 2, levelUp: true });
    assert.equal(events[1]!.levelUp, true);
    assert.ok(p.data.combatLevel > 3, "the combat level follows attack");
  });
});

describe("gathering", () => {
  it("chops a tree until woodcutting level 2", async () => {
    const g = await gameWorld();
    const tree = resourceNear(g.world, "tree_normal", { x: 0, z: 0 });
    const p = g.add({ ...besideTile(g.world, tree) }, [HATCHET]);
    for (let i = 0; i < 400 && p.data.skills.woodcutting.level < 2; i++) {
      if (p.action === undefined) g.send(p, "player:action", { action: "gather", targetId: tree.id });
      g.tick();
      // A depleted tree respawns; keep waiting for it rather than fail.
    }
    assert.equal(p.data.skills.woodcutting.level, 2);
    assert.ok(count(p, "logs") >= 4, "83 xp is four logs at 25 xp");
    const xp = g.events(p, "skill:xp");
    assert.ok(xp.every((e) => e.skill === "woodcutting"));
    assert.equal(xp.filter((e) => e.levelUp).length, 1);
    assert.equal(g.errors(p).filter((e) => e.code !== "DEPLETED").length, 0);
    // Each log is said in the player's chat, as the game's own line, and to no one else.
    const lines = g
      .events(p, "chat:message")
      .filter((m) => m.channel === "system")
      .map((m) => m.message);
    assert.equal(lines.filter((l) => l === "You get some logs.").length, count(p, "logs"), lines.join(" | "));
  });

  it("walks to the tree before chopping", async () => {
    const g = await gameWorld();
    const tree = resourceNear(g.world, "tree_normal", { x: 0, z: 0 });
    const p = g.add({ x: 0, z: 0 }, [HATCHET]);
    g.send(p, "player:action", { action: "gather", targetId: tree.id });
    g.tick(80);
    assert.ok(Math.max(Math.abs(p.x - tree.x), Math.abs(p.z - tree.z)) <= 1, "the player stands next to the tree");
    assert.ok(p.data.skills.woodcutting.xpTenths > 0);
  });

  it("refuses to gather without the tool or below the level, and changes nothing", async () => {
    const g = await gameWorld();
    const tree = resourceNear(g.world, "tree_normal", { x: 0, z: 0 });
    const willow = resourceNear(g.world, "tree_willow", { x: 0, z: 0 });
    const p = g.add({ ...besideTile(g.world, tree) });
    g.send(p, "player:action", { action: "gather", targetId: tree.id });
    g.tick();
    assert.equal(g.errors(p)[0]!.code, "NO_TOOL");
    const q = g.add({ ...besideTile(g.world, willow) }, [HATCHET]);
    g.send(q, "player:action", { action: "gather", targetId: willow.id });
    g.tick();
    assert.equal(g.errors(q)[0]!.code, "LEVEL_TOO_LOW");
    assert.equal(p.action, undefined);
    assert.equal(q.data.skills.woodcutting.xpTenths, 0);
  });

  it("depletes a node, which respawns after its respawn time", async () => {
    const g = await gameWorld(7);
    const rock = resourceNear(g.world, "ore_copper", { x: 0, z: 0 });
    const res = g.world.resources.get(rock.id)!;
    const p = g.add({ ...besideTile(g.world, rock) }, [PICKAXE]);
    for (let i = 0; i < 1000 && res.depletedUntil === 0; i++) {
      if (p.action === undefined) g.send(p, "player:action", { action: "gather", targetId: rock.id });
      g.tick();
    }
    assert.ok(res.depletedUntil > 0, "the rock was mined out");
    assert.ok(count(p, "copper_ore") >= 1);
    g.send(p, "player:action", { action: "gather", targetId: rock.id });
    g.tick();
    assert.equal(g.errors(p).at(-1)!.code, "DEPLETED");
    g.tick(res.node.respawnTicks);
    assert.equal(res.depletedUntil, 0, "respawned");
  });

  it("catches shrimp with a net, and stops when the inventory is full", async () => {
    const g = await gameWorld();
    const spot = resourceNear(g.world, "fishing_spot_net", { x: 0, z: 0 });
    const junk = Array.from({ length: 26 }, () => ({ itemId: "bread", quantity: 1 }));
    const p = g.add({ ...besideTile(g.world, spot) }, [NET, ...junk]);
    for (let i = 0; i < 300 && count(p, "raw_shrimp") === 0; i++) {
      if (p.action === undefined) g.send(p, "player:action", { action: "gather", targetId: spot.id });
      g.tick();
    }
    assert.equal(count(p, "raw_shrimp"), 1);
    g.send(p, "player:action", { action: "gather", targetId: spot.id });
    g.tick(20);
    assert.equal(g.errors(p).at(-1)!.code, "INVENTORY_FULL");
    assert.equal(count(p, "raw_shrimp"), 1, "never more than fits");
  });

  for (const [node, tool, yields] of [
    ["tree_normal", HATCHET, "logs"],
    ["ore_copper", PICKAXE, "copper_ore"],
    ["fishing_spot_net", NET, "raw_shrimp"],
  ] as const) {
    it(`gathers from a ${node} on interact, as on gather (walking there first)`, async () => {
      const g = await gameWorld();
      const res = resourceNear(g.world, node, { x: 0, z: 0 });
      const p = g.add({ x: 0, z: 0 }, [tool]);
      for (let i = 0; i < 400 && count(p, yields) === 0; i++) {
        if (p.action === undefined) g.send(p, "player:action", { action: "interact", targetId: res.id });
        g.tick();
      }
      assert.equal(count(p, yields), 1);
      assert.ok(Math.max(Math.abs(p.x - res.x), Math.abs(p.z - res.z)) <= 1, "next to the node");
      assert.deepEqual(g.errors(p), []);
    });
  }

  it("refuses an interact on a resource as it refuses the gather (no tool, depleted), and an unknown target", async () => {
    const g = await gameWorld();
    const tree = resourceNear(g.world, "tree_normal", { x: 0, z: 0 });
    const p = g.add({ ...besideTile(g.world, tree) });
    g.send(p, "player:action", { action: "interact", targetId: tree.id });
    g.tick();
    assert.equal(g.errors(p).at(-1)!.code, "NO_TOOL");
    assert.equal(p.action, undefined);
    g.world.resources.get(tree.id)!.depletedUntil = g.world.tick + 100;
    const q = g.add({ ...besideTile(g.world, tree) }, [HATCHET]);
    g.send(q, "player:action", { action: "interact", targetId: tree.id });
    g.tick();
    assert.equal(g.errors(q).at(-1)!.code, "DEPLETED");
    g.send(q, "player:action", { action: "interact", targetId: "tree_normal" });
    g.tick();
    assert.equal(g.errors(q).at(-1)!.code, "INVALID_TARGET", "a content id is not an instance");
    assert.equal(q.data.skills.woodcutting.xpTenths, 0);
  });
});

describe("firemaking and cooking", () => {
  it("lights a fire with a tinderbox on logs, then cooks shrimp on it", async () => {
    const g = await gameWorld(3);
    const p = g.add({ x: 0, z: 1 }, [
      { itemId: "tinderbox", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "raw_shrimp", quantity: 1 },
      { itemId: "raw_shrimp", quantity: 1 },
    ]);
    for (let i = 0; i < 50 && g.world.objects.size === 0; i++) {
      if (count(p, "logs") === 0) break;
      g.send(p, "inventory:use", { slot: 0, targetSlot: 1 });
      g.tick(5);
    }
    assert.equal(g.world.objects.size, 1, "a fire burns");
    assert.equal(count(p, "logs"), 0, "the logs were used");
    assert.ok(p.data.skills.firemaking.xpTenths >= 400);
    const fire = [...g.world.objects.values()][0]!;
    g.send(p, "inventory:use", { slot: 2, targetId: fire.id });
    g.tick(20);
    assert.equal(count(p, "raw_shrimp"), 0, "both shrimp were cooked (or burnt)");
    assert.equal(count(p, "shrimp") + count(p, "burnt_fish"), 2);
  });

  it("says what happens: the fire lights, the food cooks or burns", async () => {
    const g = await gameWorld(3);
    const p = g.add({ x: 0, z: 1 }, [
      { itemId: "tinderbox", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      ...Array.from({ length: 6 }, () => ({ itemId: "raw_shrimp", quantity: 1 })),
    ]);
    for (let i = 0; i < 50 && g.world.objects.size === 0; i++) {
      g.send(p, "player:action", { action: "light", slot: 1 });
      g.tick(5);
    }
    const lines = () =>
      g
        .events(p, "chat:message")
        .filter((m) => m.channel === "system")
        .map((m) => String(m.message));
    assert.ok(lines().includes("The fire catches and the logs begin to burn."), lines().join(" | "));
    const fire = [...g.world.objects.values()][0]!;
    g.send(p, "inventory:use", { slot: 2, targetId: fire.id });
    g.tick(40);
    const cooked = lines().filter((l) => l === "You cook the shrimp.").length;
    const burnt = lines().filter((l) => l === "You accidentally burn the shrimp.").length;
    assert.equal(cooked, count(p, "shrimp"), lines().join(" | "));
    assert.equal(burnt, count(p, "burnt_fish"), lines().join(" | "));
    assert.equal(cooked + burnt, 6);
  });

  it("steps west off a fire at once, in the tick it is lit (docs/playtest.md 2026-11-29), east where west is blocked; where every side is taken says so in a sentence", async () => {
    const g = await gameWorld(3);
    const p = g.add({ x: 0, z: 1 }, [
      { itemId: "tinderbox", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
    ]);
    (g.world as unknown as { random: () => number }).random = () => 0; // every attempt lights
    g.send(p, "player:action", { action: "light", slot: 1 });
    g.tick();
    assert.equal(g.world.objects.size, 1);
    const first = [...g.world.objects.values()][0]!;
    assert.deepEqual([first.x, first.z], [0, 1], "the fire where the player stood");
    assert.deepEqual([p.x, p.z], [-1, 1], "the player one tile west of it, in the same tick");
    g.tick(5);
    const logs = p.data.inventory.findIndex((s) => s?.itemId === "logs");
    g.send(p, "player:action", { action: "light", slot: logs });
    g.tick();
    assert.equal(g.errors(p).length, 0, "no refusal");
    assert.equal(g.world.objects.size, 2, "the second fire lit where the player stood");
    assert.deepEqual([p.x, p.z], [-2, 1], "and the player west again");

    // West taken by a fire: east.
    const e = g.add({ x: 20, z: 10 }, [
      { itemId: "tinderbox", quantity: 1 },
      { itemId: "logs", quantity: 1 },
    ]);
    g.world.objects.set("fire-west", { id: "fire-west", type: "fire", x: 19, z: 10, expiresAtTick: g.world.tick + 1_000, version: 0, mark: 0 });
    g.send(e, "player:action", { action: "light", slot: 1 });
    g.tick();
    assert.deepEqual([e.x, e.z], [21, 10], "stepped east");

    // Fires on every side: nowhere to step, so no fire, and the refusal is the game's sentence.
    const q = g.add({ x: 20, z: 20 }, [
      { itemId: "tinderbox", quantity: 1 },
      { itemId: "logs", quantity: 1 },
    ]);
    for (const [dx, dz] of [
      [0, 0],
      [-1, 0],
      [1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const id = g.world.newId("fire");
      g.world.objects.set(id, { id, type: "fire", x: q.x + dx, z: q.z + dz, expiresAtTick: g.world.tick + 1_000, version: 0, mark: 0 });
    }
    g.send(q, "player:action", { action: "light", slot: 1 });
    g.tick();
    assert.deepEqual(g.errors(q).at(-1), { code: "BLOCKED", message: "You can't light a fire here.", event: "player:action" });
    assert.equal(count(q, "logs"), 1);
    assert.deepEqual([q.x, q.z], [20, 20]);
  });
});
