/** A Colyseus client of the world room, as a WorldService connection (src/sessions/sessionTypes.ts). */
import { ClientState, getMessageBytes, Protocol, type Client } from "@colyseus/core";
import type { Principal } from "../src/auth/tokens.ts";
import type { Traffic } from "../src/prometheus.ts";
import { InputLimiter } from "../src/sessions/inputLimiter.ts";
import { unchanging } from "../src/io/protocol.ts";
import type { Connection } from "../src/sessions/WorldService.ts";
import { Interest } from "../src/game/world/Interest.ts";
import type { SentServerEvents } from "./sdkTypes.ts";

export interface WorldAuth {
  principal: Principal;
  issuedToken: string | undefined;
  /** The client's address (see authenticate). */
  address: string | undefined;
}

export interface ClientData {
  playerId: string;
  conn: ColyseusConnection;
}

/** Sent the server event table's messages (sdkTypes.ts). */
export type WorldClient = Client<{ auth: WorldAuth; userData: ClientData } & SentServerEvents>;

/** Messages sent to many clients (a chat line to everyone in view) are encoded once. */
const encoded = new WeakMap<object, { type: string; bytes: Uint8Array }>();

/** The underlying TCP socket of a Colyseus client (ws-transport), to batch a tick's writes. */
function tcpOf(client: WorldClient): { cork(): void; uncork(): void } | undefined {
  return (client as unknown as { ref?: { _socket?: { cork(): void; uncork(): void } } }).ref?._socket;
}

/** A Colyseus client as a WorldService connection. */
export class ColyseusConnection implements Connection {
  readonly transport = "colyseus" as const;
  client: WorldClient;
  /** What this client sees (players and entities), when worked out on this thread (see interestId). */
  interest = new Interest();
  /** Whether its view has been filled once. */
  started = false;
  /** The ids its view was given (players and entities). */
  readonly inView = new Set<string>();
  /**
   * Its view's interest worked out in the delta worker under this id (WorldService.addInterest),
   * from the tick after its join; undefined: on this thread.
   */
  interestId: number | undefined;
  /** Ids the worker said entered its view while they were not in the state: tried again each tick. */
  missing: Set<string> | undefined;
  readonly limiter = new InputLimiter();
  readonly remoteAddress: string | undefined;
  private readonly traffic: Traffic | undefined;
  constructor(client: WorldClient, remoteAddress: string | undefined, traffic: Traffic | undefined) {
    this.client = client;
    this.remoteAddress = remoteAddress;
    this.traffic = traffic;
  }
  send(type: string, data: object): void {
    let hit = encoded.get(data);
    // Kept for every recipient and never changed: the socket process's outbox copies it once for a
    // run of recipients (a chat line to everyone in view).
    if (hit === undefined || hit.type !== type) encoded.set(data, (hit = { type, bytes: unchanging(getMessageBytes.raw(Protocol.ROOM_DATA, type, data)) }));
    this.client.enqueueRaw(hit.bytes);
    this.traffic?.sent("colyseus", type, (data as { code?: string }).code);
  }
  close(code: number): void {
    this.client.leave(code);
  }
  isOpen(): boolean {
    // Joining or reconnecting: queued and sent once joined. Dropped (LEAVING, its seat held for a
    // reconnection) or replaced by its reconnection: what it is sent stays in the old client.
    const state = this.client.state;
    return state === ClientState.JOINED || state === ClientState.JOINING || state === ClientState.RECONNECTING;
  }
  cork(): void {
    tcpOf(this.client)?.cork();
  }
  uncork(): void {
    tcpOf(this.client)?.uncork();
  }
}
