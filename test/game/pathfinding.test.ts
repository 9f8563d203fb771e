import assert from "node:assert/strict";
import { CollisionMap } from "../../src/game/map/CollisionMap.ts";
import { findPath, MAX_PATH_LENGTH } from "../../src/game/map/pathfinding.ts";

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
    const m = map([[17, 23, -3, -3], [17, 23, 3, 3], [17, 17, -3, 3], [23, 23, -3, 3]]);
    const r = findPath(m, { x: 0, z: 0 }, { x: 20, z: 0 });
    assert.ok(r.ok && !r.reachesTarget);
    assert.deepEqual(r.path.at(-1), { x: 16, z: 0 });
  });

  it("is empty when already there, and NO_PATH when boxed in", () => {
    const here = findPath(map(), { x: 3, z: 3 }, { x: 3, z: 3 });
    assert.ok(here.ok && here.path.length === 0);
    const m = map([[-1, 1, -1, -1], [-1, 1, 1, 1], [-1, -1, 0, 0], [1, 1, 0, 0]]);
    assert.deepEqual(findPath(m, { x: 0, z: 0 }, { x: 5, z: 5 }), { ok: false, reason: "NO_PATH" });
  });

  it("stays inside the world's bounds", () => {
    const m = map([], 10);
    const r = findPath(m, { x: 0, z: 0 }, { x: 30, z: 0 });
    assert.ok(r.ok && !r.reachesTarget);
    assert.deepEqual(r.path.at(-1), { x: 10, z: 0 });
  });
});
