/**
 * The socket process (see SocketProcess.ts): it owns the WebSocket connections the World's
 * process hands it, and does their framing, writing, reading and heartbeats on the other core.
 *
 * `node src/io/child.ts '<ChildOptions as JSON>'`, forked with an IPC channel in `advanced`
 * serialization (handles, pings, and what it reports) and a pipe on fd 4 for the writes. It holds no game state: it writes what it is told to, in order, and reports
 * what each socket receives and when it closes. It exits when the World's process goes.
 */
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import type { IncomingMessage } from "node:http";
import net, { type Socket } from "node:net";
import {
  CLOSE_GRACE_MS,
  DATA_FD,
  DataReader,
  EV_CLOSE,
  EV_MESSAGE,
  INPUT_BYTES_PER_SECOND,
  MAX_BUFFERED_BYTES,
  MAX_UNSENT,
  readBatch,
  type BatchVisitor,
  type ChildOptions,
  type FromChild,
  type SocketKind,
  type ToChild,
} from "./protocol.ts";

const options = JSON.parse(process.argv[2] ?? "{}") as ChildOptions;

let unsent = 0;
let held = false;
const send = (message: FromChild): void => {
  if (!process.connected) return;
  unsent++;
  process.send!(message, undefined, undefined, () => {
    unsent--;
    if (held && unsent <= MAX_UNSENT / 4) {
      held = false;
      for (const entry of sockets.values()) if (!entry.overBudget) entry.ws.resume();
    }
  });
  if (!held && unsent > MAX_UNSENT) {
    held = true;
    for (const entry of sockets.values()) entry.ws.pause();
  }
};

interface Entry {
  ws: WebSocket;
  kind: SocketKind;
  missed: number;
  /** The World's process closed it: nothing more is read from it. */
  closing: boolean;
  /** The second (Date.now() / 1000, floored) its budget is for, and what it read in it. */
  second: number;
  bytes: number;
  overBudget: boolean;
  /** The bytes of its frames listed in this batch and not yet written, headers included (see flushFrames). */
  listedBytes: number;
  /** While flushFrames frames them: their buffer, and the write offset in it. */
  out: Buffer | undefined;
  outAt: number;
}

/** Counts a frame against its socket's budget; over it, the socket is paused until the next second. */
function spend(entry: Entry, bytes: number): void {
  const second = Math.floor(Date.now() / 1000);
  if (second !== entry.second) {
    entry.second = second;
    entry.bytes = 0;
  }
  entry.bytes += bytes;
  if (entry.bytes <= INPUT_BYTES_PER_SECOND || entry.overBudget) return;
  entry.overBudget = true;
  entry.ws.pause();
  setTimeout(
    () => {
      entry.overBudget = false;
      if (!held) entry.ws.resume();
    },
    1000 - (Date.now() % 1000),
  ).unref();
}

const sockets = new Map<number, Entry>();
const servers = {
  colyseus: new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false, maxPayload: options.kinds.colyseus.maxPayload }),
  ws: new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false, maxPayload: options.kinds.ws.maxPayload }),
};

// What the sockets received and how they closed, one message a turn of the event loop.
let events: unknown[] = [];
let eventsScheduled = false;
function report(ev: number, id: number, a: unknown, b: unknown): void {
  events.push(ev, id, a, b);
  if (eventsScheduled) return;
  eventsScheduled = true;
  setImmediate(() => {
    eventsScheduled = false;
    const batch = events;
    events = [];
    send({ t: "batch", events: batch });
  });
}

function upgrade(message: Extract<ToChild, { t: "upgrade" }>, socket: Socket | undefined): void {
  const { id, kind } = message;
  if (socket === undefined) return send({ t: "failed", id });
  let done = false;
  const fail = (): void => {
    if (done) return;
    done = true;
    send({ t: "failed", id });
  };
  socket.once("close", fail);
  const req = { method: message.method, url: message.url, headers: message.headers, socket } as unknown as IncomingMessage;
  // A refused handshake is answered and the socket destroyed by `ws` (then `fail`).
  servers[kind].handleUpgrade(req, socket, Buffer.from(message.head.buffer, message.head.byteOffset, message.head.byteLength), (ws) => {
    done = true;
    socket.removeListener("close", fail);
    const entry: Entry = { ws, kind, missed: 0, closing: false, second: 0, bytes: 0, overBudget: false, listedBytes: 0, out: undefined, outAt: 0 };
    sockets.set(id, entry);
    if (held) ws.pause();
    ws.on("error", () => {}); // `close` follows, and is reported
    ws.on("pong", () => (entry.missed = 0));
    ws.on("message", (data: RawData, isBinary: boolean) => {
      if (entry.closing) return;
      const frame = data as Buffer;
      spend(entry, frame.byteLength);
      report(EV_MESSAGE, id, frame, isBinary);
    });
    ws.on("close", (code: number, reason: Buffer) => {
      sockets.delete(id);
      report(EV_CLOSE, id, code, reason.toString());
    });
    send({ t: "open", id });
  });
}

/**
 * A batch's data frames, framed here and written as one buffer a socket (RFC 6455 §5.2: a server's
 * frames are unmasked, FIN set, no extension bits; `perMessageDeflate` is off). `ws` still does the
 * handshakes, reading, pings and closes; its `send` cost, per frame, a copy, a header buffer, two
 * stream writes and their bookkeeping, and a tick is ~3.5 frames a socket (a patch or update and the
 * chat lines in view): see bench/README.md, "The socket process frames a batch itself".
 *
 * The frames are listed in batch order (their bytes stay views into the batch until written); each
 * socket's are then copied behind their headers into one buffer of its own (a socket whose client
 * reads slowly holds its own bytes, not the batch).
 */
const pendingEntry: (Entry | undefined)[] = [];
const pendingFrame: (Uint8Array | undefined)[] = [];
const pendingBinary: boolean[] = [];
let pendingCount = 0;

/** The header of an unmasked final frame of `length` bytes: its size (2, 4 or 10). */
function headerSize(length: number): number {
  return length < 126 ? 2 : length < 65536 ? 4 : 10;
}

function writeHeader(out: Buffer, at: number, binary: boolean, length: number): number {
  out[at] = binary ? 0x82 : 0x81;
  if (length < 126) {
    out[at + 1] = length;
    return at + 2;
  }
  if (length < 65536) {
    out[at + 1] = 126;
    out.writeUInt16BE(length, at + 2);
    return at + 4;
  }
  out[at + 1] = 127;
  out.writeUInt32BE(Math.floor(length / 2 ** 32), at + 2);
  out.writeUInt32BE(length >>> 0, at + 6);
  return at + 10;
}

/**
 * Writes the frames listed so far: one buffer per socket, its frames in order. `only`: that
 * socket's alone (a close of it comes next); the others' stay listed, and a terminate later in
 * the batch still drops theirs.
 */
function flushFrames(only?: Entry): void {
  const n = pendingCount;
  if (n === 0) return;
  if (only === undefined) pendingCount = 0;
  const touched: Entry[] = [];
  for (let i = 0; i < n; i++) {
    const entry = pendingEntry[i];
    if (entry === undefined || (only !== undefined && entry !== only)) continue;
    if (entry.out === undefined) {
      entry.out = Buffer.allocUnsafe(entry.listedBytes);
      entry.outAt = 0;
      touched.push(entry);
    }
    const frame = pendingFrame[i]!;
    const at = writeHeader(entry.out, entry.outAt, pendingBinary[i]!, frame.byteLength);
    entry.out.set(frame, at);
    entry.outAt = at + frame.byteLength;
    pendingEntry[i] = undefined;
    pendingFrame[i] = undefined;
  }
  // Written unless closed meanwhile (a terminate in the batch: what it held is dropped with it).
  for (const entry of touched) {
    const out = entry.out!;
    entry.out = undefined;
    entry.listedBytes = 0;
    const tcp = (entry.ws as unknown as { _socket?: Socket })._socket;
    if (entry.ws.readyState === entry.ws.OPEN && tcp !== undefined && !tcp.destroyed) tcp.write(out);
  }
}

/**
 * One socket's bad request (`ws` refuses a close code it may not send, say) must not stop the
 * others' writes: that socket is terminated.
 */
function guarded(entry: Entry, write: () => void): void {
  try {
    write();
  } catch (err) {
    send({ t: "warn", message: `${(err as Error).message}; that connection is terminated` });
    entry.ws.terminate();
  }
}

const writes: BatchVisitor = {
  send(id, frame, binary) {
    const entry = sockets.get(id);
    if (entry === undefined) return;
    const { ws } = entry;
    if (ws.readyState !== ws.OPEN) return;
    // What waits for it: unwritten, and listed in this batch.
    const waiting = ws.bufferedAmount + entry.listedBytes;
    if (waiting > MAX_BUFFERED_BYTES) {
      // Its client stopped reading: what it is sent would pile up here.
      send({ t: "warn", message: `a client read nothing of its last ${waiting} bytes; its connection is terminated` });
      ws.terminate();
      return;
    }
    entry.listedBytes += headerSize(frame.byteLength) + frame.byteLength;
    const i = pendingCount++;
    pendingEntry[i] = entry;
    pendingFrame[i] = frame;
    pendingBinary[i] = binary;
  },
  close(id, code, reason) {
    const entry = sockets.get(id);
    if (entry === undefined) return;
    const { ws } = entry;
    // Its frames so far go before the close frame.
    flushFrames(entry);
    // Whatever it sends from now on would be dropped by the World's process: it is read (its
    // client's answering close frame among it) but not passed on.
    entry.closing = true;
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    // No code (0): a close frame without one, as `ws`'s close() sends.
    guarded(entry, () => (code === 0 ? ws.close() : ws.close(code, reason)));
  },
  terminate(id) {
    // Its frames not yet written are dropped with it (as `ws`'s terminate drops what it holds):
    // flushFrames skips a socket that is no longer open.
    sockets.get(id)?.ws.terminate();
  },
};

/** One batch of writes, in order. */
function apply(body: Buffer): void {
  try {
    readBatch(body, writes);
  } finally {
    flushFrames();
  }
}

// Heartbeats: a socket that missed `maxMissedPings` pings in a row is terminated (its `close`
// tells the World's process, as a dropped connection would).
for (const kind of ["colyseus", "ws"] as const) {
  const { pingIntervalMs, maxMissedPings } = options.kinds[kind];
  if (pingIntervalMs <= 0) continue;
  setInterval(() => {
    // While reading is held back, an answer may be unread: no one is counted as silent.
    if (held) return;
    for (const entry of sockets.values()) {
      if (entry.kind !== kind || entry.overBudget) continue;
      if (entry.missed >= maxMissedPings) {
        entry.ws.terminate();
        continue;
      }
      entry.missed++;
      entry.ws.ping();
    }
  }, pingIntervalMs).unref();
}

/** Reports what is pending, then exits once it is sent. */
function exit(): void {
  const batch = events;
  events = [];
  if (batch.length === 0 || !process.connected) process.exit(0);
  process.send!({ t: "batch", events: batch } satisfies FromChild, undefined, undefined, () => process.exit(0));
}

function end(code: number, reason: string, graceMs: number): void {
  for (const { ws } of sockets.values()) ws.close(code, reason);
  const check = setInterval(() => {
    if (sockets.size > 0) return;
    clearInterval(check);
    exit();
  }, 20);
  setTimeout(() => {
    clearInterval(check);
    for (const { ws } of sockets.values()) ws.terminate();
    // The terminated sockets' `close` events come on the next turns.
    setTimeout(exit, 20);
  }, graceMs).unref();
}

process.on("message", (message: ToChild, handle?: Socket) => {
  switch (message.t) {
    case "ping":
      return send({ t: "pong", n: message.n });
    case "upgrade":
      return upgrade(message, handle);
  }
});
// The writes, in order, on their own pipe (see DATA_FD).
const reader = new DataReader({ batch: apply, end });
new net.Socket({ fd: DATA_FD, readable: true, writable: false }).on("data", (chunk: Buffer) => reader.push(chunk));
// The World's process is gone: so are its players' connections.
process.on("disconnect", () => process.exit(0));
send({ t: "ready" });
