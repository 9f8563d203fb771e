import assert from "node:assert/strict";
import fc from "fast-check";
import { assignNameKeys, nameKey } from "../../src/game/names.ts";
import { NAME_PATTERN } from "../../src/persistence/players.ts";

/** Names as NAME_PATTERN allows them: 3 to 16 of letters, digits, space, `_` and `-`, alphanumeric at both ends. */
const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split("");
const alnum = fc.constantFrom(...ALNUM);
const name = fc
  .tuple(alnum, fc.array(fc.constantFrom(...ALNUM, " ", "_", "-"), { minLength: 1, maxLength: 14 }), alnum)
  .map(([first, middle, last]) => first + middle.join("") + last);

describe("name keys: names as players read them", () => {
  it("generates only names the server accepts", () => {
    fc.assert(fc.property(name, (n) => NAME_PATTERN.test(n)));
  });

  it("a name's key is its key's key (idempotent), for any string", () => {
    fc.assert(fc.property(fc.oneof(name, fc.string({ maxLength: 20 })), (n) => nameKey(nameKey(n)) === nameKey(n)));
  });

  it("does not see case", () => {
    fc.assert(fc.property(name, (n) => nameKey(n.toUpperCase()) === nameKey(n) && nameKey(n.toLowerCase()) === nameKey(n)));
  });

  it("does not see which separator a name uses, or whether it has one", () => {
    fc.assert(fc.property(name, (n) => nameKey(n.replace(/[ _-]/g, "_")) === nameKey(n) && nameKey(n.replace(/[ _-]/g, "")) === nameKey(n)));
  });

  for (const lookalike of ["Zezima", "zezima", "ZEZIMA", "Zezlma", "ZezIma", "Zez1ma", "ZEZ1MA", "Zez_ima", "Zez ima", "Zez-ima", "Z_e_z_i_m_a"]) {
    it(`reads ${lookalike} as Zezima`, () => assert.equal(nameKey(lookalike), nameKey("Zezima")));
  }

  for (const [a, b] of [
    ["Oscar", "0scar"],
    ["Modern", "Modem"],
    ["Vvill", "Will"],
    ["Clown", "Down"],
    ["Cl0ud 1", "dOud-l"],
  ] as const) {
    it(`reads ${a} as ${b}`, () => assert.equal(nameKey(a), nameKey(b)));
  }

  for (const [a, b] of [
    ["Bob", "Rob"],
    ["Zezima", "Zezimo"],
    ["Player5", "PlayerS"],
    ["Ace2", "AceZ"],
    ["Bert8", "BertB"],
    ["Anna", "Ana"],
    ["Adventurer12345", "Adventurer12354"],
  ] as const) {
    it(`keeps ${a} and ${b} apart`, () => assert.notEqual(nameKey(a), nameKey(b)));
  }

  it("keeps generated names apart: digits never read as other digits", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 99999 }),
        fc.integer({ min: 1000, max: 99999 }),
        (x, y) => x === y || nameKey(`Adventurer${x}`) !== nameKey(`Adventurer${y}`),
      ),
    );
  });
});

describe("name keys for characters stored before them", () => {
  it("keeps the oldest of each key and renames the later ones to the first free valid name", () => {
    const keyed = assignNameKeys([
      { id: "a", name: "Zezima" },
      { id: "b", name: "zezima" },
      { id: "c", name: "Zez_ima" },
      { id: "d", name: "Bob" },
      { id: "e", name: "Zezima2" },
      { id: "f", name: "Abcdefghijklmnop" },
      { id: "g", name: "ABCDEFGHIJKLMNOP" },
    ]);
    assert.deepEqual(
      keyed.map((k) => [k.id, k.name, k.renamedFrom]),
      [
        ["a", "Zezima", null],
        // zezima2 reads as Zezima2, which a later character has: that one keeps its name.
        ["b", "zezima3", "zezima"],
        ["c", "Zez_ima4", "Zez_ima"],
        ["d", "Bob", null],
        ["e", "Zezima2", null],
        ["f", "Abcdefghijklmnop", null],
        ["g", "ABCDEFGHIJKLMNO2", "ABCDEFGHIJKLMNOP"],
      ],
    );
    for (const k of keyed) {
      assert.equal(k.nameKey, nameKey(k.name));
      assert.ok(NAME_PATTERN.test(k.name), k.name);
    }
  });

  it("leaves every character with a valid name of its own key, whatever the duplicates", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(name, fc.constantFrom("Zezima", "zezima", "ZEZ1MA", "Zezima2", "Zezlma2", "Abcdefghijklmnop", "abcdefghijklmnop")), {
          maxLength: 30,
        }),
        (names) => {
          const keyed = assignNameKeys(names.map((n, i) => ({ id: String(i), name: n })));
          assert.equal(new Set(keyed.map((k) => k.nameKey)).size, keyed.length, "keys are unique");
          const firstOfKey = new Map<string, number>();
          names.forEach((n, i) => firstOfKey.has(nameKey(n)) || firstOfKey.set(nameKey(n), i));
          keyed.forEach((k, i) => {
            assert.ok(NAME_PATTERN.test(k.name), k.name);
            assert.equal(k.renamedFrom === null, firstOfKey.get(nameKey(names[i]!)) === i, "the first of each key keeps its name, only it");
            if (k.renamedFrom === null) assert.equal(k.name, names[i]);
          });
        },
      ),
    );
  });
});
