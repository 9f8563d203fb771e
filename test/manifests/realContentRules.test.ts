/**
 * The store and gathering rules read the real public content set (../shared/fixtures/
 * hyperscape-manifests) as they read ours: its store is a general one by its keeper's placement,
 * its tools need their tiers' levels, and its fishing spots name their bait.
 */
import assert from "node:assert/strict";
import { isGeneral } from "../../src/game/store.ts";
import { fixtureContent } from "../support/fixtureContent.ts";

describe("the real content set's stores and gathering tools", () => {
  it("is a general store by its keeper's type, general_store", async () => {
    const real = await fixtureContent();
    assert.equal(isGeneral(real, real.stores.get("central_store")!), true, "the Central General Store");
  });

  it("gives tools their levels from tools.json and tier-requirements.json, and spots their bait", async () => {
    const real = await fixtureContent();
    const level = (id: string) => real.tools.find((t) => t.itemId === id)!.levelRequired;
    assert.deepEqual(["bronze_pickaxe", "steel_pickaxe", "mithril_pickaxe", "rune_pickaxe", "rune_hatchet"].map(level), [1, 6, 21, 41, 41]);
    assert.equal(real.resources.get("fishing_spot_fly")!.secondaryRequired, "feathers");
    assert.equal(real.resources.get("fishing_spot_bait")!.secondaryRequired, "fishing_bait");
    const monkfish = real.resources.get("fishing_spot_monkfish")!.harvestYield[0]!;
    assert.deepEqual([monkfish.catchLow, monkfish.catchHigh], [16, 100]);
  });
});
