/**
 * When a training goal counts as stalled (agent-runtime/goalWatch.ts stallTicks): GOAL_STALL_TICKS
 * without experience, or for gathering six of its expected ticks a catch at the agent's level, by
 * the server's own skilling chance (src/game/gathering.ts). Shrimp at Fishing 3 come every ~25
 * ticks: 80 dry ticks ended fishing for food by chance in most ladder runs of 2026-11-29 15:47.
 */
import assert from "node:assert/strict";
import { GOAL_STALL_TICKS, stallTicks } from "../../agent-runtime/goalWatch.ts";
import { knowledgeOf, type Knowledge } from "../../agent-runtime/knowledge.ts";
import { skillingChance } from "../../src/game/gathering.ts";
import { bundledContent } from "../support/content.ts";

describe("agent: a training goal's stall allowance", () => {
  let know: Knowledge;
  before(async () => {
    know = knowledgeOf(await bundledContent());
  });

  it("allows six expected catches of its best yield at its level, never less than GOAL_STALL_TICKS", () => {
    const net = know.registry.resources.get("fishing_spot_net")!;
    const shrimp = net.harvestYield.find((y) => y.itemId === "raw_shrimp")!;
    const at3 = stallTicks({ type: "fishing", target: "fishing_spot_net" }, { fishing: { level: 3 } }, know);
    // Shrimp only at Fishing 3 (anchovies need 15): 6 × 5 ticks / about 20 %.
    assert.equal(at3, Math.ceil((6 * net.baseCycleTicks) / skillingChance(shrimp.catchLow!, shrimp.catchHigh!, 3)));
    assert.ok(at3 >= 140 && at3 <= 160, `about 150 ticks at Fishing 3: ${at3}`);
    // Higher, a catch comes sooner and the allowance shrinks, down to the floor.
    const at60 = stallTicks({ type: "fishing", target: "fishing_spot_net" }, { fishing: { level: 60 } }, know);
    assert.ok(at60 < at3, `${at60} < ${at3}`);
    assert.equal(stallTicks({ type: "fishing", target: "fishing_spot_net" }, { fishing: { level: 99 } }, know), GOAL_STALL_TICKS);
  });

  it("keeps GOAL_STALL_TICKS for a fight, an unknown target and a node without catch rates", () => {
    assert.equal(stallTicks({ type: "combat", target: "brindle_cow" }, {}, know), GOAL_STALL_TICKS);
    assert.equal(stallTicks({ type: "fishing", target: "no_such_spot" }, {}, know), GOAL_STALL_TICKS);
    assert.equal(stallTicks({ type: "fishing" }, {}, know), GOAL_STALL_TICKS);
    // Trees roll their own chance (no catchLow in gathering/woodcutting.json).
    assert.equal(stallTicks({ type: "woodcutting", target: "tree_normal" }, {}, know), GOAL_STALL_TICKS);
  });
});
