/**
 * What an item looks like: an icon of the game-icons set (gameIcons.generated.ts) chosen by the
 * words of its id and name (`bronze_hatchet`, "Raw Trout"), else by its kind (type, equip slot),
 * in a colour of its material (bronze, iron, oak, raw, burnt…); an item nothing here knows (a
 * studio's own) is the first letter of its name on a tile of a colour its id picks, so that two
 * unknown items still differ. The world view and every panel and dialog draw from the same look.
 */
import type { ItemDef } from "../../../src/manifests/schemas/items.ts";

export interface ItemLook {
  /** A game-icons name, or undefined: the letter tile. */
  icon: string | undefined;
  /** The icon's colour (CSS). */
  color: string;
  /** The fallback's letter (the name's first). */
  letter: string;
}

/** Words of an id or name (first match wins: the more specific rules first). */
const BY_WORD: readonly [RegExp, string][] = [
  [/\b(coins?|gold pieces?)\b/, "two-coins"],
  [/\brunes?\b/, "rune-stone"],
  [/\b(hatchet|axe)\b/, "wood-axe"],
  [/\b(pickaxe|pick)\b/, "war-pick"],
  [/\bhammer\b/, "claw-hammer"],
  [/\btinderbox\b/, "match-head"],
  [/\b(rod|fishing rod)\b/, "fishing-pole"],
  [/\bnet\b/, "fishing-net"],
  [/\bharpoon\b/, "harpoon-trident"],
  [/\b(pot|cage)\b/, "cage"],
  [/\bdagger\b/, "plain-dagger"],
  [/\b(sword|scimitar|longsword)\b/, "broadsword"],
  [/\b(mace|warhammer)\b/, "flanged-mace"],
  [/\bcrossbow\b/, "crossbow"],
  [/\b(shortbow|longbow|bow)\b/, "pocket-bow"],
  [/\b(staff|wand)\b/, "wizard-staff"],
  [/\b(arrows?|bolts?)\b/, "arrow-cluster"],
  [/\b(hat)\b/, "pointy-hat"],
  [/\b(cowl|coif|hood)\b/, "hood"],
  [/\b(helm|helmet)\b/, "visored-helm"],
  [/\b(robe top|robe bottom|robe)\b/, "robe"],
  [/\b(platebody|body|chainbody|top)\b/, "breastplate"],
  [/\b(platelegs|chaps|legs|skirt|bottom)\b/, "armored-pants"],
  [/\b(kiteshield|shield|sq shield)\b/, "checked-shield"],
  [/\bboots\b/, "leather-boot"],
  [/\b(gloves|gauntlets|vambraces|bracers)\b/, "gauntlet"],
  [/\b(cape|cloak)\b/, "cape"],
  [/\b(amulet|necklace)\b/, "gem-pendant"],
  [/\bring\b/, "ring"],
  [/\blogs?\b/, "wood-pile"],
  [/\bcoal\b/, "stone-pile"],
  [/\bore\b/, "ore"],
  [/\bbars?\b/, "metal-bar"],
  [/\bbones\b/, "crossed-bones"],
  [/\bashes\b/, "powder"],
  [/\bfeathers?\b/, "feather"],
  [/\bbait\b/, "earth-worm"],
  [/\bbread\b/, "sliced-bread"],
  [/\b(meat|beef|chicken)\b/, "ham-shank"],
  [/\b(shrimps?|anchovies|prawn|lobster|crab)\b/, "shrimp"],
  [/\b(fish|sardine|herring|trout|salmon|pike|tuna|swordfish|monkfish|shark|bass|cod|mackerel|karambwan)\b/, "fish-cooked"],
  [/\b(charter|scroll|letter|note|book|page)\b/, "scroll-unfurled"],
  [/\blamp\b/, "magic-lamp"],
  [/\b(gem|sapphire|emerald|ruby|diamond|crystal)\b/, "crystal-growth"],
  // Making things: after the armour, so leather gloves stay gloves.
  [/\b(cowhide|hide|leather)\b/, "animal-hide"],
  [/\bneedle\b/, "sewing-needle"],
  [/\bthread\b/, "sewing-string"],
  [/\bflax\b/, "flax"],
  [/\bbowstring\b/, "bow-string"],
  [/\barrowtips?\b/, "arrowhead"],
  [/\bknife\b/, "plain-dagger"],
];

/** The kind's icon when no word matched (ItemDef `type`, `equipSlot`). */
const BY_SLOT: Record<string, string> = {
  weapon: "broadsword",
  helmet: "visored-helm",
  head: "visored-helm",
  body: "breastplate",
  legs: "armored-pants",
  shield: "checked-shield",
  boots: "leather-boot",
  gloves: "gauntlet",
  cape: "cape",
  amulet: "gem-pendant",
  ring: "ring",
  arrows: "arrow-cluster",
  ammo: "arrow-cluster",
};
const BY_TYPE: Record<string, string> = { currency: "two-coins", rune: "rune-stone", ammunition: "arrow-cluster", consumable: "meat" };

/** Material colours (the first word of the id that names one). */
const MATERIAL: Record<string, string> = {
  bronze: "#c98a4b",
  copper: "#d9824a",
  tin: "#b9c0c4",
  iron: "#9aa3ab",
  steel: "#d6dde3",
  black: "#4a4a55",
  mithril: "#6f7fe0",
  adamant: "#5fbf7a",
  adamantite: "#5fbf7a",
  rune: "#4fc8d8",
  runite: "#4fc8d8",
  dragon: "#e04a3a",
  gold: "#f2c744",
  silver: "#e3e7ea",
  coal: "#59524d",
  oak: "#c8a06a",
  willow: "#b9c77a",
  teak: "#a0693e",
  maple: "#d98c3c",
  mahogany: "#8d4a33",
  yew: "#7e9a4a",
  magic: "#8fd3ff",
  leather: "#a8774a",
  studded: "#b08a5e",
  wizard: "#5a6fd8",
  mystic: "#7e5ad8",
  obsidian: "#6a5acd",
  air: "#e8f4ff",
  water: "#4fa3ff",
  earth: "#9b7b4f",
  fire: "#ff7043",
  mind: "#ffb74d",
  chaos: "#ffd54f",
  raw: "#f19a9a",
  burnt: "#4a3b32",
  green: "#5fbf5f",
  coins: "#f2c744",
};
/** A kind's colour when no material is named. */
const ICON_COLOR: Record<string, string> = {
  "two-coins": "#f2c744",
  "wood-pile": "#b07a45",
  "fish-cooked": "#e0a35a",
  shrimp: "#ff9e80",
  "ham-shank": "#d08060",
  "sliced-bread": "#e6b66a",
  "crossed-bones": "#f3ead8",
  powder: "#b0aaa2",
  feather: "#f5f5f5",
  "earth-worm": "#e59aa3",
  "scroll-unfurled": "#f0dfb0",
  "fishing-pole": "#c8a06a",
  "fishing-net": "#d7c9b2",
  "match-head": "#e0a35a",
  "claw-hammer": "#9aa3ab",
  cape: "#c0392b",
  "crystal-growth": "#8fd3ff",
};

/** Words of an id or name, lower case, separated by spaces. */
const words = (s: string) =>
  ` ${s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;

/** A stable colour for an unknown thing (its id's hash on the colour wheel), dark enough for white text. */
export function fallbackColor(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `hsl(${h % 360} 45% 34%)`;
}

export function itemLook(itemId: string, def: Pick<ItemDef, "name" | "type" | "equipSlot"> | undefined): ItemLook {
  const name = def?.name ?? itemId;
  const said = `${words(itemId)}${words(name)}`;
  const icon =
    BY_WORD.find(([re]) => re.test(said))?.[1] ??
    (def?.equipSlot !== undefined ? BY_SLOT[def.equipSlot] : undefined) ??
    (def?.type !== undefined ? BY_TYPE[def.type] : undefined);
  const material = said
    .trim()
    .split(/\s+/)
    .find((w) => MATERIAL[w] !== undefined);
  const letter = (name.trim()[0] ?? "?").toUpperCase();
  if (icon === undefined) return { icon, color: fallbackColor(itemId), letter };
  return { icon, color: (material !== undefined ? MATERIAL[material] : undefined) ?? ICON_COLOR[icon] ?? "#e8dcc4", letter };
}
