/**
 * A multiplexed `/ws` connection (`/ws?mux=1`, protocol in mux.ts): one socket, many sessions.
 *
 * Each session is authenticated with its own token when the client opens it, and is then handed
 * to the same {@link WsSessionHandler} as a plain socket's session, so it plays exactly as one
 * (the same events, limits and errors). What differs is the wire: everything sent to the
 * connection in one turn of the event loop (a tick's events and the views' frame) leaves as one
 * WebSocket message, and the sessions' views go out as one `world:update` of their union (the
 * handler's business: see {@link WsMux.shared}), so a client playing a thousand characters costs
 * the server one write a tick instead of a thousand.
 */
import type { WebSocket, RawData } from "ws";
import type { Authenticator } from "../auth/Authenticator.ts";
import { AuthUnavailable, TokenError, type Principal } from "../auth/tokens.ts";
import { TooManyAttempts, type AuthAttempts } from "../auth/attemptLimiter.ts";
import type { Logger } from "../logger.ts";
import type { Traffic } from "../prometheus.ts";
import { admit, CLOSE_RATE_LIMITED, InputLimiter } from "../sessions/inputLimiter.ts";
import { encode, errorEvent, parseEnvelope, type WsErrorCode } from "./envelope.ts";
import type { LoginBudgets, OpenBucket } from "./loginBudgets.ts";
import { MUX_CLOSE, MUX_CLOSED, MUX_OPEN, muxOpenSchema, sid as sidSchema } from "./mux.ts";
import { CLOSE_BAD_REQUEST, CLOSE_NOT_AUTHENTICATED, CLOSE_TRY_AGAIN_LATER, type WsMux, type WsSession, type WsSessionHandler } from "./session.ts";

export interface MuxOptions {
  auth: Authenticator;
  attempts: AuthAttempts;
  /** The budgets of opens per socket and of logins per character (loginBudgets.ts). */
  logins: LoginBudgets;
  handler: () => WsSessionHandler;
  logger: Logger;
  traffic: Traffic | undefined;
  maxSessions: number;
  /** Without a session opened within this time the socket is closed (4001). */
  openTimeoutMs: number;
}

/** `{"sid":n,` in front of an envelope's own fields. */
const tag = (sid: number, frame: string): string => `{"sid":${sid},${frame.slice(1)}`;

class MuxSession implements WsSession {
  readonly principal: Principal;
  readonly query: URLSearchParams;
  readonly issuedToken = undefined;
  readonly remoteAddress: string | undefined;
  readonly mux: WsMux;
  readonly limiter = new InputLimiter();
  ended = false;
  private readonly sid: number;
  private readonly conn: MuxConnection;

  constructor(conn: MuxConnection, sid: number, principal: Principal, query: URLSearchParams) {
    this.conn = conn;
    this.sid = sid;
    this.principal = principal;
    this.query = query;
    this.remoteAddress = conn.address;
    this.mux = conn.handle;
  }
  get isOpen(): boolean {
    return !this.ended && this.conn.isOpen;
  }
  send(type: string, data: object): void {
    if (!this.isOpen) return;
    this.conn.push(tag(this.sid, encode(type, data)));
    this.conn.traffic?.sent("ws", type, (data as { code?: string }).code);
  }
  sendRaw(frame: string): void {
    if (!this.isOpen) return;
    this.conn.push(tag(this.sid, frame));
  }
  sendError(code: WsErrorCode, message: string, event?: string): void {
    if (!this.isOpen) return;
    this.conn.push(tag(this.sid, errorEvent(code, message, event)));
    this.conn.traffic?.sent("ws", "error", code);
  }
  /** Ends this session only: `session:closed` with the code a plain socket would have been closed with. */
  close(code: number, reason: string): void {
    this.conn.end(this.sid, code, reason);
  }
}

export class MuxConnection {
  readonly handle: WsMux;
  readonly address: string | undefined;
  readonly traffic: Traffic | undefined;
  /** Open sessions, and sids whose `session:open` is being checked (undefined). */
  private readonly sessions = new Map<number, MuxSession | undefined>();
  private queue: string[] = [];
  private flushing = false;
  private readonly ws: WebSocket;
  private readonly options: MuxOptions;
  /** Frames that name no session count here (and refused `session:open`s), as a plain socket's do. */
  private readonly limiter = new InputLimiter();
  private readonly endHooks: (() => void)[] = [];
  /** This socket's `session:open`s (undefined: unlimited). */
  private readonly opens: OpenBucket | undefined;
  private openTimer: NodeJS.Timeout | undefined;

  constructor(ws: WebSocket, query: URLSearchParams, address: string | undefined, options: MuxOptions) {
    this.ws = ws;
    this.options = options;
    this.address = address;
    this.traffic = options.traffic;
    this.opens = options.logins.socketBucket();
    this.handle = {
      key: this,
      query,
      shared: (frame) => {
        this.push(frame);
        this.traffic?.sent("ws", "world:update");
      },
      onEnd: (fn) => this.endHooks.push(fn),
    };
    this.openTimer = setTimeout(() => {
      this.connectionError("NOT_AUTHENTICATED", `no session opened within ${options.openTimeoutMs / 1000} s`);
      this.flush();
      ws.close(CLOSE_NOT_AUTHENTICATED, "no session");
    }, options.openTimeoutMs);
    ws.on("message", (raw: RawData, isBinary: boolean) => this.onMessage(raw, isBinary));
    ws.on("close", (code) => this.onClose(code));
  }

  get isOpen(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  /** Queues a frame; everything queued in this turn of the event loop leaves as one message. */
  push(frame: string): void {
    this.queue.push(frame);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = false;
    const frames = this.queue;
    if (frames.length === 0) return;
    this.queue = [];
    if (this.isOpen) this.ws.send(`[${frames.join(",")}]`);
  }

  private connectionError(code: WsErrorCode, message: string, event?: string): void {
    this.push(errorEvent(code, message, event));
    this.traffic?.sent("ws", "error", code);
  }

  private onMessage(raw: RawData, isBinary: boolean): void {
    if (isBinary) {
      if (this.admitted()) this.connectionError("BAD_FRAME", "binary frames are not accepted; send JSON text frames");
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw.toString());
    } catch {
      if (this.admitted()) this.connectionError("BAD_JSON", "frame is not valid JSON");
      return;
    }
    const parsed = parseEnvelope(value);
    if (!parsed.ok) {
      if (this.admitted()) this.connectionError(parsed.code, parsed.message, parsed.event);
      return;
    }
    const { type, data } = parsed.envelope;
    const sid = sidSchema.safeParse((value as { sid?: unknown }).sid);
    if (!sid.success) {
      if (this.admitted()) this.connectionError("INVALID_PAYLOAD", `"sid" must be an integer 1 … 2^31-1 naming a session of this connection`, type);
      return;
    }
    if (type === MUX_OPEN) {
      // As many logins as sockets would be (a bad token counts against the address's attempts);
      // an open refused before its token is checked counts as a bad frame.
      void this.open(sid.data, data);
      return;
    }
    const session = this.sessions.get(sid.data);
    if (session === undefined) {
      if (this.admitted())
        this.connectionError("INVALID_PAYLOAD", this.sessions.has(sid.data) ? `session ${sid.data} is still opening` : `no open session ${sid.data}`, type);
      return;
    }
    if (!admit(session.limiter, Date.now(), session)) return;
    if (type === MUX_CLOSE) {
      session.close(1000, "logout");
      return;
    }
    if (type === "authenticate") {
      session.sendError("ALREADY_AUTHENTICATED", "this session is already authenticated", type);
      return;
    }
    try {
      this.options.handler().message(session, parsed.envelope);
    } catch (err) {
      this.options.logger.error({ err, event: type }, "/ws handler failed");
      session.sendError("INTERNAL_ERROR", "the server could not handle this event", type);
    }
  }

  /** The connection's own limit (frames that name no session, and refused `session:open`s). */
  private admitted(): boolean {
    return admit(this.limiter, Date.now(), {
      send: (type, data) => this.connectionError((data as { code: WsErrorCode }).code, (data as { message: string }).message),
      close: (code, reason) => {
        this.flush();
        this.ws.close(code, reason);
      },
    });
  }

  /** `session:closed` for a sid that never became a session (after its `error`). */
  private refuse(sid: number, code: WsErrorCode, message: string, closeCode: number, reason: string): void {
    this.push(tag(sid, errorEvent(code, message, MUX_OPEN)));
    this.traffic?.sent("ws", "error", code);
    this.push(tag(sid, encode(MUX_CLOSED, { code: closeCode, reason })));
  }

  private async open(sid: number, data: Record<string, unknown>): Promise<void> {
    if (this.sessions.has(sid)) {
      if (!this.admitted()) return;
      this.connectionError("INVALID_PAYLOAD", `session ${sid} is already open on this connection`, MUX_OPEN);
      return;
    }
    const body = muxOpenSchema.safeParse(data);
    if (!body.success) {
      if (!this.admitted()) return;
      this.refuse(
        sid,
        "INVALID_PAYLOAD",
        `session:open takes {token, characterId?}: ${body.error.issues[0]?.message ?? "invalid"}`,
        CLOSE_BAD_REQUEST,
        "bad request",
      );
      return;
    }
    if (this.sessions.size >= this.options.maxSessions) {
      if (!this.admitted()) return;
      this.refuse(sid, "RATE_LIMITED", `at most ${this.options.maxSessions} sessions on one connection`, CLOSE_TRY_AGAIN_LATER, "too many sessions");
      return;
    }
    if (this.opens?.take() === false) {
      if (!this.admitted()) return;
      this.refuse(sid, "RATE_LIMITED", "too many session:opens on this connection: wait before opening more", CLOSE_RATE_LIMITED, "too many session opens");
      return;
    }
    this.sessions.set(sid, undefined);
    let principal: Principal;
    try {
      principal = await this.options.attempts.checkToken(this.address, () => this.options.auth.authenticate(body.data.token));
    } catch (err) {
      this.sessions.delete(sid);
      if (err instanceof TooManyAttempts) this.refuse(sid, "RATE_LIMITED", err.message, CLOSE_RATE_LIMITED, "too many authentication attempts");
      else if (err instanceof TokenError) this.refuse(sid, "NOT_AUTHENTICATED", err.message, CLOSE_NOT_AUTHENTICATED, "invalid token");
      else if (err instanceof AuthUnavailable) this.refuse(sid, "AUTH_UNAVAILABLE", err.message, CLOSE_TRY_AGAIN_LATER, "authentication unavailable");
      else {
        this.options.logger.error({ err }, "/ws mux: authentication failed");
        this.refuse(sid, "INTERNAL_ERROR", "the server could not check this token", 1011, "server error");
      }
      return;
    }
    // Counted once the token is known good: a character logged in again and again is refused
    // before its login writes anything (no welcome, no takeover, no playerSessions row).
    let refused: string | undefined;
    try {
      refused = await this.options.logins.takeLogin(principal, body.data.characterId);
    } catch (err) {
      this.sessions.delete(sid);
      this.options.logger.error({ err }, "/ws mux: counting a login failed");
      this.refuse(sid, "INTERNAL_ERROR", "the server could not open this session", 1011, "server error");
      return;
    }
    if (refused !== undefined) {
      this.sessions.delete(sid);
      this.refuse(sid, "RATE_LIMITED", refused, CLOSE_RATE_LIMITED, "too many logins");
      return;
    }
    if (!this.isOpen) {
      this.sessions.delete(sid);
      return;
    }
    clearTimeout(this.openTimer);
    const query = new URLSearchParams();
    if (body.data.characterId !== undefined) query.set("characterId", body.data.characterId);
    const session = new MuxSession(this, sid, principal, query);
    this.sessions.set(sid, session);
    const handler = this.options.handler();
    Promise.resolve(handler.open(session)).catch((err: unknown) => {
      this.options.logger.error({ err }, "/ws mux: session start failed");
      session.sendError("INTERNAL_ERROR", "the session could not start");
      session.close(1011, "session start failed");
    });
  }

  /** Ends one session: `session:closed`, then its handler's `close` (as a plain socket's close event would, in a later turn). */
  end(sid: number, code: number, reason: string): void {
    const session = this.sessions.get(sid);
    if (session === undefined || session.ended) return;
    this.push(tag(sid, encode(MUX_CLOSED, { code, reason })));
    session.ended = true;
    this.sessions.delete(sid);
    setImmediate(() => this.options.handler().close(session, code));
  }

  private onClose(code: number): void {
    clearTimeout(this.openTimer);
    this.queue = [];
    const handler = this.options.handler();
    for (const session of this.sessions.values()) {
      if (session === undefined) continue;
      session.ended = true;
      handler.close(session, code);
    }
    this.sessions.clear();
    for (const fn of this.endHooks) fn();
  }
}
