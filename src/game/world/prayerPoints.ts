/**
 * A player's prayer points as the world publishes them (player:sync): below World, which reads
 * them, and below prayer.ts, whose rules spend and restore them.
 */
import type { Player } from "./Player.ts";

/** The most prayer points a player has: its Prayer level. */
export function maxPrayerPoints(player: Player): number {
  return player.data.skills.prayer.level;
}

export function prayerPoints(player: Player): number {
  return Math.min(player.data.prayerPoints ?? maxPrayerPoints(player), maxPrayerPoints(player));
}
