/**
 * `/ws` sessions as full participants of the world: each authenticated socket is attached to its
 * player through the WorldService (the same path as Colyseus clients), and after every tick gets
 * a `world:update` delta of what is in its view (built by {@link WsDeltas}).
 *
 * After authentication a socket receives, in order: `welcome`, `player:sync`, for an agent's token
 * `agent:goal` (its current goal state), and, with the next tick, a `world:update` with every
 * entity in view. Messages that arrive while the player is still
 * loading are kept and handled, in order, once it is in the world.
 */
import type { Player } from "../game/world/Player.ts";
import type { Logger } from "../logger.ts";
import { PlayerLoadError } from "../persistence/players.ts";
import { BannedError, CLOSE_BANNED } from "../moderation/ModerationService.ts";
import { RestartingError } from "../moderation/RestartSchedule.ts";
import { AgentRevokedError, HopCooldownError, WorldFullError, type Connection, type WorldService } from "../sessions/WorldService.ts";
import type { Envelope } from "./envelope.ts";
import type { WsDeltas } from "./WsDeltas.ts";
import { closeSpectator, openSpectator, refuseSpectatorEvent, SPECTATE_QUERY, type Spectator } from "./spectator.ts";
import { CLOSE_BAD_REQUEST, CLOSE_FORBIDDEN, CLOSE_NOT_AUTHENTICATED, CLOSE_TRY_AGAIN_LATER, type WsSession, type WsSessionHandler } from "./session.ts";

/** A client that closes its socket with the normal-closure code logs out (no reconnection grace). */
export const CLOSE_LOGOUT = 1000;

interface Attached {
  player: Player | undefined;
  conn: Connection;
  pending: Envelope[];
  closed: boolean;
  closeCode?: number;
  /** Its id with the delta builder, once it is in the world. */
  viewer: number | undefined;
}

/** `/ws?updates=`: the documented `world:update` entries (default), or compact ones (ViewTracker). */
export const UPDATES_FULL = "full";
export const UPDATES_COMPACT = "compact";

export function worldSessionHandler(service: WorldService, deltas: WsDeltas, logger: Logger): WsSessionHandler {
  const sessions = new WeakMap<WsSession, Attached>();
  /** Read-only connections (`?spectate=`, spectator.ts): never in `sessions`, never a player's. */
  const spectators = new WeakMap<WsSession, Spectator>();
  /** Multiplexed connections' groups (WsDeltas.addGroup): one `world:update` a tick for all their sessions. */
  const groups = new WeakMap<object, number>();
  const groupOf = (mux: NonNullable<WsSession["mux"]>, compact: boolean): number => {
    let group = groups.get(mux.key);
    if (group === undefined) {
      const id = deltas.addGroup((frame) => mux.shared(frame), compact);
      groups.set(mux.key, id);
      mux.onEnd(() => deltas.removeGroup(id));
      group = id;
    }
    return group;
  };

  return {
    async open(session) {
      // `world:update` in the documented form (the default), or compact (handles and `moved`, see ViewTracker).
      const updates = (session.mux?.query ?? session.query).get("updates") ?? UPDATES_FULL;
      if (updates !== UPDATES_FULL && updates !== UPDATES_COMPACT) {
        session.sendError("INVALID_PAYLOAD", `updates must be "${UPDATES_FULL}" or "${UPDATES_COMPACT}", got ${JSON.stringify(updates.slice(0, 40))}`);
        session.close(CLOSE_BAD_REQUEST, "bad updates");
        return;
      }
      if (session.query.has(SPECTATE_QUERY)) {
        if (session.mux !== undefined) {
          session.sendError("INVALID_PAYLOAD", "a multiplexed session cannot spectate: open a plain /ws?spectate=<characterId>");
          session.close(CLOSE_BAD_REQUEST, "bad spectate");
          return;
        }
        const spectator = openSpectator(session, service, deltas, updates === UPDATES_COMPACT);
        if (spectator !== undefined) spectators.set(session, spectator);
        return;
      }
      const conn: Connection = {
        transport: "ws",
        remoteAddress: session.remoteAddress,
        send: (type, data) => session.send(type, data),
        close: (code, reason) => session.close(code, reason),
        cork: () => session.tcp?.cork(),
        uncork: () => session.tcp?.uncork(),
      };
      const state: Attached = { player: undefined, conn, pending: [], closed: false, viewer: undefined };
      sessions.set(session, state);
      let player: Player;
      try {
        // Sends welcome, player:sync (and an agent's agent:goal) once the player is in the world.
        player = await service.login(
          session.principal,
          { characterId: session.query.get("characterId") ?? undefined, name: session.query.get("name") ?? undefined },
          conn,
          session.issuedToken,
        );
      } catch (err) {
        const code = err instanceof PlayerLoadError ? err.code : (err as { code?: string }).code;
        if (err instanceof AgentRevokedError) {
          session.sendError("NOT_AUTHENTICATED", err.message);
          session.close(CLOSE_NOT_AUTHENTICATED, "agent revoked");
          return;
        }
        if (err instanceof RestartingError) {
          // A scheduled restart's last minute: come back once it is over (`until`: the restart).
          session.send("error", { code: "RESTARTING", message: err.message, until: err.until });
          session.close(CLOSE_TRY_AGAIN_LATER, "restarting");
          return;
        }
        if (err instanceof WorldFullError || err instanceof HopCooldownError) {
          // Come back later, or choose another world (`until`: when the hop cooldown ends).
          session.send("error", { code: err.code, message: err.message, ...(err instanceof HopCooldownError ? { until: err.until } : {}) });
          session.close(CLOSE_TRY_AGAIN_LATER, err.code === "WORLD_FULL" ? "world full" : "hop cooldown");
          return;
        }
        if (err instanceof BannedError) {
          session.send("error", { code: "BANNED", message: err.message, until: err.until });
          session.close(CLOSE_BANNED, "banned");
          return;
        }
        if (code === "FORBIDDEN" || code === "NOT_FOUND") {
          session.sendError("FORBIDDEN", (err as Error).message);
          session.close(CLOSE_FORBIDDEN, "forbidden character");
          return;
        }
        if (code === "CHARACTER_IN_USE") {
          // Live in another server process (its lease): try again once that one lets it go.
          session.sendError("CHARACTER_IN_USE", (err as Error).message);
          session.close(CLOSE_TRY_AGAIN_LATER, "character in use");
          return;
        }
        if (code === "INVALID_NAME" || code === "NAME_TAKEN") {
          session.sendError("INVALID_PAYLOAD", (err as Error).message);
          session.close(CLOSE_BAD_REQUEST, "bad name");
          return;
        }
        throw err;
      }
      state.player = player;
      if (state.closed) {
        service.detach(player.id, conn, state.closeCode === CLOSE_LOGOUT ? "logout" : "disconnect");
        return;
      }
      const compact = updates === UPDATES_COMPACT;
      state.viewer =
        session.mux === undefined
          ? deltas.add(player.id, (frame) => session.sendRaw(frame), compact)
          : deltas.add(player.id, () => {}, compact, groupOf(session.mux, compact));
      for (const env of state.pending.splice(0)) service.input(player.id, conn, env.type, env.data);
    },

    message(session, envelope) {
      if (spectators.has(session)) return refuseSpectatorEvent(session, envelope.type);
      const state = sessions.get(session);
      if (state === undefined) return;
      if (state.player === undefined) {
        state.pending.push(envelope);
        return;
      }
      service.input(state.player.id, state.conn, envelope.type, envelope.data);
    },

    close(session, code) {
      const spectator = spectators.get(session);
      if (spectator !== undefined) {
        spectators.delete(session);
        return closeSpectator(spectator, deltas);
      }
      const state = sessions.get(session);
      if (state === undefined) return;
      state.closed = true;
      state.closeCode = code;
      if (state.viewer !== undefined) deltas.remove(state.viewer);
      // A normal close (1000) is the client's logout: the player leaves now, saved. Any other end
      // (a dropped network, a closed tab) leaves it in the world for the reconnection grace.
      if (state.player !== undefined) service.detach(state.player.id, state.conn, code === CLOSE_LOGOUT ? "logout" : "disconnect");
      logger.debug({ account: session.principal.accountId }, "/ws session closed");
    },
  };
}
