/**
 * A raw multiplexed `/ws` client (`/ws?mux=1`, src/ws/mux.ts) for the tests: every message it gets
 * must be an array of envelopes that fit the events table.
 */
import WebSocket from "ws";
import { checkServerEvent } from "../../src/game/serverEvents.ts";
import { ViewCopy, type WorldUpdate } from "../../src/game/worldUpdate.ts";
import { MUX_CLOSED, muxClosedSchema } from "../../src/ws/mux.ts";
import { until } from "./until.ts";

/** Polls a condition (every 20 ms, 5 s at most). */
export const waitFor = (cond: () => boolean, what: string) => until(() => (cond() ? true : undefined), what);

export interface Envelope {
  sid?: number;
  type: string;
  data: Record<string, unknown>;
}

/** A raw multiplexed client: every message must be an array of envelopes that fit the events table. */
export class MuxClient {
  readonly socket: WebSocket;
  readonly envelopes: Envelope[] = [];
  messages = 0;
  /** Messages that carried more than one `world:update`. */
  doubleUpdates = 0;
  closed: { code: number } | undefined;
  readonly view = new ViewCopy();

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on("message", (raw) => {
      const batch = JSON.parse(raw.toString()) as Envelope[];
      if (!Array.isArray(batch)) throw new Error(`a multiplexed message that is not an array: ${raw.toString().slice(0, 80)}`);
      this.messages++;
      let updates = 0;
      for (const env of batch) {
        const problem =
          env.type === MUX_CLOSED ? (muxClosedSchema.safeParse(env.data).success ? undefined : "bad session:closed") : checkServerEvent(env.type, env.data);
        if (problem !== undefined) throw new Error(`the server sent an envelope that does not fit: ${problem}`);
        if (env.type === "world:update") {
          if (env.sid !== undefined) throw new Error("a session's own world:update on a multiplexed connection");
          updates++;
          this.view.apply(env.data as WorldUpdate);
        }
        this.envelopes.push(env);
      }
      if (updates > 1) this.doubleUpdates++;
    });
    socket.on("close", (code) => (this.closed = { code }));
    socket.on("error", () => {});
  }

  static async connect(url: string): Promise<MuxClient> {
    const socket = new WebSocket(url);
    const c = new MuxClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return c;
  }

  send(sid: number | undefined, type: string, data: object = {}): void {
    this.socket.send(JSON.stringify(sid === undefined ? { type, data } : { sid, type, data }));
  }

  /** Takes the first envelope of that type for that session (undefined: the connection's own). */
  async next(sid: number | undefined, type: string, timeoutMs = 5_000): Promise<Record<string, unknown>> {
    let found: Envelope | undefined;
    await until(
      () => {
        const i = this.envelopes.findIndex((e) => e.sid === sid && e.type === type);
        if (i >= 0) found = this.envelopes.splice(i, 1)[0];
        if (found === undefined && this.closed !== undefined) throw new Error(`closed (${this.closed.code}) while waiting for ${type} of ${sid}`);
        return found;
      },
      `${type} for session ${sid}`,
      timeoutMs,
    );
    return found!.data;
  }

  has(sid: number | undefined, type: string): boolean {
    return this.envelopes.some((e) => e.sid === sid && e.type === type);
  }

  async waitClosed(): Promise<number> {
    await waitFor(() => this.closed !== undefined, "the socket closed");
    return this.closed!.code;
  }
}
