/**
 * The socket process (see SocketProcess.ts): it owns the WebSocket connections the World's
 * process hands it, and does their framing, writing, reading and heartbeats on the other core.
 *
 * `node src/io/child.ts '<ChildOptions as JSON>'`, forked with an IPC channel in `advanced`
 * serialization. It holds no game state: it writes what it is told to, in order, and reports
 * what each socket receives and when it closes. It exits when the World's process goes.
 */
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { EV_CLOSE, EV_MESSAGE, OP_CLOSE, OP_SEND, OP_SIZE, OP_TERMINATE, type ChildOptions, type FromChild, type SocketKind, type ToChild } from "./protocol.ts";

const options = JSON.parse(process.argv[2] ?? "{}") as ChildOptions;
const send = (message: FromChild): void => {
  if (process.connected) process.send!(message);
};

interface Entry {
  ws: WebSocket;
  kind: SocketKind;
  missed: number;
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
    const entry: Entry = { ws, kind, missed: 0 };
    sockets.set(id, entry);
    ws.on("error", () => {}); // `close` follows, and is reported
    ws.on("pong", () => (entry.missed = 0));
    ws.on("message", (data: RawData, isBinary: boolean) => report(EV_MESSAGE, id, data as Buffer, isBinary));
    ws.on("close", (code: number, reason: Buffer) => {
      sockets.delete(id);
      report(EV_CLOSE, id, code, reason.toString());
    });
    send({ t: "open", id });
  });
}

/** One batch of writes: each socket is corked for the batch, so its frames leave in one write. */
function apply(ops: unknown[]): void {
  const corked: Socket[] = [];
  for (let i = 0; i < ops.length; i += OP_SIZE) {
    const entry = sockets.get(ops[i + 1] as number);
    if (entry === undefined) continue;
    const { ws } = entry;
    const tcp = (ws as unknown as { _socket?: Socket })._socket;
    if (tcp !== undefined && tcp.writableCorked === 0) {
      tcp.cork();
      corked.push(tcp);
    }
    try {
      switch (ops[i]) {
        case OP_SEND: {
          const data = ops[i + 2] as string | Uint8Array;
          if (ws.readyState === ws.OPEN) ws.send(data, { binary: typeof data !== "string" });
          break;
        }
        case OP_CLOSE: {
          // No code (0): a close frame without one, as `ws`'s close() sends.
          const code = ops[i + 2] as number;
          if (code === 0) ws.close();
          else ws.close(code, ops[i + 3] as string);
          break;
        }
        case OP_TERMINATE:
          ws.terminate();
          break;
      }
    } catch (err) {
      // One socket's bad request (`ws` refuses a close code it may not send, say) must not stop
      // the others' writes: that socket is closed without a code.
      send({ t: "warn", message: `${(err as Error).message}; that connection is terminated` });
      ws.terminate();
    }
  }
  for (const tcp of corked) tcp.uncork();
}

// Heartbeats: a socket that missed `maxMissedPings` pings in a row is terminated (its `close`
// tells the World's process, as a dropped connection would).
for (const kind of ["colyseus", "ws"] as const) {
  const { pingIntervalMs, maxMissedPings } = options.kinds[kind];
  if (pingIntervalMs <= 0) continue;
  setInterval(() => {
    for (const entry of sockets.values()) {
      if (entry.kind !== kind) continue;
      if (entry.missed >= maxMissedPings) {
        entry.ws.terminate();
        continue;
      }
      entry.missed++;
      entry.ws.ping();
    }
  }, pingIntervalMs).unref();
}

function end(code: number, reason: string, graceMs: number): void {
  for (const { ws } of sockets.values()) ws.close(code, reason);
  const check = setInterval(() => {
    if (sockets.size === 0) process.exit(0);
  }, 20);
  setTimeout(() => {
    clearInterval(check);
    for (const { ws } of sockets.values()) ws.terminate();
    process.exit(0);
  }, graceMs).unref();
}

process.on("message", (message: ToChild, handle?: Socket) => {
  switch (message.t) {
    case "upgrade":
      return upgrade(message, handle);
    case "batch":
      return apply(message.ops);
    case "end":
      return end(message.code, message.reason, message.graceMs);
  }
});
// The World's process is gone: so are its players' connections.
process.on("disconnect", () => process.exit(0));
send({ t: "ready" });
