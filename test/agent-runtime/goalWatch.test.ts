/**
 * The watchdog over an agent's own goals (agent-runtime/goalWatch.ts), stepped tick by tick as
 * Agent.ts does: a training goal without experience while standing still is given up after
 * GOAL_STALL_TICKS (as crowded), any other goal of its own without experience or progress after
 * ANY_GOAL_STALL_TICKS; a quest, idling, exploring and a goal set by hand never are.
 */
import assert from "node:assert/strict";
import type { Goal } from "../../agent-runtime/goalBehaviour.ts";
import { ANY_GOAL_STALL_TICKS, GOAL_STALL_TICKS, GoalWatch } from "../../agent-runtime/goalWatch.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import { bundledKnowledge, selfOf, viewOf } from "./support.ts";

const goal = (type: string, lockedBy: Goal["lockedBy"] = "autonomous"): Goal => ({
  id: "g1",
  type,
  description: type,
  progress: 0,
  startedAt: "2026-11-29T00:00:00.000Z",
  lockedBy,
});

describe("agent goal watchdog", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });
  /** The agent's view (xp as given, standing at the origin) and a watch over a goal begun at tick 0. */
  const watching = () => {
    const view = viewOf(selfOf({ skills: { woodcutting: { level: 1, xp: 0 } } }), { x: 0, z: 0 });
    const watch = new GoalWatch(view, know);
    watch.began(0);
    return { view, watch };
  };
  /** The first tick (up to `last`) at which the watch gives `g` up, stepping from tick 1; `each` runs before a tick's check. */
  const firstGivenUp = (watch: GoalWatch, g: Goal, last: number, lastProgressAt = 0, each: (tick: number) => void = () => {}) => {
    for (let tick = 1; tick <= last; tick++) {
      each(tick);
      const out = watch.givenUp(g, tick, lastProgressAt);
      if (out !== undefined) return { tick, ...out };
    }
    return undefined;
  };

  it("gives up a training goal standing still without experience after GOAL_STALL_TICKS, as crowded only with others near", () => {
    const { watch } = watching();
    // The first check sees the xp, the second the spot: the count runs from tick 2.
    assert.deepEqual(firstGivenUp(watch, goal("woodcutting"), 1000), {
      tick: GOAL_STALL_TICKS + 3,
      why: `out of reach: no experience in ${GOAL_STALL_TICKS} ticks`,
      crowded: false,
    });
    const crowd = watching();
    crowd.view.update({ tick: 1, entities: [{ id: "p2", kind: "player", x: 2, z: 1 }], removed: [] });
    assert.deepEqual(firstGivenUp(crowd.watch, goal("woodcutting"), 1000), {
      tick: GOAL_STALL_TICKS + 3,
      why: `crowded or out of reach: no experience in ${GOAL_STALL_TICKS} ticks`,
      crowded: true,
    });
  });

  it("counts again from a tick in which it moved or gained experience", () => {
    const moving = watching();
    const moved = firstGivenUp(moving.watch, goal("combat"), 1000, 0, (tick) => {
      if (tick === 50) moving.view.update({ tick, entities: [{ id: "me", kind: "player", x: 3, z: 0 }], removed: [] });
    });
    assert.equal(moved?.tick, 50 + GOAL_STALL_TICKS + 1);
    const gaining = watching();
    const gained = firstGivenUp(gaining.watch, goal("mining"), 1000, 0, (tick) => {
      if (tick === 40) gaining.view.sync({ ...gaining.view.self!, skills: { woodcutting: { level: 1, xp: 25 } } });
    });
    assert.equal(gained?.tick, 40 + GOAL_STALL_TICKS + 1);
  });

  it("gives up any other goal of its own after ANY_GOAL_STALL_TICKS without experience or progress", () => {
    assert.deepEqual(firstGivenUp(watching().watch, goal("making"), 2000), {
      tick: ANY_GOAL_STALL_TICKS + 2,
      why: `no experience and no progress in ${ANY_GOAL_STALL_TICKS} ticks`,
      crowded: false,
    });
    assert.equal(firstGivenUp(watching().watch, goal("shopping"), 2000, 300)?.tick, 300 + ANY_GOAL_STALL_TICKS + 1, "progress counts as life");
  });

  it("never gives up a quest, idling, exploring, or a goal set by hand", () => {
    for (const type of ["quest", "idle", "explore"]) assert.equal(firstGivenUp(watching().watch, goal(type), 2000), undefined, type);
    for (const type of ["woodcutting", "making"]) assert.equal(firstGivenUp(watching().watch, goal(type, "manual"), 2000), undefined, type);
    assert.equal(watching().watch.givenUp(null, 5000, 0), undefined);
  });
});
