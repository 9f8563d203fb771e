/**
 * WorldRoom (room name `world`): one world's synchronized state and its 600 ms tick. Thin: it
 * authenticates, hands messages to the WorldService (validation, queues, game core), and mirrors
 * the game's players into the schema state once per tick, followed by one patch.
 *
 * Interest management: each client's StateView holds the players within 16 tiles of its own;
 * its own player is added with the owner tag, so private fields reach the owner only.
 *
 * This file is the room's life (create, join, leave, the monitor's inspector). The class is built
 * up from: SchemaMirrorRoom.ts (the state mirrored from the game), ClientViewsRoom.ts (what each
 * client sees of it), TickingRoom.ts (the tick and its writes). A join's authentication and
 * refusals are worldJoin.ts'; a client as a WorldService connection, ColyseusConnection.ts.
 */
import { CloseCode, logger as colyseusLog, Room, ServerError, type AuthContext } from "@colyseus/core";
import type { Player } from "../src/game/world/Player.ts";
import { TICK_MS } from "../src/game/world/World.ts";
import { admit } from "../src/sessions/inputLimiter.ts";
import { CLOSE_KICKED } from "../src/moderation/ModerationService.ts";
import { indexVisibleChanges } from "./visibleChanges.ts";
import { WorldView } from "./WorldView.ts";
import { useWorldBuffers, type WorldSerializer } from "./worldBuffers.ts";
import { attributeFrames } from "./badFrames.ts";
import { monitorLabel, sessionOfLabel } from "./monitorLabels.ts";
import { ColyseusConnection, type WorldAuth, type WorldClient } from "./ColyseusConnection.ts";
import { authenticate, joinRefusal, normaliseWorldOption } from "./worldJoin.ts";
import { TickingRoom } from "./TickingRoom.ts";
import type { WorldRoomServices } from "./worldRoomServices.ts";
import type { ClientEventName } from "../src/game/clientEvents.ts";
import type { ClientEventHandlers } from "./sdkTypes.ts";

export { MAX_TICK_FAULTS } from "./TickingRoom.ts";
export { REMOVED_KEPT_TICKS } from "./SchemaMirrorRoom.ts";
export { asJoinError, internalJoinError, normaliseWorldOption } from "./worldJoin.ts";
export type { WorldAuth } from "./ColyseusConnection.ts";
export type { WorldRoomServices } from "./worldRoomServices.ts";

export const WORLD_ROOM = "world";
export const MAX_WORLD_CLIENTS = 10_000;
/** Seconds a dropped Colyseus client may take to reconnect to the same seat. */
export const RECONNECT_SECONDS = 30;

/** How often a world room refreshes its listing's metadata (players, status), ms; written only when it changed. */
export const WORLD_LISTING_MS = 1_000;

/** The monitor's session id of a `/ws` player: this prefix and its character id. */
export const WS_SESSION_PREFIX = "ws:";
interface InspectClient {
  sessionId: string;
  elapsedTime: number;
  transport?: "colyseus" | "ws";
  name?: string | null;
}
/** What the monitor's room inspector shows (its own fields, the clients with their players). */
interface InspectData {
  clients: InspectClient[];
  wsPlayers?: number;
  [field: string]: unknown;
}

/** The room class bound to one server's services (static onAuth is called unbound). */
export function worldRoomClass(services: WorldRoomServices): typeof WorldRoom {
  return class BoundWorldRoom extends WorldRoom {
    static override async onAuth(token: string, options: { token?: unknown; world?: unknown }, context: AuthContext): Promise<WorldAuth> {
      normaliseWorldOption(options);
      return authenticate(services, token, options, context?.ip);
    }
    override services = services;
  };
}

export class WorldRoom extends TickingRoom {
  override maxClients = MAX_WORLD_CLIENTS;
  override autoDispose = false;
  /** For the typed SDK only (sdkTypes.ts): a world client sends the game's client events. */
  declare messages: ClientEventHandlers<ClientEventName>;
  /** Patches are sent once per game tick, right after it. */
  override patchRate: number | null = null;
  /**
   * Whether this room is the world (created by the server with its key). A join that reaches the
   * matchmaker's create (an unknown world, a forged create) makes a room whose onCreate refuses it
   * and which Colyseus then disposes: that disposal is no loss of the world.
   */
  private isTheWorld = false;

  override onCreate(options: { createKey?: unknown; world?: unknown }): void {
    if (options?.createKey !== this.services.createKey) {
      // A join naming a world that no process runs ends here (the matchmaker found no room to join).
      if (options?.world !== undefined) throw new ServerError(404, `UNKNOWN_WORLD: there is no world ${String(options.world)}`);
      throw new ServerError(403, "rooms are created by the server");
    }
    this.isTheWorld = true;
    attributeFrames(this);
    if (this.services.seatReservationS !== undefined) this.seatReservationTimeout = this.services.seatReservationS;
    const { service } = this.services;
    // Each client's patch walks only the changed trees its view may see (see visibleChanges.ts).
    const serializer = (this as unknown as { _serializer: Partial<WorldSerializer> })._serializer;
    const encoder = serializer.encoder;
    if (encoder === undefined || serializer.fullEncodeBuffer === undefined) throw new Error("WorldRoom: the schema serializer has no encoder");
    indexVisibleChanges(encoder);
    this.batchPatchWrites(encoder);
    // Large buffers for the world's encoding (worldBuffers.ts), around every wrapper above.
    useWorldBuffers(serializer as WorldSerializer);
    for (const p of service.world.players.values()) this.addSchema(p);
    service.onPlayerAdded = (p) => this.addSchema(p);
    service.onPlayerRemoved = (p) => this.removeSchema(p);
    this.onMessage("*", (client: WorldClient, type: string | number, message: unknown) => {
      const data = client.userData;
      if (data === undefined || !admit(data.conn.limiter, Date.now(), data.conn)) return;
      service.input(data.playerId, data.conn, String(type), message);
    });
    this.setSimulationInterval(() => this.tickOnce(), this.services.tickMs ?? TICK_MS);
    if (this.services.listing !== undefined) {
      void this.publishListing();
      this.clock.setInterval(() => void this.publishListing(), WORLD_LISTING_MS);
    }
  }

  private publishedListing = "";

  /** Writes the world's listing metadata (players, status, rank) when it changed. */
  private async publishListing(): Promise<void> {
    const metadata = this.services.listing!();
    const text = JSON.stringify(metadata);
    if (text === this.publishedListing) return;
    this.publishedListing = text;
    try {
      await this.setMetadata(metadata);
    } catch (err) {
      this.publishedListing = "";
      colyseusLog.warn({ err }, "could not publish the world's listing; will retry");
    }
  }

  override onDispose(): void {
    if (this.isTheWorld) this.services.onDisposed?.();
  }

  /** `world` (the world asked for) is read by onAuth and the matchmaker; it is named here as the typed SDK takes a join's options from onJoin. */
  override async onJoin(client: WorldClient, options: { characterId?: unknown; name?: unknown; world?: unknown }): Promise<void> {
    const { service } = this.services;
    const auth = client.auth;
    if (auth === undefined) throw new ServerError(401, "not authenticated");
    const conn = new ColyseusConnection(client, auth.address, service.traffic);
    const characterId = typeof options?.characterId === "string" ? options.characterId : undefined;
    const name = typeof options?.name === "string" ? options.name : undefined;
    // The character's login budget, counted with its `/ws` logins: a loop of joins is refused
    // before anything is written (no takeover, no session row), as on `/ws`.
    const refused = await this.services.logins?.takeLogin(auth.principal, characterId);
    if (refused !== undefined) throw new ServerError(429, `RATE_LIMITED: ${refused}`);
    let player: Player;
    try {
      // Queues welcome, player:sync (and an agent's agent:goal): they leave once the join completes.
      player = await service.login(auth.principal, { characterId, name }, conn, auth.issuedToken);
    } catch (err) {
      throw joinRefusal(err);
    }
    client.userData = { playerId: player.id, conn };
    const view = new WorldView();
    view.release = () => conn.uncork();
    client.view = view;
    if (this.mirrorBehind) this.mirrorAll(service.world);
    // Its private fields, now that its owner is a Colyseus client (see mirror).
    this.mirror(player);
    // Its first view is filled here, now; from the next tick on the delta worker works it out.
    this.updateView(conn, service.world, player);
    conn.interestId = service.addInterest(player.id, [...conn.inView]);
    if (conn.interestId !== undefined) this.byInterest.set(conn.interestId, conn);
  }

  override async onDrop(client: WorldClient, code?: number): Promise<void> {
    if (code === CloseCode.WITH_ERROR || client.userData === undefined) return;
    try {
      await this.allowReconnection(client, RECONNECT_SECONDS);
    } catch {
      // The window passed; onLeave follows.
    }
  }

  override onReconnect(client: WorldClient): void {
    const data = client.userData;
    if (data === undefined) return;
    data.conn.client = client;
    // A newer login may have taken the character over meanwhile.
    if (this.services.service.connectionOf(data.playerId) !== data.conn) client.leave(4009);
  }

  override onLeave(client: WorldClient, code?: number): void {
    const data = client.userData;
    if (data !== undefined) {
      // A consented leave logs out now; after a lost connection the reconnection window already passed.
      this.services.service.detach(data.playerId, data.conn, code === CloseCode.CONSENTED ? "logout" : "expired");
      const interestId = data.conn.interestId;
      if (interestId !== undefined) {
        this.services.service.removeInterest(interestId);
        this.byInterest.delete(interestId);
        data.conn.interestId = undefined;
      }
    }
    client.view?.dispose();
  }

  /**
   * The monitor's room inspector (`@colyseus/monitor` reaches it through remoteRoomCall, on the
   * process that holds the room): its own answer, with each client's player named, and every `/ws`
   * player of the world added to `clients` (session id `ws:<character id>`), so an admin sees all
   * of the world's players, whichever transport they play on. Each row's `sessionId` carries the
   * name, as `Name (<session id>)` (monitorLabels.ts): the panel shows that column only.
   */
  async getInspectData(): Promise<InspectData> {
    // The inspector shows the state: current, even while no Colyseus client keeps it so.
    if (this.mirrorBehind) this.mirrorAll(this.services.service.world);
    const base = await (Room.prototype as unknown as { getInspectData(this: Room): Promise<InspectData> }).getInspectData.call(this);
    const { service } = this.services;
    const now = Date.now();
    const bySession = new Map(this.clients.map((c) => [c.sessionId, c.userData?.playerId]));
    const clients: InspectClient[] = base.clients.map((c) => {
      const player = service.world.players.get(bySession.get(c.sessionId) ?? "");
      const name = player?.data.name ?? null;
      return { ...c, sessionId: monitorLabel(name, c.sessionId), transport: "colyseus", name };
    });
    for (const player of service.world.players.values()) {
      const conn = service.connectionOf(player.id);
      if (conn?.transport !== "ws") continue;
      const started = conn.session?.startedAt ?? now;
      clients.push({
        sessionId: monitorLabel(player.data.name, `${WS_SESSION_PREFIX}${player.id}`),
        elapsedTime: now - started,
        transport: "ws",
        name: player.data.name,
      });
    }
    return { ...base, clients, wsPlayers: clients.length - base.clients.length };
  }

  /**
   * The name of the player on a monitor row (its label or bare session id), or undefined for a row
   * that is no player's: the monitor's "disconnect" button kicks that player as `POST /api/admin/kick`
   * does, audited under the admin who pressed it (src/http/monitorCalls.ts).
   */
  monitorPlayerName(row: unknown): string | undefined {
    if (typeof row !== "string") return undefined;
    const sessionId = sessionOfLabel(row);
    const { service } = this.services;
    const id = sessionId.startsWith(WS_SESSION_PREFIX)
      ? sessionId.slice(WS_SESSION_PREFIX.length)
      : this.clients.find((c) => c.sessionId === sessionId)?.userData?.playerId;
    return id === undefined ? undefined : service.world.players.get(id)?.data.name;
  }

  /**
   * The monitor's "disconnect" button where its row is no player's (monitorPlayerName): a Colyseus
   * client leaves as the monitor does it; a `/ws` player (`ws:<character id>`) is kicked (KICKED,
   * close 4011, saved).
   */
  async _forceClientDisconnect(row: string): Promise<void> {
    if (typeof row !== "string") return;
    const sessionId = sessionOfLabel(row);
    if (!sessionId.startsWith(WS_SESSION_PREFIX)) {
      for (const client of this.clients) if (client.sessionId === sessionId) client.leave();
      return;
    }
    const { service } = this.services;
    const player = service.world.players.get(sessionId.slice(WS_SESSION_PREFIX.length));
    if (player === undefined || service.connectionOf(player.id)?.transport !== "ws") return;
    service.disconnectAccount(player.data.accountId, CLOSE_KICKED, { code: "KICKED", message: "you were disconnected by an admin" }, player.id);
  }
}
