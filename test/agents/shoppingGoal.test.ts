/**
 * The `shopping` goal the server offers an agent (src/agents/AgentService.ts availableGoals): the
 * missing tools, runes and weapons, the inputs of the making chains that placed stores sell
 * (Tawney's cowhide and leather: bounded by what a store sells that a supported recipe takes), the
 * armour and the food they sell.
 */
import assert from "node:assert/strict";
import { availableGoals } from "../../src/agents/AgentService.ts";
import type { PlayerData } from "../../src/game/world/Player.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { bundledContent } from "../support/content.ts";

describe("agents: the shopping goal", () => {
  const data = (items: string[]) =>
    ({
      skills: Object.fromEntries(SKILLS.map((k) => [k, { level: 1, xpTenths: 0 }])),
      inventory: items.map((itemId, slot) => ({ slot, itemId, quantity: 1 })),
      equipment: {},
      bank: [],
      quests: {},
    }) as unknown as PlayerData;

  it("lists the making inputs placed stores sell (cowhide, leather, a bronze bar), and nothing no recipe takes", async () => {
    const content = await bundledContent();
    const shopping = availableGoals(content, data([])).find((g) => g.type === "shopping");
    assert.ok(shopping !== undefined);
    for (const supply of ["cowhide", "leather", "bronze_bar", "flax"]) assert.ok(shopping.targets.includes(supply), `${supply}: ${JSON.stringify(shopping)}`);
    assert.match(shopping.description, /making supplies/);
    // Every target is sold by a store.
    const sold = new Set([...content.stores.values()].flatMap((s) => s.items.map((i) => i.itemId)));
    assert.deepEqual(
      shopping.targets.filter((id) => !sold.has(id)),
      [],
    );
    assert.equal(new Set(shopping.targets).size, shopping.targets.length, "each once");
    // Carried already, a hide is still on offer (a supply, not a tool bought once).
    assert.ok(
      availableGoals(content, data(["cowhide"]))
        .find((g) => g.type === "shopping")!
        .targets.includes("cowhide"),
    );
  });

  it("lists the food placed stores sell (bread, cooked meat, shrimp), on offer whatever it carries", async () => {
    const content = await bundledContent();
    const shopping = availableGoals(content, data(["bread"])).find((g) => g.type === "shopping")!;
    for (const food of ["bread", "cooked_meat", "shrimp"]) assert.ok(shopping.targets.includes(food), food);
    assert.match(shopping.description, /food/);
    // Nothing that heals nothing: the raw fish and the logs are no food.
    for (const other of ["raw_shrimp", "logs"]) assert.ok(!shopping.targets.includes(other), other);
  });

  it("lists the armour placed stores sell that it does not hold (a genre fighter wears what its coins buy)", async () => {
    const content = await bundledContent();
    const shopping = availableGoals(content, data([])).find((g) => g.type === "shopping")!;
    for (const armour of ["bronze_full_helm", "bronze_platebody", "bronze_kiteshield", "iron_full_helm", "leather_body", "leather_gloves"])
      assert.ok(shopping.targets.includes(armour), armour);
    assert.match(shopping.description, /armour/);
    // Carried or worn: not on offer again.
    const worn = { ...data(["leather_body"]), equipment: { helmet: { itemId: "bronze_full_helm", quantity: 1 } } } as unknown as PlayerData;
    const held = availableGoals(content, worn).find((g) => g.type === "shopping")!.targets;
    assert.ok(!held.includes("leather_body") && !held.includes("bronze_full_helm") && held.includes("bronze_kiteshield"));
  });
});
