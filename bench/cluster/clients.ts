/**
 * The cluster benchmark's own clients (joins and private messages), run in the bench process: a
 * player on either transport behind one small interface. A `/ws` client opens `/ws?world=…` on the
 * process it was given (which passes it on when another process runs that world); a Colyseus
 * client calls `joinOrCreate("world", {world})` on the process it was given (the SDK then connects
 * to the world's process, by its seat reservation's public address). Without a token both get an
 * anonymous identity (the servers run in anonymous mode).
 *
 * Both use the `ws` package as their WebSocket (the SDK's Node fallback), as the world-load bots do.
 */
import WebSocket from "ws";

Reflect.deleteProperty(globalThis, "WebSocket");
const { Client } = await import("@colyseus/sdk");

export type Kind = "colyseus" | "ws";
type Listener = (type: string, data: Record<string, unknown>) => void;
type SdkRoom = Awaited<ReturnType<InstanceType<typeof Client>["joinOrCreate"]>>;

/** A player in a world, on either transport. */
export interface GameConn {
  readonly kind: Kind;
  /** The `welcome` event's data (playerId, name, token, …). */
  readonly welcome: Record<string, unknown>;
  /** Every event after the welcome, except `/ws` `world:update` and `chat:message` frames (not parsed). */
  readonly listeners: Set<Listener>;
  readonly closed: boolean;
  send(type: string, data: object): void;
  /** Logs out at once: `/ws` close 1000, a consented Colyseus leave. */
  close(): void;
}

/** A join that did not reach its `welcome`, with what was known of why. */
export class JoinFailure extends Error {
  readonly reason: string;
  constructor(reason: string, detail?: string) {
    super(detail === undefined ? reason : `${reason}: ${detail}`);
    this.reason = reason;
  }
}

/** Timings of one join, from the first byte the client sent (ms). */
export interface Joined {
  conn: GameConn;
  /** Colyseus only: `joinOrCreate` resolved (seat reserved and room connection open). */
  joinedMs?: number;
  /** The `welcome` arrived: the player is in the world. */
  welcomeMs: number;
}

/** Resolves when an event satisfying `match` reaches `conn` (the listener is registered at once, so call it before sending). */
export function waitEvent(
  conn: GameConn,
  match: (type: string, data: Record<string, unknown>) => boolean,
  timeoutMs: number,
  what: string,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const listener: Listener = (type, data) => {
      if (!match(type, data)) return;
      clearTimeout(timer);
      conn.listeners.delete(listener);
      resolve(data);
    };
    const timer = setTimeout(() => {
      conn.listeners.delete(listener);
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    conn.listeners.add(listener);
  });
}

class WsConn implements GameConn {
  readonly kind = "ws" as const;
  welcome: Record<string, unknown> = {};
  readonly listeners = new Set<Listener>();
  closed = false;
  readonly socket: WebSocket;

  constructor(socket: WebSocket) {
    this.socket = socket;
  }

  send(type: string, data: object): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type, data }));
  }

  close(): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.close(1000);
  }
}

/** `/ws?<query>` on the process at `port`, until its `welcome` (or a refusal, or `timeoutMs`). */
export function joinWs(port: number, query: Record<string, string>, timeoutMs: number): Promise<Joined> {
  const started = performance.now();
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?${new URLSearchParams(query).toString()}`, { perMessageDeflate: false });
  const conn = new WsConn(socket);
  return new Promise<Joined>((resolve, reject) => {
    let welcomed = false;
    const fail = (f: JoinFailure) => {
      if (welcomed) return;
      clearTimeout(timer);
      socket.terminate();
      reject(f);
    };
    const timer = setTimeout(() => fail(new JoinFailure("timeout", `no welcome within ${timeoutMs} ms`)), timeoutMs);
    socket.on("message", (raw: Buffer) => {
      const text = raw.toString();
      if (text.startsWith('{"type":"world:update"') || text.startsWith('{"type":"chat:message"')) return;
      const env = JSON.parse(text) as { type: string; data: Record<string, unknown> };
      if (!welcomed) {
        if (env.type === "welcome") {
          welcomed = true;
          clearTimeout(timer);
          conn.welcome = env.data;
          resolve({ conn, welcomeMs: performance.now() - started });
        } else if (env.type === "error") {
          fail(new JoinFailure(String(env.data.code), String(env.data.message)));
        }
        return;
      }
      for (const l of [...conn.listeners]) l(env.type, env.data);
    });
    socket.on("close", (code) => {
      conn.closed = true;
      fail(new JoinFailure(`closed ${code}`, "before the welcome"));
    });
    socket.on("error", (err) => fail(new JoinFailure("socket error", err.message)));
    socket.on("unexpected-response", (_req, res) => fail(new JoinFailure(`upgrade refused ${res.statusCode}`)));
  });
}

class ColyseusConn implements GameConn {
  readonly kind = "colyseus" as const;
  welcome: Record<string, unknown> = {};
  readonly listeners = new Set<Listener>();
  closed = false;
  readonly room: SdkRoom;

  constructor(room: SdkRoom) {
    this.room = room;
  }

  send(type: string, data: object): void {
    if (!this.closed) this.room.send(type, data);
  }

  close(): void {
    if (!this.closed) void this.room.leave(true).catch(() => {});
  }
}

/** The code of a refused Colyseus join: its `ServerError` code and the message's first word (`UNKNOWN_WORLD: …`). */
function sdkReason(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const word = /^([A-Z_]{3,})\b/.exec(String(e?.message ?? ""))?.[1];
  return [e?.code === undefined ? "join error" : `join error ${String(e.code)}`, word].filter(Boolean).join(" ");
}

/** `joinOrCreate("world", options)` asked of the process at `port`, until the `welcome` (or a refusal, or `timeoutMs`). */
export function joinColyseus(port: number, options: Record<string, unknown>, timeoutMs: number, token?: string): Promise<Joined> {
  const started = performance.now();
  const client = new Client(`http://127.0.0.1:${port}`);
  if (token !== undefined) client.auth.token = token;
  return new Promise<Joined>((resolve, reject) => {
    let settled = false;
    let room: SdkRoom | undefined;
    const fail = (f: JoinFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void room?.leave(true).catch(() => {});
      reject(f);
    };
    const timer = setTimeout(() => fail(new JoinFailure("timeout", `no welcome within ${timeoutMs} ms`)), timeoutMs);
    client.joinOrCreate("world", options).then(
      (joined) => {
        room = joined;
        if (settled) {
          // Too late: leave the seat it got.
          void joined.leave(true).catch(() => {});
          return;
        }
        const joinedMs = performance.now() - started;
        const conn = new ColyseusConn(joined);
        joined.onMessage("*", (type: string | number, data: unknown) => {
          const t = String(type);
          const d = (data ?? {}) as Record<string, unknown>;
          if (!settled) {
            if (t === "welcome") {
              settled = true;
              clearTimeout(timer);
              conn.welcome = d;
              resolve({ conn, joinedMs, welcomeMs: performance.now() - started });
            } else if (t === "error") {
              fail(new JoinFailure(String(d.code), String(d.message)));
            }
            return;
          }
          for (const l of [...conn.listeners]) l(t, d);
        });
        joined.onLeave((code: number) => {
          conn.closed = true;
          fail(new JoinFailure(`left ${code}`, "before the welcome"));
        });
      },
      (err: unknown) => fail(new JoinFailure(sdkReason(err), String((err as Error)?.message ?? err).slice(0, 200))),
    );
  });
}
