/**
 * One world's simulation: pure and deterministic given its inputs, its clock and its random
 * source; no I/O, no Colyseus, no Express. Transports enqueue inputs and read the outbox; a tick
 * never awaits anything.
 *
 * Tick phases, in order (as LostCity's World.cycle()):
 *   1. drain input queues      every player's queued commands, in arrival order (inputs.ts)
 *   2. movement                 the paths of requested walks (oldest request first, within the
 *                               tick's search budget), then one step per tick walking, two running,
 *                               and run energy drained or restored (movement.ts, runEnergy.ts)
 *   3. actions                  (combat, gathering, … : the gameplay layer)
 *   4. NPC AI                   (the gameplay layer)
 *   5. respawns                 (the gameplay layer)
 *   6. persistence              snapshot players due for saving, hand them to the saver
 *   7. publish                  `player:sync` for changed private state; transports then read
 *                               positions and the outbox
 */
import type { ContentRegistry } from "../../manifests/registry.ts";
import type { CollisionMap, Tile } from "../map/CollisionMap.ts";
import { MAX_PATH_LENGTH, type PathResult } from "../map/pathfinding.ts";
import { Player, type PlayerData } from "./Player.ts";
import { HITPOINT_REGEN_TICKS, type EntityView, type GroundItem, type NpcInstance, type ResourceInstance, type StationInstance, type WorldObject } from "./entities.ts";
import { Cadence } from "./cadence.ts";
import { RunEnergy } from "./runEnergy.ts";
import { playerSync } from "./playerState.ts";
import { Movement } from "./movement.ts";
import { SaveSchedule, type OnSave } from "./saves.ts";
import { drainInputs } from "./inputs.ts";
import { describe, versionOf, type Entity } from "./views.ts";
import { spawnNpcs, spawnResources, spawnStations } from "./spawn.ts";
import { FixedCells, forEachInCells, indexInCell, unindexFromCell } from "./cells.ts";
import { Trades } from "../trade/Trades.ts";
import { StoreStock } from "../storeStock.ts";
import { sentence } from "../sentence.ts";
import { PlaceState } from "../places/PlaceState.ts";
import { systemLine, VIEW_RADIUS, type ServerEvent, type ServerEventName } from "../serverEvents.ts";
import type { InputCategory } from "../clientEvents.ts";
import { AccountWindows } from "../accountWindows.ts";
import { MAX_PLAYER_FAULTS, type Fault, type HandlerResult, type OutboundMessage } from "./results.ts";
import { buildCollision, seededRandom } from "./setup.ts";

/** Refusals, results, messages and faults: see results.ts; the collision map and random source: setup.ts. */
export { MAX_PLAYER_FAULTS, type Fault, type GameError, type HandlerResult, type OutboundMessage } from "./results.ts";
export { buildCollision, MAX_COORDINATE, seededRandom } from "./setup.ts";
/** A player's data as it leaves the world (saves, `player:sync`): see playerState.ts. */
export { copyData, playerSync, snapshot } from "./playerState.ts";
/** What clients see of players and entities, and its versions: see views.ts. */
export { describe, publicPlayer, versionOf, type Entity } from "./views.ts";

export const TICK_MS = 600;
export { VIEW_RADIUS };
/**
 * At most this many players in one view: the viewer and the nearest others (see Interest). A
 * crowd in one place (a bank, a fishing spot, a thousand agents) is drawn as its nearest hundred
 * rather than sent whole to everyone in it, as RuneScape's servers cap the players a client is
 * told about; without the cap the work of a crowded spot grows with its square.
 */
export const MAX_PLAYERS_IN_VIEW = 100;
/** Path-search budget of a tick and walking speeds: see movement.ts. */
export { PATH_BUDGET_PER_TICK, RUN_SPEED, WALK_SPEED } from "./movement.ts";

export type InputHandler = (world: World, player: Player, data: never) => HandlerResult;

/** Kinds of client command, each with its own per-tick cap (INPUT_CAPS). */
export type { InputCategory };

/** An event's handler and the category it counts against. */
export interface InputRule {
  handle: InputHandler;
  category: InputCategory;
}

/**
 * Commands of each category a player's tick runs (as LostCity decodes a few packets per category
 * per cycle): the socket limit (60 messages a second) would let ~36 into one 600 ms tick. Of
 * several moves only the last runs (each replaces the one before); past a cap the rest of that
 * category's commands of the tick are dropped with one RATE_LIMITED error. Server-side commands
 * (a trade's stored swap, a rename) are never dropped.
 */
export const INPUT_CAPS: Readonly<Record<InputCategory, number>> = { move: 1, action: 5, item: 5, chat: 2, trade: 5, social: 5 };

/** The gameplay phases, supplied by the gameplay layer (a world without them only walks and talks). */
export interface WorldSystems {
  /** Phase 3: combat, gathering, pickups, … */
  actions?(world: World): void;
  /** Phase 4. */
  npcs?(world: World): void;
  /** Phase 5: depleted resources, dead NPCs, ground items, fires. */
  respawns?(world: World): void;
  /** A player's trade has ended (whenever that happens, inside or outside the tick). */
  tradeReleased?(world: World, player: Player): void;
}

export interface WorldOptions {
  content: ContentRegistry;
  /** Random source for every game roll; a seeded one by default. */
  random?: () => number;
  systems?: WorldSystems;
  /** Milliseconds; injectable so tests control time. */
  now?: () => number;
  /** Autosave cadence in ticks. */
  saveIntervalTicks?: number;
  /**
   * Receives snapshots of players whose data changed (called from the persistence phase), and the
   * stored ground items that despawned since the last call (their rows go too).
   */
  onSave?: OnSave;
  /** The tick's length, ms (ground items' stored times are wall-clock). */
  tickMs?: number;
  handlers: ReadonlyMap<string, InputRule>;
}


export class World {
  readonly content: ContentRegistry;
  readonly collision: CollisionMap;
  readonly players = new Map<string, Player>();
  readonly groundItems = new Map<string, GroundItem>();
  readonly resources: Map<string, ResourceInstance>;
  readonly npcs: Map<string, NpcInstance>;
  readonly objects = new Map<string, WorldObject>();
  readonly stations: StationInstance[];
  /** Doors (open or shut, for everyone), ladders and stairs, agility obstacles (src/game/places/). */
  readonly places: PlaceState;
  readonly trades = new Trades();
  /** The stores' live stock and viewers (src/game/store.ts): per world, in memory. */
  readonly stores = new StoreStock();
  /** Chat lines and private messages, counted per account (src/game/accountWindows.ts). */
  readonly chatWindows = new AccountWindows();
  readonly privateMessageWindows = new AccountWindows();
  readonly now: () => number;
  readonly tickMs: number;
  readonly random: () => number;
  readonly systems: WorldSystems;
  tick = 0;
  private nextId = 1;
  private readonly handlers: ReadonlyMap<string, InputRule>;
  /** Where contained exceptions go (the server logs and counts them); set by the server. */
  onFault: (fault: Fault) => void = () => {};
  private readonly onSave: OnSave | undefined;
  /** When players are saved (phase 6; saves.ts). */
  private readonly saves: SaveSchedule;
  /** Stored ground items despawned and not yet handed to onSave. */
  despawnedGround: string[] = [];
  private outbox: OutboundMessage[] = [];
  /** Players by their turn to regenerate health (src/game/regeneration.ts), a hundredth of them a tick. */
  readonly regenTurns = new Cadence<Player>(HITPOINT_REGEN_TICKS);
  /** Players' run energy: drained by running, restored otherwise (src/game/world/runEnergy.ts). */
  readonly runEnergy = new RunEnergy();
  /** Players by account, in the order they entered (a login finds the account's live character without a scan). */
  private readonly byAccount = new Map<string, Player[]>();
  /** Players by spatial cell; a player knows its cell and its slot in the cell's list. */
  private readonly cells = new Map<number, Player[]>();
  /** Walks requested, searched and stepped (phase 2; movement.ts). */
  private readonly movement = new Movement(this, (player) => this.index(player));
  /** Path searches of the last tick: how many ran, their node expansions, and the walks left waiting. */
  readonly pathStats = this.movement.stats;

  constructor(options: WorldOptions) {
    this.content = options.content;
    this.collision = buildCollision(options.content);
    this.now = options.now ?? Date.now;
    this.tickMs = options.tickMs ?? TICK_MS;
    this.random = options.random ?? seededRandom(0x5eed);
    this.systems = options.systems ?? {};
    this.resources = spawnResources(options.content);
    this.stations = spawnStations(options.content);
    this.places = new PlaceState(options.content, this.collision);
    this.npcs = spawnNpcs(options.content, this.collision, this.random);
    this.handlers = options.handlers;
    this.saves = new SaveSchedule(options.saveIntervalTicks ?? 100);
    this.onSave = options.onSave;
    this.trades.onReleased = (_, player) => this.systems.tradeReleased?.(this, player);
  }

  // ---- players ---------------------------------------------------------------------------

  /** Adds a loaded player; a player standing on a blocked tile is moved to the spawn. */
  addPlayer(data: PlayerData): Player {
    if (this.players.has(data.characterId)) throw new Error(`player ${data.characterId} is already in the world`);
    const player = new Player(data);
    let h = 0;
    for (let i = 0; i < player.id.length; i++) h = (h * 31 + player.id.charCodeAt(i)) >>> 0;
    player.saveSlot = h;
    this.saves.add(player);
    this.regenTurns.add(player, h);
    this.runEnergy.enter(player);
    if (!this.collision.isWalkable(Math.round(data.x), Math.round(data.z))) player.place(this.content.world.spawn.x, this.content.world.spawn.z);
    player.place(Math.round(player.data.x), Math.round(player.data.z));
    this.players.set(player.id, player);
    const ofAccount = this.byAccount.get(player.data.accountId);
    if (ofAccount === undefined) this.byAccount.set(player.data.accountId, [player]);
    else ofAccount.push(player);
    this.index(player);
    return player;
  }

  /** The account's character in this world that entered first, if any is here. */
  firstPlayerOfAccount(accountId: string): Player | undefined {
    return this.byAccount.get(accountId)?.[0];
  }

  removePlayer(id: string): Player | undefined {
    const player = this.players.get(id);
    if (player === undefined) return undefined;
    this.players.delete(id);
    const ofAccount = this.byAccount.get(player.data.accountId);
    if (ofAccount !== undefined) {
      ofAccount.splice(ofAccount.indexOf(player), 1);
      if (ofAccount.length === 0) this.byAccount.delete(player.data.accountId);
    }
    player.gone = true;
    this.unindex(player);
    this.saves.remove(player);
    this.regenTurns.delete(player, player.saveSlot);
    return player;
  }

  // ---- input -----------------------------------------------------------------------------

  /**
   * Queues a server-side command (from REST or agent control) in the player's input queue, so it
   * runs in order with the player's own inputs, inside the tick. False if the player is not here.
   */
  enqueueCommand(playerId: string, run: (player: Player) => void): boolean {
    const player = this.players.get(playerId);
    if (player === undefined) return false;
    player.inputs.push({ type: "(server)", data: undefined, run });
    return true;
  }

  /** Queues a validated command for the player's next tick. */
  enqueue(playerId: string, type: string, data: unknown): boolean {
    const player = this.players.get(playerId);
    if (player === undefined || !this.handlers.has(type)) return false;
    player.inputs.push({ type, data });
    return true;
  }

  // ---- output ----------------------------------------------------------------------------

  /** Queues a server event (serverEvents.ts: only its names, with their payloads) for a player. */
  send<K extends ServerEventName>(to: string, type: K, data: ServerEvent<K>): void {
    this.outbox.push({ to, type, data });
  }

  /** A line of the game's own to one player (a `system` chat message: "You get some logs."). */
  tell(to: string, message: string): void {
    this.send(to, "chat:message", systemLine(this.newId("msg"), message, this.now()));
  }

  /** A refusal to one player, its message as a sentence ("You can't light a fire here."). */
  sendError(to: string, code: string, message: string, event?: string): void {
    const said = sentence(message);
    this.send(to, "error", event === undefined ? { code, message: said } : { code, message: said, event });
  }

  /** Messages produced since the last call, in order. */
  drainOutbox(): OutboundMessage[] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }

  // ---- interest --------------------------------------------------------------------------

  private index(player: Player): void {
    indexInCell(this.cells, player);
  }

  private unindex(player: Player): void {
    unindexFromCell(this.cells, player);
  }

  /**
   * A new controller of the player (a login that took the character over): what the old one had
   * it doing goes, its walk, its action and its inputs not yet handled. The player stands still
   * until told otherwise (an agent taken over walked on to its goal with no one at the controls).
   */
  takeControl(player: Player): void {
    player.inputs.length = 0;
    player.path = [];
    player.moveTarget = undefined;
    player.action = undefined;
  }

  /** Moves a player to a walkable tile at once (admin commands, tests); false if not walkable. */
  teleport(player: Player, to: Tile): boolean {
    if (!this.collision.isWalkable(to.x, to.z)) return false;
    player.place(to.x, to.z);
    player.path = [];
    player.moveTarget = undefined;
    player.action = undefined;
    player.publicVersion++;
    player.saveDue = true;
    this.index(player);
    return true;
  }

  /** The player or entity with this id, if it is in the world. */
  entityById(id: string): Entity | undefined {
    return this.players.get(id) ?? this.npcs.get(id) ?? this.groundItems.get(id) ?? this.resources.get(id) ?? this.objects.get(id) ?? this.places.get(id);
  }

  /** Players within {@link VIEW_RADIUS} of a tile (the player itself included). */
  playersNear(at: Tile, radius = VIEW_RADIUS): Player[] {
    const out: Player[] = [];
    this.forEachPlayerNear(at, radius, (p) => out.push(p));
    return out;
  }

  /** Calls `fn` for every player within `radius` of a tile, without building a list. */
  forEachPlayerNear(at: Tile, radius: number, fn: (player: Player) => void): void {
    forEachInCells(this.cells, at, radius, fn);
  }

  // ---- the tick --------------------------------------------------------------------------

  /** A new entity id, unique within this world's life. */
  newId(prefix: string): string {
    return `${prefix}-${this.nextId++}`;
  }

  /**
   * One tick. An exception never leaves it: one player's command or one entity's part of a phase
   * is contained to that player or entity (see contain), anything else to its phase; each is
   * reported to onFault and the tick goes on.
   */
  step(): void {
    this.tick++;
    this.movement.startTick();
    this.phase("inputs", () => this.drainInputs());
    this.phase("movement", () => this.movement.run());
    this.phase("actions", () => this.systems.actions?.(this));
    this.phase("npcs", () => this.systems.npcs?.(this));
    this.phase("respawns", () => this.systems.respawns?.(this));
    this.movement.endTick();
    this.phase("persistence", () => this.processPersistence());
    this.phase("publish", () => this.publish());
  }

  private phase(where: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.onFault({ where, error });
    }
  }

  /**
   * Runs one player's or one entity's part of a phase: an exception stops that part only. A
   * player loses its current action and walk (so a fault does not repeat every tick) and counts a
   * fault against MAX_PLAYER_FAULTS; an entity is reported.
   */
  contain<T extends Player | { id: string }>(where: string, subject: T, run: (world: World, subject: T) => void): void {
    try {
      run(this, subject);
    } catch (error) {
      if (subject instanceof Player) {
        subject.action = undefined;
        subject.path = [];
        subject.moveTarget = undefined;
        this.playerFault(subject, where, undefined, error);
      } else {
        this.onFault({ where, entityId: subject.id, error });
      }
    }
  }

  private playerFault(player: Player, where: string, event: string | undefined, error: unknown): void {
    player.faults++;
    const disconnect = player.faults === MAX_PLAYER_FAULTS;
    this.onFault({ where, event, playerId: player.id, error, disconnect });
    this.sendError(player.id, "INTERNAL", "the server could not carry out this command", event);
  }

  /** Players, then the other entities, within `radius` of a tile that `viewerId` may see (see Interest). */
  forEachNear(at: Tile, viewerId: string, radius: number, fn: (entity: Entity, isPlayer: boolean) => void): void {
    this.forEachPlayerNear(at, radius, (p) => fn(p, true));
    this.forEachEntityNear(at, viewerId, radius, (e) => fn(e, false));
  }

  /**
   * Calls `fn` for every non-player entity within `radius` of a tile that `viewerId` may see,
   * without building anything (interest refreshes call this for every connection).
   */
  forEachEntityNear(at: Tile, viewerId: string, radius: number, fn: (entity: Entity) => void): void {
    const near = (e: { x: number; z: number }) => Math.abs(e.x - at.x) <= radius && Math.abs(e.z - at.z) <= radius;
    for (const n of this.npcs.values()) if (n.deadUntil === 0 && near(n)) fn(n);
    for (const g of this.groundItems.values()) {
      if (near(g) && (g.ownerId === undefined || g.ownerId === viewerId || this.tick >= g.publicAtTick)) fn(g);
    }
    // Resource nodes never move: only the cells around the tile.
    forEachInCells(this.resourceCells.of(this.resources), at, radius, fn);
    for (const o of this.objects.values()) if (near(o)) fn(o);
    for (const p of this.places.values()) if (near(p)) fn(p);
  }

  /** Resource nodes by spatial cell (built once; again only if the set of nodes changes). */
  private readonly resourceCells = new FixedCells<ResourceInstance>();

  /** Non-player entities within the view radius of a tile, as `viewerId` may see them, with their versions. */
  entitiesNear(at: Tile, viewerId: string, radius = VIEW_RADIUS): { view: EntityView; version: number }[] {
    const out: { view: EntityView; version: number }[] = [];
    this.forEachEntityNear(at, viewerId, radius, (e) => out.push({ view: describe(e) as EntityView, version: versionOf(e) }));
    return out;
  }

  /** Every entity clients may see (players too, unless `players` is false), with its visible version. */
  forEachShown(players: boolean, fn: (entity: Entity, version: number) => void): void {
    if (players) for (const p of this.players.values()) if (!p.gone) fn(p, p.publicVersion);
    for (const n of this.npcs.values()) if (n.deadUntil === 0) fn(n, n.version);
    for (const g of this.groundItems.values()) if (!g.gone) fn(g, g.version);
    for (const r of this.resources.values()) fn(r, r.version);
    for (const o of this.objects.values()) if (!o.gone) fn(o, o.version);
    for (const p of this.places.values()) fn(p, p.version);
  }

  /** Saves this player in this tick's persistence phase, whatever the autosave cadence. */
  requestSave(player: Player): void {
    this.saves.request(player);
  }

  /** Phase 6: the players due to be saved this tick, and the stored ground items despawned (saves.ts). */
  private processPersistence(): void {
    if (this.saves.run(this.tick, this.players, this.despawnedGround, this.onSave)) this.despawnedGround = [];
  }

  /** The dropper's save that carries these ground items has committed: other players may take them now. */
  groundStored(ids: readonly string[]): void {
    for (const id of ids) {
      const item = this.groundItems.get(id);
      if (item?.persist === "pending") item.persist = "stored";
    }
  }

  /** Phase 7: one `player:sync` per player whose private state changed this tick. */
  private publish(): void {
    for (const player of this.players.values()) {
      if (!player.syncDue) continue;
      player.syncDue = false;
      player.privateVersion++;
      this.send(player.id, "player:sync", playerSync(player));
    }
  }

  /** Phase 1: every player's queued commands (inputs.ts). */
  private drainInputs(): void {
    drainInputs<World>({
      players: this.players,
      handlers: this.handlers,
      caps: INPUT_CAPS,
      maxFaults: MAX_PLAYER_FAULTS,
      world: this,
      sendError: (to, code, message, event) => this.sendError(to, code, message, event),
      sendRefusal: (to, error, event) => this.send(to, "error", { ...error, message: sentence(error.message), event }),
      fault: (player, event, error) => this.playerFault(player, "input", event, error),
    });
  }

  /**
   * A path search for a player, charged to this tick's budget, or undefined once the budget is
   * spent (the caller tries again next tick). Every search of the tick goes through here (movement.ts).
   */
  searchPath(player: Player, to: Tile, maxLength = MAX_PATH_LENGTH): PathResult | undefined {
    return this.movement.search(player, to, maxLength);
  }

  // ---- commands used by handlers --------------------------------------------------------

  /** Walks to a tile: searched in a movement phase within the tick's budget (movement.ts). */
  walkTo(player: Player, target: Tile, run: boolean): HandlerResult {
    return this.movement.request(player, target, run);
  }
}
