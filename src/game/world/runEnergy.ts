/**
 * Run energy, as Old School RuneScape has it: 10,000 units are 100 %, shown rounded down (the game
 * shows 0 % below 100 units). OSRS wiki "Energy" (oldschool.runescape.wiki/w/Energy):
 * - a tick running (two tiles moved) costs 67 + ⌊67 × clamp(weight, 0, 64) / 64⌋ units: 0.67 % a
 *   tick at 0 kg or less (150 ticks, 90 s, from 100 % to 0), twice that at 64 kg or more (75
 *   ticks). A tick in which a running player moved one tile (a path's last) costs nothing ("moving
 *   to an adjacent tile through walking will not drain energy, even if Run is turned on");
 * - any other tick (walking or standing) restores ⌊agility / 6⌋ + 8 units: at Agility 1, 1 % every
 *   12.5 ticks (the wiki's "1 energy every 7.5 seconds"; 12.5 minutes from empty to full), at 50
 *   one every 6.25 ticks (its "1 energy per 4 seconds", rounded). (The rates of RS2 and of OSRS
 *   before its 2023 Agility rework, as 2009scape and LostCity implement them.)
 * - weight: the content's `weight` (kg) of every carried and worn item, times its quantity;
 * - a run needs 1 % to start ("turning on Run is only possible while a player has 1 % energy or
 *   more"); at 0 the player walks on and its run mode switches off.
 *
 * Cost: only players who ran this tick or are still recovering are looked at (a set of them), not
 * every player every tick; `player:sync` is due only when the shown percentage changes.
 */
import type { ContentRegistry } from "../../manifests/registry.ts";
import type { Player, PlayerData } from "./Player.ts";

export const MAX_RUN_ENERGY = 10_000;
/** Units a run needs to start: 1 %. */
export const MIN_ENERGY_TO_RUN = 100;

/** Units one tick of running costs, carrying `weight` kg. */
export function runDrain(weight: number): number {
  return 67 + Math.floor((67 * Math.min(64, Math.max(0, weight))) / 64);
}

/** Units one tick of walking or standing restores, at an Agility level. */
export function runRestore(agility: number): number {
  return Math.floor(agility / 6) + 8;
}

/** Kilograms carried and worn (the content's item weights; an item without one weighs nothing). */
export function carriedWeight(content: ContentRegistry, data: PlayerData): number {
  let kg = 0;
  for (const s of data.inventory) if (s !== null) kg += (content.item(s.itemId)?.weight ?? 0) * s.quantity;
  for (const k in data.equipment) {
    const s = data.equipment[k]!;
    kg += (content.item(s.itemId)?.weight ?? 0) * s.quantity;
  }
  return kg;
}

/** The player's run energy in units (a character saved before run energy existed: full). */
export function runEnergyOf(player: Player): number {
  return player.data.runEnergy ?? MAX_RUN_ENERGY;
}

/** The percentage the game shows: rounded down. */
export function shownRunEnergy(units: number): number {
  return Math.floor(units / 100);
}

/** What of the world run energy needs. */
interface Host {
  readonly content: ContentRegistry;
  readonly tick: number;
  tell(to: string, message: string): void;
}

function setEnergy(player: Player, before: number, after: number): void {
  player.data.runEnergy = after;
  if (shownRunEnergy(before) !== shownRunEnergy(after)) {
    player.syncDue = true;
    player.saveDue = true;
  }
}

/** One world's run energy: who drained it this tick and who is recovering. */
export class RunEnergy {
  /** Players below full energy: each restores a little every tick it does not run. */
  private readonly recovering = new Set<Player>();
  /** Players who ran this tick (no restoring for them). */
  private readonly ran = new Set<Player>();

  /** A player entering the world recovers whatever it lacks. */
  enter(player: Player): void {
    if (runEnergyOf(player) < MAX_RUN_ENERGY) this.recovering.add(player);
  }

  /** Whether a walk asked to run is run: without 1 % of energy it is walked, and the player told so. */
  canRun(world: Host, player: Player, wanted: boolean): boolean {
    if (!wanted) return false;
    if (runEnergyOf(player) >= MIN_ENERGY_TO_RUN) return true;
    // The toggle goes off with it, so a run mode does not repeat the message at every approach.
    if (player.runMode) {
      player.runMode = false;
      player.syncDue = true;
    }
    world.tell(player.id, "You are too tired to run: you walk.");
    return false;
  }

  /** After the player's steps of a tick: two tiles cost energy; out of it, the player walks on. */
  moved(world: Host, player: Player, steps: number): void {
    if (steps < 2) return;
    const before = runEnergyOf(player);
    const after = Math.max(0, before - runDrain(carriedWeight(world.content, player.data)));
    setEnergy(player, before, after);
    this.ran.add(player);
    this.recovering.add(player);
    if (after === 0) {
      player.running = false;
      player.runMode = false;
      player.publicVersion++;
      player.syncDue = true;
      world.tell(player.id, "You have run out of energy: you walk.");
    }
  }

  /** The end of the movement phase: everyone recovering who did not run this tick restores some. */
  restore(): void {
    for (const player of this.recovering) {
      if (player.gone) {
        this.recovering.delete(player);
        continue;
      }
      if (this.ran.has(player)) continue;
      const before = runEnergyOf(player);
      const after = Math.min(MAX_RUN_ENERGY, before + runRestore(player.data.skills.agility.level));
      setEnergy(player, before, after);
      if (after === MAX_RUN_ENERGY) this.recovering.delete(player);
    }
    this.ran.clear();
  }
}
