/**
 * `/ws?spectate=<characterId>`: a read-only connection that follows a character in the world (an
 * agent's owner watching it play, docs/protocol.md "Spectating"). It is never a session of the
 * character: nothing is loaded, no login is recorded, it does not count as a player, appears
 * nowhere in the world, and the character's own session goes on as it was.
 *
 * - Who may: the character's account (its owner, with an owner's token: not an agent's token, which
 *   plays and never watches) and admins. Anyone else: `error` FORBIDDEN, close 4003.
 * - The character must be in this world: otherwise `error` NOT_ONLINE, close 4004.
 * - It receives `spectate:started`, then with every tick the `world:update` deltas of the
 *   character's own view (the same interest area, built by the same delta builder).
 * - Every event it sends is refused with `error` SPECTATOR and changes nothing.
 * - When the character leaves the world (logout, the linger's end, a kick), it receives
 *   `spectate:ended` and is closed with 1000.
 */
import type { Player } from "../game/world/Player.ts";
import type { WorldService } from "../sessions/WorldService.ts";
import type { WsDeltas } from "./WsDeltas.ts";
import { CLOSE_FORBIDDEN, type WsSession } from "./session.ts";

export const SPECTATE_QUERY = "spectate";
/** The character is not in this world. */
export const CLOSE_NOT_ONLINE = 4004;
/** How often a spectator checks that its character is still in the world. */
export const SPECTATE_CHECK_MS = 500;

export interface Spectator {
  viewer: number | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** Who may watch `player`: its own account with an owner's token, or an admin. Undefined: allowed; else why not. */
export function spectateRefusal(session: WsSession, player: Player): string | undefined {
  const { principal } = session;
  if (principal.role === "admin") return undefined;
  if (principal.agentId !== undefined || principal.characterId !== undefined) return "an agent's or a character's token cannot watch: use the owner's token";
  if (player.data.accountId !== principal.accountId) return "only the character's owner (or an admin) may watch it";
  return undefined;
}

/** Starts a spectator on `session` (whose query has `spectate`); undefined when it was refused (and closed). */
export function openSpectator(session: WsSession, service: WorldService, deltas: WsDeltas, compact: boolean): Spectator | undefined {
  const characterId = session.query.get(SPECTATE_QUERY) ?? "";
  const player = service.world.players.get(characterId);
  if (player === undefined) {
    session.send("error", { code: "NOT_ONLINE", message: `character ${JSON.stringify(characterId.slice(0, 64))} is not in this world` });
    session.close(CLOSE_NOT_ONLINE, "not online");
    return undefined;
  }
  const refused = spectateRefusal(session, player);
  if (refused !== undefined) {
    session.sendError("FORBIDDEN", refused);
    session.close(CLOSE_FORBIDDEN, "forbidden");
    return undefined;
  }
  session.send("spectate:started", {
    characterId: player.id,
    name: player.data.name,
    world: service.worldId,
    tick: service.world.tick,
    tickMs: service.tickMs,
  });
  const spectator: Spectator = { viewer: deltas.add(player.id, (frame) => session.sendRaw(frame), compact), timer: undefined };
  spectator.timer = setInterval(() => {
    if (service.world.players.get(characterId) === player) return;
    closeSpectator(spectator, deltas);
    session.send("spectate:ended", { characterId, reason: "offline" });
    session.close(1000, "character left the world");
  }, SPECTATE_CHECK_MS);
  spectator.timer.unref();
  return spectator;
}

/** Every event of a spectator: refused, nothing changes. */
export function refuseSpectatorEvent(session: WsSession, type: string): void {
  session.send("error", { code: "SPECTATOR", message: "a spectator connection is read-only: it cannot act", event: type });
}

export function closeSpectator(spectator: Spectator, deltas: WsDeltas): void {
  if (spectator.timer !== undefined) clearInterval(spectator.timer);
  spectator.timer = undefined;
  if (spectator.viewer !== undefined) deltas.remove(spectator.viewer);
  spectator.viewer = undefined;
}
