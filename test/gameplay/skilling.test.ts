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
    const events = g.world.drainOutbox().filter((m) => m.type === "skill:xp").map((m) => m.data as Record<string, unknown>);
    assert.deepEqual(events[0], { skill: "attack", xp: 83, gained: 83, xpExact: 83, gainedExact: 83, level: 2, levelUp: true });
    assert.equal(events[1]!.levelUp, true);
    assert.ok((p.data.combatLevel as number) > 3, "the combat level follows attack");
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
    const lines = g.events(p, "chat:message").filter((m) => m.channel === "system").map((m) => m.message);
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

  it("refuses to light a fire twice on one tile", async () => {
    const g = await gameWorld(3);
    const p = g.add({ x: 0, z: 1 }, [{ itemId: "tinderbox", quantity: 1 }, { itemId: "logs", quantity: 1 }, { itemId: "logs", quantity: 1 }]);
    for (let i = 0; i < 50 && g.world.objects.size === 0; i++) {
      g.send(p, "player:action", { action: "light", slot: 1 });
      g.tick(5);
    }
    assert.equal(g.world.objects.size, 1);
    g.send(p, "player:action", { action: "light", slot: p.data.inventory.findIndex((s) => s?.itemId === "logs") });
    g.tick(5);
    assert.equal(g.errors(p).at(-1)!.code, "BLOCKED");
    assert.equal(count(p, "logs"), 1);
  });
});
