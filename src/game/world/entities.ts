/**
 * Everything in the world besides players: ground items, resource nodes, NPCs, and temporary
 * objects (fires). Each carries a `version`, bumped whenever what clients see of it changes, so
 * interest management sends only what changed.
 */
import type { NpcDef } from "../../manifests/schemas/npcs.ts";
import type { ResourceNode } from "../../manifests/registry.ts";

/** Lifepoints per content hitpoint: players have 10 per constitution level (100 at level 10). */
export const LIFEPOINTS_PER_HITPOINT = 10;
/**
 * Ticks between two hitpoints regenerated (src/game/regeneration.ts): OSRS wiki "Hitpoints": one
 * hitpoint every 100 ticks (60 seconds), for players and monsters alike.
 */
export const HITPOINT_REGEN_TICKS = 100;

export interface GroundItem {
  id: string;
  itemId: string;
  quantity: number;
  x: number;
  z: number;
  /** Only this player sees and may take it until `publicAtTick`. */
  ownerId: string | undefined;
  publicAtTick: number;
  despawnAtTick: number;
  version: number;
  /** Scratch mark of the interest refresh running now (see Interest.refresh). */
  mark?: number;
  /** Set when it leaves the world (taken or despawned). */
  gone?: boolean;
  /**
   * A player's drop is stored (a `ground_items` row) with its dropper's save: `pending` until that
   * save has committed, then `stored`. Absent: memory only (a mob's drop, made from nothing).
   */
  persist?: "pending" | "stored";
}

export interface ResourceInstance {
  id: string;
  node: ResourceNode;
  x: number;
  z: number;
  /** 0 while available; else the tick it respawns. */
  depletedUntil: number;
  version: number;
  /** Scratch mark of the interest refresh running now (see Interest.refresh). */
  mark?: number;
}

/** Who an NPC or a player fights now (single-way combat, src/game/singleCombat.ts), and until which tick. */
export interface Foe {
  id: string;
  until: number;
}

export interface NpcInstance {
  id: string;
  def: NpcDef;
  x: number;
  z: number;
  spawnX: number;
  spawnZ: number;
  wanderRadius: number;
  health: number;
  maxHealth: number;
  /** Services offered at this NPC (bank, store), from the area placement. */
  service: { type: string; storeId?: string | undefined } | undefined;
  /** The player it is fighting. */
  targetId: string | undefined;
  nextAttackTick: number;
  /** 0 while alive; else the tick it respawns. */
  deadUntil: number;
  /** The player it fights now, and until when (single-way combat: singleCombat.ts). */
  foe?: Foe | undefined;
  /** Damage dealt to it per player (who gets the drop). */
  damageBy: Map<string, number>;
  version: number;
  /** Scratch mark of the interest refresh running now (see Interest.refresh). */
  mark?: number;
}

export interface WorldObject {
  id: string;
  type: "fire";
  x: number;
  z: number;
  expiresAtTick: number;
  version: number;
  /** Scratch mark of the interest refresh running now (see Interest.refresh). */
  mark?: number;
  gone?: boolean;
}

/** Stations placed by the content (range, furnace, anvil, bank booth, altar). */
export interface StationInstance {
  id: string;
  type: string;
  x: number;
  z: number;
}

/**
 * What clients see of a non-player entity. `ref` is its content id (the NPC's, the item's, the
 * resource node's, or the object's type), named as the Colyseus schema names it (EntityState.ref),
 * so both transports carry the same fields.
 */
export type EntityView =
  | { id: string; kind: "npc"; x: number; z: number; ref: string; name: string; health: number; maxHealth: number; level: number; dead: boolean }
  | { id: string; kind: "item"; x: number; z: number; ref: string; quantity: number }
  | { id: string; kind: "resource"; x: number; z: number; ref: string; depleted: boolean }
  | { id: string; kind: "object"; x: number; z: number; ref: string; open?: boolean };
