/**
 * What the world's rules answer and emit, below World and every rule: a refusal (GameError), a
 * handler's result, a message for a client, and a fault the tick contained.
 */

export interface OutboundMessage {
  to: string;
  type: string;
  data: object;
}

export interface GameError {
  code: string;
  message: string;
  /** A refusal that lasts (MUTED): when it ends (ISO time). */
  until?: string;
}

/** What an input handler returns: nothing, or an error for the sender. */
export type HandlerResult = void | GameError;

/** A player whose commands threw this many times is disconnected (saved first). */
export const MAX_PLAYER_FAULTS = 3;

/**
 * An exception contained by the tick: in one player's command (`input`, with the event), in one
 * entity's part of a phase, or in a phase as a whole. `disconnect`: the player reached
 * MAX_PLAYER_FAULTS and must be disconnected (saved first).
 */
export interface Fault {
  where: string;
  event?: string | undefined;
  playerId?: string | undefined;
  entityId?: string | undefined;
  error: unknown;
  disconnect?: boolean;
}
