/**
 * What one agent sees, kept from its connection's events: its own private state (`player:sync`)
 * and the entities in its view (`world:update`, merged by id). The brain decides from this only.
 */
import type { ServerEvent } from "../src/game/serverEvents.ts";

export type Self = ServerEvent<"player:sync">;
type Update = ServerEvent<"world:update">;
/** An entity as last seen: every field it was ever sent with (a move carries only the position). */
export type Seen = Update["entities"][number] & Partial<{ ref: string; name: string; health: number; maxHealth: number; level: number; dead: boolean; depleted: boolean; quantity: number }>;

export class AgentView {
  playerId = "";
  tickMs = 600;
  tick = 0;
  self: Self | undefined;
  readonly entities = new Map<string, Seen>();

  welcome(w: ServerEvent<"welcome">): void {
    this.playerId = w.playerId;
    this.tickMs = w.tickMs;
    this.tick = w.tick;
    // A new session starts with a full view.
    this.entities.clear();
  }

  sync(s: Self): void {
    this.self = s;
  }

  update(u: Update): void {
    this.tick = u.tick;
    for (const e of u.entities) {
      const old = this.entities.get(e.id);
      this.entities.set(e.id, old === undefined ? (e as Seen) : (Object.assign(old, e) as Seen));
    }
    for (const id of u.removed) this.entities.delete(id);
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
