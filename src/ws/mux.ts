/**
 * Multiplexed `/ws` connections (`/ws?mux=1`): one socket carrying many sessions, each an ordinary
 * player logged in with its own token, for a client that plays many characters at once (the agent
 * runtime). Protocol definitions only, imported by the server (WsGateway, worldHandler) and by
 * clients (agent-runtime/MuxConnection.ts). docs/protocol.md "/ws: many sessions on one socket".
 *
 * - Client → server: one envelope per WebSocket message, `{"sid": n, "type", "data"}`; `sid` is an
 *   integer 1 … {@link MAX_SID} the client picks. `session:open` `{token, characterId?}` logs a
 *   session in (the socket itself carries no identity); `session:close` `{}` logs it out; any
 *   other event is that session's, exactly as on a plain `/ws` socket.
 * - Server → client: every WebSocket message is a JSON array of envelopes, everything sent in one
 *   turn of the server (a tick's worth) in one message. An envelope with `sid` is that session's
 *   (the same events a plain `/ws` socket gets, in the same order); `session:closed` `{code,
 *   reason}` ends one, with the close code a plain socket would have got. Envelopes without `sid`
 *   are the connection's: one `world:update` a tick with the union of its sessions' views (each
 *   entity once), and `error`s about frames that name no session.
 */
import { z } from "zod";

export const MUX_QUERY = "mux";
/** The highest session id a client may pick. */
export const MAX_SID = 2 ** 31 - 1;

export const MUX_OPEN = "session:open";
export const MUX_CLOSE = "session:close";
export const MUX_CLOSED = "session:closed";

export const sid = z.int().min(1).max(MAX_SID);

/** What a client sends to open a session: its token (an agent's scoped token, or a player's), and the character for an account token. */
export const muxOpenSchema = z.strictObject({ token: z.string().min(1).max(8_192), characterId: z.string().min(1).max(64).optional() });

/** `session:closed`: the session ended; `code` is the close code a plain `/ws` socket would have got (4001 token refused, 4009 taken over, 1000 logged out, …). */
export const muxClosedSchema = z.strictObject({ code: z.int(), reason: z.string() });
