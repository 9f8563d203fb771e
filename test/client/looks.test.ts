/**
 * How the art reads the content (client/src/art/itemArt.ts, looks.ts): every item of the bundled
 * and the fixture content gets an icon; items, NPCs, stations and resources are told apart by their
 * content fields; what no rule knows (a studio's own) falls back to a readable default; and every
 * icon a rule names is in the extracted set (scripts/extract-game-icons.ts).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { GAME_ICONS } from "../../client/src/art/gameIcons.generated.ts";
import { fallbackColor, itemLook } from "../../client/src/art/itemArt.ts";
import { npcLook, oreOf, ORES, stationLook, treeKind } from "../../client/src/art/looks.ts";
import type { ItemDef } from "../../src/manifests/schemas/items.ts";
import type { NpcDef } from "../../src/manifests/schemas/npcs.ts";

const root = path.join(import.meta.dirname, "..", "..");
const sets = [path.join(root, "world", "assets", "manifests"), path.join(root, "..", "shared", "fixtures", "hyperscape-manifests")].filter((d) =>
  fs.existsSync(d),
);
const itemsOf = (dir: string): ItemDef[] =>
  fs.readdirSync(path.join(dir, "items")).flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, "items", f), "utf8")) as ItemDef[]);
const npcsOf = (dir: string): NpcDef[] => JSON.parse(fs.readFileSync(path.join(dir, "npcs.json"), "utf8")) as NpcDef[];

describe("the art's reading of the content", () => {
  it("gives every item of the bundled and the fixture content an icon of the extracted set", () => {
    assert.ok(sets.length >= 1);
    for (const dir of sets) {
      for (const item of itemsOf(dir)) {
        const look = itemLook(item.id, item);
        assert.ok(look.icon !== undefined, `${item.id} (${item.name}) has an icon`);
        assert.ok(GAME_ICONS[look.icon] !== undefined, `${look.icon} (for ${item.id}) is extracted`);
      }
    }
  });

  it("tells items apart by kind and material", () => {
    assert.equal(itemLook("bronze_hatchet", { name: "Bronze Hatchet", type: "tool", equipSlot: "weapon" }).icon, "wood-axe");
    assert.equal(itemLook("iron_pickaxe", { name: "Iron Pickaxe", type: "tool", equipSlot: "weapon" }).icon, "war-pick");
    assert.equal(itemLook("raw_trout", { name: "Raw Trout", type: "resource" }).icon, "fish-cooked");
    assert.equal(itemLook("lobster_pot", { name: "Lobster Pot", type: "tool" }).icon, "cage");
    assert.equal(itemLook("coins", { name: "Coins", type: "currency" }).icon, "two-coins");
    assert.notEqual(
      itemLook("bronze_bar", { name: "Bronze Bar", type: "resource" }).color,
      itemLook("steel_bar", { name: "Steel Bar", type: "resource" }).color,
    );
    // A studio's item with a known slot but an unknown name still reads as its kind.
    assert.equal(itemLook("thornmail", { name: "Thornmail", type: "armor", equipSlot: "body" }).icon, "breastplate");
  });

  it("draws an item no rule knows as its first letter on a colour of its id", () => {
    const look = itemLook("glimmerstone", { name: "Glimmerstone", type: "misc" });
    assert.deepEqual(look, { icon: undefined, color: fallbackColor("glimmerstone"), letter: "G" });
    assert.notEqual(fallbackColor("glimmerstone"), fallbackColor("moonpetal"));
    assert.equal(itemLook("unknown_id", undefined).letter, "U");
  });

  it("tells NPCs apart by category, services, store role, name and level", () => {
    const [rat, banker, keeper] = ["meadow_rat", "brackenford_banker", "provisioner_hobb"].map((id) => npcsOf(sets[0]!).find((n) => n.id === id)!);
    const ratLook = npcLook("meadow_rat", "Meadow Rat", 1, rat, false);
    assert.equal(ratLook.type === "creature" && ratLook.icon, "rat");
    const bankerLook = npcLook("brackenford_banker", "Banker Odeline", 0, banker, false);
    assert.equal(bankerLook.type === "person" && bankerLook.badge?.icon, "bank");
    const keeperLook = npcLook("provisioner_hobb", "Hobb the Provisioner", 0, keeper, true);
    assert.equal(keeperLook.type === "person" && keeperLook.badge?.icon, "swap-bag");
    // Bigger with the level.
    const big = npcLook("slag_rat", "Slag Rat", 30, rat, false);
    assert.ok(big.type === "creature" && ratLook.type === "creature" && big.size > ratLook.size);
    // A studio's monster no rule reads is its letter; a studio's villager is a villager; an NPC the
    // content does not have (an id from a newer server) is its letter.
    assert.deepEqual(npcLook("hollow_wisp", "Hollow Wisp", 4, { ...rat, id: "hollow_wisp", name: "Hollow Wisp" } as NpcDef, false), {
      type: "letter",
      letter: "H",
      color: "#8a2a22",
    });
    assert.equal(
      npcLook("odd_fellow", "Odd Fellow", 0, { ...banker, id: "odd_fellow", name: "Odd Fellow", services: undefined } as NpcDef, false).type,
      "person",
    );
    assert.equal(npcLook("ghost_id", "Ghost", 0, undefined, false).type, "letter");
  });

  it("recognises the five stations, and draws an unknown one as its letter", () => {
    for (const [type, icon] of [
      ["furnace", "furnace"],
      ["anvil", "anvil"],
      ["range", "cooking-pot"],
      ["altar", "star-altar"],
      ["bank", "bank"],
    ] as const) {
      const look = stationLook(type, type);
      assert.equal(look.type === "station" && look.icon, icon, type);
      assert.ok(GAME_ICONS[icon] !== undefined);
    }
    assert.deepEqual(stationLook("loom", "Weaving Loom"), { type: "station", icon: undefined, base: "wood", color: fallbackColor("loom"), letter: "W" });
  });

  it("reads trees by kind and rocks by ore", () => {
    assert.equal(treeKind("tree_oak", "Oak"), "oak");
    assert.equal(treeKind("tree_normal", "Tree"), "tree");
    assert.equal(treeKind("tree_yew", "Yew"), "yew");
    assert.equal(oreOf("ore_copper", "Copper Rock"), ORES.copper);
    assert.equal(oreOf("ore_coal", "Coal Rock"), ORES.coal);
    assert.equal(oreOf("ore_moonstone", "Moonstone Rock"), undefined);
  });
});
