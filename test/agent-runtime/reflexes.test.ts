/**
 * An agent's reflexes on their own (agent-runtime/reflexes.ts): it eats when hurt, not the food a
 * quest under way still has to hand over (brain/questNeeds.ts questHandOvers) unless a monster next
 * to it could kill it with its next hit, and it leaves a fight it is losing with nothing to eat.
 */
import assert from "node:assert/strict";
import { Fight } from "../../agent-runtime/brain/fight.ts";
import { questHandOvers, stagesFrom } from "../../agent-runtime/brain/questNeeds.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import { Reflexes } from "../../agent-runtime/reflexes.ts";
import { bundledKnowledge, carrying, ctxOf, questList, selfOf, viewOf, type Entry } from "./support.ts";

describe("agent reflexes: eating and fleeing", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });

  const cow = (x: number): Entry => ({
    id: "cow",
    kind: "npc",
    ref: "brindle_cow",
    x,
    z: 0,
    name: "Brindle cow",
    health: 80,
    maxHealth: 80,
    level: 2,
    dead: false,
  });

  /** A fighter at `health` of 100 carrying `items`, a cow `cowAt` tiles east; what its reflex did and sent. */
  function reflex(health: number, items: string[], quests = questList(know, []), cowAt = 1) {
    const view = viewOf(selfOf({ health, inventory: carrying(items) }), { x: 0, z: 0 }, [cow(cowAt)], { health });
    const { ctx, sent } = ctxOf(know, view, "reflex");
    const did = new Reflexes(ctx).eatOrFlee(new Fight("brindle_cow"), "combat", quests);
    return { did, eaten: sent.filter((m) => m.type === "inventory:use").map((m) => items[m.data.slot as number]) };
  }

  it("eats below half health, the first food it carries; not above it", () => {
    assert.deepEqual(reflex(40, ["bronze_hatchet", "bread", "shrimp"], undefined, 5), { did: "ate", eaten: ["bread"] });
    assert.deepEqual(reflex(60, ["bread"], undefined, 5), { did: undefined, eaten: [] });
  });

  it("next to a monster, puts off a bite (it delays the next blow) to the end of its margin: two max hits, or FLEE_BELOW", () => {
    // A cow hits 10 at most: at 40 of 100 next to one it fights on, and eats after the kill.
    assert.deepEqual(reflex(40, ["bread"]), { did: undefined, eaten: [] });
    assert.deepEqual(reflex(30, ["bread"]), { did: undefined, eaten: [] }, "at FLEE_BELOW itself");
    assert.deepEqual(reflex(29, ["bread"]), { did: "ate", eaten: ["bread"] });
    // Between goals it tops up wherever it stands.
    const view = viewOf(selfOf({ health: 40, inventory: carrying(["bread"]) }), { x: 0, z: 0 }, [cow(1)], { health: 40 });
    const { ctx, sent } = ctxOf(know, view, "reflex");
    assert.equal(new Reflexes(ctx).eatOrFlee(undefined, undefined), "ate");
    assert.equal(sent.length, 1);
  });

  it("between goals, holds the next choice while its last bite's ticks run (a fight chosen at once went on at 70 %)", () => {
    const view = viewOf(selfOf({ health: 60, inventory: carrying(["bread", "bread"]) }), { x: 0, z: 0 }, [], { health: 60 });
    const { ctx, sent } = ctxOf(know, view, "reflex");
    const reflexes = new Reflexes(ctx);
    assert.equal(reflexes.eatOrFlee(new Fight("brindle_cow"), "combat"), undefined, "in a goal: above half health, no bite");
    assert.equal(reflexes.eatOrFlee(undefined, undefined), "ate", "between goals: below 75 %");
    assert.equal(reflexes.eatOrFlee(undefined, undefined), "waiting", "the bite's ticks run: no choice yet");
    assert.equal(reflexes.eatOrFlee(new Fight("brindle_cow"), "combat"), undefined, "in a goal it does not wait");
    assert.equal(sent.length, 1);
  });

  it("keeps the food a quest under way still hands over: Supper at the Kettle's two shrimp", () => {
    const kettle = questList(know, [], { kettle_supper: "deliver" });
    assert.deepEqual([...questHandOvers(kettle, know)], [["shrimp", 2]]);
    assert.deepEqual([...questHandOvers(questList(know, [], { kettle_supper: "net_shrimp" }), know)], [["shrimp", 2]], "the give stage is still ahead");
    assert.deepEqual([...questHandOvers(questList(know, ["kettle_supper"]), know)], [], "done: nothing owed");
    // stagesFrom: the stages from the one named on, all of them for none or a stage not the quest's.
    const stages = know.registry.quests.quests.get("kettle_supper")!.stages;
    assert.deepEqual(
      stagesFrom(stages, "deliver").map((st) => st.type),
      ["give"],
    );
    assert.equal(stagesFrom(stages, null).length, stages.length);
    assert.equal(stagesFrom(stages, "no_such_stage").length, stages.length);
    // Two shrimp owed and two carried: the bread is eaten, then nothing; a third shrimp may go.
    assert.deepEqual(reflex(40, ["shrimp", "shrimp", "bread"], kettle, 5).eaten, ["bread"]);
    assert.deepEqual(reflex(25, ["shrimp", "shrimp"], kettle, 5), { did: "flee", eaten: [] }, "losing the fight with only the quest's shrimp: it leaves");
    assert.deepEqual(reflex(40, ["shrimp", "shrimp", "shrimp"], kettle, 5).eaten, ["shrimp"]);
    // Without the quest the shrimp are food like any other.
    assert.deepEqual(reflex(40, ["shrimp", "shrimp"], undefined, 5).eaten, ["shrimp"]);
  });

  it("eats the quest's food too when a monster next to it could kill it with its next hit", () => {
    const kettle = questList(know, [], { kettle_supper: "deliver" });
    // A cow hits 10 lifepoints at most: at 10 health next to it, the shrimp are eaten.
    assert.deepEqual(reflex(10, ["shrimp", "shrimp"], kettle).eaten, ["shrimp"]);
  });
});
