/**
 * One agent's connection to the world: the server's `/ws` JSON event socket, opened with the
 * agent's scoped token (PROTOCOL.md "`/ws` authentication"). Events are parsed and handed to the
 * owner; outgoing events are checked against the protocol's own schemas first, so a runtime bug
 * shows up here rather than as the server's `INVALID_PAYLOAD`.
 *
 * A lost connection is retried with backoff (1 s doubling to 30 s, with jitter); closes that a
 * retry cannot fix end it: 4001 (token revoked, agent deleted), 4003 (forbidden), 4009 (another
 * login took the character over).
 *
 * The runtime uses it with AGENT_RT_MUX=0; by default its agents are sessions on multiplexed
 * connections instead (MuxConnection.ts). Both are an {@link AgentLink}.
 */
import WebSocket from "ws";
import { CLIENT_EVENTS, type ClientEvent, type ClientEventName } from "../src/game/clientEvents.ts";
import { AGENT_EVENTS, type AgentEvent, type AgentEventName } from "../src/game/agentEvents.ts";
import type { ServerEventArgs } from "../src/game/serverEvents.ts";
import type { SharedView } from "./AgentView.ts";

export const RETRY_MIN_MS = 1_000;
export const RETRY_MAX_MS = 30_000;
/** Close codes after which reconnecting cannot help. */
export const FINAL_CLOSE_CODES: ReadonlyMap<number, string> = new Map([
  [4001, "the server no longer accepts this agent's token (agent deleted or token replaced)"],
  [4003, "the server refused this agent"],
  [4009, "another login took this character over"],
]);

export interface ConnectionEvents {
  /** A server event: a switch on its name narrows its payload (the server's events fit serverEvents.ts: its tests check every one). */
  onEvent(...event: ServerEventArgs): void;
  onOpen(): void;
  /** `final`: no retry follows (the reason says why). */
  onClose(code: number, reason: string, final: boolean): void;
  /** A multiplexed connection's shared view took a `world:update` (its sessions get none of their own). */
  onViewUpdate?(tick: number): void;
}

export type Outgoing = ClientEventName | AgentEventName;
export type Payload<K extends Outgoing> = K extends ClientEventName ? ClientEvent<K> : K extends AgentEventName ? AgentEvent<K> : never;

/**
 * One agent's way to the world, whatever carries it: its own socket (GameConnection) or a session
 * on a multiplexed one (MuxConnection.ts).
 */
export interface AgentLink {
  /** Events can be sent now. */
  readonly open: boolean;
  /** Game events sent, and events received (the benches and `/stats` read them). */
  readonly sent: number;
  readonly received: number;
  /** Sent events refused locally (a runtime bug), by type. */
  readonly refused: ReadonlyMap<string, number>;
  /** The connection's view shared by its sessions (multiplexed connections only): the agent sees its part of it. */
  readonly sharedView?: SharedView | undefined;
  connect(): void;
  /** Sends an event when the link is open and the payload fits the protocol; false otherwise. */
  send<K extends Outgoing>(type: K, data: Payload<K>): boolean;
  /** Ends the link for good (no retry); `onClose(…, final = true)` follows. */
  close(): void;
}

/** Makes an agent's link from its token and its event handlers. */
export type LinkFactory = (token: string, events: ConnectionEvents) => AgentLink;

/** True when `data` fits the protocol's schema of `type` (the server would accept it); counts a refusal in `refused` otherwise. */
export function fitsProtocol(type: Outgoing, data: unknown, refused: Map<string, number>): boolean {
  const schema = type in CLIENT_EVENTS ? CLIENT_EVENTS[type as ClientEventName].schema : AGENT_EVENTS[type as AgentEventName];
  if (schema.safeParse(data).success) return true;
  refused.set(type, (refused.get(type) ?? 0) + 1);
  return false;
}

/** One backoff: `min` doubling to `max`, each delay ±25 %. */
export class Backoff {
  private ms: number;
  private readonly min: number;
  private readonly max: number;
  constructor(min = RETRY_MIN_MS, max = RETRY_MAX_MS) {
    this.min = min;
    this.max = max;
    this.ms = min;
  }
  next(): number {
    const delay = this.ms * (0.75 + Math.random() * 0.5);
    this.ms = Math.min(this.max, this.ms * 2);
    return delay;
  }
  reset(): void {
    this.ms = this.min;
  }
}

export class GameConnection implements AgentLink {
  private socket: WebSocket | undefined;
  private readonly backoff = new Backoff();
  private retryTimer: NodeJS.Timeout | undefined;
  private closedByUs = false;
  /** Sent events refused locally (a runtime bug), by type. */
  readonly refused = new Map<string, number>();
  sent = 0;
  received = 0;
  readonly sharedView = undefined;

  private readonly url: string;
  private readonly token: string;
  private readonly events: ConnectionEvents;

  constructor(url: string, token: string, events: ConnectionEvents) {
    this.url = url;
    this.token = token;
    this.events = events;
  }

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    this.closedByUs = false;
    const u = new URL(this.url);
    u.searchParams.set("token", this.token);
    // Moves as handles and positions instead of whole entries: less to send and to parse.
    u.searchParams.set("updates", "compact");
    const socket = new WebSocket(u, { perMessageDeflate: false });
    this.socket = socket;
    socket.on("open", () => {
      this.backoff.reset();
      this.events.onOpen();
    });
    socket.on("message", (raw, isBinary) => {
      if (isBinary) return;
      this.received++;
      let frame: { type?: unknown; data?: unknown };
      try {
        frame = JSON.parse(raw.toString()) as typeof frame;
      } catch {
        return;
      }
      if (typeof frame.type === "string" && typeof frame.data === "object" && frame.data !== null)
        this.events.onEvent(...([frame.type, frame.data] as ServerEventArgs));
    });
    // An error is followed by a close; the close decides.
    socket.on("error", () => {});
    socket.on("close", (code, reason) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (this.closedByUs) {
        this.events.onClose(code, "stopped", true);
        return;
      }
      const final = FINAL_CLOSE_CODES.get(code);
      this.events.onClose(code, final ?? (reason.toString() || `connection lost (${code})`), final !== undefined);
      if (final === undefined) this.scheduleRetry();
    });
  }

  private scheduleRetry(): void {
    this.retryTimer = setTimeout(() => this.connect(), this.backoff.next());
    this.retryTimer.unref();
  }

  /** Sends an event when the socket is open and the payload fits the protocol; false otherwise. */
  send<K extends Outgoing>(type: K, data: Payload<K>): boolean {
    if (!fitsProtocol(type, data, this.refused)) return false;
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify({ type, data }));
    this.sent++;
    return true;
  }

  /** Ends the connection for good (no retry). */
  close(): void {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    if (this.socket === undefined) this.events.onClose(1000, "stopped", true);
    else this.socket.close(1000);
  }
}
