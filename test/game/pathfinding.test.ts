import assert from "node:assert/strict";
import fc from "fast-check";
import { CollisionMap } from "../../src/game/map/CollisionMap.ts";
import { findPath, MAX_EXPANSIONS, MAX_PATH_LENGTH, type SearchWork } from "../../src/game/map/pathfinding.ts";

function map(blocked: [number, number, number, number][] = [], half = 250): CollisionMap {
  const m = new CollisionMap({ minX: -half, maxX: half, minZ: -half, maxZ: half });
  for (const [minX, maxX, minZ, maxZ] of blocked) m.block({ minX, maxX, minZ, maxZ });
  return m;
}

function assertValidPath(m: CollisionMap, from: { x: number; z: number }, path: { x: number; z: number }[]): void {
  let cur = from;
  for (const step of path) {
    const dx = step.x - cur.x;
    const dz = step.z - cur.z;
    assert.ok(Math.abs(dx) <= 1 && Math.abs(dz) <= 1 && (dx || dz), `step ${JSON.stringify(cur)} -> ${JSON.stringify(step)}`);
    assert.ok(m.canStep(cur.x, cur.z, dx, dz), `blocked step to ${JSON.stringify(step)}`);
    cur = step;
  }
}

describe("pathfinding", () => {
  it("walks diagonally on open ground: the path length is the Chebyshev distance", () => {
    const r = findPath(map(), { x: 0, z: 0 }, { x: 10, z: 4 });
    assert.ok(r.ok);
    assert.equal(r.path.length, 10);
    assert.deepEqual(r.path.at(-1), { x: 10, z: 4 });
    assert.equal(r.reachesTarget, true);
  });

  it("goes around a wall, never through it or across its corners", () => {
    const m = map([[5, 5, -10, 10]]);
    const r = findPath(m, { x: 0, z: 0 }, { x: 10, z: 0 });
    assert.ok(r.ok && r.reachesTarget);
    assertValidPath(m, { x: 0, z: 0 }, r.path);
    assert.ok(r.path.every((t) => !(t.x === 5 && t.z >= -10 && t.z <= 10)));
  });

  it("refuses a target more than 200 tiles away with TOO_FAR", () => {
    assert.deepEqual(findPath(map(), { x: 0, z: 0 }, { x: MAX_PATH_LENGTH + 1, z: 0 }), { ok: false, reason: "TOO_FAR" });
    const ok = findPath(map(), { x: 0, z: 0 }, { x: MAX_PATH_LENGTH, z: 0 });
    assert.ok(ok.ok && ok.path.length === MAX_PATH_LENGTH);
  });

  it("walks to the closest reachable tile when the target is blocked", () => {
    const m = map([[10, 12, -1, 1]]);
    const r = findPath(m, { x: 0, z: 0 }, { x: 11, z: 0 });
    assert.ok(r.ok);
    assert.equal(r.reachesTarget, false);
    assert.deepEqual(r.path.at(-1), { x: 9, z: 0 });
    assertValidPath(m, { x: 0, z: 0 }, r.path);
  });

  it("walks to the closest tile outside an enclosure it cannot enter", () => {
    // A closed box around (20, 0).
    const m = map([
      [17, 23, -3, -3],
      [17, 23, 3, 3],
      [17, 17, -3, 3],
      [23, 23, -3, 3],
    ]);
    const r = findPath(m, { x: 0, z: 0 }, { x: 20, z: 0 });
    assert.ok(r.ok && !r.reachesTarget);
    assert.deepEqual(r.path.at(-1), { x: 16, z: 0 });
  });

  it("is empty when already there, and NO_PATH when boxed in", () => {
    const here = findPath(map(), { x: 3, z: 3 }, { x: 3, z: 3 });
    assert.ok(here.ok && here.path.length === 0);
    const m = map([
      [-1, 1, -1, -1],
      [-1, 1, 1, 1],
      [-1, -1, 0, 0],
      [1, 1, 0, 0],
    ]);
    assert.deepEqual(findPath(m, { x: 0, z: 0 }, { x: 5, z: 5 }), { ok: false, reason: "NO_PATH" });
  });

  it("stays inside the world's bounds", () => {
    const m = map([], 10);
    const r = findPath(m, { x: 0, z: 0 }, { x: 30, z: 0 });
    assert.ok(r.ok && !r.reachesTarget);
    assert.deepEqual(r.path.at(-1), { x: 10, z: 0 });
  });

  it("labels regions as walking connects tiles: a diagonal gap between two walls does not join them", () => {
    // Two walls meeting only at a corner: x = 5 up to z = 5, and z = 6 up to x = 4. The tiles
    // (4, 5) and (5, 6) touch diagonally, but the step between them would cut both walls' ends.
    const m = map(
      [
        [5, 5, -50, 5],
        [-50, 4, 6, 6],
      ],
      50,
    );
    const inside = m.regionOf(0, 0);
    assert.ok(inside > 0);
    assert.equal(m.regionOf(4, 5), inside);
    assert.notEqual(m.regionOf(6, 7), inside, "the corner cannot be cut");
    assert.equal(m.regionOf(5, 0), 0, "a blocked tile has no region");
    assert.equal(m.regionOf(500, 0), 0, "nor a tile outside the world");
    const r = findPath(m, { x: 0, z: 0 }, { x: 6, z: 7 });
    assert.ok(r.ok && !r.reachesTarget);
  });

  it("agrees with the search on every pair of tiles of random small maps: same region exactly when a path reaches", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 }), fc.integer({ min: 0, max: 6 }), fc.boolean()), { maxLength: 12 }),
        fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 })),
        fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 })),
        (walls, [ax, az], [bx, bz]) => {
          // Walls: horizontal or vertical segments on a 17×17 map (the whole map fits in one search box).
          const m = map(
            walls.map(([x, z, len, vertical]) => (vertical ? [x, x, z, z + len] : [x, x + len, z, z])),
            8,
          );
          if (!m.isWalkable(ax, az) || !m.isWalkable(bx, bz) || (ax === bx && az === bz)) return;
          const r = findPath(m, { x: ax, z: az }, { x: bx, z: bz });
          assert.equal(r.ok && r.reachesTarget, m.regionOf(ax, az) === m.regionOf(bx, bz));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("answers a target walled off from the walker without flooding the walker's region", () => {
    // A closed box around (20, 0); the walker stands in the open map of 501×501 tiles.
    const m = map([
      [17, 23, -3, -3],
      [17, 23, 3, 3],
      [17, 17, -3, 3],
      [23, 23, -3, 3],
    ]);
    const toBox: SearchWork = { expansions: 0 };
    const r = findPath(m, { x: 0, z: 0 }, { x: 20, z: 0 }, MAX_PATH_LENGTH, toBox);
    const toClosest: SearchWork = { expansions: 0 };
    findPath(m, { x: 0, z: 0 }, { x: 16, z: 0 }, MAX_PATH_LENGTH, toClosest);
    assert.ok(r.ok && !r.reachesTarget);
    assert.equal(toBox.expansions, toClosest.expansions, "it costs what the walk to the closest reachable tile costs");
    assert.ok(toBox.expansions < 100);
  });

  it("answers NO_PATH without any search when nothing of the walker's region is near the target", () => {
    // The walker is shut in a 3×3 room; the target is 60 tiles away.
    const m = map([
      [-2, 2, -2, -2],
      [-2, 2, 2, 2],
      [-2, -2, -2, 2],
      [2, 2, -2, 2],
    ]);
    const work: SearchWork = { expansions: 0 };
    assert.deepEqual(findPath(m, { x: 0, z: 0 }, { x: 60, z: 0 }, MAX_PATH_LENGTH, work), { ok: false, reason: "NO_PATH" });
    assert.equal(work.expansions, 0);
  });

  it("stops a search at its node budget and walks toward the target as far as it got", () => {
    // The way round the wall leaves the search's box (32 tiles beyond start and target), so the
    // search has only the 183 × 65 tiles in front of the wall, more than its node budget.
    const m = map([[50, 50, -40, 40]]);
    const work: SearchWork = { expansions: 0 };
    const r = findPath(m, { x: -100, z: 0 }, { x: 100, z: 0 }, MAX_PATH_LENGTH, work);
    assert.equal(work.expansions, MAX_EXPANSIONS);
    assert.ok(r.ok && !r.reachesTarget && r.path.length > 0);
  });
});
