import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { loadContent } from "../../src/manifests/loader.ts";
import type { Bounds, ContentRegistry } from "../../src/manifests/registry.ts";
import { listManifestFiles } from "../../src/manifests/validate.ts";
import { bundledContent } from "../support/content.ts";
import { buildCollision } from "../../src/game/world/setup.ts";
import { BUNDLED_MANIFESTS, ROOT } from "../support/world.ts";

const SPEC_NAMED = [
  "biomes.json",
  "npcs.json",
  "prayers.json",
  "stations.json",
  "ammunition.json",
  "resources.json",
  "tools.json",
  "world-areas.json",
  "stores.json",
  "music.json",
  "vegetation.json",
  "buildings.json",
  "items/food.json",
  "items/weapons.json",
  "items/tools.json",
  "items/resources.json",
  "items/misc.json",
  "gathering/fishing.json",
  "gathering/mining.json",
  "gathering/woodcutting.json",
  "recipes/cooking.json",
  "recipes/smithing.json",
  "skill-unlocks.json",
  "world-config.json",
  "model-bounds.json",
];

const chebyshev = (a: { x: number; z: number }, b: { x: number; z: number }) => Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));
const inside = (b: Bounds, x: number, z: number) => x >= b.minX && x <= b.maxX && z >= b.minZ && z <= b.maxZ;

describe("the bundled default world", () => {
  let content: ContentRegistry;
  before(async () => {
    content = (
      await loadContent({
        dir: BUNDLED_MANIFESTS,
        cdnUrl: "http://unused.invalid",
        fallbackCdnUrl: undefined,
        alwaysFetch: false,
        skip: false,
        strictReferences: true,
        logger: pino({ level: "silent" }),
      })
    ).registry;
  });

  it("has more than 25 manifest files, including every name the spec lists", () => {
    const files = listManifestFiles(BUNDLED_MANIFESTS);
    assert.ok(files.length > 25, `${files.length} files`);
    for (const f of SPEC_NAMED) assert.ok(files.includes(f), `${f} is there`);
  });

  it("has a model-bounds.json that its generator reproduces exactly", () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, "scripts", "gen-model-bounds.ts"), "--check"], { cwd: ROOT, encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const bounds = JSON.parse(fs.readFileSync(path.join(BUNDLED_MANIFESTS, "model-bounds.json"), "utf8")) as { models: unknown[] };
    assert.ok(bounds.models.length > 0);
  });

  it("spawns at tile 0,0 with a starter kit of at least two items", () => {
    assert.deepEqual({ x: content.world.spawn.x, z: content.world.spawn.z }, { x: 0, z: 0 });
    assert.ok(content.world.starterKit.length >= 2);
  });

  it("has a bank and a store in the starter town, near the spawn", () => {
    const town = content.areas.find((a) => a.safeZone && inside(a.bounds, 0, 0))!;
    assert.ok(town, "a safe starter town contains the spawn");
    const bank = town.npcs.find((n) => n.type === "bank");
    const store = town.npcs.find((n) => n.storeId !== undefined && content.stores.has(n.storeId));
    assert.ok(bank && chebyshev(bank.position, content.world.spawn) <= 4);
    assert.ok(store && chebyshev(store.position, content.world.spawn) <= 6);
  });

  it("has trees, rocks and fishing spots for each gathering skill at several levels", () => {
    for (const skill of ["woodcutting", "mining", "fishing"] as const) {
      const levels = new Set([...content.resources.values()].filter((r) => r.gathering === skill).map((r) => r.levelRequired));
      assert.ok(levels.size >= 3, `${skill}: levels ${[...levels].join(", ")}`);
      const placed = content.areas.flatMap((a) => a.resources).filter((p) => content.resources.get(p.resourceId)?.gathering === skill);
      assert.ok(placed.length > 0, `${skill} nodes are placed`);
    }
  });

  it("has several mob types with drop tables, and places them", () => {
    const mobs = [...content.npcs.values()].filter((n) => n.category === "mob" && n.drops);
    assert.ok(mobs.length >= 3);
    const spawned = new Set(content.areas.flatMap((a) => a.mobSpawns.map((m) => m.mobId)));
    assert.ok(mobs.filter((m) => spawned.has(m.id)).length >= 3);
  });

  it("has cooking and smithing recipes, and an untradeable item", () => {
    assert.ok(content.recipes.cooking.length > 0);
    assert.ok(content.recipes.smithing.length > 0);
    assert.ok([...content.items.values()].some((i) => !i.tradeable));
  });

  it("has a resources.json index that mirrors gathering/*.json and the areas' placements", () => {
    const index = JSON.parse(fs.readFileSync(path.join(BUNDLED_MANIFESTS, "resources.json"), "utf8")) as {
      nodeTypes: { id: string; harvestSkill: string; levelRequired: number; toolRequired: string }[];
      placements: { resourceId: string; areaId: string; position: { x: number; z: number } }[];
    };
    const nodes = [...content.resources.values()].map((r) => ({
      id: r.id,
      harvestSkill: r.harvestSkill,
      levelRequired: r.levelRequired,
      toolRequired: r.toolRequired,
    }));
    assert.deepEqual(
      index.nodeTypes.map((n) => ({ id: n.id, harvestSkill: n.harvestSkill, levelRequired: n.levelRequired, toolRequired: n.toolRequired })),
      nodes,
    );
    const placed = content.areas.flatMap((a) => a.resources.map((r) => `${a.id} ${r.resourceId} ${r.position.x},${r.position.z}`));
    assert.deepEqual(
      index.placements.map((p) => `${p.areaId} ${p.resourceId} ${p.position.x},${p.position.z}`),
      placed,
    );
  });

  it("blocks tiles, never the spawn, and every NPC and resource is reachable from the spawn (through doors and up and down ladders)", () => {
    const { bounds, blocked, spawn } = content.world;
    assert.ok(blocked.length > 0);
    const walls = (x: number, z: number) => !inside(bounds, x, z) || blocked.some((b) => inside(b, x, z));
    // Stations and resource nodes stand on a tile of their own and block it (src/game/world/setup.ts).
    const objects = new Map<string, string>();
    for (const area of content.areas) {
      for (const o of [
        ...area.stations.map((s) => ({ ...s.position, what: `station ${s.id ?? s.type}` })),
        ...area.resources.map((r) => ({ ...r.position, what: r.resourceId })),
      ]) {
        assert.ok(inside(area.bounds, o.x, o.z), `${o.what} at ${o.x},${o.z} lies in ${area.id}`);
        assert.ok(!walls(o.x, o.z), `${o.what} at ${o.x},${o.z} is not on a wall, water, fence or rocks`);
        assert.ok(!objects.has(`${o.x},${o.z}`), `${o.what} and ${objects.get(`${o.x},${o.z}`)} share the tile ${o.x},${o.z}`);
        objects.set(`${o.x},${o.z}`, o.what);
      }
      for (const n of area.npcs)
        assert.ok(!walls(n.position.x, n.position.z) && !objects.has(`${n.position.x},${n.position.z}`), `NPC ${n.id} stands on an open tile`);
    }
    // The server's own collision map (walls, rock around the underground areas, objects), with
    // every door open: a player may open any of them.
    const map = buildCollision(content);
    for (const d of content.places.doors) map.unblockTile(d.x, d.z);
    const isBlocked = (x: number, z: number) => walls(x, z) || !map.isWalkable(x, z);
    assert.ok(!isBlocked(spawn.x, spawn.z));
    // Breadth-first search over 8-neighbour moves (no corner cutting past blocked tiles); a ladder
    // next to a tile reached takes the search to its landing tile.
    const key = (x: number, z: number) => `${x},${z}`;
    const seen = new Set([key(spawn.x, spawn.z)]);
    const queue: [number, number][] = [[spawn.x, spawn.z]];
    const visit = (x: number, z: number) => {
      if (seen.has(key(x, z))) return;
      seen.add(key(x, z));
      queue.push([x, z]);
    };
    while (queue.length > 0) {
      const [x, z] = queue.shift()!;
      for (let dx = -1; dx <= 1; dx++)
        for (let dz = -1; dz <= 1; dz++) {
          const nx = x + dx;
          const nz = z + dz;
          if ((dx || dz) && !isBlocked(nx, nz) && !isBlocked(x + dx, z) && !isBlocked(x, z + dz)) visit(nx, nz);
        }
      for (const l of content.places.ladders) if (chebyshev(l, { x, z }) <= 1) visit(l.to.x, l.to.z);
    }
    const reachableNear = (p: { x: number; z: number }) => {
      for (let dx = -1; dx <= 1; dx++) for (let dz = -1; dz <= 1; dz++) if (seen.has(key(p.x + dx, p.z + dz))) return true;
      return false;
    };
    for (const area of content.areas) {
      for (const n of area.npcs) assert.ok(reachableNear(n.position), `NPC ${n.id} in ${area.id}`);
      for (const r of area.resources) assert.ok(reachableNear(r.position), `${r.resourceId} at ${r.position.x},${r.position.z}`);
      for (const m of area.mobSpawns) assert.ok(reachableNear(m.position), `mob ${m.mobId}`);
      for (const s of area.stations) assert.ok(reachableNear(s.position), `station ${s.type}`);
    }
  });

  it("has places: doors, a ladder and stairs down to an underground area and back, an agility course; every landing tile walkable", () => {
    const map = buildCollision(content);
    const { doors, ladders, obstacles } = content.places;
    assert.ok(doors.length >= 3 && doors.some((d) => !d.open));
    const underground = content.areas.filter((a) => a.underground);
    assert.ok(underground.length >= 1);
    const below = (t: { x: number; z: number }) => underground.some((a) => inside(a.bounds, t.x, t.z));
    assert.ok(
      ladders.some((l) => l.direction === "down" && !below(l) && below(l.to)),
      "a way down",
    );
    assert.ok(
      ladders.some((l) => l.direction === "up" && below(l) && !below(l.to)),
      "a way up",
    );
    assert.ok(ladders.some((l) => l.kind === "stairs"));
    for (const l of ladders) assert.ok(map.isWalkable(l.to.x, l.to.z), `${l.id} lands on a walkable tile`);
    for (const o of obstacles) {
      for (const t of [o.to, o.from, o.failTo]) if (t !== undefined) assert.ok(map.isWalkable(t.x, t.z), `${o.id}: ${t.x},${t.z} walkable`);
    }
    assert.ok(
      obstacles.some((o) => o.successLow !== undefined && o.failDamage !== undefined),
      "one can fail",
    );
    // A monster ladder beyond the quarry's level 32, below ground.
    const levels = underground.flatMap((a) => a.mobSpawns.map((m) => content.npcs.get(m.mobId)!.stats?.level ?? 1));
    assert.ok(levels.filter((l) => l > 32).length >= 3, `levels below: ${levels.join(", ")}`);
  });
});

describe("the default world's words", () => {
  it("names every item in sentence case, as the genre does (Bronze arrow, Bronze hatchet)", async () => {
    const content = await bundledContent();
    const titled = [...content.items.values()]
      .filter((i) => i.name.slice(1) !== i.name.slice(1).toLowerCase() || i.name[0] !== i.name[0]!.toUpperCase())
      .map((i) => i.name);
    assert.deepEqual(titled, []);
  });

  it("gives a kit that promises coins no fewer than the standard kit", async () => {
    const { templates } = (await bundledContent()).world;
    const coins = (t: { starterKit: { itemId: string; quantity: number }[] }) => t.starterKit.find((s) => s.itemId === "coins")?.quantity ?? 0;
    const standard = coins(templates[0]!);
    const promising = templates.filter((t) => /coins/.test(t.description));
    assert.ok(promising.length > 0);
    for (const t of promising) assert.ok(coins(t) >= standard, `${t.name}: ${coins(t)} coins, the standard kit ${standard}`);
  });
});
