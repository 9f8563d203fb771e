/**
 * The socket process: the WebSocket connections of the world's clients live in a child process,
 * which frames, writes and reads them on the other core (SOCKET_PROCESS, src/io/child.ts).
 *
 * Why: a tick ends with one write per client socket. At 2,000 players that was 2,000 system calls
 * on the World's thread, a third of its tick (on loopback the kernel also does the receiving
 * side's TCP work inside each write; bench/README.md, world-load). Here the World's thread sends
 * the tick's frames to the child as one IPC message, and goes on.
 *
 * The HTTP server stays here: a WebSocket upgrade is routed, checked and authenticated here as
 * before, then its TCP socket is handed to the child (`subprocess.send(message, socket)`, as
 * Node's cluster does), which completes the handshake. What the rooms and the `/ws` gateway get
 * back is a {@link RemoteSocket}: the part of `ws`'s WebSocket they use (send, close, terminate,
 * readyState, and the `message` and `close` events), so Colyseus' transport and the gateway work
 * on it unchanged.
 *
 * Writes are batched: everything sent goes into one outbox, in order, and leaves when the outbox is
 * flushed, as one message on a pipe of its own (not the IPC channel, where Node holds every message
 * behind a handle until the child has acknowledged it: in a burst of connections a tick's writes
 * waited behind hundreds of them): explicitly (the tick flushes after its `/ws` frames and after its Colyseus patches), or
 * at the end of the current job (a microtask). A socket "corked" (`_socket.cork()`, as the tick
 * corks every socket) holds its writes until uncorked, as a TCP socket does.
 *
 * If the child dies, every connection it held closes (1006, as a dropped connection), and a new
 * child starts. No socket is handed to a child before it says it is ready: upgrades wait for that
 * (a child starts in ~0.2 s), and if a child dies before it, they are completed in this process
 * instead (the caller's `local`). After {@link MAX_FAILED_STARTS} children in a row died before
 * they were ready, the socket process is given up: every connection is this process's from then
 * on (logged as an error). If this process dies, the child exits (its IPC channel closes).
 */
import { fork, type ChildProcess } from "node:child_process";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Socket } from "node:net";
import type { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { Logger } from "../logger.ts";
import { DataPipe } from "./dataPipe.ts";
import { OPEN, RemoteSocket, type SocketOwner, type WriteOp } from "./remoteSocket.ts";
import { DATA_FD, endMessage, EV_CLOSE, EV_MESSAGE, EV_SIZE, Outbox, type ChildOptions, type FromChild, type SocketKind, type ToChild } from "./protocol.ts";

export type { SocketKind };
export { RemoteSocket };

/** Children in a row that died before they were ready, after which sockets stay in this process. */
export const MAX_FAILED_STARTS = 3;

/** Close code of the connections a dead socket process took with it (as a dropped connection). */
export const CLOSE_ABNORMAL = 1006;

export interface SocketProcessOptions {
  logger: Logger;
  kinds: ChildOptions["kinds"];
  /** The child's script (tests give one that fails); defaults to child.ts. */
  entry?: URL;
  /** A child not ready within this long is killed (and counts as one that died before ready). */
  readyTimeoutMs?: number;
  /** A handshake the child has not answered this long after its socket was handed over is given up (HANDSHAKE_TIMEOUT_MS). */
  handshakeTimeoutMs?: number;
  /** The child is pinged this often, and killed (then restarted) if it has not answered for `hungMs`. */
  pingIntervalMs?: number;
  hungMs?: number;
}

export const READY_TIMEOUT_MS = 10_000;
export const PING_INTERVAL_MS = 1_000;
/** A child that has not answered a ping for this long is taken for hung (stuck in a loop, or in GC at its heap's limit). */
export const HUNG_MS = 10_000;
/** A handshake the child has not answered within this long is given up (the socket never reached it). */
export const HANDSHAKE_TIMEOUT_MS = 10_000;
/** The close code of a connection whose handshake the child answered after it was given up (RFC 6455: try again later). */
export const CLOSE_HANDSHAKE_GIVEN_UP = 1013;

interface Pending {
  kind: SocketKind;
  done: (socket: RemoteSocket | undefined) => void;
}

/** An upgrade waiting for the child to be ready. */
interface Waiting {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  kind: SocketKind;
  done: (socket: RemoteSocket) => void;
  local: () => void;
}

export class SocketProcess implements SocketOwner {
  private readonly logger: Logger;
  private readonly options: ChildOptions;
  private child: ChildProcess | undefined;
  /** The current child's pipe for writes (see DATA_FD). */
  private data: DataPipe | undefined;
  private readonly entry: URL;
  /** Whether the current child said it is ready. */
  private ready = false;
  private waiting: Waiting[] = [];
  /** Children in a row that died before they were ready. */
  private failedStarts = 0;
  private readonly sockets = new Map<number, RemoteSocket>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly outbox = new Outbox();
  /**
   * The writes of corked sockets, per kind, in order, until one of the kind is uncorked (the tick
   * uncorks a kind's sockets all at once): they then join the outbox as one block. Copied once,
   * as they are sent, instead of held per socket and copied again.
   */
  private readonly heldOut: Record<SocketKind, Outbox> = { colyseus: new Outbox(), ws: new Outbox() };
  private flushQueued = false;
  private ending: Promise<void> | undefined;
  /** Children started (the first, and one after each death). */
  starts = 0;

  constructor(options: SocketProcessOptions) {
    this.logger = options.logger;
    this.options = { kinds: options.kinds };
    this.entry = options.entry ?? new URL("./child.ts", import.meta.url);
    this.readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    this.handshakeTimeoutMs = options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
    this.pingIntervalMs = options.pingIntervalMs ?? PING_INTERVAL_MS;
    this.hungMs = options.hungMs ?? HUNG_MS;
  }

  private readonly readyTimeoutMs: number;
  private readonly handshakeTimeoutMs: number;
  private readonly pingIntervalMs: number;
  private readonly hungMs: number;
  /** The current child's watch: its ready deadline, then its pings. */
  private watch: NodeJS.Timeout | undefined;
  private pings = 0;
  /** When the current child was last heard from: any message (a pong, a handshake's answer, a report). */
  private lastHeard = 0;

  /** False once the socket process is given up (see MAX_FAILED_STARTS): connections stay here. */
  get usable(): boolean {
    return this.failedStarts < MAX_FAILED_STARTS && this.ending === undefined;
  }

  /** Starts the child now rather than at the first connection. */
  warm(): void {
    if (this.usable) this.child ??= this.start();
  }

  /** Open connections of one kind (or all). */
  count(kind?: SocketKind): number {
    if (kind === undefined) return this.sockets.size;
    let n = 0;
    for (const s of this.sockets.values()) if (s.kind === kind) n++;
    return n;
  }

  /** Whether a child is running and takes connections (it said it is ready). */
  get up(): boolean {
    return this.child !== undefined && this.ready;
  }

  /** Handshakes handed to the child and not answered yet. */
  get handshakes(): number {
    return this.pending.size;
  }

  /** The child's process id (tests kill it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private start(): ChildProcess {
    const execArgv = process.execArgv.filter((a) => !a.startsWith("--cpu-prof") && !a.startsWith("--heap-prof") && !a.startsWith("--inspect"));
    const child = fork(fileURLToPath(this.entry), [JSON.stringify(this.options)], {
      serialization: "advanced",
      execArgv,
      // fd 4: the writes (see DATA_FD).
      stdio: ["ignore", "inherit", "inherit", "ipc", "pipe"],
    });
    this.starts++;
    this.ready = false;
    // A dead child's pipe fails its writes (EPIPE): its exit is handled below.
    this.data?.close();
    this.data = new DataPipe(child.stdio[DATA_FD] as Writable, (err) => {
      // A child that can no longer be written to would answer pings and write nothing: it is
      // ended, and its exit restarts it (a dead one's exit is on its way anyway).
      if (this.child !== child || child.exitCode !== null || child.signalCode !== null) return;
      this.logger.error({ err }, "the socket process's data pipe failed; killing it");
      child.kill("SIGKILL");
    });
    // Messages of a child already replaced are not this one's (a `ready` could arrive after its `exit`).
    child.on("message", (message: FromChild) => {
      if (this.child !== child) return;
      this.lastHeard = performance.now();
      this.receive(message);
    });
    clearTimeout(this.watch);
    this.watch = setTimeout(() => {
      if (this.child !== child || this.ready) return;
      this.logger.error({ readyTimeoutMs: this.readyTimeoutMs }, "the socket process did not get ready in time; killing it");
      child.kill("SIGKILL");
    }, this.readyTimeoutMs);
    this.watch.unref();
    child.on("error", (err) => this.logger.error({ err }, "the socket process failed"));
    child.once("exit", (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      clearTimeout(this.watch); // a timeout or an interval: Node clears either
      const wasReady = this.ready;
      this.ready = false;
      if (!wasReady) this.failedStarts++;
      if (this.ending === undefined) {
        if (!this.usable)
          this.logger.error(
            { code, signal, failedStarts: this.failedStarts },
            "the socket process keeps exiting before it is ready; connections are held in this process from now on",
          );
        else this.logger.error({ code, signal, connections: this.sockets.size }, "the socket process exited; its connections are closed, and a new one starts");
      }
      this.outbox.clear();
      this.data?.close();
      this.data = undefined;
      for (const p of this.pending.values()) p.done(undefined);
      this.pending.clear();
      const sockets = [...this.sockets.values()];
      this.sockets.clear();
      for (const s of sockets) s.closed(CLOSE_ABNORMAL, "");
      // Upgrades that were waiting for it: to a new child, or here.
      const waiting = this.waiting;
      this.waiting = [];
      if (this.usable && this.ending === undefined) this.child = this.start();
      for (const w of waiting) this.handleUpgrade(w.req, w.socket, w.head, w.kind, w.done, w.local);
    });
    return child;
  }

  /**
   * Hands an upgrade's socket to the child, which completes the handshake; `done` gets the open
   * WebSocket, or nothing if the handshake was refused (then the child answered the client) or
   * the socket went first.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, kind: SocketKind, done: (socket: RemoteSocket) => void, local: () => void): void {
    if (this.ending !== undefined) {
      socket.destroy();
      return;
    }
    if (!this.usable) return local();
    const child = (this.child ??= this.start());
    if (!this.ready) {
      this.waiting.push({ req, socket, head, kind, done, local });
      return;
    }
    const tcp = socket as Socket;
    if (tcp.destroyed) return;
    // Read now what is read only from the handle (gone once it is handed on).
    void tcp.remoteAddress;
    void tcp.remotePort;
    // Anything the client sent after its request (it should wait for the handshake's answer).
    const early = tcp.readableLength > 0 ? (tcp.read() as Buffer | null) : null;
    const bytes = early === null ? head : Buffer.concat([head, early]);
    const id = this.nextId++;
    this.pending.set(id, {
      kind,
      done: (remote) => {
        if (remote !== undefined) done(remote);
      },
    });
    const message: ToChild = { t: "upgrade", id, kind, method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, head: new Uint8Array(bytes) };
    child.send(message, tcp, (err) => {
      if (err === null || err === undefined) {
        // Node closes a handle the child could not take (at its file limit, say) without a word.
        // Timed from here, once handed over: Node sends a handle only once the child acknowledged
        // the one before, as this thread reads it, so while this thread is busy (2,000 players
        // joining at 100 a second on a slow machine) the handles queue here, not in the child.
        setTimeout(() => {
          if (this.pending.delete(id)) this.logger.warn({ id }, "the socket process did not answer a handshake; given up");
        }, this.handshakeTimeoutMs).unref();
        return;
      }
      this.logger.warn({ err }, "a connection could not be handed to the socket process");
      this.pending.delete(id);
      tcp.destroy();
    });
  }

  /**
   * A write of socket `id`, in order after everything before it (a frame's bytes are copied in now);
   * `held`: the socket is corked, and the write waits with its kind's (see release).
   */
  enqueue(op: WriteOp, id: number, a: unknown, b: unknown, held?: SocketKind): void {
    const out = held === undefined ? this.outbox : this.heldOut[held];
    if (op === "send") out.send(id, a as string | Uint8Array);
    else if (op === "close") out.close(id, a as number, b as string);
    else out.terminate(id);
    if (held === undefined) this.queueFlush();
  }

  /**
   * A socket of `kind` was uncorked: the kind's held writes join the outbox. Those of its sockets
   * still corked go too, each socket's in order, ahead of what it is sent later.
   */
  release(kind: SocketKind): void {
    const held = this.heldOut[kind];
    if (held.empty) return;
    this.outbox.append(held);
    this.queueFlush();
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => this.flush());
  }

  /**
   * Writes what the data pipe did not take yet, as far as it takes it now (see DataPipe): called
   * between a tick's patches, while the event loop cannot.
   */
  pump(): void {
    this.data?.pump();
  }

  /** Sends the outbox to the child now (one message on the data pipe). */
  flush(): void {
    this.flushQueued = false;
    if (this.outbox.empty) return;
    if (this.child === undefined || this.data === undefined) return this.outbox.clear();
    const { message, done } = this.outbox.take();
    this.data.write(message, done);
  }

  private receive(message: FromChild): void {
    switch (message.t) {
      case "warn":
        this.logger.warn({ detail: message.message }, "the socket process refused a request of the server's");
        return;
      case "pong":
        // Heard (see lastHeard): a child answering late is alive (a hung one answers nothing).
        return;
      case "ready": {
        this.ready = true;
        this.failedStarts = 0;
        this.startWatchdog();
        const waiting = this.waiting;
        this.waiting = [];
        for (const w of waiting) this.handleUpgrade(w.req, w.socket, w.head, w.kind, w.done, w.local);
        return;
      }
      case "open": {
        const p = this.pending.get(message.id);
        if (p === undefined) {
          // Answered after it was given up: nothing here would ever read or close it, and its
          // client would wait on an open connection for good. It is closed, 1013: try again.
          this.enqueue("close", message.id, CLOSE_HANDSHAKE_GIVEN_UP, "the server did not finish the handshake in time; try again");
          return;
        }
        this.pending.delete(message.id);
        const remote = new RemoteSocket(this, message.id, p.kind);
        this.sockets.set(message.id, remote);
        p.done(remote);
        return;
      }
      case "failed": {
        const p = this.pending.get(message.id);
        this.pending.delete(message.id);
        p?.done(undefined);
        return;
      }
      case "batch": {
        const ev = message.events;
        for (let i = 0; i < ev.length; i += EV_SIZE) {
          const remote = this.sockets.get(ev[i + 1] as number);
          if (remote === undefined) continue;
          if (ev[i] === EV_MESSAGE) {
            if (remote.readyState !== OPEN) continue;
            // A copy: the deserialized frame is a view into the whole batch, which a listener
            // keeping it would keep.
            remote.emit("message", Buffer.from(ev[i + 2] as Uint8Array), ev[i + 3]);
          } else if (ev[i] === EV_CLOSE) {
            this.sockets.delete(remote.id);
            remote.closed(ev[i + 2] as number, ev[i + 3] as string);
          }
        }
        return;
      }
    }
  }

  /**
   * Pings the ready child; one silent for `hungMs` is killed (its exit restarts it). Silent means
   * nothing at all came from it, not only no pong: a ping sent while handles are being handed over
   * waits in Node's queue behind every one of them (a handle at a time, each once the child
   * acknowledged the one before, as this thread reads it), so during a ramp of joins on a busy
   * thread a ping can wait longer than `hungMs` while the child answers each handshake it gets.
   */
  private startWatchdog(): void {
    const child = this.child;
    if (child === undefined) return;
    clearTimeout(this.watch);
    this.lastHeard = performance.now();
    let lastCheck = this.lastHeard;
    this.watch = setInterval(() => {
      if (this.child !== child || this.ending !== undefined) return;
      const now = performance.now();
      // This thread was stalled itself (its answers were not read): nothing to judge by.
      if (now - lastCheck > 3 * this.pingIntervalMs) this.lastHeard = now;
      lastCheck = now;
      if (now - this.lastHeard > this.hungMs) {
        this.logger.error({ hungMs: this.hungMs, connections: this.sockets.size }, "the socket process stopped answering; killing it");
        child.kill("SIGKILL");
        return;
      }
      if (child.connected) child.send({ t: "ping", n: ++this.pings } satisfies ToChild);
    }, this.pingIntervalMs);
    this.watch.unref();
  }

  /**
   * Shutdown: what is queued is sent, every connection still open is closed (`code`), and the
   * child exits once they are gone or after `graceMs`.
   */
  close(code = 1001, reason = "server shutting down", graceMs = 2_000): Promise<void> {
    this.ending ??= (async () => {
      this.flush();
      clearTimeout(this.watch); // a timeout or an interval: Node clears either
      for (const w of this.waiting.splice(0)) w.socket.destroy();
      const child = this.child;
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      // By the pipe, after the last writes.
      if (this.data !== undefined) this.data.write(endMessage(code, reason, graceMs));
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs + 2_000);
      await exited;
      clearTimeout(timer);
    })();
    return this.ending;
  }
}
