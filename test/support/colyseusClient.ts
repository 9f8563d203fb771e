/**
 * A Colyseus SDK client joined to the world room, queuing the messages it receives. Every message
 * is checked against the server events table: one that does not fit throws (the running test fails).
 */
import { Client, type Room } from "@colyseus/sdk";
import { checkServerEvent } from "../../src/game/serverEvents.ts";
import type { GameServerDefinition } from "../../src/app.config.ts";

export class WorldTestClient {
  /** Typed by the server's definition (src/app.config.ts): rooms and their join options inferred from their names. */
  readonly sdk: Client<GameServerDefinition>;
  room!: Room;
  readonly events: { type: string; data: Record<string, unknown> }[] = [];
  private waiters: (() => void)[] = [];

  constructor(baseUrl: string, token?: string) {
    this.sdk = new Client<GameServerDefinition>(baseUrl);
    if (token !== undefined) this.sdk.auth.token = token;
  }

  static async join(baseUrl: string, options: { token?: string; name?: string; characterId?: string; world?: unknown } = {}): Promise<WorldTestClient> {
    const c = new WorldTestClient(baseUrl, options.token);
    const joinOptions: Record<string, unknown> = {};
    if (options.name !== undefined) joinOptions.name = options.name;
    if (options.characterId !== undefined) joinOptions.characterId = options.characterId;
    if (options.world !== undefined) joinOptions.world = options.world;
    c.attach(await c.sdk.joinOrCreate("world", joinOptions));
    return c;
  }

  attach(room: Room): void {
    this.room = room;
    room.onMessage("*", (type: string | number, data: unknown) => {
      const problem = checkServerEvent(String(type), data);
      if (problem !== undefined) throw new Error(`the server sent a message that does not fit serverEvents.ts: ${problem}`);
      this.events.push({ type: String(type), data: data as Record<string, unknown> });
      for (const w of this.waiters.splice(0)) w();
    });
    room.onStateChange(() => {
      for (const w of this.waiters.splice(0)) w();
    });
  }

  async next(type: string, timeoutMs = 5_000): Promise<Record<string, unknown>> {
    return this.waitFor(
      () => {
        const i = this.events.findIndex((e) => e.type === type);
        return i >= 0 ? this.events.splice(i, 1)[0]!.data : undefined;
      },
      timeoutMs,
      `message "${type}"`,
    );
  }

  /** Resolves when `probe` returns something other than undefined (checked on every message and patch). */
  async waitFor<T>(probe: () => T | undefined, timeoutMs = 5_000, what = "condition"): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v !== undefined) return v;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The decoded state as plain JSON. */
  state(): { tick: number; players: Record<string, Record<string, unknown>> } {
    return (this.room.state as { toJSON(): { tick: number; players: Record<string, Record<string, unknown>> } }).toJSON();
  }

  send(type: string, data: unknown): void {
    this.room.send(type, data);
  }
}
