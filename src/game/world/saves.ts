/**
 * When players are saved (phase 6 of the tick, World.ts): each player whose data changed is saved
 * once per save interval, in its own tick of the interval (spread by a hash of its id,
 * `player.saveSlot`, so saves trickle instead of arriving all at once); urgent ones (deaths) in
 * the next persistence phase. Each tick looks at its own share of the players, not at all of them.
 */
import type { Player, PlayerData } from "./Player.ts";
import { snapshot } from "./playerState.ts";

export type OnSave = (snapshots: PlayerData[], despawnedGround: string[]) => void;

export class SaveSchedule {
  private readonly intervalTicks: number;
  /** Players to save this tick, outside the autosave cadence (deaths). */
  private readonly urgent = new Set<Player>();
  /** Players by the tick of the save interval that saves them (saveSlot modulo the interval). */
  private readonly buckets = new Map<number, Set<Player>>();

  constructor(intervalTicks: number) {
    this.intervalTicks = intervalTicks;
  }

  /** A player entered the world (its `saveSlot` set). */
  add(player: Player): void {
    const slot = player.saveSlot % this.intervalTicks;
    const bucket = this.buckets.get(slot);
    if (bucket !== undefined) bucket.add(player);
    else this.buckets.set(slot, new Set([player]));
  }

  /** A player left the world. */
  remove(player: Player): void {
    const slot = player.saveSlot % this.intervalTicks;
    const bucket = this.buckets.get(slot);
    bucket?.delete(player);
    if (bucket?.size === 0) this.buckets.delete(slot);
  }

  /** Saves this player in the next persistence phase, whatever the cadence. */
  request(player: Player): void {
    this.urgent.add(player);
  }

  /**
   * The persistence phase of tick `tick`: hands the players due (and still in `players`) and the
   * stored ground items `despawnedGround` to `onSave`. True when they were handed over (the caller
   * then starts a new list of despawned ground items).
   */
  run(tick: number, players: ReadonlyMap<string, Player>, despawnedGround: string[], onSave: OnSave | undefined): boolean {
    if (onSave === undefined) return false;
    const candidates = new Set<Player>();
    for (const p of this.urgent) if (players.get(p.id) === p) candidates.add(p);
    this.urgent.clear();
    for (const p of this.buckets.get(tick % this.intervalTicks) ?? []) candidates.add(p);
    // A player whose trade is being stored is saved by that trade's transaction, not here.
    const due = [...candidates].filter((p) => !p.tradeCommitting && (p.saveDue || p.pendingKills.size > 0 || p.pendingDeaths.length > 0 || p.pendingGround.length > 0));
    if (due.length === 0 && despawnedGround.length === 0) return false;
    for (const p of due) p.saveDue = false;
    onSave(due.map((p) => snapshot(p)), despawnedGround);
    return true;
  }
}
