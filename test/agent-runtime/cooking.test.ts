/**
 * Cooking where it stands (agent-runtime/brain/cooking.ts): with no range within
 * FIRE_OVER_RANGE_TILES, a log and a tinderbox, the cook lights a fire and cooks on it, as a genre
 * player does in the field (the cows are 36 tiles from the Kettle's range); near a range, or with
 * nothing to light, it cooks on the range.
 */
import assert from "node:assert/strict";
import { Cook, FIRE_OVER_RANGE_TILES, fieldFireLog } from "../../agent-runtime/brain/behaviours.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import { dist } from "../../agent-runtime/AgentView.ts";
import { bundledKnowledge, carrying, ctxOf, selfOf, viewOf } from "./support.ts";

describe("agent cooking in the field", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });
  const cows = { x: 0, z: -32 };
  const cook = (at: { x: number; z: number }, items: string[], others: Parameters<typeof viewOf>[2] = []) => {
    const view = viewOf(selfOf({ inventory: carrying(items) }), at, others);
    const { ctx, sent } = ctxOf(know, view, "cook");
    new Cook().step(ctx);
    return { view, sent };
  };

  it("lights a log where it stands when the range is far, then cooks on the fire", () => {
    const range = know.ranges[0]!;
    assert.ok(dist(range, cows) > FIRE_OVER_RANGE_TILES, "the cows' field is far from the Kettle's range");
    const far = cook(cows, ["tinderbox", "logs", "raw_meat"]);
    assert.equal(fieldFireLog(far.view, know)?.itemId, "logs");
    assert.deepEqual(far.sent, [{ type: "player:action", data: { action: "light", slot: 1 } }]);
    // With a fire in view it cooks on that.
    const fire = { id: "fire-1", kind: "object" as const, ref: "fire", x: cows.x + 1, z: cows.z };
    const lit = cook(cows, ["tinderbox", "logs", "raw_meat"], [fire]);
    assert.deepEqual(lit.sent, [{ type: "inventory:use", data: { slot: 2, targetId: "fire-1" } }]);
  });

  it("cooks on the range when it is near, or with no log or no tinderbox to light", () => {
    const range = know.ranges[0]!;
    const near = cook({ x: range.x + 2, z: range.z }, ["tinderbox", "logs", "raw_meat"]);
    assert.equal(fieldFireLog(near.view, know), undefined);
    assert.deepEqual(near.sent, [{ type: "inventory:use", data: { slot: 2, targetId: range.id } }]);
    assert.deepEqual(cook(cows, ["logs", "raw_meat"]).sent, [{ type: "inventory:use", data: { slot: 1, targetId: range.id } }], "no tinderbox");
    assert.deepEqual(cook(cows, ["tinderbox", "raw_meat"]).sent, [{ type: "inventory:use", data: { slot: 1, targetId: range.id } }], "no log");
  });

  it("drops what it burnt once the raw food is cooked, then is done", () => {
    const view = viewOf(selfOf({ inventory: carrying(["tinderbox", "burnt_meat", "shrimp", "burnt_fish"]) }), cows);
    const { ctx, sent, notes } = ctxOf(know, view, "cook");
    const behaviour = new Cook();
    assert.equal(behaviour.step(ctx).end, undefined, "going on");
    assert.deepEqual(sent, [{ type: "player:action", data: { action: "dropAll", targetId: "burnt_meat" } }]);
    assert.deepEqual(notes, ["drop the Burnt meat"]);
    view.sync({ ...view.self!, inventory: carrying(["tinderbox", "shrimp", "burnt_fish"]) });
    ctx.tick = 1;
    behaviour.step(ctx);
    assert.deepEqual(sent.at(-1), { type: "player:action", data: { action: "dropAll", targetId: "burnt_fish" } });
    view.sync({ ...view.self!, inventory: carrying(["tinderbox", "shrimp"]) });
    ctx.tick = 2;
    const end = behaviour.step(ctx);
    assert.deepEqual([end.end, end.end === undefined ? "" : end.why], ["done", "nothing left to cook"]);
    assert.equal(sent.length, 2, "the shrimp it cooked is kept");
  });
});
