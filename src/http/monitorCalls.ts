/**
 * The monitor's room actions (`GET /colyseus/api/room/call?roomId&method&args`), checked before the
 * monitor runs them. Stock, that endpoint calls any method of any room by name, so one button (or
 * one typed URL) could end the world: DISPOSE (`disconnect`) of the world room stopped its tick for
 * every player on both transports until the process was restarted by hand, and
 * `setSimulationInterval` with no callback, or a state edit the next tick trips over, did the same.
 *
 * - Only the methods the panel calls go through (`UNKNOWN_METHOD` otherwise).
 * - The world room: DISPOSE is refused (the maintenance restart is the way to restart a world);
 *   BROADCAST is the game's broadcast (ModerationService, audited, `via: monitor`): a `system`
 *   line to every player of every process, from the payload's `message`; the state, a mirror of
 *   the game rebuilt each tick, is not edited; no raw message goes to a player. Its disconnect
 *   button on a player's row is the game's kick (ModerationService.kick: audited, `via: monitor`,
 *   the player told KICKED on either transport); on any other row the stock disconnect.
 * - A trade room: DISPOSE cancels the trade (TradeRoom.cancelFromMonitor), which closes the room;
 *   no raw message, no state edit: the room mirrors the trade of the world.
 * Refusals are the REST error shape; the stock panel only logs a call's answer to the console, so
 * monitorPanel.ts adds a script to its page that shows a refusal's reason on screen.
 */
import { matchMaker } from "@colyseus/core";
import type { Request, RequestHandler, Response } from "express";
import { sendError } from "./errors.ts";
import { ADMIN_CODE_ACTOR, MODERATION_ERROR_STATUS, ModerationError, type Actor } from "../moderation/ModerationService.ts";

/** What the panel calls (its buttons): nothing else is called through the monitor. */
export const MONITOR_METHODS = new Set([
  "disconnect",
  "broadcast",
  "_forceClientDisconnect",
  "_sendMessageToClient",
  "_editStateProperty",
  "_deleteStateProperty",
]);

export interface MonitorCallRooms {
  /** The world room's name (its rows get the `wsPlayers` column, its actions are checked below). */
  worldRoom: string;
  /** The trade rooms' name. */
  tradeRoom: string;
  /** The game's broadcast (ModerationService.broadcast): audited, to every player. */
  broadcast: (actor: Actor, message: string) => Promise<unknown>;
  /** The game's kick (ModerationService.kick): audited, the player logged out on any process. */
  kick: (actor: Actor, name: string, reason: string) => Promise<unknown>;
}

const REFUSED = "ROOM_ACTION_REFUSED";
const WORLD_REFUSALS: Record<string, string> = {
  disconnect:
    "the world room cannot be disposed: every player of this world, on Colyseus and /ws, is in it, and it does not come back until the process restarts. To restart the world, schedule a maintenance restart: POST /api/admin/restart {inSeconds, reason} (everyone is told and saved, and the process exits 0 for its supervisor to start it again)",
  _sendMessageToClient: "the world room sends players the game's events only: use BROADCAST (a system line to every player) or POST /api/admin/broadcast",
  _editStateProperty: "the world room's state mirrors the game and is rebuilt each tick: change the game through the admin API (/api/admin/teleport, …)",
  _deleteStateProperty: "the world room's state mirrors the game and is rebuilt each tick: change the game through the admin API (/api/admin/teleport, …)",
};
const TRADE_REFUSALS: Record<string, string> = {
  broadcast: "a trade room sends its players the trade's events only",
  _sendMessageToClient: "a trade room sends its players the trade's events only",
  _editStateProperty: "a trade room's state mirrors the trade in the world: DISPOSE cancels the trade",
  _deleteStateProperty: "a trade room's state mirrors the trade in the world: DISPOSE cancels the trade",
};

function actorOf(req: Request): Actor {
  return { accountId: req.principal?.accountId ?? ADMIN_CODE_ACTOR, via: "monitor" };
}

/** The middleware, mounted in front of the monitor (its path `/api/room/call`). */
export function monitorCalls(rooms: MonitorCallRooms): RequestHandler {
  return (req, res, next) => {
    // Whatever the HTTP method: a HEAD is answered by the monitor's GET endpoint too.
    if (req.path !== "/api/room/call") return next();
    const { roomId, method, args } = req.query;
    // What the monitor's own check refuses (a missing or repeated field) is left to it.
    if (typeof roomId !== "string" || typeof method !== "string" || typeof args !== "string") return next();
    if (!MONITOR_METHODS.has(method)) {
      sendError(res, 400, "UNKNOWN_METHOD", `the monitor calls only its panel's actions: ${[...MONITOR_METHODS].join(", ")}`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed)) {
      sendError(res, 400, "INVALID_PAYLOAD", "args is a JSON array of the method's arguments");
      return;
    }
    void (async () => {
      const listing = (await matchMaker.findRoomsByIds([roomId])).get(roomId);
      // A room no process lists: the monitor answers that it is not available.
      if (listing === undefined) return next();
      if (listing.name === rooms.worldRoom) return worldCall(rooms, req, res, roomId, method, parsed, next);
      if (listing.name === rooms.tradeRoom) return tradeCall(res, roomId, method, next);
      next();
    })().catch(next);
  };
}

async function worldCall(
  rooms: MonitorCallRooms,
  req: Request,
  res: Response,
  roomId: string,
  method: string,
  args: unknown[],
  next: () => void,
): Promise<void> {
  const refusal = WORLD_REFUSALS[method];
  if (refusal !== undefined) return sendError(res, 409, REFUSED, refusal);
  if (method === "_forceClientDisconnect") return worldKick(rooms, req, res, roomId, args[0], next);
  if (method !== "broadcast") return next();
  // The panel's BROADCAST: (message type, payload); the type is the panel's, the line the payload's `message`.
  const payload = args[1];
  const message = typeof payload === "string" ? payload : (payload as { message?: unknown } | null)?.message;
  if (typeof message !== "string") {
    return sendError(
      res,
      400,
      "INVALID_PAYLOAD",
      'the world room\'s BROADCAST is the game\'s: give the payload {"message": "…"}, sent as a system line to every player',
    );
  }
  try {
    const action = await rooms.broadcast(actorOf(req), message);
    res.json({ success: true, action });
  } catch (err) {
    if (!(err instanceof ModerationError)) throw err;
    sendError(res, MODERATION_ERROR_STATUS[err.code], err.code, err.message);
  }
}

/** The disconnect button on a world player's row: the game's kick, audited under the admin who pressed it. */
async function worldKick(rooms: MonitorCallRooms, req: Request, res: Response, roomId: string, row: unknown, next: () => void): Promise<void> {
  const name = (await matchMaker.remoteRoomCall(roomId, "monitorPlayerName", [row])) as string | undefined;
  if (name === undefined) return next();
  try {
    const action = await rooms.kick(actorOf(req), name, "disconnected from the monitor");
    res.json({ success: true, action });
  } catch (err) {
    if (!(err instanceof ModerationError)) throw err;
    sendError(res, MODERATION_ERROR_STATUS[err.code], err.code, err.message);
  }
}

async function tradeCall(res: Response, roomId: string, method: string, next: () => void): Promise<void> {
  const refusal = TRADE_REFUSALS[method];
  if (refusal !== undefined) return sendError(res, 409, REFUSED, refusal);
  if (method !== "disconnect") return next();
  let answer: { cancelled: boolean; refused?: string };
  try {
    answer = (await matchMaker.remoteRoomCall(roomId, "cancelFromMonitor", [])) as typeof answer;
  } catch {
    return sendError(res, 404, "NOT_FOUND", `room ${roomId} is not available anymore`);
  }
  if (answer.refused !== undefined) return sendError(res, 409, REFUSED, answer.refused);
  res.json({ success: true, cancelled: answer.cancelled });
}
