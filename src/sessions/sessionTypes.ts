/**
 * What the world's session service is made of and refuses with: its connections (any transport),
 * the hooks other services set, its timings and close codes, its errors. Re-exported by
 * WorldService.ts, which importers may keep naming.
 */
import type { z } from "zod";
import type { Player } from "../game/world/Player.ts";
import type { ServerEvent } from "../game/serverEvents.ts";
import type { Principal } from "../auth/tokens.ts";
import { CodedError } from "../codedError.ts";

export const LINGER_MS = 30_000;
/** How long a login waits for another process to let a character go (its final save), ms. */
export const TAKEOVER_WAIT_MS = 10_000;
/** How often the waiting login tries the lease again, ms. */
export const TAKEOVER_POLL_MS = 100;

/** The world holds as many players as it may (WORLD_CAPACITY). */
export class WorldFullError extends CodedError<"WORLD_FULL"> {
  constructor(world: number, capacity: number) {
    super("WORLD_FULL", `world ${world} is full (${capacity} players); choose another world`);
  }
}

/** The character entered another world less than the hop cooldown ago. */
export class HopCooldownError extends CodedError<"HOP_COOLDOWN"> {
  /** When the character may enter this world (ISO time). */
  readonly until: string;
  constructor(until: Date) {
    super("HOP_COOLDOWN", `you changed worlds moments ago; you can enter this world at ${until.toISOString()}`);
    this.until = until.toISOString();
  }
}
/** WebSocket close code for a connection whose token no longer holds (a revoked agent); `/ws` sockets close with it too. */
export const CLOSE_NOT_AUTHENTICATED = 4001;
export const CLOSE_REPLACED = 4009;
/** WebSocket close code for a player disconnected after repeated server faults (RFC 6455: internal error). */
export const CLOSE_FAULTS = 1011;
/** WebSocket close code for a player whose character another server process has taken over. */
export const CLOSE_CHARACTER_LOST = 4010;
/** A kind of fault (where and event) is logged once per this interval, with the count of the ones in between. */
export const FAULT_LOG_INTERVAL_MS = 60_000;

export type LogoutReason = "logout" | "disconnect" | "replaced" | "shutdown" | "kicked";

/**
 * Client events handled by a service rather than the game (agent progress reports): validated
 * the same way, answered with an `error` on failure.
 */
export interface ServiceEvent {
  schema: z.ZodType;
  handle(principal: Principal, data: never): Promise<{ code: string; message: string } | void>;
}

/** A client connection of any transport. */
export interface Connection {
  readonly transport: "colyseus" | "ws";
  /** Who the connection acts for (set by the service when it attaches). */
  principal?: Principal;
  readonly remoteAddress?: string | undefined;
  send(type: string, data: object): void;
  /**
   * False while what is sent cannot arrive (a Colyseus client dropped and holding its seat for a
   * reconnection: what it is sent meanwhile is lost). Absent: open while attached.
   */
  isOpen?(): boolean;
  close(code: number, reason: string): void;
  /** Batch writes during a tick (TCP cork), and release them. */
  cork?(): void;
  uncork?(): void;
  /** Set by the service: the `playerSessions` row of this connection. */
  sessionRowId?: Promise<string | undefined>;
  /** Set by the service: whose session this is and when it began (for the leave log line). */
  session?: { characterId: string; name: string; startedAt: number };
}

/**
 * What an agent's new connection starts with: its goal state, read before the login while the
 * agent's pushes are held (see AgentService.greet), so that nothing of the agent's reaches the
 * connection before `welcome` and the state sent is the latest.
 */
export interface AgentGreeting {
  /** The agent's goal state: what was read, or what a change pushed during the hold set. */
  readonly state: ServerEvent<"agent:goal">;
  /** Ends the hold: pushes held meanwhile (owner messages) go out now, in order. */
  release(): void;
}

/** The agent of a token was deleted, or the token replaced, after the token was checked. */
export class AgentRevokedError extends Error {
  readonly code = "NOT_AUTHENTICATED";
}

/**
 * What another service does as characters enter and leave this world (the social service,
 * src/social: a character's ignore list, its friends told it came or went).
 */
export interface WorldHooks {
  /**
   * Before a character of the account is loaded (a throw fails the login, before its lease is
   * taken): resolves with what to do once the player is in the world, before its first tick.
   */
  beforeEnter(accountId: string): Promise<(player: Player) => void>;
  /** After a player has left the world (logout, the end of its linger, a takeover by another process). */
  left(player: Player): void;
}

export interface AttachOptions {
  characterId?: string | undefined;
  name?: string | undefined;
}
