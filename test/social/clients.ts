/**
 * Players for the social suites, on either transport (a `/ws` socket or a Colyseus SDK client of
 * the world room), with what the suites ask of them: send an event, wait for one, log out. Every
 * event either client receives is checked against the server events table by its test client.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { FriendRequest, Friendship, IgnoreEntry } from "../../entities/index.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import type { TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

export type Transport = "ws" | "colyseus";
export const TRANSPORTS: readonly Transport[] = ["ws", "colyseus"];

type Event = Record<string, unknown>;

export interface Friend {
  accountId: string;
  name: string;
  online?: boolean;
  world?: number | null;
}

export interface SocialLists {
  friends: Required<Friend>[];
  incoming: Friend[];
  outgoing: Friend[];
  ignored: Friend[];
  change?: { kind: string; accountId: string; name: string };
}

export class Client {
  readonly transport: Transport;
  readonly name: string;
  readonly playerId: string;
  readonly accountId: string;
  /** Reconnects as the same account (anonymous mode's service token). */
  readonly token: string;
  private readonly ws: WsTestClient | undefined;
  private readonly sdk: WorldTestClient | undefined;
  private readonly t: TestServer;

  private constructor(t: TestServer, transport: Transport, conn: WsTestClient | WorldTestClient, welcome: Event, token: string) {
    this.t = t;
    this.transport = transport;
    if (conn instanceof WsTestClient) this.ws = conn;
    else this.sdk = conn;
    this.name = String(welcome.name);
    this.playerId = String(welcome.playerId);
    this.accountId = String(welcome.accountId);
    this.token = token;
  }

  /** A new player (a new anonymous account and its character), or the account of `token` again. */
  static async join(t: TestServer, transport: Transport, who: { name?: string; token?: string } = {}): Promise<Client> {
    const name = who.token === undefined ? (who.name ?? uniqueName()) : undefined;
    let conn: WsTestClient | WorldTestClient;
    if (transport === "ws") {
      const query = who.token !== undefined ? `token=${encodeURIComponent(who.token)}` : `name=${encodeURIComponent(name!)}`;
      conn = await WsTestClient.connect(`${t.wsUrl}?${query}`);
    } else {
      conn = await WorldTestClient.join(t.baseUrl, who.token !== undefined ? { token: who.token } : { name: name! });
    }
    const welcome = await conn.next("welcome");
    return new Client(t, transport, conn, welcome, who.token ?? String(welcome.token));
  }

  get events(): { type: string; data: Event }[] {
    return (this.ws ?? this.sdk)!.events;
  }

  send(type: string, data: object = {}): void {
    if (this.ws) this.ws.send(type, data);
    else this.sdk!.send(type, data);
  }

  next(type: string, timeoutMs = 5_000): Promise<Event> {
    return (this.ws ?? this.sdk)!.next(type, timeoutMs);
  }

  async list(): Promise<SocialLists> {
    return (await this.next("social:list")) as unknown as SocialLists;
  }

  /** Sends a command and waits for its refusal. */
  async refused(type: string, data: object): Promise<{ code: string; message: string; event?: string }> {
    this.send(type, data);
    const error = (await this.next("error")) as { code: string; message: string; event?: string };
    assert.equal(error.event, type, `the error answers ${type}: ${JSON.stringify(error)}`);
    return error;
  }

  /** No event of this type arrives within `ms`. */
  async none(type: string, ms = 300): Promise<void> {
    await new Promise((r) => setTimeout(r, ms));
    const got = this.events.filter((e) => e.type === type);
    assert.deepEqual(got, [], `no ${type} expected`);
  }

  /** Logs out (a consented leave, a `/ws` close 1000) and waits until the player has left the world. */
  async logout(): Promise<void> {
    if (this.ws) this.ws.socket.close(1000);
    else await this.sdk!.room.leave();
    await until(() => (this.t.server.world.world.players.has(this.playerId) ? undefined : true), `${this.name} left the world`);
  }

  /**
   * Drops the connection without logging out. A `/ws` player lingers in the world without a
   * connection; a Colyseus client keeps its seat (and its connection, closed) for the reconnection
   * window: resolves with the token that takes the seat back (`sdk.reconnect`).
   */
  async drop(): Promise<string | undefined> {
    if (this.ws) {
      this.ws.socket.terminate();
      await until(() => (this.t.server.world.connectionOf(this.playerId) === undefined ? true : undefined), `${this.name}'s connection ended`, 10_000);
      return undefined;
    }
    const room = this.sdk!.room;
    room.reconnection.enabled = false;
    const token = room.reconnectionToken;
    void room.leave(false);
    await until(() => (this.t.server.world.connectionOf(this.playerId)?.isOpen?.() === false ? true : undefined), `${this.name}'s socket closed`);
    return token;
  }

  /** A Colyseus client takes its dropped seat back (see drop). */
  async reconnect(token: string): Promise<void> {
    const room = await this.sdk!.sdk.reconnect(token);
    this.sdk!.attach(room);
  }
}

let counter = 0;
/** A character name no other test uses (3..16 letters and digits). */
export function uniqueName(prefix = "P"): string {
  return `${prefix}${randomBytes(3).toString("hex")}${(counter++).toString(36)}`.slice(0, 16);
}

/** Every social row of the database, to check that a refused command changed nothing. */
export async function socialRows(t: TestServer): Promise<string> {
  const em = t.server.db.em();
  const order = { orderBy: { id: "asc" } } as const;
  const strip = <T extends { createdAt?: unknown }>(rows: T[]) => rows.map(({ createdAt: _, ...rest }) => rest);
  return JSON.stringify({
    friendships: strip(await em.find(Friendship, {}, order)),
    requests: strip(await em.find(FriendRequest, {}, order)),
    ignored: strip(await em.find(IgnoreEntry, {}, order)),
  });
}

/** Two players who are friends: `a` asked, `b` accepted; both lists drained. */
export async function befriend(a: Client, b: Client): Promise<void> {
  a.send("social:addFriend", { name: b.name });
  assert.equal((await a.list()).change?.kind, "requestSent");
  assert.equal((await b.list()).change?.kind, "requestReceived");
  b.send("social:acceptFriend", { name: a.name });
  assert.equal((await b.list()).change?.kind, "friendAdded");
  assert.equal((await a.list()).change?.kind, "friendAdded");
}

/** Test server settings: fast ticks, and no per-address limits (the suites open many anonymous sessions). */
export const SOCIAL_ENV = { TICK_MS: "50", DISABLE_RATE_LIMIT: "true" };
