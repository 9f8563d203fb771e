/**
 * A `/ws` session as the layers above the socket see it (the world's handler): a plain socket's
 * (WsGateway) or one of a multiplexed connection's (MuxSocket).
 */
import type { Principal } from "../auth/tokens.ts";
import type { Envelope, WsErrorCode } from "./envelope.ts";
import { CLOSE_NOT_AUTHENTICATED } from "../sessions/sessionTypes.ts";

/**
 * Close codes of `/ws` sockets, and of multiplexed sessions (`session:closed`). 4001 (not
 * authenticated) is the session service's too (a revoked agent's connection, either transport).
 */
export { CLOSE_NOT_AUTHENTICATED };
/** The token could not be checked now (the identity provider's keys are unavailable): 1013, try again later. */
export const CLOSE_TRY_AGAIN_LATER = 1013;
export const CLOSE_FORBIDDEN = 4003;
/** A request the server cannot take as it is (a bad query parameter, a bad `session:open`). */
export const CLOSE_BAD_REQUEST = 4000;
export const CLOSE_GOING_AWAY = 1001;

/** What a session of a multiplexed connection offers its handler beyond a plain session. */
export interface WsMux {
  /** The same object for every session of one connection. */
  readonly key: object;
  /** `/ws?mux=1&updates=`: the form of the shared `world:update`. */
  readonly query: URLSearchParams;
  /** Sends a frame to the connection itself (no session: the shared `world:update`). */
  shared(frame: string): void;
  /** Called once when the connection ends (after every session's `close`). */
  onEnd(fn: () => void): void;
}

/** One authenticated `/ws` connection. */
export interface WsSession {
  readonly principal: Principal;
  /** Query parameters of the upgrade request (`characterId`, `name`, …). */
  readonly query: URLSearchParams;
  /** A service token issued to an anonymous connection, so it can come back as the same player. */
  readonly issuedToken: string | undefined;
  /** The client's address (behind TRUST_PROXY's proxies): the admin command's guessing budget is per address. */
  readonly remoteAddress: string | undefined;
  send(type: string, data: object): void;
  /** Sends a frame that is already encoded. */
  sendRaw(frame: string): void;
  readonly tcp?: { cork(): void; uncork(): void } | undefined;
  /** A session of a multiplexed connection (`/ws?mux=1`): its connection's shared parts. */
  readonly mux?: WsMux | undefined;
  sendError(code: WsErrorCode, message: string, event?: string): void;
  close(code: number, reason: string): void;
  readonly isOpen: boolean;
}

export interface WsSessionHandler {
  /** Called once per authenticated connection; sends `welcome` and what follows it. */
  open(session: WsSession): void | Promise<void>;
  message(session: WsSession, envelope: Envelope): void;
  /** `code`: the close code the socket ended with (the client's own when it closed first). */
  close(session: WsSession, code: number): void;
}
