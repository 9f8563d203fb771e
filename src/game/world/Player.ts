/**
 * A player in the world: its persistent data (position, health, skills, inventory, equipment,
 * bank) and its transient state (path, input queue, dirty flags). Plain data; the World mutates it.
 */
import type { Tile } from "../map/CollisionMap.ts";
import type { Foe } from "./entities.ts";
import type { CombatStyle } from "../combatStyles.ts";
import type { Skill } from "../skills.ts";
import { noneWorn, type WornSummary } from "../worn.ts";

export const INVENTORY_SIZE = 28;

export interface ItemStack {
  itemId: string;
  quantity: number;
}

export interface SkillState {
  level: number;
  /** Xp in tenths (17.5 xp is 175: skills.ts `wholeXp`, `exactXp`); only progression.ts `addXp` adds to it. */
  xpTenths: number;
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
  /** The chosen attack style (combatStyles.ts); undefined: accurate. */
  combatStyle?: CombatStyle | undefined;
  /** The spell attacks cast while a staff is wielded (magic.ts); undefined or null: none. Not saved. */
  autocast?: string | null | undefined;
  /** Run energy in units, 10,000 = 100 % (world/runEnergy.ts); undefined: full. */
  runEnergy?: number | undefined;
  /** The run toggle (`player:setRun`), kept across logouts as the genre keeps it (the `runMode` column); undefined: off. */
  runMode?: boolean | undefined;
  /** Auto Retaliate (`player:setAutoRetaliate`, retaliate.ts), kept across logouts (the `autoRetaliate` column); undefined: on, as the genre starts it. */
  autoRetaliate?: boolean | undefined;
  /** Prayer points left (prayer.ts); undefined: full (the Prayer level). */
  prayerPoints?: number | undefined;
  skills: Record<Skill, SkillState>;
  /** 28 slots; null is an empty slot. */
  inventory: (ItemStack | null)[];
  equipment: Record<string, ItemStack>;
  /** One stack per item id, in display order. */
  bank: ItemStack[];
  /** NPC kills (npc id → count) and deaths since the last save; written with this snapshot. */
  kills?: Record<string, number>;
  deaths?: DeathRecord[];
  /** Ground items this player dropped or took since the last save, in order; written with this snapshot. */
  ground?: GroundOp[];
  /**
   * Makes left of each production consumable begun (productionRules.ts; thread: a spool gives 5
   * makes), by item id: the item is taken at its first use, the rest counted here. Saved in the
   * character's `consumableUses` column; undefined: none begun.
   */
  consumableUses?: Record<string, number> | undefined;
  /** Quests started (src/game/quests.ts), by quest id; a quest not here is not started. Saved in `character_quests`. */
  quests?: Record<string, QuestProgress>;
}

/** A character's state in one quest (src/game/quests.ts). */
export interface QuestProgress {
  status: "in_progress" | "completed";
  /** The index of the current stage (in progress); of the last one (completed). */
  stage: number;
  /** What the current stage has counted (kills, items gathered or made). */
  progress: number;
  /** Times completed (a replayable quest more than once). */
  completions: number;
}

/**
 * A change to the stored ground items, made by a player and stored in the same transaction as
 * that player's state: so an item moving between players (drop, then another's pickup) exists
 * exactly once in the database at any moment. Times are wall-clock ms.
 */
export type GroundOp =
  | { op: "drop"; id: string; itemId: string; quantity: number; x: number; z: number; ownerId: string | null; publicAt: number; expiresAt: number }
  | { op: "take"; id: string };

export type Action =
  | { kind: "pickup"; targetId: string }
  /** `started`: the gathering's first line ("You swing your axe at the tree.") was said. */
  | { kind: "gather"; targetId: string; started?: boolean }
  | { kind: "attack"; targetId: string }
  | { kind: "interact"; targetId: string }
  | { kind: "talk"; targetId: string }
  | { kind: "cook"; targetId: string; itemId: string }
  | { kind: "cast"; targetId: string; spellId: string }
  /** A `skill:make` loop (production.ts): `remaining` null for "all". */
  | { kind: "make"; recipeId: string; remaining: number | null; made: number };

/** A death, recorded as a `playerDeaths` lock row with the state it left behind. */
export interface DeathRecord {
  id: string;
  x: number;
  z: number;
  killedBy: string | null;
  items: { itemId: string; quantity: number; outcome: "dropped" | "kept" }[];
  diedAt: number;
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
  /**
   * What the connection controlling it may do: `admin` from an admin principal, or an `/admin <code>`
   * typed through that connection. Set anew at every attach and reset when the connection goes
   * (src/sessions/playerControl.ts): a right belongs to a connection, never to the character.
   */
  role: Role = "player";
  /** Its controlling connection is an agent's (a scoped agent token): never an admin, `/admin` refused. */
  agentControlled = false;
  /** Tiles still to walk, next step first. */
  path: Tile[] = [];
  running = false;
  /** The run toggle (`player:setRun`): walks and approaches run while energy lasts. Saved with the character (`data.runMode`). */
  get runMode(): boolean {
    return this.data.runMode === true;
  }
  set runMode(on: boolean) {
    if (this.runMode === on) return;
    this.data.runMode = on;
    this.saveDue = true;
  }
  /** Auto Retaliate (retaliate.ts): attacked while idle or busy with a skill, the player fights back. Saved with the character. */
  get autoRetaliate(): boolean {
    return this.data.autoRetaliate !== false;
  }
  set autoRetaliate(on: boolean) {
    if (this.autoRetaliate === on) return;
    this.data.autoRetaliate = on;
    this.saveDue = true;
  }
  /**
   * A requested walk whose path is not searched yet: searched in the tick's movement phase, within
   * the tick's search budget (World.resolveMoves). A newer request replaces it.
   */
  moveTarget: { x: number; z: number; run: boolean } | undefined;
  /** In the world's queue of walks to search (at most once). */
  moveQueued = false;
  /** Since when (tick) its walk has waited in that queue. */
  moveQueuedTick = 0;
  /** What its path searches usually cost (node expansions, a running mean); unknown before the first. */
  searchCost: number | undefined;
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
  /** What others see of its equipment, as last summed up (worn.ts wornOf; refreshed when described). */
  worn: WornSummary = noneWorn();
  /** Bumped with publicVersion at each tick it walked: a change of that many only moved it (see ViewFeed.diff). */
  walkVersion = 0;
  /** Scratch mark of the interest refresh running now (see Interest.refresh). */
  mark = 0;
  /** Its spatial cell in the world's index and its slot there (-1: not indexed). */
  cellKey = -1;
  cellSlot = -1;
  /** Bumped whenever the player's private state changed (each `player:sync`). */
  privateVersion = 0;
  /** When the last session went away (ms), while the player lingers for a reconnection. */
  disconnectedAt: number | undefined;
  /**
   * Accounts this player's account ignores: nothing of theirs reaches it (chat, private messages,
   * trade requests). Kept by the social service (src/social), read before the player enters.
   */
  ignored: ReadonlySet<string> = new Set();
  /** Muted (no public chat, no private messages) until this time (ms), set by the moderation service. */
  mutedUntil: number | undefined;
  /** What the player is doing (walking to, then acting on, a target). */
  action: Action | undefined;
  /** The make loop last started (production.ts): once it is no longer the action, its end is announced. */
  making: Extract<Action, { kind: "make" }> | undefined;
  /** Why the make loop was taken away, when the code that did it knows (walking, combat). */
  makeInterruptedBy: "moved" | "combat" | undefined;
  /** The NPC it fights now, and until when (single-way combat: singleCombat.ts). */
  foe: Foe | undefined = undefined;
  /** The NPC that last hit it (a miss too), and until when it counts as attacking it (singleCombat.ts `playerAttacker`). */
  attackedBy: Foe | undefined = undefined;
  /** No new skilling roll or attack before this tick. */
  nextActionTick = 0;
  /** The prayers switched on (prayer.ts), in the order they were; never saved (off at logout). */
  activePrayers: string[] = [];
  /** The prayer drain counter (prayer.ts): the active prayers' drain effects summed each tick. */
  prayerDrain = 0;
  /** No eating before this tick. */
  nextEatTick = 0;
  /** No burying before this tick. */
  nextBuryTick = 0;
  /** Kills and deaths not yet saved: written in the same transaction as the player's state. */
  pendingKills = new Map<string, number>();
  pendingDeaths: DeathRecord[] = [];
  /** Ground items dropped or taken and not yet saved (see GroundOp). */
  pendingGround: GroundOp[] = [];
  /** While a trade is open, other interfaces are blocked. */
  inTrade = false;
  /** While a trade's swap is being stored: no inventory change, no autosave. */
  tradeCommitting = false;
  /** Killed while its trade's swap was being stored: the death happens once the trade has ended. */
  deathAfterTrade: { killedBy: string | null } | undefined = undefined;
  /** Which tick of each save interval saves this player (set by the world). */
  saveSlot = 0;
  /** Set when it leaves the world. */
  gone = false;
  /** Exceptions its commands or its part of a phase threw (World.contain); at MAX_PLAYER_FAULTS it is disconnected. */
  faults = 0;

  /**
   * Where it stands: the same as `data.x` and `data.z` (what is saved), kept on the player itself
   * because every interest refresh reads the positions of the crowd around its viewer: through
   * `data`, each read was a second object, allocated apart from the player when it was loaded
   * (a cache miss more a player, tens of thousands a tick at 2,000 players). Moved by {@link place} only.
   */
  x: number;
  z: number;

  constructor(data: PlayerData) {
    this.id = data.characterId;
    this.data = data;
    this.x = data.x;
    this.z = data.z;
  }

  /** Puts the player on a tile: its saved data and its own copy alike (the world's spatial index is the caller's to update). */
  place(x: number, z: number): void {
    this.data.x = x;
    this.data.z = z;
    this.x = x;
    this.z = z;
  }
  get maxHealth(): number {
    // Constitution level × 10 hit points (level 10 → 100, the spec's default health).
    return this.data.skills.constitution.level * 10;
  }
}
