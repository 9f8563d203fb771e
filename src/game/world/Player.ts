/**
 * A player in the world: its persistent data (position, health, skills, inventory, equipment,
 * bank) and its transient state (path, input queue, dirty flags). Plain data; the World mutates it.
 */
import type { Tile } from "../map/CollisionMap.ts";
import type { Skill } from "../skills.ts";

export const INVENTORY_SIZE = 28;

export interface ItemStack {
  itemId: string;
  quantity: number;
}

export interface SkillState {
  level: number;
  xp: number;
}

export type Role = "player" | "admin";

/** What is loaded from and saved to the database. */
export interface PlayerData {
  characterId: string;
  accountId: string;
  name: string;
  x: number;
  y: number;
  z: number;
  health: number;
  coins: number;
  combatLevel: number;
  skills: Record<Skill, SkillState>;
  /** 28 slots; null is an empty slot. */
  inventory: (ItemStack | null)[];
  equipment: Record<string, ItemStack>;
  /** One stack per item id, in display order. */
  bank: ItemStack[];
}

export interface QueuedInput {
  type: string;
  data: unknown;
  /** A server-side command (REST, agent control) instead of a client event. */
  run?: (player: Player) => void;
}

export class Player {
  /** The player's id in the world is its character id: one live copy per character. */
  readonly id: string;
  data: PlayerData;
  role: Role = "player";
  /** Tiles still to walk, next step first. */
  path: Tile[] = [];
  running = false;
  /** Inputs from every source (Colyseus, /ws, REST, agents), applied in order at the next tick. */
  readonly inputs: QueuedInput[] = [];
  /** Private state changed this tick: a `player:sync` is due. */
  syncDue = true;
  /** Something persistent changed since the last save. */
  saveDue = false;
  /** Position changed this tick. */
  moved = false;
  /** Bumped whenever what others see of this player changes (position, health, …). */
  publicVersion = 0;
  /** Bumped whenever the player's private state changed (each `player:sync`). */
  privateVersion = 0;
  /** When the last session went away (ms), while the player lingers for a reconnection. */
  disconnectedAt: number | undefined;
  /** Chat flood control: message times (ms) in the current window. */
  readonly chatTimes: number[] = [];
  /** Admin-command attempts (ms), to limit guessing. */
  readonly adminAttempts: number[] = [];

  constructor(data: PlayerData) {
    this.id = data.characterId;
    this.data = data;
  }

  get x(): number {
    return this.data.x;
  }
  get z(): number {
    return this.data.z;
  }
  get maxHealth(): number {
    // Constitution level × 10 hit points (level 10 → 100, the spec's default health).
    return this.data.skills.constitution.level * 10;
  }
}
