/**
 * What one agent sees, kept from its connection's events: its own private state (`player:sync`)
 * and the entities in its view. The brain decides from this only.
 *
 * On its own socket (AGENT_RT_MUX=0) the view is the agent's own copy, merged from its
 * `world:update`s. On a multiplexed connection (MuxConnection.ts) the server sends one
 * `world:update` for all the connection's sessions, the union of their views, kept once in a
 * {@link SharedView}; an agent's `entities` are then the part of it within {@link VIEW_RADIUS} of
 * the agent, filtered at most once per update and only when asked for.
 */
import { VIEW_RADIUS, type ServerEvent } from "../src/game/serverEvents.ts";
import { ViewCopy, type SeenEntity, type WorldUpdate } from "../src/game/worldUpdate.ts";

export type Self = ServerEvent<"player:sync">;
/** An entity as last seen: every field it was ever sent with (a move carries only the position). */
export type Seen = SeenEntity;

/** Side of a cell of the shared view's grid: a square of VIEW_RADIUS around a tile spans at most 2 × 2 cells. */
const CELL = 2 * VIEW_RADIUS;
/** Cells keyed by one number (the world is far smaller than ±2^15 cells). */
const cellKey = (cx: number, cz: number): number => (cx + 32_768) * 65_536 + (cz + 32_768);

/**
 * The view of a multiplexed connection: the union of its sessions' views, merged once from the
 * connection's `world:update`s, with a grid of it built lazily for the agents' lookups.
 */
export class SharedView {
  private readonly copy = new ViewCopy();
  readonly entities: ReadonlyMap<string, Seen> = this.copy.entities;
  /** Counts the updates (and restarts): an agent's filtered view is current while it matches. */
  version = 0;
  tick = 0;
  private readonly grid = new Map<number, Seen[]>();
  private gridVersion = -1;

  /** Merges one update (ViewCopy.apply: throws on a broken stream). */
  apply(u: WorldUpdate): void {
    this.version++;
    this.tick = u.tick;
    this.copy.apply(u);
  }

  /** The connection (re)started: its next update is a full view. */
  clear(): void {
    this.version++;
    this.copy.clear();
  }

  /** Calls `fn` for every entity within `radius` (Chebyshev) of (x, z), radius at most VIEW_RADIUS. */
  forEachNear(x: number, z: number, radius: number, fn: (e: Seen) => void): void {
    if (this.gridVersion !== this.version) this.index();
    const cx0 = Math.floor((x - radius) / CELL);
    const cx1 = Math.floor((x + radius) / CELL);
    const cz0 = Math.floor((z - radius) / CELL);
    const cz1 = Math.floor((z + radius) / CELL);
    for (let cx = cx0; cx <= cx1; cx++) {
      for (let cz = cz0; cz <= cz1; cz++) {
        const cell = this.grid.get(cellKey(cx, cz));
        if (cell === undefined) continue;
        for (const e of cell) if (Math.abs(e.x - x) <= radius && Math.abs(e.z - z) <= radius) fn(e);
      }
    }
  }

  private index(): void {
    this.gridVersion = this.version;
    for (const cell of this.grid.values()) cell.length = 0;
    for (const e of this.copy.entities.values()) {
      const key = cellKey(Math.floor(e.x / CELL), Math.floor(e.z / CELL));
      const cell = this.grid.get(key);
      if (cell === undefined) this.grid.set(key, [e]);
      else cell.push(e);
    }
  }
}

export class AgentView {
  playerId = "";
  tickMs = 600;
  tick = 0;
  self: Self | undefined;
  /** How many times the filtered view was rebuilt from the shared one (at most once per shared update). */
  rebuilds = 0;
  /** Its own copy (own socket), merged from `world:update` (either form: the runtime asks for compact updates). */
  private readonly copy: ViewCopy | undefined;
  private readonly shared: SharedView | undefined;
  /** On a shared view: the entities near the agent, as of `builtAt` (the shared view's version; -1 stale). */
  private readonly near = new Map<string, Seen>();
  private builtAt = -1;
  /** The last rebuild found no entry of the agent's own (and centred on `player:sync`'s position). */
  private builtWithoutSelf = false;

  /** `shared`: the multiplexed connection's view, of which the agent sees its part; its own copy otherwise. */
  constructor(shared?: SharedView) {
    this.shared = shared;
    this.copy = shared === undefined ? new ViewCopy() : undefined;
  }

  /** What the agent sees, by id (the agent's own entry among them). */
  get entities(): ReadonlyMap<string, Seen> {
    const shared = this.shared;
    if (shared === undefined) return this.copy!.entities;
    if (this.builtAt !== shared.version) this.rebuild(shared);
    return this.near;
  }

  welcome(w: ServerEvent<"welcome">): void {
    this.playerId = w.playerId;
    this.tickMs = w.tickMs;
    this.tick = w.tick;
    // A new session starts with a full view (a shared one restarts with its connection only).
    if (this.copy !== undefined) this.copy.clear();
    this.builtAt = -1;
  }

  sync(s: Self): void {
    this.self = s;
    if (this.builtWithoutSelf) this.builtAt = -1;
  }

  /** The agent's own `world:update` (own socket). */
  update(u: WorldUpdate): void {
    this.tick = u.tick;
    if (this.copy !== undefined) this.copy.apply(u);
  }

  /** The shared view took an update (multiplexed connection): the filtered view follows when next read. */
  moved(tick: number): void {
    this.tick = tick;
  }

  private rebuild(shared: SharedView): void {
    this.builtAt = shared.version;
    this.rebuilds++;
    const near = this.near;
    near.clear();
    const me = this.playerId === "" ? undefined : shared.entities.get(this.playerId);
    this.builtWithoutSelf = me === undefined;
    const at = me ?? (this.self === undefined ? undefined : { x: Math.round(this.self.position.x), z: Math.round(this.self.position.z) });
    if (at === undefined) return;
    shared.forEachNear(at.x, at.z, VIEW_RADIUS, (e) => near.set(e.id, e));
    if (me !== undefined) near.set(me.id, me);
  }

  /** Where the agent stands: its own entry of the view moves every tick (`player:sync` only when private state changes). */
  get position(): { x: number; z: number } {
    const me = (this.shared ?? this.copy!).entities.get(this.playerId);
    if (me !== undefined) return { x: me.x, z: me.z };
    return this.self === undefined ? { x: 0, z: 0 } : { x: Math.round(this.self.position.x), z: Math.round(this.self.position.z) };
  }

  /** Entities of a kind (and content id), nearest first. */
  find(kind: Seen["kind"], test: (e: Seen) => boolean = () => true): Seen[] {
    const here = this.position;
    const out: Seen[] = [];
    for (const e of this.entities.values()) if (e.kind === kind && e.id !== this.playerId && test(e)) out.push(e);
    return out.sort((a, b) => dist(a, here) - dist(b, here) || (a.id < b.id ? -1 : 1));
  }

  /** How many entities of a kind (other than the agent) pass `test`: a count, without the sort of find(). */
  countSeen(kind: Seen["kind"], test: (e: Seen) => boolean): number {
    let n = 0;
    for (const e of this.entities.values()) if (e.kind === kind && e.id !== this.playerId && test(e)) n++;
    return n;
  }

  freeSlots(inventorySize = 28): number {
    return inventorySize - (this.self?.inventory.length ?? 0);
  }

  slotOf(test: (itemId: string) => boolean): number | undefined {
    return this.self?.inventory.find((s) => test(s.itemId))?.slot;
  }

  count(itemId: string): number {
    return (this.self?.inventory ?? []).reduce((n, s) => (s.itemId === itemId ? n + s.quantity : n), 0);
  }

  has(itemId: string): boolean {
    return this.count(itemId) > 0 || Object.values(this.self?.equipment ?? {}).some((e) => e.itemId === itemId);
  }
}

export const dist = (a: { x: number; z: number }, b: { x: number; z: number }): number => Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));
