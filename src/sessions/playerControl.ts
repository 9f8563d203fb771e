/**
 * Who controls a live player decides what it may do. A player's rights are never the character's:
 * they are worked out from the principal of the connection that attaches (a login, a takeover by
 * another socket or transport, a session on a multiplexed `/ws` socket, a hop in), and an
 * `/admin <code>` grant lasts only while the connection that typed it controls the player.
 * Before, the role was only ever raised: an agent that took over its owner's character after the
 * owner's `/admin <code>` could mute, ban and broadcast as the owner (security finding 1).
 */
import type { Principal } from "../auth/tokens.ts";
import type { Player, Role } from "../game/world/Player.ts";

/** The role a principal gives the player it controls: an agent's is never admin, whatever its token claims. */
export function roleOf(principal: Principal): Role {
  return principal.agentId === undefined && principal.role === "admin" ? "admin" : "player";
}

/** A connection of `principal` takes control of the player: its rights are that principal's alone. */
export function controlAs(player: Player, principal: Principal): void {
  player.role = roleOf(principal);
  player.agentControlled = principal.agentId !== undefined;
}

/** The controlling connection went away: whatever it was granted (`/admin <code>`) goes with it. */
export function releaseControl(player: Player): void {
  player.role = "player";
}
