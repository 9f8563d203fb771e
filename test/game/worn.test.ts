/** The public summary of worn gear (src/game/worn.ts): the slots that show, made again only when they change. */
import assert from "node:assert/strict";
import { noneWorn, parseWorn, wornOf } from "../../src/game/worn.ts";

describe("worn gear's summary", () => {
  it("lists the slots that show, and nothing of the rest", () => {
    const cache = noneWorn();
    const s = wornOf(
      {
        weapon: { itemId: "bronze_sword", quantity: 1 },
        ring: { itemId: "gold_ring", quantity: 1 },
        arrows: { itemId: "bronze_arrow", quantity: 40 },
        body: { itemId: "iron_platebody", quantity: 1 },
      },
      cache,
    );
    assert.deepEqual(s.worn, { weapon: "bronze_sword", body: "iron_platebody" });
    assert.equal(s.text, '{"weapon":"bronze_sword","body":"iron_platebody"}');
    assert.deepEqual(wornOf({}, noneWorn()), { ids: ["", "", "", "", "", "", ""], worn: undefined, text: "" });
  });

  it("keeps the summary while the shown slots hold the same items, and makes a new one when they change", () => {
    const cache = noneWorn();
    const equipment: Record<string, { itemId: string; quantity: number }> = { weapon: { itemId: "bronze_sword", quantity: 1 } };
    const first = wornOf(equipment, cache).worn;
    equipment.arrows = { itemId: "bronze_arrow", quantity: 3 };
    assert.equal(wornOf(equipment, cache).worn, first, "arrows do not show: the same object");
    equipment.weapon = { itemId: "steel_sword", quantity: 1 };
    const second = wornOf(equipment, cache);
    assert.notEqual(second.worn, first);
    assert.deepEqual(second.worn, { weapon: "steel_sword" });
    delete equipment.weapon;
    assert.equal(wornOf(equipment, cache).text, "");
  });

  it("reads the text back, and anything unreadable as nothing worn", () => {
    assert.deepEqual(parseWorn('{"weapon":"bronze_sword","ring":"x","body":3}'), { weapon: "bronze_sword" });
    for (const bad of ["", undefined, "{", "null", "[1]"]) assert.deepEqual(parseWorn(bad), {});
  });
});
