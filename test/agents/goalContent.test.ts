/**
 * The content sets of the goals the server offers an agent (src/agents/goalContent.ts): derived once
 * per content registry and kept, the same as derived afresh, and `availableGoals` reads them.
 */
import assert from "node:assert/strict";
import { availableGoals } from "../../src/agents/AgentService.ts";
import { deriveGoalContent, goalContent } from "../../src/agents/goalContent.ts";
import type { PlayerData } from "../../src/game/world/Player.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { bundledContent } from "../support/content.ts";

describe("agents: the goals' content sets", () => {
  const data = (items: string[]) =>
    ({
      skills: Object.fromEntries(SKILLS.map((k) => [k, { level: 1, xpTenths: 0 }])),
      inventory: items.map((itemId, slot) => ({ slot, itemId, quantity: 1 })),
      equipment: {},
      bank: [],
      quests: {},
    }) as unknown as PlayerData;

  it("are derived once per registry, the same as derived afresh", async () => {
    const content = await bundledContent();
    const sets = goalContent(content);
    assert.equal(goalContent(content), sets, "the same object at the second call");
    assert.deepEqual(sets, deriveGoalContent(content));
    assert.ok(sets.mobs.includes("brindle_cow") && sets.supplies.includes("cowhide") && sets.runes.includes("air_rune"));
    assert.ok(sets.weapons.includes("bronze_sword") && !sets.weapons.includes("staff_of_air"), "a weapon, not a staff");
    assert.ok(sets.recipes.some((r) => r.id === "smithing:bronze_sword"));
    assert.equal(new Set(sets.mobs).size, sets.mobs.length, "each monster once");
  });

  it("give availableGoals the same goals call after call, by what the character holds", async () => {
    const content = await bundledContent();
    const inv = ["bronze_pickaxe", "hammer", "bronze_bar", "copper_ore", "tin_ore", "cowhide", "raw_shrimp", "logs", "tinderbox"];
    const first = availableGoals(content, data(inv));
    assert.deepEqual(availableGoals(content, data(inv)), first);
    const types = first.map((g) => g.type);
    for (const t of ["mining", "combat", "firemaking", "cooking", "making", "banking", "shopping", "selling", "explore", "idle"])
      assert.ok(types.includes(t), t);
    const making = first.find((g) => g.type === "making")!.targets;
    assert.ok(making.includes("smithing:bronze_dagger") && making.includes("smelting:bronze_bar") && making.includes("tanning:leather"));
    assert.ok(!making.includes("smithing:bronze_sword"), "Smithing 5: not at 1");
    // A weapon held is no longer offered; a tool held neither.
    const shopping = (items: string[]) => availableGoals(content, data(items)).find((g) => g.type === "shopping")!.targets;
    assert.ok(shopping([]).includes("bronze_sword") && !shopping(["bronze_sword"]).includes("bronze_sword"));
    assert.ok(shopping([]).includes("hammer") && !shopping(["hammer"]).includes("hammer"));
  });
});
