/**
 * The rooms' messages as the typed SDK client sees them (`Client<GameServerDefinition>` of
 * `@colyseus/sdk`, src/app.config.ts): the SDK types `room.send` by a room's `messages` and
 * `room.onMessage` by its client type's `messages`. Both come from the one event table
 * (src/game/clientEvents.ts, src/game/serverEvents.ts), so a client sending or listening for a
 * name the table does not hold, or a payload that does not fit, fails to compile
 * (test/types/typedClients.ts).
 *
 * The rooms take every message through `onMessage("*")` and the WorldService (validated against
 * the same table), so `messages` is a declaration only: it types the SDK and adds no handler.
 */
import type { ClientEvent, ClientEventName } from "../src/game/clientEvents.ts";
import type { ServerMessages } from "../src/game/serverEvents.ts";

/** A room client's type parameters: what it is sent is the server event table. */
export interface SentServerEvents {
  messages: ServerMessages;
}

/** The declared handlers of client events `K`, as the SDK reads a room's `messages`. */
export type ClientEventHandlers<K extends ClientEventName> = { [E in K]: (client: unknown, message: ClientEvent<E>) => void };
