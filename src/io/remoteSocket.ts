/**
 * The socket process's side of one connection: a {@link RemoteSocket} stands for a WebSocket the
 * child holds (src/io/SocketProcess.ts), and hands its writes to its owner's outbox.
 */
import { EventEmitter } from "node:events";
import type { SocketKind } from "./protocol.ts";

export const CONNECTING = 0;
export const OPEN = 1;
export const CLOSING = 2;
export const CLOSED = 3;

/** A socket's write on its way to the outbox (a frame, text or bytes; a close with its code and reason; a terminate). */
export type WriteOp = "send" | "close" | "terminate";

/** What a RemoteSocket needs of the socket process that holds it (SocketProcess). */
export interface SocketOwner {
  /** A write of socket `id`, in order; `held`: the socket is corked, and the write waits with its kind's. */
  enqueue(op: WriteOp, id: number, a: unknown, b: unknown, held?: SocketKind): void;
  /** A socket of `kind` was uncorked: the kind's held writes join the outbox. */
  release(kind: SocketKind): void;
}

/**
 * A WebSocket held by the socket process, as `ws`'s WebSocket looks to the code that uses it.
 * Events: `message` (data: Buffer, isBinary), `close` (code, reason: Buffer), `pong` (never:
 * the child runs the heartbeat).
 */
export class RemoteSocket extends EventEmitter {
  readonly CONNECTING = CONNECTING;
  readonly OPEN = OPEN;
  readonly CLOSING = CLOSING;
  readonly CLOSED = CLOSED;
  readyState = OPEN;
  readonly id: number;
  readonly kind: SocketKind;
  /** Whether its writes are held (corked, see `_socket`): they wait in its kind's held outbox. */
  private held = false;
  private readonly owner: SocketOwner;
  /**
   * Stands for the TCP socket under a `ws` WebSocket, for the code that corks a tick's writes
   * (rooms/WorldRoom.ts, src/ws/WsGateway.ts).
   */
  readonly _socket = {
    cork: (): void => {
      this.held = true;
    },
    uncork: (): void => {
      if (!this.held) return;
      this.held = false;
      this.owner.release(this.kind);
    },
  };

  constructor(owner: SocketOwner, id: number, kind: SocketKind) {
    super();
    this.owner = owner;
    this.id = id;
    this.kind = kind;
  }

  /** As `ws`'s: `cb` is called once the frame is handed on (the socket process writes it in order). */
  send(data: string | Uint8Array | ArrayBuffer | number[], options?: unknown, cb?: (err?: Error) => void): void {
    const callback = typeof options === "function" ? (options as (err?: Error) => void) : cb;
    if (this.readyState !== OPEN) {
      if (callback !== undefined) queueMicrotask(() => callback(new Error(`WebSocket is not open: readyState ${this.readyState}`)));
      return;
    }
    // The outbox copies the bytes in as they are sent (held ones too, into their kind's held outbox).
    const frame =
      typeof data === "string" || data instanceof Uint8Array
        ? data
        : ArrayBuffer.isView(data)
          ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
          : new Uint8Array(data);
    this.owner.enqueue("send", this.id, frame, undefined, this.held ? this.kind : undefined);
    if (callback !== undefined) queueMicrotask(() => callback());
  }

  close(code?: number, reason?: string | Buffer): void {
    if (this.readyState >= CLOSING) return;
    this.readyState = CLOSING;
    // 0: no code (the child sends a close frame without one).
    this.write("close", code ?? 0, reason === undefined ? "" : String(reason));
  }

  terminate(): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSING;
    // Held writes go first: a terminate drops what the child has not written, as `ws`'s does.
    this._socket.uncork();
    this.owner.enqueue("terminate", this.id, undefined, undefined);
  }

  /** The child pings (see child.ts); here a ping is a no-op. */
  ping(): void {}

  private write(op: WriteOp, a: unknown, b: unknown): void {
    this.owner.enqueue(op, this.id, a, b, this.held ? this.kind : undefined);
  }

  /** The connection ended (reported by the child, or the child is gone). */
  closed(code: number, reason: string): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    // What it still holds goes to the child with its kind's, which no longer knows it and drops it.
    this.held = false;
    this.emit("close", code, Buffer.from(reason));
  }
}
