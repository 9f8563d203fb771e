/**
 * How each kind of synced thing looks in the world view: players (you in blue), NPCs (red when
 * they can be attacked, amber otherwise), resources by their skill (trees green, rocks brown,
 * fishing spots blue; depleted ones grey and named so), ground items, fires.
 */
import type { EntityState, PlayerState } from "../../schema/WorldState.ts";
import { itemLabel, type Content } from "./content.ts";
import type { Sprite } from "./WorldScene.ts";

const RESOURCE_LOOK = {
  woodcutting: { color: 0x1e8449, shape: "circle" },
  mining: { color: 0x8d6e63, shape: "diamond" },
  fishing: { color: 0x29b6f6, shape: "ring" },
} as const;

export function playerSprite(p: PlayerState, mine: boolean): Sprite {
  return { kind: "player", label: p.name, color: mine ? 0x3fa9f5 : 0xf5f5f5, health: p.health, maxHealth: p.maxHealth };
}

export function entitySprite(content: Content, e: EntityState): Sprite {
  switch (e.kind) {
    case "npc": {
      const attackable = content.registry.npcs.get(e.ref)?.combat?.attackable === true;
      return {
        kind: "npc",
        label: attackable ? `${e.name} (level ${e.level})` : e.name,
        color: attackable ? 0xd9534f : 0xffb300,
        health: e.health,
        maxHealth: e.maxHealth,
      };
    }
    case "item":
      return { kind: "item", label: itemLabel(content, e.ref, e.quantity), color: 0xf0c419, shape: "square" };
    case "resource": {
      const node = content.registry.resources.get(e.ref);
      const look = RESOURCE_LOOK[node?.gathering ?? "woodcutting"];
      const name = node?.name ?? e.ref;
      return { kind: "resource", label: e.depleted ? `${name} (depleted)` : name, color: look.color, shape: look.shape, depleted: e.depleted };
    }
    default:
      if (e.ref === "fire") return { kind: "object", label: "Fire", color: 0xff7043, shape: "triangle" };
      return { kind: e.kind, label: e.name || e.ref, color: 0x8e5b3a, shape: "square" };
  }
}
