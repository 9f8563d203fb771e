/**
 * What one agent sees, kept from its connection's events: its own private state (`player:sync`)
 * and the entities in its view (`world:update`, merged by id). The brain decides from this only.
 */
import type { ServerEvent } from "../src/game/serverEvents.ts";
import { ViewCopy, type SeenEntity, type WorldUpdate } from "../src/game/worldUpdate.ts";

export type Self = ServerEvent<"player:sync">;
/** An entity as last seen: every field it was ever sent with (a move carries only the position). */
export type Seen = SeenEntity;

export class AgentView {
  playerId = "";
  tickMs = 600;
  tick = 0;
  self: Self | undefined;
  /** The view, merged from `world:update` (either form: the runtime asks for compact updates). */
  private readonly copy = new ViewCopy();
  readonly entities: ReadonlyMap<string, Seen> = this.copy.entities;

  welcome(w: ServerEvent<"welcome">): void {
    this.playerId = w.playerId;
    this.tickMs = w.tickMs;
    this.tick = w.tick;
    // A new session starts with a full view.
    this.copy.clear();
  }

  sync(s: Self): void {
    this.self = s;
  }

  update(u: WorldUpdate): void {
    this.tick = u.tick;
    this.copy.apply(u);
  }

  /** Where the agent stands: its own entry of the view moves every tick (`player:sync` only when private state changes). */
  get position(): { x: number; z: number } {
    const me = this.entities.get(this.playerId);
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
