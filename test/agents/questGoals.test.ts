/**
 * The `quest` goal the server offers an agent (src/agents/questGoals.ts): the quests its character
 * is doing, then those it could start now (requirements met: skill levels, quests completed, items
 * carried; not completed unless replayable); no goal when there is none.
 */
import assert from "node:assert/strict";
import { questGoal } from "../../src/agents/questGoals.ts";
import type { PlayerData } from "../../src/game/world/Player.ts";
import { SKILLS } from "../../src/game/skills.ts";
import type { Quest } from "../../src/manifests/questContent.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import { bundledContent } from "../support/content.ts";

describe("agents: the quest goal", () => {
  const quest = (id: string, over: Partial<Quest> = {}): Quest => ({
    id,
    name: id,
    description: "",
    questPoints: 1,
    replayable: false,
    requirements: { quests: [], skills: {}, items: [] },
    startNpc: "warden_tamsin",
    stages: [{ id: "s", type: "dialogue", npcId: "warden_tamsin", description: "", count: 1 }],
    onStart: { items: [] },
    rewards: { questPoints: 1, items: [], xp: {} },
    ...over,
  });
  const content = (...quests: Quest[]) => ({ quests: { quests: new Map(quests.map((q) => [q.id, q])) } }) as unknown as ContentRegistry;
  const data = (over: { quests?: PlayerData["quests"]; mining?: number; items?: string[] } = {}) =>
    ({
      skills: Object.fromEntries(SKILLS.map((k) => [k, { level: k === "mining" ? (over.mining ?? 1) : 1 }])),
      inventory: (over.items ?? []).map((itemId) => ({ itemId, quantity: 1 })),
      quests: over.quests,
    }) as unknown as PlayerData;

  it("offers the default world's quests without requirements to a new character, and none once all are completed", async () => {
    const c = await bundledContent();
    // The quests a new character can start: those of the default world without requirements.
    const open = [...c.quests.quests.values()]
      .filter((q) => Object.keys(q.requirements.skills).length === 0 && q.requirements.quests.length === 0 && q.requirements.items.length === 0)
      .map((q) => q.id);
    assert.ok(open.length >= 2 && open[0] === "settlers_charter");
    assert.deepEqual(questGoal(c, data()), { type: "quest", description: "Do a quest", targets: open });
    const completed = Object.fromEntries(
      [...c.quests.quests.keys()].map((id) => [id, { status: "completed" as const, stage: 0, progress: 0, completions: 1 }]),
    );
    assert.equal(questGoal(c, data({ quests: completed })), undefined);
  });

  it("lists the quests in progress first, then the startable ones; requirements unmet leave a quest out", () => {
    const c = content(
      quest("a"),
      quest("needs_mining", { requirements: { quests: [], skills: { mining: 10 }, items: [] } }),
      quest("needs_a", { requirements: { quests: ["a"], skills: {}, items: [] } }),
      quest("needs_item", { requirements: { quests: [], skills: {}, items: [{ itemId: "logs", quantity: 1 }] } }),
      quest("again", { replayable: true }),
      quest("doing"),
    );
    const done = { status: "completed" as const, stage: 0, progress: 0, completions: 1 };
    const log = { doing: { status: "in_progress" as const, stage: 0, progress: 0, completions: 0 }, again: done };
    assert.deepEqual(questGoal(c, data({ quests: log }))?.targets, ["doing", "a", "again"]);
    assert.deepEqual(questGoal(c, data({ quests: { ...log, a: done }, mining: 10, items: ["logs"] }))?.targets, [
      "doing",
      "needs_mining",
      "needs_a",
      "needs_item",
      "again",
    ]);
    assert.equal(questGoal(content(quest("needs_mining", { requirements: { quests: [], skills: { mining: 10 }, items: [] } })), data()), undefined);
  });
});
