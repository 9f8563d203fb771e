/**
 * Drop tables as OSRS rolls them (src/game/drops.ts): the default drop and the `always` tier every
 * kill, then one weighted roll over the rest, so at most one of them drops; frequencies follow the
 * content's chances over many kills (a seeded random source: the same figures every run).
 */
import assert from "node:assert/strict";
import { rollDrops, type DropTable } from "../../src/game/drops.ts";
import { seededRandom } from "../../src/game/world/World.ts";
import { bundledContent } from "../support/content.ts";

const entry = (itemId: string, chance: number, minQuantity = 1, maxQuantity = 1) => ({ itemId, chance, minQuantity, maxQuantity });
const table = (over: Partial<DropTable>): DropTable => ({ always: [], common: [], uncommon: [], rare: [], veryRare: [], ...over });

/** Kills `n` times: how often each main-table entry dropped, and the most main-table drops one kill had. */
function tally(drops: DropTable, n: number, seed: number): { counts: Map<string, number>; most: number; nothing: number } {
  const random = seededRandom(seed);
  const fixed = (drops.defaultDrop?.enabled ? 1 : 0) + drops.always.length;
  const counts = new Map<string, number>();
  let most = 0;
  let nothing = 0;
  for (let i = 0; i < n; i++) {
    const out = rollDrops(drops, random);
    const main = out.slice(fixed);
    most = Math.max(most, main.length);
    if (main.length === 0) nothing++;
    for (const s of main) counts.set(s.itemId, (counts.get(s.itemId) ?? 0) + 1);
  }
  return { counts, most, nothing };
}

describe("drops", () => {
  const N = 40_000;

  it("drops the default drop and every always entry each kill, before the main roll's one entry", () => {
    const drops = table({
      defaultDrop: { enabled: true, itemId: "bones", quantity: 1 },
      always: [entry("raw_meat", 1), entry("coins", 1, 5, 5)],
      common: [entry("fishing_bait", 1)],
    });
    const out = rollDrops(drops, seededRandom(1));
    assert.deepEqual(out, [
      { itemId: "bones", quantity: 1 },
      { itemId: "raw_meat", quantity: 1 },
      { itemId: "coins", quantity: 5 },
      { itemId: "fishing_bait", quantity: 1 },
    ]);
  });

  it("rolls the main table once: a low roll takes the first entry, a roll past the weights takes nothing", () => {
    const drops = table({ common: [entry("coins", 0.5)], rare: [entry("steel_sword", 0.02)], veryRare: [entry("mithril_sword", 0.002)] });
    const from = (values: number[]) => {
      let i = 0;
      return () => values[i++]!;
    };
    // Weights laid end to end: coins [0, 0.5), steel sword [0.5, 0.52), mithril [0.52, 0.522), nothing after.
    assert.deepEqual(rollDrops(drops, from([0.1, 0])), [{ itemId: "coins", quantity: 1 }]);
    assert.deepEqual(rollDrops(drops, from([0.51, 0])), [{ itemId: "steel_sword", quantity: 1 }]);
    assert.deepEqual(rollDrops(drops, from([0.521, 0])), [{ itemId: "mithril_sword", quantity: 1 }]);
    assert.deepEqual(rollDrops(drops, from([0.6])), []);
    assert.deepEqual(rollDrops(table({}), from([])), [], "an empty table rolls nothing");
  });

  it("never drops two main-table entries in one kill, and each entry's chance per kill is its weight (the rest is nothing)", async () => {
    // The default world's meadow rat: coins 0.5, raw meat 0.15, bronze dagger 0.02, cape 0.002 (sum 0.672).
    const rat = (await bundledContent()).npcs.get("meadow_rat")!.drops!;
    const { counts, most, nothing } = tally(rat, N, 7);
    assert.equal(most, 1, "at most one main-table drop a kill");
    for (const tier of ["common", "uncommon", "rare", "veryRare"] as const) {
      for (const d of rat[tier]) {
        const seen = (counts.get(d.itemId) ?? 0) / N;
        // Within 4 standard deviations of a binomial proportion.
        const sd = Math.sqrt((d.chance * (1 - d.chance)) / N);
        assert.ok(Math.abs(seen - d.chance) <= 4 * sd + 1e-9, `${d.itemId}: ${seen} per kill, content says ${d.chance}`);
      }
    }
    const empty = 1 - 0.672;
    assert.ok(Math.abs(nothing / N - empty) <= 4 * Math.sqrt((empty * (1 - empty)) / N), `nothing ${nothing / N}, expected ${empty}`);
  });

  it("shares the roll by weight when a table's chances add up to more than 1, with no empty share", () => {
    // Like the content set's goblin: coins 1, bronze sword 0.1, steel sword 0.02, mithril 0.002 (sum 1.122).
    const goblin = table({
      common: [entry("coins", 1)],
      uncommon: [entry("bronze_sword", 0.1)],
      rare: [entry("steel_sword", 0.02)],
      veryRare: [entry("mithril_sword", 0.002)],
    });
    const { counts, most, nothing } = tally(goblin, N, 11);
    assert.equal(most, 1);
    assert.equal(nothing, 0, "every kill drops one entry");
    for (const [itemId, chance] of [
      ["coins", 1],
      ["bronze_sword", 0.1],
      ["steel_sword", 0.02],
      ["mithril_sword", 0.002],
    ] as const) {
      const p = chance / 1.122;
      const seen = (counts.get(itemId) ?? 0) / N;
      assert.ok(Math.abs(seen - p) <= 4 * Math.sqrt((p * (1 - p)) / N) + 1e-9, `${itemId}: ${seen} per kill, expected ${p}`);
    }
  });

  it("draws the quantity uniformly between minQuantity and maxQuantity", () => {
    const drops = table({ common: [entry("coins", 1, 3, 6)] });
    const random = seededRandom(3);
    const seen = new Map<number, number>();
    for (let i = 0; i < 4000; i++) {
      const q = rollDrops(drops, random)[0]!.quantity;
      seen.set(q, (seen.get(q) ?? 0) + 1);
    }
    assert.deepEqual([...seen.keys()].sort(), [3, 4, 5, 6]);
    for (const n of seen.values()) assert.ok(Math.abs(n - 1000) < 4 * Math.sqrt(4000 * 0.25 * 0.75), `${n} of 4000`);
  });
});
