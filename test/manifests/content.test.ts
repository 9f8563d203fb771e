import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { loadContent } from "../../src/manifests/loader.ts";
import type { Bounds, ContentRegistry } from "../../src/manifests/registry.ts";
import { listManifestFiles } from "../../src/manifests/validate.ts";
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
    content = (await loadContent({ dir: BUNDLED_MANIFESTS, cdnUrl: "http://unused.invalid", fallbackCdnUrl: undefined, alwaysFetch: false, skip: false, strictReferences: true, logger: pino({ level: "silent" }) })).registry;
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

  it("blocks tiles, never the spawn, and every NPC and resource is reachable from the spawn", () => {
    const { bounds, blocked, spawn } = content.world;
    assert.ok(blocked.length > 0);
    const isBlocked = (x: number, z: number) => !inside(bounds, x, z) || blocked.some((b) => inside(b, x, z));
    assert.ok(!isBlocked(spawn.x, spawn.z));
    // Breadth-first search over 8-neighbour moves (no corner cutting past blocked tiles).
    const key = (x: number, z: number) => `${x},${z}`;
    const seen = new Set([key(spawn.x, spawn.z)]);
    const queue: [number, number][] = [[spawn.x, spawn.z]];
    while (queue.length > 0) {
      const [x, z] = queue.shift()!;
      for (let dx = -1; dx <= 1; dx++)
        for (let dz = -1; dz <= 1; dz++) {
          const nx = x + dx;
          const nz = z + dz;
          if ((dx || dz) && !seen.has(key(nx, nz)) && !isBlocked(nx, nz) && !isBlocked(x + dx, z) && !isBlocked(x, z + dz)) {
            seen.add(key(nx, nz));
            queue.push([nx, nz]);
          }
        }
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
});
