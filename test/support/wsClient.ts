/**
 * A raw `/ws` test client that queues every event and close it receives. Every event is checked
 * against the server events table: one that does not fit throws (the running test fails).
 */
import WebSocket, { type ClientOptions } from "ws";
import { checkServerEvent } from "../../src/game/serverEvents.ts";

export interface WsEvent {
  type: string;
  data: Record<string, unknown>;
}

export class WsTestClient {
  readonly socket: WebSocket;
  readonly events: WsEvent[] = [];
  closed: { code: number; reason: string } | undefined;
  private waiters: (() => void)[] = [];

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on("message", (raw) => {
      const event = JSON.parse(raw.toString()) as WsEvent;
      const problem = checkServerEvent(event.type, event.data);
      if (problem !== undefined) throw new Error(`the server sent an event that does not fit serverEvents.ts: ${problem}`);
      this.events.push(event);
      this.wake();
    });
    socket.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    socket.on("error", () => {});
  }

  /** `options`: the `ws` client's, e.g. `{ autoPong: false }` for a client that ignores pings. */
  static async connect(url: string, options?: ClientOptions): Promise<WsTestClient> {
    const socket = new WebSocket(url, options);
    const client = new WsTestClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
      socket.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    return client;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  send(type: string, data: object = {}): void {
    this.socket.send(JSON.stringify({ type, data }));
  }

  sendRaw(raw: string | Buffer, binary = false): void {
    this.socket.send(raw, { binary });
  }

  /** Resolves with (and removes) the first queued event of that type. */
  async next(type: string, timeoutMs = 5_000): Promise<Record<string, unknown>> {
    return (await this.nextOf([type], timeoutMs)).data;
  }

  /**
   * Resolves with (and removes) the first queued event of any of these types: one waiter for
   * either outcome (a `welcome` or an `error`), where two racing `next` calls would leave the
   * loser waiting to take a later event meant for the test.
   */
  async nextOf(types: readonly string[], timeoutMs = 5_000): Promise<WsEvent> {
    const type = types.join('" or "');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.events.findIndex((e) => types.includes(e.type));
      if (i >= 0) return this.events.splice(i, 1)[0]!;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for "${type}"`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no "${type}" within ${timeoutMs} ms; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async waitClosed(timeoutMs = 5_000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`socket still open after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed;
  }

  close(): void {
    this.socket.close();
  }
}
