/** The owner's prayer fields of its PlayerState (WorldState.ts), from the game's player (src/game/prayer.ts). */
import { prayerPoints } from "../src/game/prayer.ts";
import type { Player } from "../src/game/world/Player.ts";
import type { PlayerState } from "../schema/WorldState.ts";

export function mirrorPrayer(s: PlayerState, player: Player): void {
  s.prayerPoints = prayerPoints(player);
  const active = player.activePrayers;
  if (s.activePrayers.length === active.length && active.every((id, i) => s.activePrayers.at(i) === id)) return;
  s.activePrayers.clear();
  for (const id of active) s.activePrayers.push(id);
}
