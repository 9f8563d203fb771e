/**
 * What the World's process and its socket process (SocketProcess.ts, child.ts) say to each other:
 * over the IPC channel (Node's `advanced` serialization: strings and byte arrays as they are), the
 * handles, pings and the child's reports; over a pipe of their own ({@link DATA_FD}), the writes.
 *
 * A tick's thousands of writes cost one message and no object per write: on the data pipe, one
 * buffer of records; on the IPC channel, the child's reports as flat arrays of fixed-size records.
 */

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

/**
 * Records of a main → child batch, on the data pipe (see {@link Outbox}): the op (1 byte) and the
 * socket's id (4 bytes), then per op: a frame's length (4 bytes) and its bytes (text frames as
 * UTF-8); a close's code (2 bytes, 0: none), its reason's length (2 bytes) and its UTF-8 bytes; a
 * terminate, nothing. A frame sent to several sockets in a row (a chat line to everyone in view)
 * is one record: {@link OP_SEND_TEXT_MANY} or {@link OP_SEND_BINARY_MANY}, the first socket's id,
 * the frame as above, then how many more sockets (4 bytes) and their ids (4 bytes each).
 */
export const OP_SEND_TEXT = 0;
export const OP_SEND_BINARY = 1;
export const OP_CLOSE = 2;
export const OP_TERMINATE = 3;
export const OP_SEND_TEXT_MANY = 4;
export const OP_SEND_BINARY_MANY = 5;

/** Records of a child → main batch: [event, id, a, b]. */
/** a: the frame (a Uint8Array), b: whether it was binary. */
export const EV_MESSAGE = 0;
/** a: close code, b: reason. */
export const EV_CLOSE = 1;
export const EV_SIZE = 4;

/**
 * The child's fd that carries the World's process's writes: messages of a length (4 bytes, the
 * rest of the message), a type ({@link DATA_BATCH} or {@link DATA_END}) and a body, in order.
 * Handles and pings go by the IPC channel.
 */
export const DATA_FD = 4;
/** A batch of write records (see {@link OP_SEND_TEXT}). */
export const DATA_BATCH = 0;
/**
 * Close every socket, then exit once they are gone (or after the grace): the code (2 bytes), the
 * grace in ms (4 bytes) and the reason (UTF-8, the rest).
 */
export const DATA_END = 1;
/** Buffers an {@link Outbox} keeps for its next batches, and the largest it keeps. */
const SPARE_BUFFERS = 2;
const MAX_SPARE_BYTES = 16 * 1024 * 1024;
/** A data message's length and type. */
const HEAD = 5;
/** The largest message the reader takes (a batch of a tick's frames is a few MB). */
export const MAX_DATA_MESSAGE = 1024 * 1024 * 1024;

/** Frames whose bytes never change (see unchanging). */
const UNCHANGING = new WeakSet<Uint8Array>();

/**
 * Marks `frame` as never changed after this (a message encoded once and kept for all its
 * recipients), so that an {@link Outbox} sending it to several sockets in a row copies it once.
 * Bytes not marked are copied at each send: their caller may reuse the buffer.
 */
export function unchanging<T extends Uint8Array>(frame: T): T {
  UNCHANGING.add(frame);
  return frame;
}

/**
 * The writes on their way to the child, as one batch's bytes: each frame is copied in when it is
 * sent (a caller may reuse its buffer), and the batch leaves as one message ({@link take}). No
 * object per write, and nothing to serialize: a tick's thousands of frames cost one copy each.
 *
 * A frame sent again right after itself, to another socket, is not copied again: the record
 * before gets the socket's id (see {@link OP_SEND_TEXT_MANY}). A chat line is encoded once and
 * sent to the ~120 players in view one after the other: copied each time, ~0.8 MB of a tick's
 * batch at 2,000 players, read again in the child. An equal string (the same text), or the same
 * bytes marked {@link unchanging} (comparing bytes costs more than copying them).
 */
export class Outbox {
  private buf: Buffer;
  private end = HEAD;
  private readonly initial: number;
  /** Written batches' buffers, for the next ones (see take). */
  private readonly spare: Buffer[] = [];
  /** The frame of the last record, while it is the last one (else undefined), where the record starts, and its frame's length in bytes. */
  private lastFrame: string | Uint8Array | undefined;
  private lastAt = 0;
  private lastBytes = 0;
  constructor(initialBytes = 64 * 1024) {
    this.initial = Math.max(initialBytes, 64);
    this.buf = Buffer.allocUnsafe(this.initial);
  }

  get empty(): boolean {
    return this.end === HEAD;
  }

  send(id: number, data: string | Uint8Array): void {
    if (data === this.lastFrame && this.again(data)) return this.addSocket(id);
    const at = this.end;
    this.sendOne(id, data);
    this.lastFrame = data;
    this.lastAt = at;
    this.lastBytes = this.end - at - 9;
  }

  /** Whether `data`, the last record's frame object, still holds that record's bytes: a string, or bytes marked {@link unchanging}. */
  private again(data: string | Uint8Array): boolean {
    return typeof data === "string" || UNCHANGING.has(data);
  }

  /** The last record, a send, goes to socket `id` too. */
  private addSocket(id: number): void {
    const op = this.buf[this.lastAt]!;
    if (op === OP_SEND_TEXT || op === OP_SEND_BINARY) {
      this.room(8);
      this.buf[this.lastAt] = op === OP_SEND_TEXT ? OP_SEND_TEXT_MANY : OP_SEND_BINARY_MANY;
      this.buf.writeUInt32BE(1, this.end);
      this.buf.writeUInt32BE(id, this.end + 4);
      this.end += 8;
      return;
    }
    this.room(4);
    // After the op, the first id, the length and the frame.
    const countAt = this.lastAt + 9 + this.lastBytes;
    this.buf.writeUInt32BE(this.buf.readUInt32BE(countAt) + 1, countAt);
    this.buf.writeUInt32BE(id, this.end);
    this.end += 4;
  }

  private sendOne(id: number, data: string | Uint8Array): void {
    if (typeof data === "string") {
      // At most 3 bytes of UTF-8 per UTF-16 unit.
      this.room(9 + data.length * 3);
      const n = this.buf.write(data, this.end + 9, "utf8");
      this.record(OP_SEND_TEXT, id);
      this.buf.writeUInt32BE(n, this.end);
      this.end += 4 + n;
    } else {
      this.room(9 + data.byteLength);
      this.record(OP_SEND_BINARY, id);
      this.buf.writeUInt32BE(data.byteLength, this.end);
      this.buf.set(data, this.end + 4);
      this.end += 4 + data.byteLength;
    }
  }

  /**
   * `code` 0: a close frame without a code. A reason is cut to the 123 bytes a close frame holds.
   * A code no close frame can carry (not a whole number of 16 bits) terminates the connection, as
   * `ws` refuses to send it; checked before anything is written, so the batch stays whole.
   */
  close(id: number, code: number, reason: string): void {
    if (!Number.isInteger(code) || code < 0 || code > 0xffff) return this.terminate(id);
    this.lastFrame = undefined;
    const bytes = closeReason(reason);
    const n = bytes.length;
    this.room(9 + n);
    this.record(OP_CLOSE, id);
    this.buf.writeUInt16BE(code, this.end);
    this.buf.writeUInt16BE(n, this.end + 2);
    bytes.copy(this.buf, this.end + 4);
    this.end += 4 + n;
  }

  terminate(id: number): void {
    this.lastFrame = undefined;
    this.room(5);
    this.record(OP_TERMINATE, id);
  }

  /**
   * The batch as one data message, and the outbox starts a new one. The message is the caller's to
   * write; `done` gives its buffer back for a later batch once it is written (a fresh buffer
   * costs a page fault a page: a tick's batch is a few MB).
   */
  take(): { message: Buffer; done: () => void } {
    const buf = this.buf;
    const length = this.end;
    buf.writeUInt32BE(length - 4, 0);
    buf[4] = DATA_BATCH;
    this.buf = this.spare.pop() ?? Buffer.allocUnsafe(this.initial);
    this.end = HEAD;
    this.lastFrame = undefined;
    return {
      message: buf.subarray(0, length),
      done: () => {
        if (this.spare.length < SPARE_BUFFERS && buf.length <= MAX_SPARE_BYTES) this.spare.push(buf);
      },
    };
  }

  /** Moves `other`'s records behind this one's, in one copy; `other` is left empty. */
  append(other: Outbox): void {
    const n = other.end - HEAD;
    this.room(n);
    other.buf.copy(this.buf, this.end, HEAD, other.end);
    this.end += n;
    other.end = HEAD;
    other.lastFrame = undefined;
    if (n > 0) this.lastFrame = undefined;
  }

  /** Drops what is held (its child is gone). */
  clear(): void {
    this.end = HEAD;
    this.lastFrame = undefined;
  }

  private record(op: number, id: number): void {
    this.buf[this.end] = op;
    this.buf.writeUInt32BE(id, this.end + 1);
    this.end += 5;
  }

  private room(n: number): void {
    if (this.end + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.end + n));
    this.buf.copy(bigger, 0, 0, this.end);
    this.buf = bigger;
  }
}

/** A close frame's reason: UTF-8, cut to the 123 bytes a close frame holds (between characters). */
function closeReason(reason: string): Buffer {
  const bytes = Buffer.from(reason, "utf8");
  if (bytes.length <= 123) return bytes;
  let n = 123;
  // Not inside a character: back to the byte that starts it.
  while (n > 0 && (bytes[n]! & 0xc0) === 0x80) n--;
  return bytes.subarray(0, n);
}

/** The message that ends the child: close every socket with `code` and `reason`, exit after `graceMs` at most. */
export function endMessage(code: number, reason: string, graceMs: number): Buffer {
  const r = closeReason(reason);
  const buf = Buffer.allocUnsafe(HEAD + 6 + r.length);
  buf.writeUInt32BE(buf.length - 4, 0);
  buf[4] = DATA_END;
  buf.writeUInt16BE(code, 5);
  buf.writeUInt32BE(graceMs, 7);
  r.copy(buf, 11);
  return buf;
}

/** What a batch's records say, one call per record (see {@link OP_SEND_TEXT}). */
export interface BatchVisitor {
  /** `frame` is a view into the batch: copy it to keep it. */
  send(id: number, frame: Buffer, binary: boolean): void;
  close(id: number, code: number, reason: string): void;
  terminate(id: number): void;
}

/** Reads a batch's records in order. A malformed batch throws (after the records before the fault). */
export function readBatch(body: Buffer, visit: BatchVisitor): void {
  let at = 0;
  while (at < body.length) {
    if (at + 5 > body.length) throw new Error("a write record is cut short");
    const op = body[at]!;
    const id = body.readUInt32BE(at + 1);
    at += 5;
    switch (op) {
      case OP_SEND_TEXT:
      case OP_SEND_BINARY: {
        const n = body.readUInt32BE(at);
        if (at + 4 + n > body.length) throw new Error("a frame is cut short");
        visit.send(id, body.subarray(at + 4, at + 4 + n), op === OP_SEND_BINARY);
        at += 4 + n;
        break;
      }
      case OP_CLOSE: {
        const code = body.readUInt16BE(at);
        const n = body.readUInt16BE(at + 2);
        if (at + 4 + n > body.length) throw new Error("a close is cut short");
        visit.close(id, code, body.toString("utf8", at + 4, at + 4 + n));
        at += 4 + n;
        break;
      }
      case OP_SEND_TEXT_MANY:
      case OP_SEND_BINARY_MANY: {
        const n = body.readUInt32BE(at);
        if (at + 8 + n > body.length) throw new Error("a frame is cut short");
        const frame = body.subarray(at + 4, at + 4 + n);
        const binary = op === OP_SEND_BINARY_MANY;
        const more = body.readUInt32BE(at + 4 + n);
        at += 8 + n;
        if (at + 4 * more > body.length) throw new Error("a frame's sockets are cut short");
        visit.send(id, frame, binary);
        for (let i = 0; i < more; i++) visit.send(body.readUInt32BE(at + 4 * i), frame, binary);
        at += 4 * more;
        break;
      }
      case OP_TERMINATE:
        visit.terminate(id);
        break;
      default:
        throw new Error(`unknown write op ${op}`);
    }
  }
}

export interface DataHandlers {
  /** A batch's records (read them with {@link readBatch}). */
  batch(body: Buffer): void;
  end(code: number, reason: string, graceMs: number): void;
}

/** Splits the data pipe's bytes into messages, whatever its chunks; O(bytes). */
export class DataReader {
  private chunks: Buffer[] = [];
  private have = 0;
  /** The whole message's length with its prefix, once the prefix is in (-1: not yet). */
  private need = -1;
  private readonly handlers: DataHandlers;
  constructor(handlers: DataHandlers) {
    this.handlers = handlers;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.have += chunk.length;
    for (;;) {
      if (this.need < 0) {
        if (this.have < 4) return;
        const first = this.chunks[0]!.length >= 4 ? this.chunks[0]! : Buffer.concat(this.chunks);
        const length = first.readUInt32BE(0);
        if (length < 1 || length > MAX_DATA_MESSAGE) throw new Error(`a data message of ${length} bytes`);
        this.need = 4 + length;
      }
      if (this.have < this.need) return;
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.have);
      const type = all[4];
      const body = all.subarray(HEAD, this.need);
      const rest = all.subarray(this.need);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.have = rest.length;
      this.need = -1;
      if (type === DATA_BATCH) this.handlers.batch(body);
      else if (type === DATA_END) this.handlers.end(body.readUInt16BE(0), body.toString("utf8", 6), body.readUInt32BE(2));
      else throw new Error(`unknown data message type ${type}`);
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
