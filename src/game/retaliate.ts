/**
 * Auto Retaliate, as the genre has it (on for a new character; the Combat tab's toggle,
 * `player:setAutoRetaliate {on}`): a player an NPC attacks fights back at once when it is standing
 * idle or busy with a skill (gathering, cooking, making, at a bank or in a dialogue: the attack
 * ends those), never while it walks (a player walking away is running, not fighting) and never when
 * it already attacks or casts at something. Off, the player only takes the hits, as the genre's
 * players do to walk past aggressive monsters. Saved with the character (the `autoRetaliate` column).
 */
import type { NpcInstance } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, World } from "./world/World.ts";

export function setAutoRetaliate(_world: World, player: Player, data: { on: boolean }): HandlerResult {
  if (player.autoRetaliate !== data.on) {
    player.autoRetaliate = data.on;
    player.syncDue = true;
  }
}

/** After an NPC's attack on a living player: the player fights back when Auto Retaliate says so. */
export function retaliate(world: World, player: Player, npc: NpcInstance): void {
  if (!player.autoRetaliate || player.inTrade || player.data.health <= 0) return;
  if (player.path.length > 0 || player.moveTarget !== undefined) return;
  const kind = player.action?.kind;
  if (kind === "attack" || kind === "cast") return;
  if (npc.def.combat?.attackable !== true || npc.deadUntil !== 0 || !world.npcs.has(npc.id)) return;
  player.action = { kind: "attack", targetId: npc.id };
}
