/**
 * Many agents on one socket: a multiplexed `/ws` connection (`/ws?mux=1`, src/ws/mux.ts; docs/protocol.md
 * "/ws: many sessions on one socket"). Each agent is a session on it, logged in with its own token
 * (`session:open`) and addressed by a session id the runtime picks; the server sends every
 * session's events tagged with its id, and one `world:update` a tick for the whole connection, the
 * union of its sessions' views, merged here once into a {@link SharedView} that each agent's
 * AgentView filters to what it sees.
 *
 * Lost sockets are retried as GameConnection retries its own (1 s doubling to 30 s, with jitter),
 * and every session still wanted is opened again; a session the server ends with a code a retry can
 * fix (1013, 4029, …) is opened again with its own backoff, one it ends for good (4001, 4003,
 * 4009: FINAL_CLOSE_CODES) is not. {@link MuxPool} spreads the runtime's agents over as many
 * connections as it takes to hold at most `perSocket` sessions each.
 */
import WebSocket from "ws";
import { MAX_SID, MUX_CLOSE, MUX_CLOSED, MUX_OPEN, MUX_QUERY, muxClosedSchema } from "../src/ws/mux.ts";
import type { ServerEventArgs } from "../src/game/serverEvents.ts";
import type { WorldUpdate } from "../src/game/worldUpdate.ts";
import { SharedView } from "./AgentView.ts";
import {
  Backoff,
  FINAL_CLOSE_CODES,
  RETRY_MAX_MS,
  RETRY_MIN_MS,
  fitsProtocol,
  type AgentLink,
  type ConnectionEvents,
  type Outgoing,
  type Payload,
} from "./GameConnection.ts";

/**
 * `session:open`s sent on one connection in any second at most: each is a login (a few database
 * queries), so a connection's 500 agents are logged in over 10 s rather than all at once, as after
 * a reconnect, when the server is busiest.
 */
export const MUX_OPENS_PER_SECOND = 50;

export interface MuxOptions {
  /** The first retry's delay and the cap of its doubling (tests shorten them). */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** MUX_OPENS_PER_SECOND. */
  opensPerSecond?: number;
}

type Envelope = { sid?: unknown; type?: unknown; data?: unknown };

/** One multiplexed socket and its sessions. */
export class MuxConnection {
  /** The union of the sessions' views (one `world:update` a tick for all of them). */
  readonly view = new SharedView();
  /** WebSocket messages received (each an array of envelopes), and sockets opened. */
  received = 0;
  opens = 0;
  private socket: WebSocket | undefined;
  /** No `world:update` yet on the current socket: the first one restarts the shared view. */
  private fresh = true;
  private readonly backoff: Backoff;
  private retryTimer: NodeJS.Timeout | undefined;
  /** The sessions held, by sid: created and not yet closed by the runtime (idle, wanted or ended by the server). */
  private readonly sessions = new Map<number, MuxSession>();
  private nextSid = 1;
  /** Sessions waiting for their `session:open` to go out (at most opensPerSecond a second). */
  private readonly opening = new Set<MuxSession>();
  private openWindowStart = 0;
  private opensInWindow = 0;
  private openTimer: NodeJS.Timeout | undefined;
  readonly url: string;
  readonly options: Required<MuxOptions>;

  constructor(url: string, options: MuxOptions = {}) {
    this.url = url;
    this.options = {
      retryMinMs: options.retryMinMs ?? RETRY_MIN_MS,
      retryMaxMs: options.retryMaxMs ?? RETRY_MAX_MS,
      opensPerSecond: options.opensPerSecond ?? MUX_OPENS_PER_SECOND,
    };
    this.backoff = new Backoff(this.options.retryMinMs, this.options.retryMaxMs);
  }

  /** Sessions held (whether playing or not): what MuxPool counts against its limit. */
  get size(): number {
    return this.sessions.size;
  }

  /** The socket is open. */
  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** A new session for a token (opened by its connect()). */
  session(token: string, events: ConnectionEvents): MuxSession {
    let sid = this.nextSid;
    while (this.sessions.has(sid)) sid = sid >= MAX_SID ? 1 : sid + 1;
    this.nextSid = sid >= MAX_SID ? 1 : sid + 1;
    const s = new MuxSession(this, sid, token, events);
    this.sessions.set(sid, s);
    return s;
  }

  /** Ends every session and the socket for good. */
  close(): void {
    for (const s of [...this.sessions.values()]) s.close();
    this.drop();
  }

  // ---- for MuxSession ------------------------------------------------------------------------

  /** A session wants to play: the socket is opened if it is not (the session is opened when it is). */
  want(s: MuxSession): void {
    this.sessions.set(s.sid, s);
    if (this.socket === undefined && this.retryTimer === undefined) this.connect();
    else if (this.open) this.openSession(s);
  }

  /** A session ended (closed by the runtime, or for good by the server): the socket goes when no session wants it. */
  release(s: MuxSession, forget: boolean): void {
    if (forget && this.sessions.get(s.sid) === s) this.sessions.delete(s.sid);
    for (const other of this.sessions.values()) if (other.wanted) return;
    this.drop();
  }

  /** Sends one envelope when the socket is open. */
  post(sid: number, type: string, data: object): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify({ sid, type, data }));
    return true;
  }

  // ---- the socket ----------------------------------------------------------------------------

  private connect(): void {
    this.retryTimer = undefined;
    const u = new URL(this.url);
    u.searchParams.delete("token");
    u.searchParams.set(MUX_QUERY, "1");
    // Moves as handles and positions instead of whole entries: less to send and to parse.
    u.searchParams.set("updates", "compact");
    const socket = new WebSocket(u, { perMessageDeflate: false });
    this.socket = socket;
    this.fresh = true;
    socket.on("open", () => {
      if (this.socket !== socket) return;
      this.opens++;
      this.backoff.reset();
      for (const s of this.sessions.values()) if (s.wanted) this.openSession(s);
    });
    socket.on("message", (raw, isBinary) => {
      if (isBinary || this.socket !== socket) return;
      this.received++;
      let frame: unknown;
      try {
        frame = JSON.parse(raw.toString());
      } catch {
        return;
      }
      for (const e of (Array.isArray(frame) ? frame : [frame]) as Envelope[]) {
        if (typeof e !== "object" || e === null || typeof e.type !== "string" || typeof e.data !== "object" || e.data === null) continue;
        if (e.sid === undefined) this.onOwnEvent(socket, e.type, e.data as Record<string, unknown>);
        else if (typeof e.sid === "number") this.sessions.get(e.sid)?.onEnvelope(e.type, e.data as Record<string, unknown>);
        // Closed meanwhile (the last session left, or a broken stream): the rest is moot.
        if (this.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
      }
    });
    // An error is followed by a close; the close decides.
    socket.on("error", () => {});
    socket.on("close", (code, reason) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.stopOpening();
      const why = reason.toString() || `connection lost (${code})`;
      let wanted = false;
      for (const s of [...this.sessions.values()]) {
        if (!s.wanted) continue;
        wanted = true;
        s.lost(code, why);
      }
      if (wanted) this.scheduleRetry();
    });
  }

  /** Queues a session's `session:open` (sent at once while the second's allowance lasts). */
  private openSession(s: MuxSession): void {
    this.opening.add(s);
    this.pumpOpens();
  }

  private pumpOpens(): void {
    // Waiting for the next second's allowance.
    if (this.openTimer !== undefined) return;
    for (const s of this.opening) {
      if (!this.open) return;
      const now = Date.now();
      if (now - this.openWindowStart >= 1_000) {
        this.openWindowStart = now;
        this.opensInWindow = 0;
      }
      if (this.opensInWindow >= this.options.opensPerSecond) {
        this.openTimer = setTimeout(
          () => {
            this.openTimer = undefined;
            this.pumpOpens();
          },
          this.openWindowStart + 1_000 - now,
        );
        this.openTimer.unref();
        return;
      }
      this.opening.delete(s);
      // Closed, ended or opened again while it waited: nothing to send.
      if (!s.wanted || s.live || this.sessions.get(s.sid) !== s) continue;
      this.opensInWindow++;
      if (this.post(s.sid, MUX_OPEN, { token: s.token })) s.opened();
    }
  }

  private stopOpening(): void {
    this.opening.clear();
    clearTimeout(this.openTimer);
    this.openTimer = undefined;
  }

  /** The connection's own events: the shared `world:update`, and errors about frames that named no session. */
  private onOwnEvent(socket: WebSocket, type: string, data: Record<string, unknown>): void {
    if (type !== "world:update") return;
    try {
      if (this.fresh) this.view.clear();
      this.fresh = false;
      this.view.apply(data as WorldUpdate);
    } catch {
      // A broken stream (a move by a handle nothing named): start over with a fresh socket.
      this.view.clear();
      socket.close(4000, "broken world:update stream");
      return;
    }
    const tick = this.view.tick;
    for (const s of this.sessions.values()) if (s.live) s.events.onViewUpdate?.(tick);
  }

  private scheduleRetry(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), this.backoff.next());
    this.retryTimer.unref();
  }

  /** No session wants the socket: it closes (a new one opens for the next session that does). */
  private drop(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.stopOpening();
    const socket = this.socket;
    this.socket = undefined;
    this.backoff.reset();
    if (socket !== undefined) {
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(1000);
    }
  }
}

type SessionState = "idle" | "wanted" | "retrying" | "ended" | "closed";

/** One agent's session on a multiplexed connection: its link to the world. */
export class MuxSession implements AgentLink {
  readonly sid: number;
  readonly token: string;
  readonly events: ConnectionEvents;
  readonly refused = new Map<string, number>();
  sent = 0;
  received = 0;
  private readonly mux: MuxConnection;
  private state: SessionState = "idle";
  /** `session:open` went out on the current socket (and no `session:closed` came back since). */
  private isOpen = false;
  private readonly backoff: Backoff;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(mux: MuxConnection, sid: number, token: string, events: ConnectionEvents) {
    this.mux = mux;
    this.sid = sid;
    this.token = token;
    this.events = events;
    this.backoff = new Backoff(mux.options.retryMinMs, mux.options.retryMaxMs);
  }

  get sharedView(): SharedView {
    return this.mux.view;
  }

  get open(): boolean {
    return this.isOpen && this.mux.open;
  }

  /** The session is to be open (whenever the socket is). */
  get wanted(): boolean {
    return this.state === "wanted" || this.state === "retrying";
  }

  /** Opened on the current socket. */
  get live(): boolean {
    return this.isOpen;
  }

  connect(): void {
    if (this.wanted) return;
    this.state = "wanted";
    this.mux.want(this);
  }

  send<K extends Outgoing>(type: K, data: Payload<K>): boolean {
    if (!fitsProtocol(type, data, this.refused)) return false;
    if (!this.open || !this.mux.post(this.sid, type, data)) return false;
    this.sent++;
    return true;
  }

  /** Logs the session out for good (`session:close`); `onClose(1000, "stopped", true)` follows. */
  close(): void {
    if (this.state === "closed") return;
    const wasOpen = this.open;
    this.state = "closed";
    clearTimeout(this.retryTimer);
    if (wasOpen) this.mux.post(this.sid, MUX_CLOSE, {});
    this.isOpen = false;
    this.mux.release(this, true);
    // After the caller's own bookkeeping, as a socket's close event comes.
    setImmediate(() => this.events.onClose(1000, "stopped", true));
  }

  // ---- for MuxConnection ---------------------------------------------------------------------

  /** `session:open` went out. */
  opened(): void {
    clearTimeout(this.retryTimer);
    this.state = "wanted";
    this.isOpen = true;
    this.events.onOpen();
  }

  /** The socket closed under the session: it is opened again with the next socket. */
  lost(code: number, reason: string): void {
    clearTimeout(this.retryTimer);
    this.state = "wanted";
    this.isOpen = false;
    this.events.onClose(code, reason, false);
  }

  /** One envelope of this session's. */
  onEnvelope(type: string, data: Record<string, unknown>): void {
    if (!this.isOpen) return;
    this.received++;
    if (type === MUX_CLOSED) {
      const closed = muxClosedSchema.safeParse(data);
      this.ended(closed.success ? closed.data.code : 1011, closed.success ? closed.data.reason : "session closed");
      return;
    }
    if (type === "welcome") this.backoff.reset();
    this.events.onEvent(...([type, data] as ServerEventArgs));
  }

  /** The server ended the session: for good (FINAL_CLOSE_CODES), or to be opened again after a backoff. */
  private ended(code: number, reason: string): void {
    this.isOpen = false;
    const final = FINAL_CLOSE_CODES.get(code);
    if (final !== undefined) {
      this.state = "ended";
      this.events.onClose(code, final, true);
      // The slot stays held (the agent may connect again) but the socket need not stay for it.
      this.mux.release(this, false);
      return;
    }
    this.state = "retrying";
    this.events.onClose(code, reason || `session ended (${code})`, false);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (this.state !== "retrying") return;
      this.state = "wanted";
      this.mux.want(this);
    }, this.backoff.next());
    this.retryTimer.unref();
  }
}

/**
 * The runtime's multiplexed connections: a new session goes on the first connection holding fewer
 * than `perSocket` sessions, on a new one when all are full.
 */
export class MuxPool {
  readonly connections: MuxConnection[] = [];
  private readonly url: string;
  private readonly perSocket: number;
  private readonly options: MuxOptions;

  constructor(url: string, perSocket: number, options: MuxOptions = {}) {
    this.url = url;
    this.perSocket = perSocket;
    this.options = options;
  }

  session(token: string, events: ConnectionEvents): MuxSession {
    let mux = this.connections.find((c) => c.size < this.perSocket);
    if (mux === undefined) {
      mux = new MuxConnection(this.url, this.options);
      this.connections.push(mux);
    }
    return mux.session(token, events);
  }

  /** Sockets open now. */
  get sockets(): number {
    return this.connections.filter((c) => c.open).length;
  }

  close(): void {
    for (const c of this.connections) c.close();
  }
}
