/**
 * The `/ws` endpoint (PROTOCOL.md "/ws authentication and session start"): a plain WebSocket
 * speaking JSON envelopes, for clients that do not use the Colyseus SDK (agents, tools).
 *
 * This layer authenticates and greets; what a session does after `welcome` is up to the
 * {@link WsSessionHandler} given to it (the world plugs in here).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import type { Authenticator } from "../auth/Authenticator.ts";
import { DEFAULT_MUX_MAX_SESSIONS, DEFAULT_WS_HEARTBEAT_MS } from "../config/env.ts";
import { AuthUnavailable, TokenError, type Principal } from "../auth/tokens.ts";
import type { Logger } from "../logger.ts";
import { admit, CLOSE_RATE_LIMITED, InputLimiter } from "../sessions/inputLimiter.ts";
import { AuthAttempts, TooManyAttempts } from "../auth/attemptLimiter.ts";
import { encode, errorEvent, MAX_FRAME_BYTES, parseFrame, type WsErrorCode } from "./envelope.ts";
import type { Traffic } from "../prometheus.ts";
import { MUX_QUERY } from "./mux.ts";
import { MuxConnection } from "./MuxSocket.ts";
import { LoginBudgets } from "./loginBudgets.ts";
import type { RemoteSocket, SocketProcess } from "../io/SocketProcess.ts";
import {
  CLOSE_BAD_REQUEST,
  CLOSE_FORBIDDEN,
  CLOSE_GOING_AWAY,
  CLOSE_NOT_AUTHENTICATED,
  CLOSE_TRY_AGAIN_LATER,
  type WsSession,
  type WsSessionHandler,
} from "./session.ts";

export { CLOSE_BAD_REQUEST, CLOSE_FORBIDDEN, CLOSE_GOING_AWAY, CLOSE_NOT_AUTHENTICATED, CLOSE_TRY_AGAIN_LATER };
export type { WsSession, WsSessionHandler };

export const WS_PATH = "/ws";
/** Without a `?token`, the first message must authenticate within this time (else 4001). */
export const AUTH_TIMEOUT_MS = 10_000;

/** Until the world is attached: greet, then answer every event as unknown. */
export const greetingOnlyHandler: WsSessionHandler = {
  open(session) {
    session.send("welcome", {
      playerId: null,
      characterId: null,
      accountId: session.principal.accountId,
      name: null,
      anonymous: session.principal.anonymous,
      ...(session.issuedToken !== undefined ? { token: session.issuedToken } : {}),
      tick: 0,
    });
  },
  message(session, envelope) {
    session.sendError("UNKNOWN_EVENT", `unknown event "${envelope.type}"`, envelope.type);
  },
  close() {},
};

export interface WsGatewayOptions {
  auth: Authenticator;
  anonymousMode: boolean;
  logger: Logger;
  handler?: WsSessionHandler;
  /** Defaults to {@link AUTH_TIMEOUT_MS}. */
  authTimeoutMs?: number;
  /** Authentication attempts per client address (see AuthAttempts); none: unlimited. */
  attempts?: AuthAttempts;
  /** Opens per multiplexed socket and logins per character (loginBudgets.ts); none: unlimited. */
  logins?: LoginBudgets;
  /** The client's address behind the configured proxies (TRUST_PROXY); defaults to the peer's. */
  clientAddress?: (req: IncomingMessage) => string | undefined;
  /** Heartbeat ping interval; defaults to {@link DEFAULT_WS_HEARTBEAT_MS} (see WS_HEARTBEAT_MS). */
  heartbeatMs?: number;
  /** Counts what is sent (the Prometheus metrics). */
  traffic?: Traffic;
  /** Sessions one multiplexed connection may hold (WS_MUX_MAX_SESSIONS); defaults to DEFAULT_MUX_MAX_SESSIONS. */
  muxMaxSessions?: number;
  /**
   * Where accepted connections live (SOCKET_PROCESS): their handshake, writes, reads and heartbeat
   * are the socket process's. Without it they are this process's (`wss`). Refusals are always
   * answered here.
   */
  io?: SocketProcess;
}

/** The one kind of frame sent pre-encoded (`sendRaw`): a tick's delta. */
const DELTA_EVENT = "world:update";

class Session implements WsSession {
  readonly principal: Principal;
  readonly query: URLSearchParams;
  readonly issuedToken: string | undefined;
  readonly remoteAddress: string | undefined;
  private readonly socket: WebSocket;
  private readonly traffic: Traffic | undefined;
  constructor(
    socket: WebSocket,
    principal: Principal,
    query: URLSearchParams,
    issuedToken: string | undefined,
    remoteAddress: string | undefined,
    traffic: Traffic | undefined,
  ) {
    this.socket = socket;
    this.traffic = traffic;
    this.remoteAddress = remoteAddress;
    this.principal = principal;
    this.query = query;
    this.issuedToken = issuedToken;
  }
  get isOpen(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }
  send(type: string, data: object): void {
    if (!this.isOpen) return;
    this.socket.send(encode(type, data));
    this.traffic?.sent("ws", type, (data as { code?: string }).code);
  }
  sendRaw(frame: string): void {
    if (!this.isOpen) return;
    this.socket.send(frame);
    this.traffic?.sent("ws", DELTA_EVENT);
  }
  /** The TCP socket under the WebSocket, to batch a tick's writes. */
  get tcp(): { cork(): void; uncork(): void } | undefined {
    return (this.socket as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
  }
  sendError(code: Parameters<typeof errorEvent>[0], message: string, event?: string): void {
    if (!this.isOpen) return;
    this.socket.send(errorEvent(code, message, event));
    this.traffic?.sent("ws", "error", code);
  }
  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }
}

export class WsGateway {
  readonly wss: WebSocketServer;
  private readonly options: WsGatewayOptions;
  private readonly attempts: AuthAttempts;
  private readonly logins: LoginBudgets;
  /** Sockets that answered (or were opened) since the last heartbeat ping. */
  private readonly answered = new WeakSet<WebSocket>();
  private readonly heartbeat: NodeJS.Timeout;
  /** The open connections held by the socket process (see WsGatewayOptions.io). */
  private readonly remote = new Set<RemoteSocket>();
  handler: WsSessionHandler;

  constructor(options: WsGatewayOptions) {
    this.options = options;
    this.attempts = options.attempts ?? new AuthAttempts(false);
    this.logins = options.logins ?? new LoginBudgets(false);
    this.handler = options.handler ?? greetingOnlyHandler;
    // Frames over the limit close the socket with 1009 (ws does this itself).
    this.wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
    this.heartbeat = setInterval(() => this.pingAll(), options.heartbeatMs ?? DEFAULT_WS_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * The heartbeat: terminates the sockets that did not answer the last ping, and pings the others.
   * A client that vanished without a close frame (network gone) would otherwise hold its
   * connection, and its player in the world, until the OS times the TCP connection out (hours).
   * Terminating emits `close` as a dropped connection does, so the session ends the same way (the
   * player lingers for its grace period, the playerSessions row says `disconnect`).
   */
  private pingAll(): void {
    for (const ws of this.wss.clients) {
      if (!this.answered.has(ws)) {
        this.options.logger.info("/ws: terminating a connection that did not answer the heartbeat ping");
        ws.terminate();
        continue;
      }
      this.answered.delete(ws);
      ws.ping();
    }
  }

  static isWsPath(req: IncomingMessage): boolean {
    return new URL(req.url ?? "/", "ws://server").pathname === WS_PATH;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const { io } = this.options;
    // Held by this process: without a socket process, or once it is given up (see SocketProcess).
    const local = (): void => this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, req));
    if (io === undefined) return local();
    io.handleUpgrade(
      req,
      socket,
      head,
      "ws",
      (remote) => {
        this.remote.add(remote);
        remote.once("close", () => this.remote.delete(remote));
        // A RemoteSocket is the part of a `ws` WebSocket this gateway uses.
        this.onConnection(remote as unknown as WebSocket, req);
      },
      local,
    );
  }

  /** Open `/ws` connections, this process's and the socket process's. */
  get connections(): number {
    return this.wss.clients.size + this.remote.size;
  }

  /**
   * Accepts a socket only to say why it cannot go on (an `error`, then `closeCode`): a browser
   * cannot read an HTTP refusal of its upgrade.
   */
  refuseUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, code: WsErrorCode, message: string, closeCode: number): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on("error", (err) => this.options.logger.debug({ err }, "/ws socket error"));
      this.refuse(ws, code, message);
      ws.close(closeCode, code.toLowerCase());
    });
  }

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    const query = new URL(req.url ?? "/", "ws://server").searchParams;
    ws.on("error", (err) => this.options.logger.debug({ err }, "/ws socket error"));
    this.answered.add(ws);
    ws.on("pong", () => this.answered.add(ws));
    const queryToken = query.get("token");
    const address = this.options.clientAddress?.(req) ?? req.socket.remoteAddress;

    const mux = query.get(MUX_QUERY);
    if (mux !== null) {
      // Many sessions, each opened with its own token (mux.ts): the socket itself has none.
      if (mux !== "1" || queryToken !== null) {
        this.refuse(
          ws,
          "INVALID_PAYLOAD",
          mux !== "1" ? `mux must be 1, got ${JSON.stringify(mux.slice(0, 40))}` : "a multiplexed connection takes no token: each session:open carries its own",
        );
        ws.close(CLOSE_BAD_REQUEST, "bad mux request");
        return;
      }
      new MuxConnection(ws, query, address, {
        auth: this.options.auth,
        attempts: this.attempts,
        logins: this.logins,
        handler: () => this.handler,
        logger: this.options.logger,
        traffic: this.options.traffic,
        maxSessions: this.options.muxMaxSessions ?? DEFAULT_MUX_MAX_SESSIONS,
        openTimeoutMs: this.options.authTimeoutMs ?? AUTH_TIMEOUT_MS,
      });
      return;
    }

    if (queryToken !== null && queryToken !== "") {
      void this.authenticate(ws, query, queryToken, address);
      return;
    }
    if (this.options.anonymousMode) {
      void this.startAnonymous(ws, query, address);
      return;
    }
    // No token yet: the first message must be `authenticate`.
    const timeoutMs = this.options.authTimeoutMs ?? AUTH_TIMEOUT_MS;
    const timer = setTimeout(() => {
      this.refuse(ws, "NOT_AUTHENTICATED", `no authenticate message within ${timeoutMs / 1000} s`);
      ws.close(CLOSE_NOT_AUTHENTICATED, "authentication timeout");
    }, timeoutMs);
    ws.on("close", () => clearTimeout(timer));
    ws.once("message", (raw: RawData, isBinary: boolean) => {
      clearTimeout(timer);
      const parsed = isBinary ? undefined : parseFrame(raw.toString());
      const token = parsed?.ok && parsed.envelope.type === "authenticate" ? parsed.envelope.data.token : undefined;
      if (typeof token !== "string" || token === "") {
        this.refuse(ws, "NOT_AUTHENTICATED", 'the first message must be {"type":"authenticate","data":{"token":"..."}}');
        ws.close(CLOSE_NOT_AUTHENTICATED, "not authenticated");
        return;
      }
      void this.authenticate(ws, query, token, address);
    });
  }

  /** A connection without a token in anonymous mode: a new identity, if the address's budget allows one more. */
  private async startAnonymous(ws: WebSocket, query: URLSearchParams, address: string | undefined): Promise<void> {
    let issued;
    try {
      await this.attempts.takeAnonymousIdentity(address);
      issued = await this.options.auth.issueAnonymous();
    } catch (err) {
      if (err instanceof TooManyAttempts) return this.refuseAttempt(ws, err);
      this.options.logger.error({ err }, "/ws: issuing an anonymous identity failed");
      ws.close(1011, "server error");
      return;
    }
    this.start(ws, issued.principal, query, issued.token, address);
  }

  /** An `error` to a socket that has no session yet (its authentication failed). */
  private refuse(ws: WebSocket, code: WsErrorCode, message: string): void {
    ws.send(errorEvent(code, message));
    this.options.traffic?.sent("ws", "error", code);
  }

  /** Too many authentication attempts from this address: `error` RATE_LIMITED, close 4029. */
  private refuseAttempt(ws: WebSocket, err: TooManyAttempts): void {
    this.refuse(ws, "RATE_LIMITED", err.message);
    ws.close(CLOSE_RATE_LIMITED, "too many authentication attempts");
  }

  private async authenticate(ws: WebSocket, query: URLSearchParams, token: string, address: string | undefined): Promise<void> {
    let principal: Principal;
    try {
      principal = await this.attempts.checkToken(address, () => this.options.auth.authenticate(token));
    } catch (err) {
      if (err instanceof TooManyAttempts) return this.refuseAttempt(ws, err);
      if (err instanceof TokenError) {
        this.refuse(ws, "NOT_AUTHENTICATED", err.message);
        ws.close(CLOSE_NOT_AUTHENTICATED, "invalid token");
      } else if (err instanceof AuthUnavailable) {
        this.refuse(ws, "AUTH_UNAVAILABLE", err.message);
        ws.close(CLOSE_TRY_AGAIN_LATER, "authentication unavailable");
      } else {
        this.options.logger.error({ err }, "/ws authentication failed");
        ws.close(1011, "server error");
      }
      return;
    }
    // The character's logins, as a multiplexed session's (loginBudgets.ts): refused before anything is written.
    let refused: string | undefined;
    try {
      refused = await this.logins.takeLogin(principal, query.get("characterId") ?? undefined);
    } catch (err) {
      this.options.logger.error({ err }, "/ws: counting a login failed");
      ws.close(1011, "server error");
      return;
    }
    if (refused !== undefined) {
      this.refuse(ws, "RATE_LIMITED", refused);
      ws.close(CLOSE_RATE_LIMITED, "too many logins");
      return;
    }
    if (ws.readyState === ws.OPEN) this.start(ws, principal, query, undefined, address);
  }

  private start(ws: WebSocket, principal: Principal, query: URLSearchParams, issuedToken: string | undefined, address: string | undefined): void {
    const session = new Session(ws, principal, query, issuedToken, address, this.options.traffic);
    const { logger } = this.options;
    // Every frame counts against the limit, well-formed or not.
    const limiter = new InputLimiter();
    ws.on("message", (raw: RawData, isBinary: boolean) => {
      if (!admit(limiter, Date.now(), session)) return;
      if (isBinary) {
        session.sendError("BAD_FRAME", "binary frames are not accepted; send JSON text frames");
        return;
      }
      const parsed = parseFrame(raw.toString());
      if (!parsed.ok) {
        session.sendError(parsed.code, parsed.message, parsed.event);
        return;
      }
      if (parsed.envelope.type === "authenticate") {
        session.sendError("ALREADY_AUTHENTICATED", "this connection is already authenticated", "authenticate");
        return;
      }
      try {
        this.handler.message(session, parsed.envelope);
      } catch (err) {
        logger.error({ err, event: parsed.envelope.type }, "/ws handler failed");
        session.sendError("INTERNAL_ERROR", "the server could not handle this event", parsed.envelope.type);
      }
    });
    ws.on("close", (code) => this.handler.close(session, code));
    Promise.resolve(this.handler.open(session)).catch((err: unknown) => {
      logger.error({ err }, "/ws session start failed");
      session.sendError("INTERNAL_ERROR", "the session could not start");
      session.close(1011, "session start failed");
    });
  }

  /** Closes every `/ws` connection (server shutdown). */
  close(): void {
    clearInterval(this.heartbeat);
    for (const client of this.wss.clients) client.close(CLOSE_GOING_AWAY, "server shutting down");
    for (const client of this.remote) client.close(CLOSE_GOING_AWAY, "server shutting down");
    this.wss.close();
  }
}
