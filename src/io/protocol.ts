/**
 * What the World's process and its socket process (SocketProcess.ts, child.ts) say to each other:
 * over the IPC channel (Node's `advanced` serialization: strings and byte arrays as they are), the
 * handles, pings and the child's reports; over a pipe of their own ({@link DATA_FD}), the writes.
 *
 * Batches are flat arrays of fixed-size records, so a tick's thousands of writes cost one message
 * and no object per write.
 */
import { deserialize, serialize } from "node:v8";
import type { Writable } from "node:stream";

/** The two kinds of WebSocket the server speaks: Colyseus' (binary) and `/ws` (JSON text). */
export type SocketKind = "colyseus" | "ws";

/** Per kind: the WebSocket limits and the heartbeat, which the socket process runs. */
export interface KindOptions {
  /** Largest frame a client may send, in bytes (larger: closed with 1009). */
  maxPayload: number;
  /** A ping every this many ms; 0: none. */
  pingIntervalMs: number;
  /** A socket that left this many pings in a row unanswered is terminated. */
  maxMissedPings: number;
}

export interface ChildOptions {
  kinds: Record<SocketKind, KindOptions>;
}

/**
 * Reading is held back where the World's process cannot keep up, as TCP held clients back when it
 * read the sockets itself (child.ts): a client gets {@link INPUT_BYTES_PER_SECOND} of frames a second (then
 * its socket is paused until the next second), and while more than {@link MAX_UNSENT} reports
 * wait in the IPC channel every socket is paused.
 */
export const INPUT_BYTES_PER_SECOND = 1024 * 1024;
export const MAX_UNSENT = 32;
/** A socket the World's process closed has its frames dropped here (they would be there), and is terminated after this long if its client does not answer the close (`ws` would wait 30 s). */
export const CLOSE_GRACE_MS = 3_000;
/** A socket holding more unsent bytes than this (a client that stopped reading) is terminated. */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** Records of a main → child batch: [op, id, a, b]. */
export const OP_SEND = 0;
/** a: close code (0: none), b: reason. */
export const OP_CLOSE = 1;
export const OP_TERMINATE = 2;
export const OP_SIZE = 4;

/** Records of a child → main batch: [event, id, a, b]. */
/** a: the frame (a Uint8Array), b: whether it was binary. */
export const EV_MESSAGE = 0;
/** a: close code, b: reason. */
export const EV_CLOSE = 1;
export const EV_SIZE = 4;

/**
 * The child's fd that carries the World's process's writes (`batch`, then `end`): length-prefixed
 * v8-serialized {@link ToData} messages, in order. Handles and pings go by the IPC channel.
 */
export const DATA_FD = 4;

export type ToData =
  | { t: "batch"; ops: unknown[] }
  /** Close every socket (`code`, `reason`), then exit once they are gone (or after `graceMs`). */
  | { t: "end"; code: number; reason: string; graceMs: number };

/** Writes one message on the data pipe: its length (4 bytes, big-endian), then its bytes. */
export function writeData(pipe: Writable, message: ToData): void {
  const body = serialize(message);
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(body.length);
  pipe.cork();
  pipe.write(head);
  pipe.write(body);
  pipe.uncork();
}

/** Splits the data pipe's bytes into messages, whatever its chunks; O(bytes). */
export class DataReader {
  private chunks: Buffer[] = [];
  private have = 0;
  /** The whole message's length with its prefix, once the prefix is in (-1: not yet). */
  private need = -1;
  private readonly onMessage: (message: ToData) => void;
  constructor(onMessage: (message: ToData) => void) {
    this.onMessage = onMessage;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.have += chunk.length;
    for (;;) {
      if (this.need < 0) {
        if (this.have < 4) return;
        const first = this.chunks[0]!.length >= 4 ? this.chunks[0]! : Buffer.concat(this.chunks);
        this.need = 4 + first.readUInt32BE(0);
      }
      if (this.have < this.need) return;
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.have);
      const message = deserialize(all.subarray(4, this.need)) as ToData;
      const rest = all.subarray(this.need);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.have = rest.length;
      this.need = -1;
      this.onMessage(message);
    }
  }
}

export type ToChild =
  /** A socket to take over (sent with the handle): complete its WebSocket handshake. */
  | { t: "upgrade"; id: number; kind: SocketKind; method: string; url: string; headers: Record<string, string | string[] | undefined>; head: Uint8Array }
  /** Are you there? (Answered with the same `n`: the World's process restarts a child that does not answer.) */
  | { t: "ping"; n: number };

export type FromChild =
  /** The child is up and takes sockets (nothing is handed to it before). */
  | { t: "ready" }
  /** The handshake is done: the socket is open. */
  | { t: "open"; id: number }
  /** The handshake was refused or the socket went before it was done. */
  | { t: "failed"; id: number }
  | { t: "batch"; events: unknown[] }
  | { t: "pong"; n: number }
  /** Something went wrong that the World's process should log. */
  | { t: "warn"; message: string };
