/**
 * How each kind of synced thing looks in the world view (client/src/art/looks.ts chooses from the
 * content): players in what they wear (yours in blue, from your equipment; another's from its public
 * `worn`, the slots that show: src/game/worn.ts), NPCs by kind and role, resources by kind (trees by species, rocks by ore,
 * stumps and bare rocks when depleted, named so), ground items as their icons, fires, places
 * (doors, ladders, obstacles: places.ts).
 */
import { parseWorn, WORN_SLOTS } from "../../src/game/worn.ts";
import type { EntityState, PlayerState } from "../../schema/WorldState.ts";
import { itemLook } from "./art/itemArt.ts";
import { groundItemLook, npcLook, oreOf, person, stationLook, treeKind, type Gear, type Look } from "./art/looks.ts";
import { itemLabel, type Content } from "./content.ts";
import type { Sprite } from "./art/sprite.ts";
import { placeSprite } from "./places.ts";

/** What a player wears, as the art draws it (colours of the items' materials, the weapon's and shield's icons). */
function gearOf(content: Content, itemIn: (slot: string) => string | undefined): Gear {
  const gear: Gear = {};
  for (const slot of WORN_SLOTS) {
    const id = itemIn(slot);
    if (id === undefined || id === "") continue;
    const look = itemLook(id, content.registry.items.get(id));
    switch (slot) {
      case "helmet":
        gear.head = { color: look.color, kind: look.icon === "hood" ? "hood" : look.icon === "pointy-hat" ? "hat" : "helm" };
        break;
      case "body":
        gear.body = look.color;
        break;
      case "legs":
        gear.legs = look.color;
        break;
      case "cape":
        gear.cape = look.color;
        break;
      case "boots":
        gear.boots = look.color;
        break;
      case "weapon":
        gear.weapon = { icon: look.icon ?? "broadsword", color: look.color };
        break;
      case "shield":
        gear.shield = { icon: look.icon ?? "checked-shield", color: look.color };
        break;
    }
  }
  return gear;
}

/**
 * Other players' gear by their `worn` text: read once per outfit (players in the same gear share
 * it), not at each of their steps.
 */
const wornGear = new Map<string, Gear>();
function gearWorn(content: Content, text: string): Gear {
  let gear = wornGear.get(text);
  if (gear === undefined) {
    if (wornGear.size > 500) wornGear.clear();
    const worn = parseWorn(text) as Record<string, string>;
    gear = gearOf(content, (slot) => worn[slot]);
    wornGear.set(text, gear);
  }
  return gear;
}

/** Your own shirt: blue, so that you stand out among the others. */
const YOURS = "#2f7fd0";

/**
 * A player as others see it, from its public `worn` (the JSON of slot → item id, "" when nothing
 * shows); `yours`: in your blue (the dashboard's Watch view draws the watched character so).
 */
export function wornLook(content: Content | undefined, name: string, worn: string | undefined, yours: boolean): Look {
  return person(name, yours ? YOURS : undefined, content !== undefined && worn !== undefined && worn !== "" ? gearWorn(content, worn) : {});
}

export function playerSprite(p: PlayerState, mine: boolean, content?: Content): Sprite {
  // Yours from your own equipment (the owner's fields, current at once); another's from `worn`.
  const look =
    mine && content !== undefined
      ? person(
          p.name,
          YOURS,
          gearOf(content, (slot) => p.equipment?.get(slot)?.itemId),
        )
      : wornLook(content, p.name, p.worn, mine);
  return { kind: "player", label: p.name, look, health: p.health, maxHealth: p.maxHealth };
}

/** What the looks read of a synced entity (the Colyseus state's, or a `/ws` delta's entry). */
export type SeenEntity = Pick<EntityState, "id" | "kind" | "ref" | "name" | "level" | "quantity" | "depleted" | "open" | "health" | "maxHealth">;

export function entitySprite(content: Content, e: SeenEntity): Sprite {
  switch (e.kind) {
    case "npc": {
      const def = content.registry.npcs.get(e.ref);
      const attackable = def?.combat?.attackable === true;
      const storeRole = content.registry.areas.some((a) => a.npcs.some((n) => n.id === e.ref && n.storeId !== undefined));
      // The content's name as the client shows it (names.ts: a monster in sentence case).
      const name = def?.name ?? e.name;
      return {
        kind: "npc",
        label: attackable ? `${name} (level ${e.level})` : name,
        look: npcLook(e.ref, name, e.level, def, storeRole),
        health: e.health,
        maxHealth: e.maxHealth,
      };
    }
    case "item":
      return { kind: "item", label: itemLabel(content, e.ref, e.quantity), look: groundItemLook(e.ref, content.registry.items.get(e.ref)) };
    case "resource": {
      const node = content.registry.resources.get(e.ref);
      const name = node?.name ?? e.ref;
      const look: Look =
        node?.gathering === "mining"
          ? { type: "rock", ore: oreOf(e.ref, name), depleted: e.depleted }
          : node?.gathering === "fishing"
            ? { type: "fishing" }
            : node === undefined
              ? { type: "letter", letter: (name[0] ?? "?").toUpperCase(), color: "#5a6a4a" }
              : { type: "tree", kind: treeKind(e.ref, name), depleted: e.depleted };
      return { kind: "resource", label: e.depleted ? `${name} (depleted)` : name, look, depleted: e.depleted };
    }
    default:
      if (e.ref === "fire") return { kind: "object", label: "Fire", look: { type: "fire" } };
      return (
        placeSprite(content, e) ?? {
          kind: e.kind,
          label: e.name || e.ref,
          look: { type: "letter", letter: ((e.name || e.ref)[0] ?? "?").toUpperCase(), color: "#6d4c41" },
        }
      );
  }
}

/** A station of the content (not synced: the scene places them from the content). */
export function stationSprite(type: string, name: string): Sprite {
  return { kind: "station", label: name, look: stationLook(type, name) };
}
