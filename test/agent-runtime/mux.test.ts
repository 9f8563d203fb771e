/**
 * The runtime's multiplexed `/ws` client (agent-runtime/MuxConnection.ts) against a small in-test
 * server speaking the protocol of src/ws/mux.ts (no game server): sessions opened on one socket
 * with `session:open {token}`, envelopes routed by sid, the connection's `world:update` merged once
 * and each agent's view filtered to VIEW_RADIUS around it, final and retryable `session:closed`,
 * a dropped socket reopened with its sessions, payloads checked against the protocol before they
 * go, and the pool that spreads agents over connections.
 */
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { AgentView } from "../../agent-runtime/AgentView.ts";
import { FINAL_CLOSE_CODES, type ConnectionEvents } from "../../agent-runtime/GameConnection.ts";
import { MuxConnection, MuxPool, type MuxSession } from "../../agent-runtime/MuxConnection.ts";
import { VIEW_RADIUS } from "../../src/game/serverEvents.ts";
import type { WorldUpdate } from "../../src/game/worldUpdate.ts";
import { MUX_CLOSE, MUX_CLOSED, MUX_OPEN, MUX_QUERY } from "../../src/ws/mux.ts";
import { until } from "../support/until.ts";

type Envelope = { sid?: number; type: string; data: Record<string, unknown> };

/** A `/ws?mux=1` server that records what it is sent and sends what the test says. */
class FakeMuxServer {
  readonly sockets: WebSocket[] = [];
  readonly urls: URL[] = [];
  /** Every envelope received, with the index of its socket. */
  readonly frames: { socket: number; env: Envelope }[] = [];
  readonly closed: number[] = [];
  private readonly wss: WebSocketServer;

  private constructor(wss: WebSocketServer) {
    this.wss = wss;
    wss.on("connection", (socket, req) => {
      const i = this.sockets.length;
      this.sockets.push(socket);
      this.urls.push(new URL(req.url ?? "/", "ws://localhost"));
      socket.on("message", (raw) => this.frames.push({ socket: i, env: JSON.parse(raw.toString()) as Envelope }));
      socket.on("close", () => this.closed.push(i));
    });
  }

  static async start(): Promise<FakeMuxServer> {
    const wss = new WebSocketServer({ port: 0, host: "127.0.0.1", path: "/ws" });
    await new Promise<void>((resolve) => wss.once("listening", resolve));
    return new FakeMuxServer(wss);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/ws`;
  }

  /** One WebSocket message: an array of envelopes, on the latest socket unless told. */
  send(envelopes: Envelope[], socket = this.sockets.length - 1): void {
    this.sockets[socket]!.send(JSON.stringify(envelopes));
  }

  /** The envelopes of a type received so far (on one socket, or any). */
  of(type: string, socket?: number): Envelope[] {
    return this.frames.filter((f) => f.env.type === type && (socket === undefined || f.socket === socket)).map((f) => f.env);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/** A session's handlers, recording what they are told. */
function recorder() {
  const rec = {
    events: [] as { type: string; data: Record<string, unknown> }[],
    opens: 0,
    closes: [] as [number, string, boolean][],
    viewUpdates: [] as number[],
    /** Also told of the shared view's updates (an agent's view, as Agent wires it). */
    view: undefined as AgentView | undefined,
  };
  const events: ConnectionEvents = {
    onEvent: (type, data) => void rec.events.push({ type, data }),
    onOpen: () => void rec.opens++,
    onClose: (code, reason, final) => void rec.closes.push([code, reason, final]),
    onViewUpdate: (tick) => {
      rec.viewUpdates.push(tick);
      rec.view?.moved(tick);
    },
  };
  return { rec, events };
}

type Entry = WorldUpdate["entities"][number] & { h?: number };
const player = (id: string, x: number, z: number, h?: number): Entry => ({
  id,
  kind: "player",
  x,
  z,
  name: id,
  health: 10,
  maxHealth: 10,
  combatLevel: 3,
  running: false,
  ...(h !== undefined ? { h } : {}),
});
const rock = (id: string, x: number, z: number, h?: number): Entry => ({ id, kind: "resource", x, z, ref: "rock_copper", ...(h !== undefined ? { h } : {}) });
const update = (tick: number, entities: Entry[], moved: number[] = [], removed: string[] = []): Envelope => ({
  type: "world:update",
  data: { tick, entities, removed, ...(moved.length > 0 ? { moved } : {}) },
});
const welcome = (playerId: string) => ({ playerId, tickMs: 600, tick: 1 }) as unknown as Parameters<AgentView["welcome"]>[0];
const ids = (view: AgentView) => [...view.entities.keys()].sort();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("agent runtime: a multiplexed /ws connection (many agents on one socket)", function () {
  this.timeout(10_000);
  const fast = { retryMinMs: 50, retryMaxMs: 200 };
  let server: FakeMuxServer;
  let mux: MuxConnection | undefined;
  let pool: MuxPool | undefined;

  beforeEach(async () => {
    server = await FakeMuxServer.start();
  });
  afterEach(async () => {
    mux?.close();
    pool?.close();
    mux = undefined;
    pool = undefined;
    await server.close();
  });

  /** A connection with two sessions opened on it (the server has both `session:open`s). */
  async function twoSessions() {
    mux = new MuxConnection(server.url, fast);
    const A = recorder();
    const B = recorder();
    const a = mux.session("token-a", A.events);
    const b = mux.session("token-b", B.events);
    a.connect();
    b.connect();
    await until(() => (server.of(MUX_OPEN).length === 2 ? true : undefined), "both sessions opened");
    await until(() => (a.open && b.open ? true : undefined), "the sessions open on the client");
    return { a, b, A: A.rec, B: B.rec, mux };
  }

  it("opens every session with session:open {token} on one socket at /ws?mux=1&updates=compact, no token on the URL", async () => {
    const { a, b, A, B } = await twoSessions();
    assert.equal(server.sockets.length, 1, "one socket for both");
    const url = server.urls[0]!;
    assert.equal(url.pathname, "/ws");
    assert.equal(url.searchParams.get(MUX_QUERY), "1");
    assert.equal(url.searchParams.get("updates"), "compact");
    assert.equal(url.searchParams.has("token"), false);
    assert.ok(Number.isInteger(a.sid) && a.sid >= 1 && Number.isInteger(b.sid) && b.sid >= 1 && a.sid !== b.sid);
    assert.deepEqual(
      server.frames.map((f) => f.env),
      [
        { sid: a.sid, type: MUX_OPEN, data: { token: "token-a" } },
        { sid: b.sid, type: MUX_OPEN, data: { token: "token-b" } },
      ],
    );
    assert.equal(A.opens, 1);
    assert.equal(B.opens, 1);
  });

  it("a session held but not connected opens no socket", async () => {
    mux = new MuxConnection(server.url, fast);
    mux.session("token-a", recorder().events);
    await sleep(150);
    assert.equal(server.sockets.length, 0);
    assert.equal(mux.size, 1);
  });

  it("routes each session's envelopes to it by sid, and only to it; the connection's own error and unknown sids go nowhere", async () => {
    const { a, b, A, B, mux } = await twoSessions();
    server.send([
      { sid: a.sid, type: "welcome", data: { playerId: "pa", tickMs: 600, tick: 1 } },
      { sid: b.sid, type: "chat:message", data: { channel: "local", fromId: "x", fromName: "X", message: "hi" } },
      { type: "error", data: { code: "INVALID_PAYLOAD", message: "no such session" } },
      { sid: 999_999, type: "player:sync", data: { name: "nobody" } },
      { sid: a.sid, type: "skill:xp", data: { skill: "mining", xp: 5 } },
    ]);
    await until(() => (A.events.length === 2 && B.events.length === 1 ? true : undefined), "the events routed");
    await sleep(50);
    assert.deepEqual(
      A.events.map((e) => e.type),
      ["welcome", "skill:xp"],
    );
    assert.deepEqual(A.events[0]!.data, { playerId: "pa", tickMs: 600, tick: 1 });
    assert.deepEqual(
      B.events.map((e) => e.type),
      ["chat:message"],
    );
    assert.equal(B.events[0]!.data.message, "hi");
    assert.equal(a.received, 2);
    assert.equal(b.received, 1);
    assert.equal(mux.received, 1, "one WebSocket message");
  });

  it("applies the connection's world:update once; each agent sees what is within VIEW_RADIUS of it (16 tiles seen, 17 not)", async () => {
    const { a, b, A, B, mux } = await twoSessions();
    assert.equal(a.sharedView, b.sharedView, "one view for the connection");
    const va = new AgentView(a.sharedView);
    const vb = new AgentView(b.sharedView);
    A.view = va;
    B.view = vb;
    va.welcome(welcome("pa"));
    vb.welcome(welcome("pb"));
    assert.equal(VIEW_RADIUS, 16);
    // A stands at (0, 0), B at (40, 0).
    server.send([
      update(5, [
        player("pa", 0, 0, 1),
        player("pb", 40, 0, 2),
        rock("r16", 16, -9, 3), // 16 from A (Chebyshev): A sees it
        rock("r17", 17, 0, 4), // 17 from A, 23 from B: nobody
        rock("rz", -3, -16, 5), // 16 from A along z
        rock("rb", 56, 16, 6), // 16 from B
        rock("both", 20, 0, 7), // 20 from A, 20 from B: nobody; moved below
      ]),
    ]);
    await until(() => (A.viewUpdates.length === 1 && B.viewUpdates.length === 1 ? true : undefined), "the agents told");
    assert.deepEqual(A.viewUpdates, [5]);
    assert.deepEqual(B.viewUpdates, [5]);
    assert.equal(va.tick, 5);
    assert.equal(vb.tick, 5);
    assert.equal(mux.view.entities.size, 7, "the union, each entity once");
    assert.deepEqual(ids(va), ["pa", "r16", "rz"]);
    assert.deepEqual(ids(vb), ["pb", "rb"]);
    assert.deepEqual(va.position, { x: 0, z: 0 });
    assert.deepEqual(
      va.find("resource").map((e) => e.id),
      ["r16", "rz"],
    );
    assert.equal(
      vb.countSeen("resource", () => true),
      1,
    );
    // Filtered once per update, however often it is read.
    const rebuilt = va.rebuilds;
    void va.entities.get("r16");
    va.find("resource");
    va.countSeen("resource", () => true);
    void va.position;
    assert.equal(va.rebuilds, rebuilt);

    // Compact moves: A steps to (1, 0) (r17 is 16 away now), "both" moves next to B; both share the one entry.
    server.send([update(6, [], [1, 1, 0, 7, 30, 0])]);
    await until(() => (A.viewUpdates.length === 2 ? true : undefined), "the second update");
    assert.deepEqual(va.position, { x: 1, z: 0 });
    assert.deepEqual(ids(va), ["pa", "r16", "r17", "rz"]);
    assert.deepEqual(ids(vb), ["both", "pb", "rb"]);
    assert.equal(va.rebuilds, rebuilt + 1);
    assert.equal(vb.entities.get("r17"), undefined);
    assert.equal(mux.view.entities.get("both"), vb.entities.get("both"), "the shared entry itself, not a copy");
    assert.deepEqual(B.viewUpdates, [5, 6]);

    // A new session's welcome does not clear the connection's view.
    va.welcome(welcome("pa"));
    assert.equal(mux.view.entities.size, 7);
    assert.deepEqual(ids(va), ["pa", "r16", "r17", "rz"]);
  });

  it("a final session:closed (4001) ends the session for good; a retryable one (1013) opens it again after a backoff", async () => {
    const { a, b, A, B } = await twoSessions();
    server.send([
      { sid: a.sid, type: "error", data: { code: "UNAUTHORIZED", message: "token refused" } },
      { sid: a.sid, type: MUX_CLOSED, data: { code: 4001, reason: "token refused" } },
      { sid: b.sid, type: MUX_CLOSED, data: { code: 1013, reason: "try again later" } },
    ]);
    await until(() => (A.closes.length === 1 && B.closes.length === 1 ? true : undefined), "both told");
    assert.deepEqual(A.closes, [[4001, FINAL_CLOSE_CODES.get(4001), true]]);
    assert.deepEqual(B.closes, [[1013, "try again later", false]]);
    assert.equal(a.open, false);
    assert.equal(a.send("player:move", { x: 1, z: 1 }), false, "nothing is sent on an ended session");
    await until(() => (server.of(MUX_OPEN).filter((e) => e.sid === b.sid).length === 2 ? true : undefined), "b opened again");
    assert.deepEqual(server.of(MUX_OPEN).at(-1), { sid: b.sid, type: MUX_OPEN, data: { token: "token-b" } });
    await until(() => (b.open ? true : undefined), "b open");
    assert.equal(B.opens, 2);
    // Several backoffs later, a has still not been opened again.
    await sleep(400);
    assert.equal(server.of(MUX_OPEN).filter((e) => e.sid === a.sid).length, 1);
    assert.equal(A.opens, 1);
    assert.equal(server.sockets.length, 1, "the socket stays");
  });

  it("a dropped socket: every session is told (not final), the socket is reopened, the sessions opened again, and the view restarts", async () => {
    const { a, b, A, B, mux } = await twoSessions();
    const va = new AgentView(a.sharedView);
    va.welcome(welcome("pa"));
    server.send([update(3, [player("pa", 0, 0, 1), player("pb", 5, 0, 2), rock("gone", 2, 2, 3)])]);
    await until(() => (mux.view.entities.size === 3 ? true : undefined), "the first view");
    server.sockets[0]!.terminate();
    await until(() => (A.closes.length >= 1 && B.closes.length >= 1 ? true : undefined), "both told");
    assert.equal(A.closes[0]![2], false);
    assert.equal(B.closes[0]![2], false);
    await until(() => (server.of(MUX_OPEN, 1).length === 2 ? true : undefined), "both opened again on a second socket");
    assert.equal(server.sockets.length, 2);
    assert.deepEqual(
      server
        .of(MUX_OPEN, 1)
        .map((e) => [e.sid, e.data.token])
        .sort(),
      [
        [a.sid, "token-a"],
        [b.sid, "token-b"],
      ].sort(),
    );
    await until(() => (a.open && b.open ? true : undefined), "open again");
    assert.equal(A.opens, 2);
    assert.equal(B.opens, 2);
    // The new socket's first update is a whole view: what it does not name is gone, its handles are new.
    server.send([update(9, [player("pa", 1, 1, 4), player("pb", 5, 0, 5)])]);
    await until(() => (A.viewUpdates.includes(9) ? true : undefined), "the new view");
    assert.deepEqual([...mux.view.entities.keys()].sort(), ["pa", "pb"]);
    assert.deepEqual(ids(va), ["pa", "pb"]);
    server.send([update(10, [], [4, 2, 1])]);
    await until(() => (A.viewUpdates.includes(10) ? true : undefined), "a move on the new handles");
    assert.deepEqual(va.position, { x: 2, z: 1 });
  });

  it("a payload that does not fit the protocol is refused locally (counted, never sent); one that does goes with the sid", async () => {
    const { a } = await twoSessions();
    assert.equal(a.send("player:move", { x: "far", z: 1 } as never), false);
    assert.equal(a.send("player:chat", { message: 7 } as never), false);
    assert.equal(a.refused.get("player:move"), 1);
    assert.equal(a.refused.get("player:chat"), 1);
    assert.equal(a.sent, 0);
    assert.equal(a.send("player:move", { x: 3, z: -4 }), true);
    assert.equal(a.sent, 1);
    await until(() => (server.frames.length === 3 ? true : undefined), "the move");
    await sleep(50);
    assert.deepEqual(
      server.frames.map((f) => f.env),
      [
        { sid: a.sid, type: MUX_OPEN, data: { token: "token-a" } },
        { sid: server.frames[1]!.env.sid, type: MUX_OPEN, data: { token: "token-b" } },
        { sid: a.sid, type: "player:move", data: { x: 3, z: -4 } },
      ],
    );
  });

  it("session:close logs one session out (stopped, final); the last one closes the socket", async () => {
    const { a, b, A, B } = await twoSessions();
    a.close();
    await until(() => (A.closes.length === 1 ? true : undefined), "a told");
    assert.deepEqual(A.closes, [[1000, "stopped", true]]);
    assert.deepEqual(server.of(MUX_CLOSE), [{ sid: a.sid, type: MUX_CLOSE, data: {} }]);
    await sleep(100);
    assert.deepEqual(server.closed, [], "b still wants the socket");
    assert.equal(b.open, true);
    assert.deepEqual(B.closes, []);
    b.close();
    await until(() => (server.closed.length === 1 ? true : undefined), "the socket closed");
    assert.deepEqual(
      server.of(MUX_CLOSE).map((e) => e.sid),
      [a.sid, b.sid],
    );
    await until(() => (B.closes.length === 1 ? true : undefined), "b told");
    assert.deepEqual(B.closes, [[1000, "stopped", true]]);
    await sleep(200);
    assert.equal(server.sockets.length, 1, "not reopened");
  });

  it("sends at most opensPerSecond session:opens a second (the server's limit on a connection's own frames)", async () => {
    mux = new MuxConnection(server.url, { ...fast, opensPerSecond: 2 });
    const sessions = ["t1", "t2", "t3", "t4", "t5"].map((t) => mux!.session(t, recorder().events));
    const started = Date.now();
    for (const x of sessions) x.connect();
    await until(() => (server.of(MUX_OPEN).length === 2 ? true : undefined), "the first two");
    await sleep(300);
    assert.equal(server.of(MUX_OPEN).length, 2, "the rest wait for the next second");
    assert.deepEqual(
      sessions.map((x) => x.open),
      [true, true, false, false, false],
    );
    await until(() => (server.of(MUX_OPEN).length === 5 ? true : undefined), "all five");
    assert.ok(Date.now() - started >= 1_900, `five opens at two a second take two seconds (${Date.now() - started} ms)`);
    assert.deepEqual(
      server.of(MUX_OPEN).map((e) => e.data.token),
      ["t1", "t2", "t3", "t4", "t5"],
    );
  });

  it("the pool puts an agent on the first connection with room, and opens another when all are full", async () => {
    pool = new MuxPool(server.url, 2, fast);
    const s: MuxSession[] = [];
    for (const t of ["t1", "t2", "t3"]) s.push(pool.session(t, recorder().events));
    assert.equal(pool.connections.length, 2);
    assert.deepEqual(
      pool.connections.map((c) => c.size),
      [2, 1],
    );
    s[0]!.close();
    s.push(pool.session("t4", recorder().events));
    assert.deepEqual(
      pool.connections.map((c) => c.size),
      [2, 1],
      "t4 took t1's place",
    );
    for (const x of s.slice(1)) x.connect();
    await until(() => (server.of(MUX_OPEN).length === 3 ? true : undefined), "three sessions opened");
    assert.equal(server.sockets.length, 2);
    const bySocket = [0, 1].map((i) =>
      server
        .of(MUX_OPEN, i)
        .map((e) => e.data.token)
        .sort(),
    );
    assert.deepEqual(bySocket.sort(), [["t2", "t4"], ["t3"]].sort());
    await until(() => (pool!.sockets === 2 ? true : undefined), "two sockets open");
  });
});
