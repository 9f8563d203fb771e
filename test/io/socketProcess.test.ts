import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import WebSocket from "ws";
import { startTestServer, type TestServer } from "../support/server.ts";
import { spawnServer } from "../support/process.ts";
import { makeWorldDir } from "../support/world.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { parsePrometheus, valueOf } from "../support/prometheus.ts";
import { LINGER_MS } from "../../src/sessions/WorldService.ts";
import http from "node:http";
import pino from "pino";
import { WebSocketServer } from "ws";
import { MAX_FAILED_STARTS, SocketProcess, type RemoteSocket } from "../../src/io/SocketProcess.ts";
import { CLOSE_GRACE_MS, DataReader, endMessage, Outbox, readBatch, unchanging } from "../../src/io/protocol.ts";
import type { Writable } from "node:stream";

/** Whether a process runs (a zombie waiting to be reaped does not). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

/** A raw upgrade request on `/ws`, answered by whoever completes the handshake. */
function rawUpgrade(port: number, headers: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(`GET /ws?name=Raw HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`));
    let text = "";
    socket.on("data", (d) => (text += d.toString()));
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
    setTimeout(() => socket.destroy(), 3_000);
  });
}

/** The socket process's two metrics on METRICS_PORT. */
async function socketMetrics(port: number): Promise<{ up: number; starts: number }> {
  const m = parsePrometheus(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
  return { up: valueOf(m, "rsworld_socket_process_up"), starts: valueOf(m, "rsworld_socket_process_starts_total") };
}

describe("the socket process (SOCKET_PROCESS)", function () {
  this.timeout(60_000);

  describe("with a server", () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ TICK_MS: "50", SOCKET_PROCESS: "true", WS_HEARTBEAT_MS: "250", METRICS_PORT: "0" });
    });
    after(() => t.close());

    it("holds the Colyseus and /ws connections, which play as without it", async () => {
      const io = t.server.sockets!;
      assert.ok(io.pid !== undefined || io.count() === 0);
      const ws = await WsTestClient.connect(`${t.wsUrl}?name=Piped`);
      const welcome = await ws.next("welcome");
      const coly = await WorldTestClient.join(t.baseUrl, { name: "Colyseus" });
      await coly.next("welcome");
      assert.equal(io.count("ws"), 1);
      assert.equal(io.count("colyseus"), 1);
      assert.ok(io.pid !== undefined && alive(io.pid), "a child process holds them");
      // The /ws player sees the Colyseus player (a tick's frame), and the other way round (a patch).
      const colyId = String(coly.state().players && Object.keys(coly.state().players).find((id) => id !== welcome.playerId));
      await until(
        () => (ws.events.some((e) => e.type === "world:update" && JSON.stringify(e.data).includes(colyId)) ? true : undefined),
        "the /ws client seeing the Colyseus player",
        5_000,
      );
      await coly.waitFor(() => coly.state().players[String(welcome.playerId)], 5_000, "the Colyseus client seeing the /ws player");
      ws.close();
      await coly.room.leave(true);
      await until(() => (io.count() === 0 ? true : undefined), "both connections closed");
    });

    it("writes a connection's frames in the order they were sent, and reads its frames in order", async () => {
      const c = await WsTestClient.connect(`${t.wsUrl}?name=Ordered`);
      await c.next("welcome");
      for (let i = 0; i < 20; i++) c.send(`nope-${i}`);
      const answered: string[] = [];
      for (let i = 0; i < 20; i++) answered.push(String((await c.next("error")).event));
      assert.deepEqual(
        answered,
        Array.from({ length: 20 }, (_, i) => `nope-${i}`),
      );
      c.close();
    });

    it("closes a /ws frame over the limit with 1009, and a Colyseus frame over 4 KiB", async () => {
      const c = await WsTestClient.connect(`${t.wsUrl}?name=Big`);
      await c.next("welcome");
      c.socket.send("x".repeat(64 * 1024 + 1));
      assert.equal((await c.waitClosed()).code, 1009);
      const coly = await WorldTestClient.join(t.baseUrl, { name: "BigColyseus" });
      await coly.next("welcome");
      const code = new Promise<number>((resolve) => coly.room.onLeave((n) => resolve(n)));
      coly.send("player:chat", { message: "y".repeat(5_000) });
      assert.equal(await code, 1009);
    });

    it("answers a bad handshake itself (400) and holds nothing for it", async () => {
      const io = t.server.sockets!;
      const answer = await rawUpgrade(
        new URL(t.baseUrl).port as unknown as number,
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 7\r\n",
      );
      assert.match(answer, /^HTTP\/1\.1 400 /);
      await until(() => (io.handshakes === 0 ? true : undefined), "no handshake left pending");
      const c = await WsTestClient.connect(`${t.wsUrl}?name=AfterBad`);
      await c.next("welcome");
      c.close();
    });

    it("runs the heartbeat: a client that stops answering pings is terminated", async () => {
      const c = await WsTestClient.connect(`${t.wsUrl}?name=Silent`, { autoPong: false });
      const id = String((await c.next("welcome")).playerId);
      assert.equal((await c.waitClosed(5_000)).code, 1006);
      await until(() => (t.server.world.connectionOf(id) === undefined ? true : undefined), "the session ending as a dropped connection's");
      assert.ok(t.server.world.world.players.has(id), "the player lingers for its grace");
    });

    it("closes every connection it held when it dies (1006, as dropped), and the next connection starts a new one", async () => {
      const io = t.server.sockets!;
      const ws = await WsTestClient.connect(`${t.wsUrl}?name=Orphan`);
      const welcome = await ws.next("welcome");
      const wsId = String(welcome.playerId);
      const coly = await WorldTestClient.join(t.baseUrl, { name: "OrphanColyseus" });
      await coly.next("welcome");
      const colyLeft = new Promise<number>((resolve) => coly.room.onLeave((n) => resolve(n)));
      const pid = io.pid!;
      const starts = io.starts;
      assert.deepEqual(await socketMetrics(t.server.metricsPort!), { up: 1, starts }, "on /metrics: up, started once per start");
      process.kill(pid, "SIGKILL");
      assert.equal((await ws.waitClosed()).code, 1006);
      assert.ok((await colyLeft) >= 1000);
      await until(() => (t.server.world.connectionOf(wsId) === undefined ? true : undefined), "the /ws session ended");
      assert.ok(t.server.world.world.players.has(wsId), "its player lingers, as after a dropped connection");
      assert.equal(io.count(), 0);
      // A reconnection within the grace takes the player back, through a new socket process.
      const back = await WsTestClient.connect(`${t.wsUrl}?token=${encodeURIComponent(String(welcome.token))}`);
      assert.equal(String((await back.next("welcome")).playerId), wsId);
      assert.equal(io.starts, starts + 1);
      assert.notEqual(io.pid, pid);
      assert.deepEqual(await socketMetrics(t.server.metricsPort!), { up: 1, starts: starts + 1 }, "on /metrics: up again, one more start");
      back.close();
    });
  });

  // Its own server with the default heartbeat (30 s): the one above pings every 250 ms, and a
  // client that reads nothing is cut off by the heartbeat in under a second, before it could
  // send much on a loaded machine (CI once saw 43 MB). Here the cut-off is the refusal's own:
  // CLOSE_GRACE_MS after the close frame.
  describe("with a server and the default heartbeat", () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ TICK_MS: "50", SOCKET_PROCESS: "true" });
    });
    after(() => t.close());

    it("drops what a refused client floods it with, without holding it, and cuts that client off soon after", async () => {
      const io = t.server.sockets!;
      const rss = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${io.pid}/status`, "utf8"))![1]) * 1024;
      const before = rss();
      // A raw client: the handshake, then masked 60 KB frames as fast as TCP takes them, reading nothing.
      const socket = net.connect(Number(new URL(t.baseUrl).port), "127.0.0.1");
      socket.write(
        "GET /ws?token=not-a-token HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      );
      await new Promise((resolve) => socket.once("data", resolve));
      socket.pause();
      const payload = 60 * 1024;
      const frame = Buffer.concat([Buffer.from([0x82, 0x80 | 126, payload >> 8, payload & 0xff, 0, 0, 0, 0]), Buffer.alloc(payload)]);
      const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(performance.now())));
      socket.on("error", () => {});
      const started = performance.now();
      let sent = 0;
      let peak = before;
      while (!socket.destroyed && performance.now() - started < 8_000) {
        if (!socket.write(frame)) {
          // Whichever comes first; the other's listener goes too (one added a wait piled up on the socket).
          await new Promise<void>((resolve) => {
            const done = () => {
              socket.off("drain", done).off("close", done);
              resolve();
            };
            socket.once("drain", done).once("close", done);
          });
        }
        sent += frame.length;
        if (sent % (100 * frame.length) === 0) peak = Math.max(peak, rss());
      }
      const end = await closed;
      const after = end - started;
      assert.ok(
        after > CLOSE_GRACE_MS - 1_000 && after < CLOSE_GRACE_MS + 2_000,
        `cut off ${Math.round(after)} ms after it started (${CLOSE_GRACE_MS} ms after its refusal)`,
      );
      assert.ok(sent > 50 * 1024 * 1024, `it sent ${sent} bytes`);
      assert.ok(
        peak - before < 256 * 1024 * 1024,
        `the socket process grew by ${Math.round((peak - before) / 1048576)} MiB while ${Math.round(sent / 1048576)} MiB came in`,
      );
    });
  });

  it("closes one connection that asks for an impossible close, and goes on writing the others in the same batch", async () => {
    await withClients(3, async ({ io, remotes, clients }) => {
      const echo: string[] = [];
      remotes[2]!.on("message", (d: Buffer) => echo.push(d.toString()));
      remotes[0]!.close(); // no code: a close frame without one (1005 at the client)
      remotes[1]!.close(1005, "reserved"); // a code no endpoint may send
      remotes[2]!.send("still here");
      const [c0, c1, c2] = clients as [Connected, Connected, Connected];
      assert.equal(await c0.closed, 1005);
      assert.equal(await c1.closed, 1006, "terminated");
      await until(() => (c2.got.length === 1 ? true : undefined), "the third connection's frame");
      assert.deepEqual(c2.got, ["still here"]);
      c2.ws.send("and back");
      await until(() => (echo.length === 1 ? true : undefined), "its frame read back");
      assert.equal(echo[0], "and back");
      assert.equal(io.count(), 1);
      c2.ws.close();
    });
  });

  it("frames a batch's writes itself: every header size, text and binary, each connection's in order, and a terminate drops only that connection's", async () => {
    await withClients(3, async ({ io, remotes, clients }) => {
      const [r0, r1, r2] = remotes as [RemoteSocket, RemoteSocket, RemoteSocket];
      const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
      // Lengths at each side of the 7-bit, 16-bit and 64-bit length forms; text with multi-byte characters.
      const sent: (string | Uint8Array)[] = [
        "",
        "a".repeat(125),
        bytes(126, 1),
        "é€".repeat(13_107),
        bytes(65_535, 2),
        bytes(65_536, 3),
        "z".repeat(70_000),
        bytes(0, 0),
      ];
      r2.send("never seen");
      for (const [i, m] of sent.entries()) {
        r0.send(m);
        r1.send(`one-${i}`);
      }
      r2.terminate();
      r1.send("one-last");
      io.flush();
      const [c0, c1, c2] = clients as [Connected, Connected, Connected];
      await until(() => (c0.frames.length === sent.length && c1.got.length === sent.length + 1 ? true : undefined), "every frame at the first two clients");
      for (const [i, m] of sent.entries()) {
        const { binary, data } = c0.frames[i]!;
        assert.equal(binary, typeof m !== "string", `frame ${i}: its type`);
        assert.ok(
          typeof m === "string" ? data.toString("utf8") === m : Buffer.from(m).equals(data),
          `frame ${i} (${typeof m === "string" ? Buffer.byteLength(m) : m.byteLength} bytes) arrived whole`,
        );
      }
      assert.deepEqual(c1.got, [...sent.map((_, i) => `one-${i}`), "one-last"]);
      assert.equal(await c2.closed, 1006, "the terminated connection closed without a close frame");
      assert.deepEqual(c2.got, [], "and got nothing of the batch it was terminated in");
      c0.ws.close();
      c1.ws.close();
    });
  });

  it("writes only the closing connection's frames ahead of its close: a terminate later in the batch still drops another's", async () => {
    await withClients(3, async ({ io, remotes, clients }) => {
      const [a, b, c] = remotes as [RemoteSocket, RemoteSocket, RemoteSocket];
      a.send("a0");
      b.send("b0");
      b.close(4000, "bye");
      a.send("a1");
      a.terminate();
      c.send("c0");
      io.flush();
      const [ca, cb, cc] = clients as [Connected, Connected, Connected];
      assert.equal(await ca.closed, 1006);
      assert.deepEqual(ca.got, [], "the terminated connection got nothing of the batch");
      assert.equal(await cb.closed, 4000);
      assert.deepEqual(cb.got, ["b0"], "the closed one got its frame, then its close");
      await until(() => (cc.got.length === 1 ? true : undefined), "the third connection's frame");
      assert.deepEqual(cc.got, ["c0"]);
      cc.ws.close();
    });
  });

  it("counts a batch's own frames towards the 8 MiB a client may leave unread: one batch of 24 MiB to a stalled client terminates it", async () => {
    const s = await standaloneWithClient();
    const { warnings } = s;
    try {
      const stalled = s.client;
      (stalled as unknown as { _socket: net.Socket })._socket.pause();
      const remote = s.remotes[0]!;
      const closed = new Promise<number>((resolve) => remote.once("close", (code: number) => resolve(code)));
      const mib = new Uint8Array(1024 * 1024);
      for (let i = 0; i < 24; i++) remote.send(mib);
      s.io.flush();
      // Nothing more is sent: the batch itself must have ended it.
      assert.equal(await closed, 1006);
      assert.ok(
        warnings.some((w) => /read nothing of its last (\d+) bytes/.test(w) && Number(/last (\d+)/.exec(w)![1]) <= 9 * 1024 * 1024),
        `warned at about 8 MiB: ${warnings.join("; ")}`,
      );
      stalled.terminate();
    } finally {
      await s.close();
    }
  });

  it("holds a corked connection's writes until it or another of its kind is uncorked, each connection's in order", async () => {
    await withClients(3, async ({ io, remotes, clients }) => {
      const [r0, r1, r2] = remotes as [RemoteSocket, RemoteSocket, RemoteSocket];
      const [c0, c1, c2] = clients as [Connected, Connected, Connected];
      r0._socket.cork();
      r1._socket.cork();
      const reused = Buffer.from("a0");
      r0.send(reused);
      reused.write("XX"); // the caller's buffer, reused after the send: the held write has its own copy
      r1.send("b0");
      r2.send("c0"); // not corked: leaves now
      r0.send("a1");
      io.flush();
      await until(() => (c2.got.length === 1 ? true : undefined), "the uncorked connection's frame");
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual([c0.got, c1.got], [[], []], "nothing of the corked connections left while they were corked");
      r1._socket.uncork(); // one of the kind: every held write of the kind goes
      r0.send("a2"); // r0 is still corked: held, behind its earlier ones
      r1.send("b1");
      io.flush();
      await until(() => (c0.got.length === 2 && c1.got.length === 2 ? true : undefined), "the held frames");
      r0._socket.uncork();
      io.flush();
      await until(() => (c0.got.length === 3 ? true : undefined), "the last held frame");
      assert.deepEqual(c0.got, ["a0", "a1", "a2"]);
      assert.deepEqual(c1.got, ["b0", "b1"]);
      assert.deepEqual(c2.got, ["c0"]);
      for (const c of clients) c.ws.close();
    });
  });

  for (const [child, what] of [
    ["failingChild.ts", "dies before it is ready"],
    ["silentChild.ts", "never says it is ready"],
  ] as const) {
    it(`gives up a socket process that ${what}, and completes the waiting upgrades here instead`, async () => {
      const kinds = { maxPayload: 1024, pingIntervalMs: 0, maxMissedPings: 1 };
      const io = new SocketProcess({
        logger: pino({ level: "silent" }),
        kinds: { colyseus: kinds, ws: kinds },
        entry: new URL(`../support/${child}`, import.meta.url),
        readyTimeoutMs: 300,
      });
      const local = new WebSocketServer({ noServer: true });
      const server = http.createServer();
      let handedOver = 0;
      server.on("upgrade", (req, socket, head) =>
        io.handleUpgrade(
          req,
          socket,
          head,
          "ws",
          () => handedOver++,
          () => local.handleUpgrade(req, socket, head, (ws) => ws.send("here")),
        ),
      );
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const port = (server.address() as net.AddressInfo).port;
        const client = new WebSocket(`ws://127.0.0.1:${port}/`);
        const first = await new Promise<string>((resolve, reject) => {
          client.once("message", (d) => resolve(d.toString()));
          client.once("error", reject);
        });
        assert.equal(first, "here", "completed in this process");
        assert.equal(handedOver, 0);
        assert.equal(io.usable, false);
        assert.equal(io.up, false, "no child up");
        assert.equal(io.starts, MAX_FAILED_STARTS, "no more children after that many");
        client.close();
      } finally {
        await io.close();
        server.close();
      }
    });
  }

  it("closes a connection whose handshake the child answered after the server gave it up (1013), instead of leaving its client on an open connection nobody reads", async () => {
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(String((JSON.parse(line) as { msg?: string }).msg)) });
    const s = await standalone({ logger, entry: new URL("../support/slowOpenChild.ts", import.meta.url), handshakeTimeoutMs: 100 });
    try {
      const client = new WebSocket(`ws://127.0.0.1:${s.port}/`);
      const closed = new Promise<number>((resolve) => client.on("close", (code) => resolve(code)));
      client.on("error", () => undefined);
      // The child answers after 300 ms, the server gave the handshake up at 100 ms.
      assert.equal(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve("still open after 5 s"), 5_000))]), 1013);
      assert.equal(s.remotes.length, 0, "the given-up connection was never handed to the server's code");
      assert.ok(
        warnings.some((w) => /did not answer a handshake/.test(w)),
        `warned: ${warnings.join("; ")}`,
      );
      assert.equal(s.io.count(), 0);
    } finally {
      await s.close();
    }
  });

  it("times a handshake from the moment its socket is handed over: one answered late, within the limit, opens", async () => {
    // The same 300 ms late answer, with a limit above it: the connection opens and is used.
    const s = await standalone({ entry: new URL("../support/slowOpenChild.ts", import.meta.url), handshakeTimeoutMs: 2_000 });
    try {
      const [c] = await connectClients(1, s.port, s.remotes);
      s.remotes[0]!.send("hello");
      s.io.flush();
      await until(() => (c!.got.length === 1 ? true : undefined), "the frame");
      assert.deepEqual(c!.got, ["hello"]);
      c!.ws.close();
    } finally {
      await s.close();
    }
  });

  /** A client of the standalone server: its frames as text (`got`) and whole (`frames`), and its close code. */
  interface Connected {
    ws: WebSocket;
    got: string[];
    frames: { binary: boolean; data: Buffer }[];
    closed: Promise<number>;
  }

  /** `n` clients, connected one after the other, so that remotes[i] is clients[i]'s connection. */
  async function connectClients(n: number, port: number, remotes: RemoteSocket[]): Promise<Connected[]> {
    const clients: Connected[] = [];
    for (let i = 0; i < n; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { maxPayload: 1024 * 1024 });
      const c: Connected = { ws, got: [], frames: [], closed: new Promise<number>((resolve) => ws.on("close", (code) => resolve(code))) };
      ws.on("message", (data: Buffer, binary: boolean) => {
        c.got.push(data.toString());
        c.frames.push({ binary, data });
      });
      await new Promise((resolve) => ws.once("open", resolve));
      await until(() => (remotes.length === i + 1 ? true : undefined), `connection ${i + 1} in the child`);
      clients.push(c);
    }
    return clients;
  }

  /** Runs `fn` with a standalone socket process and `n` clients of it, and closes it after. */
  async function withClients(n: number, fn: (s: { io: SocketProcess; remotes: RemoteSocket[]; clients: Connected[] }) => Promise<void>): Promise<void> {
    const { io, remotes, port, close } = await standalone();
    try {
      await fn({ io, remotes, clients: await connectClients(n, port, remotes) });
    } finally {
      await close();
    }
  }

  /** A standalone socket process that keeps its warnings, with one client connected (remotes[0]). */
  async function standaloneWithClient() {
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(String((JSON.parse(line) as { detail?: string }).detail)) });
    const s = await standalone({ logger });
    const client = new WebSocket(`ws://127.0.0.1:${s.port}/`);
    await new Promise((resolve) => client.once("open", resolve));
    await until(() => (s.remotes.length === 1 ? true : undefined), "the first connection in the child");
    return { ...s, warnings, client };
  }

  /** A SocketProcess with its real child, behind an HTTP server whose upgrades it takes; `remotes` in the order they opened. */
  async function standalone(options: Partial<ConstructorParameters<typeof SocketProcess>[0]> = {}) {
    const kinds = { maxPayload: 64 * 1024, pingIntervalMs: 0, maxMissedPings: 1 };
    const io = new SocketProcess({ logger: pino({ level: "silent" }), kinds: { colyseus: kinds, ws: kinds }, ...options });
    const server = http.createServer();
    const remotes: RemoteSocket[] = [];
    server.on("upgrade", (req, socket, head) =>
      io.handleUpgrade(
        req,
        socket,
        head,
        "ws",
        (r) => remotes.push(r),
        () => socket.destroy(),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    return {
      io,
      remotes,
      port,
      async close() {
        await io.close();
        server.close();
      },
    };
  }

  it("terminates a connection whose client stopped reading once 8 MiB wait for it, and the others go on", async () => {
    const s = await standaloneWithClient();
    const { warnings } = s;
    try {
      const stalled = s.client;
      const reader = new WebSocket(`ws://127.0.0.1:${s.port}/`);
      let read = 0;
      reader.on("message", (d: Buffer) => (read += d.byteLength));
      await new Promise((resolve) => reader.once("open", resolve));
      await until(() => (s.remotes.length === 2 ? true : undefined), "the second connection in the child");
      // The stalled client's TCP socket stops reading: what it is sent piles up in the child.
      (stalled as unknown as { _socket: net.Socket })._socket.pause();
      const [toStalled, toReader] = s.remotes as [RemoteSocket, RemoteSocket];
      const closed = new Promise<number>((resolve) => toStalled.once("close", (code: number) => resolve(code)));
      const mib = new Uint8Array(1024 * 1024);
      for (let i = 0; i < 40 && toStalled.readyState === toStalled.OPEN; i++) {
        toStalled.send(mib);
        toReader.send(mib);
        s.io.flush();
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(await closed, 1006, "terminated");
      await until(() => (read >= 8 * 1024 * 1024 ? true : undefined), "the reading client getting its frames", 10_000);
      assert.ok(
        warnings.some((w) => /read nothing of its last \d+ bytes/.test(w)),
        warnings.join("; "),
      );
      reader.close();
      stalled.terminate();
    } finally {
      await s.close();
    }
  });

  it("kills a socket process whose data pipe can take nothing more while it lives (it would answer pings and write nothing), and starts another", async () => {
    const s = await standalone();
    try {
      const client = new WebSocket(`ws://127.0.0.1:${s.port}/`);
      await new Promise((resolve) => client.once("open", resolve));
      await until(() => (s.remotes.length === 1 ? true : undefined), "the connection in the child");
      const closed = new Promise<number>((resolve) => s.remotes[0]!.once("close", (code: number) => resolve(code)));
      const pid = s.io.pid!;
      // The server's end of the pipe goes (as on a failed read of it), the child lives on.
      (s.io as unknown as { child: { stdio: Writable[] } }).child.stdio[4]!.destroy();
      s.remotes[0]!.send("lost");
      s.io.flush();
      assert.equal(await closed, 1006, "its connections closed as dropped");
      await until(() => (alive(pid) ? undefined : true), "the child gone", 5_000);
      await until(() => (s.io.up ? true : undefined), "a new child up", 5_000);
      assert.equal(s.io.starts, 2);
      client.terminate();
    } finally {
      await s.close();
    }
  });

  it("kills a socket process that stops answering (a hung child), closes its connections as dropped, and starts another", async () => {
    const s = await standalone({ pingIntervalMs: 100, hungMs: 1_000 });
    try {
      const client = new WebSocket(`ws://127.0.0.1:${s.port}/`);
      const clientClosed = new Promise<number>((resolve) => client.on("close", (code) => resolve(code)));
      await new Promise((resolve) => client.once("open", resolve));
      await until(() => (s.remotes.length === 1 ? true : undefined), "the connection in the child");
      const closed = new Promise<number>((resolve) => s.remotes[0]!.once("close", (code: number) => resolve(code)));
      const pid = s.io.pid!;
      process.kill(pid, "SIGSTOP");
      assert.equal(await closed, 1006);
      await until(() => (alive(pid) ? undefined : true), "the hung child gone", 5_000);
      assert.ok((await clientClosed) >= 1000, "its client's connection closed");
      await until(() => (s.io.up ? true : undefined), "a new child up", 5_000);
      assert.equal(s.io.starts, 2);
    } finally {
      await s.close();
    }
  });

  it("does not take a busy child for a hung one: a ping waiting behind handles being handed over, while the child answers each handshake", async () => {
    // 60 handshakes of 50 ms each: 3 s of handles, one at a time, with every ping queued behind them.
    const s = await standalone({ entry: new URL("../support/busyChild.ts", import.meta.url), pingIntervalMs: 100, hungMs: 1_000 });
    try {
      await connectClients(1, s.port, s.remotes); // the child up and its watchdog running
      const clients = Array.from({ length: 60 }, () => new WebSocket(`ws://127.0.0.1:${s.port}/`));
      const closes: number[] = [];
      for (const c of clients) {
        c.on("error", () => undefined);
        c.on("close", (code) => closes.push(code));
      }
      await until(() => (s.remotes.length === 61 || closes.length > 0 ? true : undefined), "every connection open", 20_000);
      assert.deepEqual(closes, [], "no connection closed");
      assert.equal(s.remotes.length, 61);
      assert.equal(s.io.starts, 1, "the child was not killed");
      for (const c of clients) c.close();
    } finally {
      await s.close();
    }
  });

  it("exits when the server's process is killed, and its clients' connections close", async function () {
    this.timeout(LINGER_MS + 40_000);
    const dir = makeWorldDir();
    const server = await spawnServer({ NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", WORLD: dir, SOCKET_PROCESS: "true" });
    try {
      const client = new WebSocket(`ws://127.0.0.1:${server.port}/ws?name=Left`);
      const closed = new Promise<number>((resolve) => client.on("close", (code) => resolve(code)));
      client.on("error", () => {});
      await new Promise((resolve) => client.once("message", resolve));
      const children = fs.readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
      assert.equal(children.length, 1, `one child process: ${children.join(", ")}`);
      const pid = children[0]!;
      server.child.kill("SIGKILL");
      await until(() => (alive(pid) ? undefined : true), "the socket process exiting", 10_000);
      assert.ok((await closed) >= 1000);
    } finally {
      server.child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the socket process's data pipe (Outbox, DataReader)", () => {
  type Got = [string, ...unknown[]];
  /** Everything a reader gives back, records decoded. */
  const reading = (got: Got[]) =>
    new DataReader({
      batch: (body) => {
        got.push(["batch"]);
        readBatch(body, {
          send: (id, frame, binary) => got.push(["send", id, binary ? [...frame] : frame.toString("utf8"), binary]),
          close: (id, code, reason) => got.push(["close", id, code, reason]),
          terminate: (id) => got.push(["terminate", id]),
        });
      },
      end: (code, reason, graceMs) => got.push(["end", code, reason, graceMs]),
    });

  it("gives back every write in order, whatever the chunks the pipe delivers them in", () => {
    const out = new Outbox(64);
    const caller = new Uint8Array([1, 2, 3, 4, 5]);
    out.send(1, "a frame, ünïcode and 🐉");
    out.send(2, caller.subarray(1, 4));
    // The bytes are copied in when sent: the caller may reuse its buffer.
    caller.fill(9);
    out.terminate(9);
    const first = Buffer.from(out.take().message);
    assert.ok(out.empty, "take() empties the outbox");
    out.close(7, 4000, "bye");
    out.close(8, 0, "");
    out.send(3, "x".repeat(70_000));
    out.send(4, new Uint8Array(0));
    const second = out.take().message;
    const all = Buffer.concat([first, second, endMessage(1001, "server shutting down", 2_000)]);
    const expected: Got[] = [
      ["batch"],
      ["send", 1, "a frame, ünïcode and 🐉", false],
      ["send", 2, [2, 3, 4], true],
      ["terminate", 9],
      ["batch"],
      ["close", 7, 4000, "bye"],
      ["close", 8, 0, ""],
      ["send", 3, "x".repeat(70_000), false],
      ["send", 4, [], true],
      ["end", 1001, "server shutting down", 2_000],
    ];
    // One chunk, one byte at a time, and chunks of odd sizes across the messages' boundaries.
    for (const size of [all.length, 1, 3, 4, 5, 1_000, 65_536]) {
      const got: Got[] = [];
      const reader = reading(got);
      for (let i = 0; i < all.length; i += size) reader.push(all.subarray(i, i + size));
      assert.deepEqual(got, expected, `chunks of ${size}`);
    }
  });

  it("reuses a written batch's buffer for a later batch, which holds only its own writes", () => {
    const out = new Outbox(64);
    out.send(1, "x".repeat(1_000));
    const first = out.take();
    first.done();
    out.take().done(); // an empty batch in between
    out.send(2, new Uint8Array([7]));
    out.terminate(3);
    const got: Got[] = [];
    reading(got).push(Buffer.from(out.take().message));
    assert.deepEqual(got, [["batch"], ["send", 2, [7], true], ["terminate", 3]]);
  });

  it("terminates a connection asked to close with a code no close frame can carry, and keeps the batch whole", () => {
    const out = new Outbox();
    out.close(2, 70_000, "r");
    out.close(5, -1, "r");
    out.close(6, 1000.5, "r");
    out.send(3, "after");
    out.terminate(4);
    const got: Got[] = [];
    reading(got).push(out.take().message);
    assert.deepEqual(got, [["batch"], ["terminate", 2], ["terminate", 5], ["terminate", 6], ["send", 3, "after", false], ["terminate", 4]]);
  });

  it("cuts a close's reason to the 123 bytes a close frame holds", () => {
    const out = new Outbox();
    out.close(1, 4001, "é".repeat(100));
    const got: Got[] = [];
    reading(got).push(out.take().message);
    // Between characters: 61 whole ones (122 bytes), none cut in two.
    assert.equal(got[1]![3], "é".repeat(61));
  });

  it("writes a frame sent to several sockets in a row once, and gives it back to each, in order", () => {
    const out = new Outbox(64);
    const line = "a chat line 🐉 to everyone in view";
    // Bytes are written once for several sockets only when marked as never changed.
    const bytes = unchanging(new Uint8Array([5, 6, 7]));
    for (const id of [1, 2, 3]) out.send(id, line);
    out.send(4, "another");
    out.send(5, line); // not right after its last record: a record of its own
    for (const id of [6, 7]) out.send(id, bytes);
    out.terminate(8);
    out.send(9, bytes); // a terminate in between
    const once = out.take().message;
    const got: Got[] = [];
    reading(got).push(once);
    assert.deepEqual(got, [
      ["batch"],
      ["send", 1, line, false],
      ["send", 2, line, false],
      ["send", 3, line, false],
      ["send", 4, "another", false],
      ["send", 5, line, false],
      ["send", 6, [5, 6, 7], true],
      ["send", 7, [5, 6, 7], true],
      ["terminate", 8],
      ["send", 9, [5, 6, 7], true],
    ]);
    // The line's bytes are in the batch twice (ids 1-3, then 5), not four times.
    const lineBytes = Buffer.byteLength(line);
    assert.equal(once.length, 5 + (9 + lineBytes + 4 + 8) + (9 + 7) + (9 + lineBytes) + (9 + 3 + 4 + 4) + 5 + (9 + 3));
    // A new batch starts with nothing to add to.
    out.send(10, line);
    const got2: Got[] = [];
    reading(got2).push(out.take().message);
    assert.deepEqual(got2, [["batch"], ["send", 10, line, false]]);
  });

  it("starts a new record for the same frame after a close, a clear and a new batch", () => {
    const out = new Outbox(64);
    const bytes = unchanging(new Uint8Array([9, 8]));
    out.send(1, bytes);
    out.close(2, 1000, "bye");
    out.send(3, bytes);
    out.send(4, bytes);
    const first = out.take().message;
    out.send(5, bytes); // a new batch: nothing of the last one to add to
    out.send(6, "dropped");
    out.clear();
    out.send(7, "dropped"); // after a clear: a record of its own
    const got: Got[] = [];
    const reader = reading(got);
    reader.push(first);
    reader.push(out.take().message);
    assert.deepEqual(got, [
      ["batch"],
      ["send", 1, [9, 8], true],
      ["close", 2, 1000, "bye"],
      ["send", 3, [9, 8], true],
      ["send", 4, [9, 8], true],
      ["batch"],
      ["send", 7, "dropped", false],
    ]);
    // Records: the first send, the close, one record for 3 and 4.
    assert.equal(first.length, 5 + (9 + 2) + (9 + 3) + (9 + 2 + 4 + 4));
  });

  it("copies bytes not marked unchanging at every send: changed in place since, they go as they are now", () => {
    const out = new Outbox(64);
    const reused = new Uint8Array([1, 1]);
    out.send(1, reused);
    reused[1] = 2;
    out.send(2, reused);
    out.send(3, reused);
    const got: Got[] = [];
    reading(got).push(out.take().message);
    assert.deepEqual(got, [["batch"], ["send", 1, [1, 1], true], ["send", 2, [1, 2], true], ["send", 3, [1, 2], true]]);
  });

  it("adds nothing to a record that another outbox's writes were appended after", () => {
    const out = new Outbox(64);
    const held = new Outbox(64);
    out.send(1, "same");
    held.send(2, "held");
    out.append(held);
    out.send(3, "same");
    held.send(4, "same");
    held.send(5, "same");
    out.append(held);
    out.send(6, "same");
    const got: Got[] = [];
    reading(got).push(out.take().message);
    assert.deepEqual(
      got.map((g) => g.slice(0, 3)),
      [["batch"], ["send", 1, "same"], ["send", 2, "held"], ["send", 3, "same"], ["send", 4, "same"], ["send", 5, "same"], ["send", 6, "same"]],
    );
  });

  it("refuses a malformed message with an error, not a wrong write", () => {
    const out = new Outbox();
    out.send(1, "hello");
    const good = out.take().message;
    // A frame longer than its batch.
    const cut = Buffer.from(good);
    cut.writeUInt32BE(1_000, 5 + 5);
    assert.throws(() => reading([]).push(cut), /cut short/);
    // An unknown op.
    const op = Buffer.from(good);
    op[5] = 77;
    assert.throws(() => reading([]).push(op), /unknown write op 77/);
    // An unknown message type, and a length no batch has.
    const type = Buffer.from(good);
    type[4] = 9;
    assert.throws(() => reading([]).push(type), /unknown data message type 9/);
    // A frame to several sockets whose list of sockets runs past the batch.
    const many = new Outbox();
    many.send(1, "hi");
    many.send(2, "hi");
    const listed = Buffer.from(many.take().message);
    listed.writeUInt32BE(1_000, 5 + 9 + 2);
    assert.throws(() => reading([]).push(listed), /sockets are cut short/);
    // One whose frame runs past the batch.
    many.send(1, "hi");
    many.send(2, "hi");
    const long = Buffer.from(many.take().message);
    long.writeUInt32BE(1_000, 5 + 5);
    assert.throws(() => reading([]).push(long), /frame is cut short/);
    const huge = Buffer.alloc(8);
    huge.writeUInt32BE(0xffffffff, 0);
    assert.throws(() => reading([]).push(huge), /data message of/);
  });
});
