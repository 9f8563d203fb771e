/**
 * What each thing of the world looks like, chosen from the content's own fields (never its `model`
 * paths, which cannot be fetched here): an NPC by its category, services, store role, name and
 * combat level (a rat is a rat, a banker a banker); a tree by its kind, a rock by its ore and
 * whether it is depleted, a station by its type; an item by its icon. What the rules do not know
 * falls back to a readable default: a villager, or the first letter of its name on a tile.
 * draw.ts turns a look into a texture.
 */
import type { NpcDef } from "../../../src/manifests/schemas/npcs.ts";
import { fallbackColor, itemLook, type ItemLook } from "./itemArt.ts";
import { hash } from "./pixels.ts";
import type { ObstacleKind } from "./obstacles.ts";

/** What a person wears that shows: colours, and the weapon's and shield's icons. */
export interface Gear {
  head?: { color: string; kind: "helm" | "hood" | "hat" };
  body?: string;
  legs?: string;
  cape?: string;
  boots?: string;
  weapon?: { icon: string; color: string };
  shield?: { icon: string; color: string };
}

export type Look =
  | {
      type: "person";
      skin: string;
      hair: string;
      shirt: string;
      trousers: string;
      gear: Gear;
      badge?: { icon: string; color: string } | undefined;
      robe?: boolean;
    }
  | { type: "creature"; icon: string; color: string; size: number }
  | { type: "tree"; kind: TreeKind; depleted: boolean }
  | { type: "rock"; ore: string | undefined; depleted: boolean }
  | { type: "fishing" }
  | { type: "station"; icon: string | undefined; base: "brick" | "wood" | "stone" | "iron"; color: string; letter: string }
  | { type: "item"; item: ItemLook }
  | { type: "fire" }
  | { type: "obstacle"; kind: ObstacleKind | undefined }
  | { type: "letter"; letter: string; color: string };

export type TreeKind = "tree" | "oak" | "willow" | "maple" | "yew" | "magic" | "pine" | "dead";

const words = (...s: (string | undefined)[]) =>
  ` ${s
    .filter(Boolean)
    .join(" ")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
const has = (said: string, re: RegExp) => re.test(said);

/** Creatures by a word of their id or name. */
const CREATURES: readonly [RegExp, string, string][] = [
  [/\brats?\b/, "rat", "#8d7b6a"],
  [/\b(toad|frog)\b/, "frog", "#6f9a4a"],
  [/\b(boar|pig|hog)\b/, "boar", "#7a5a44"],
  [/\b(hound|wolf|dog|jackal)\b/, "wolf-head", "#9a4a3a"],
  [/\bgoblins?\b/, "goblin-head", "#6aa04a"],
  [/\bspiders?\b/, "spider-face", "#4a3a4a"],
  [/\b(skeleton|undead|zombie)\b/, "skeleton", "#e8e0cc"],
  [/\bbats?\b/, "bat", "#4a4050"],
  [/\b(dragon|drake|wyrm|wyvern)\b/, "dragon-head", "#3f8a4a"],
  [/\b(cow|cattle|bull)\b/, "cow", "#e6e0d4"],
  [/\b(chicken|hen|rooster)\b/, "chicken", "#f2efe6"],
  [/\b(snake|serpent|adder)\b/, "snake", "#5a8a3a"],
  [/\bbears?\b/, "bear-head", "#6a4a32"],
  [/\b(imp|demon)\b/, "imp", "#c0392b"],
  [/\b(troll|brute|ogre|giant|golem)\b/, "troll", "#7a6a5a"],
];
/** Hostile people by a word (their clothes). */
const PEOPLE = /\b(cutpurse|bandit|thief|man|woman|guard|warrior|knight|barbarian|dwarf|mage|wizard|monk|pirate|rogue|outlaw)\b/;

const SKINS = ["#f1c7a0", "#d9a27a", "#b5784f", "#8a5637", "#f5d3b3"];
const HAIRS = ["#3a2a1a", "#6a4a2a", "#c8a060", "#1a1a1a", "#8a3a1a", "#d8d0c0"];
const SHIRTS = ["#7a8a4a", "#6a5a8a", "#a0704a", "#4a7a8a", "#8a4a5a", "#5a7a5a"];

/** A person of a name: skin and hair from its hash, so that the same name looks the same everywhere. */
export function person(name: string, shirt?: string, gear: Gear = {}): Extract<Look, { type: "person" }> {
  const h = hash(name);
  return {
    type: "person",
    skin: SKINS[h % SKINS.length]!,
    hair: HAIRS[(h >>> 3) % HAIRS.length]!,
    shirt: shirt ?? SHIRTS[(h >>> 6) % SHIRTS.length]!,
    trousers: "#4a4038",
    gear,
  };
}

/** An NPC: a creature, a villager by role (banker, keeper, smith, mage, quest giver), or its letter. */
export function npcLook(ref: string, name: string, level: number, def: NpcDef | undefined, storeRole: boolean): Look {
  const said = words(ref, name);
  const hostile = def?.category === "mob" || def?.category === "boss" || def?.combat?.attackable === true;
  const creature = CREATURES.find(([re]) => re.test(said));
  if (creature !== undefined && (hostile || def === undefined)) {
    // Bigger with its level: a level-1 rat is small, a level-30 brute fills its tile.
    const size = Math.round(Math.min(34, 24 + Math.min(10, level / 3)));
    return { type: "creature", icon: creature[1], color: creature[2], size };
  }
  if (def === undefined) return { type: "letter", letter: (name.trim()[0] ?? "?").toUpperCase(), color: fallbackColor(ref) };
  if (hostile) {
    if (has(said, PEOPLE))
      return {
        ...person(name, has(said, /\b(mage|wizard)\b/) ? "#3a3a7a" : "#3a3430"),
        trousers: "#2a2420",
        gear: {
          head: { color: "#2a2420", kind: "hood" },
          weapon: { icon: has(said, /\b(mage|wizard)\b/) ? "wizard-staff" : "plain-dagger", color: "#b9c0c4" },
        },
      };
    return { type: "letter", letter: (name.trim()[0] ?? "?").toUpperCase(), color: "#8a2a22" };
  }
  const services = def.services?.enabled === false ? [] : (def.services?.types ?? []);
  if (services.includes("bank") || has(said, /\b(bank|banker|clerk)\b/))
    return { ...person(name, "#2f6a3a"), robe: true, badge: { icon: "bank", color: "#f2c744" } };
  if (has(said, /\b(smith|blacksmith|armourer|armorer)\b/)) return { ...person(name, "#8a5a32"), badge: { icon: "anvil", color: "#cfd6dc" } };
  if (has(said, /\b(mage|wizard|witch|sorcer\w*|quillfeather)\b/))
    return { ...person(name, "#4a3a9a", { head: { color: "#4a3a9a", kind: "hat" } }), robe: true, badge: { icon: "wizard-staff", color: "#b9a8ff" } };
  if (storeRole || services.includes("shop") || services.includes("store"))
    return { ...person(name, "#a0703a"), badge: { icon: "swap-bag", color: "#e6c080" } };
  if (def.category === "quest") return { ...person(name, "#8a6a2a"), badge: { icon: "scroll-unfurled", color: "#ffe082" } };
  return person(name);
}

/** Trees by a word of their id or name. */
export function treeKind(ref: string, name: string): TreeKind {
  const said = words(ref, name);
  for (const k of ["oak", "willow", "maple", "yew", "magic", "dead"] as const) if (said.includes(` ${k} `)) return k;
  if (has(said, /\b(pine|fir|spruce|evergreen|teak|mahogany)\b/)) return "pine";
  return "tree";
}

/** The ore colour of a rock by a word of its id or name (undefined: plain stone). */
export const ORES: Record<string, string> = {
  copper: "#e0823a",
  tin: "#d0d6da",
  iron: "#a0522d",
  coal: "#1e1c1c",
  silver: "#eef2f5",
  gold: "#f7c531",
  mithril: "#5a6ee0",
  adamant: "#3fae5f",
  adamantite: "#3fae5f",
  rune: "#3fc8d8",
  runite: "#3fc8d8",
  clay: "#c9a27a",
  essence: "#b9a8ff",
};
export function oreOf(ref: string, name: string): string | undefined {
  const said = words(ref, name).trim().split(" ");
  const w = said.find((x) => ORES[x] !== undefined);
  return w === undefined ? undefined : ORES[w];
}

/** Stations by type (then a word of their name): the five the genre has, else a letter on a crate. */
export function stationLook(type: string, name: string): Look {
  const said = words(type, name);
  if (has(said, /\b(furnace|smelter|forge)\b/)) return { type: "station", icon: "furnace", base: "brick", color: "#ffb74d", letter: "F" };
  if (has(said, /\banvil\b/)) return { type: "station", icon: "anvil", base: "stone", color: "#cfd6dc", letter: "A" };
  if (has(said, /\b(range|stove|oven|cooking)\b/)) return { type: "station", icon: "cooking-pot", base: "iron", color: "#ff8a50", letter: "R" };
  if (has(said, /\b(altar|shrine)\b/)) return { type: "station", icon: "star-altar", base: "stone", color: "#fff3c4", letter: "A" };
  if (has(said, /\b(bank|booth|deposit)\b/)) return { type: "station", icon: "bank", base: "wood", color: "#f2c744", letter: "B" };
  return { type: "station", icon: undefined, base: "wood", color: fallbackColor(type), letter: (name.trim()[0] ?? type[0] ?? "?").toUpperCase() };
}

/** A ground item: its icon (or letter tile). */
export function groundItemLook(itemId: string, def: Parameters<typeof itemLook>[1]): Look {
  return { type: "item", item: itemLook(itemId, def) };
}
