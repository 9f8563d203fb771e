/**
 * A client's copy of its view, kept from `world:update` events: one merge for both forms of the
 * event (the documented entries, and compact updates: `/ws?updates=compact`, see
 * src/game/world/ViewTracker.ts). The agent runtime, the benchmarks' bots and the tests use it.
 */
import type { ServerEvent } from "./serverEvents.ts";

export type WorldUpdate = ServerEvent<"world:update">;
type Entry = WorldUpdate["entities"][number];
/** An entity as last seen: every field it was ever sent with (a move carries only the position). */
export type SeenEntity = Omit<Entry, "h"> &
  Partial<{ ref: string; name: string; health: number; maxHealth: number; level: number; dead: boolean; depleted: boolean; quantity: number; open: boolean }>;

export class ViewCopy {
  readonly entities = new Map<string, SeenEntity>();
  /** Compact updates: the entity each handle names (a handle is named again before it is reused). */
  private readonly byHandle = new Map<number, SeenEntity>();

  /** A new session starts with a full view. */
  clear(): void {
    this.entities.clear();
    this.byHandle.clear();
  }

  /**
   * Merges one update: entries by id (a whole entry with a handle names it), moves by handle, then
   * what left the view. Throws on a move by a handle no entry has named (a broken stream).
   */
  apply(u: WorldUpdate): void {
    for (const entry of u.entities) {
      const { h, ...fields } = entry as Entry & { h?: number };
      const old = this.entities.get(fields.id);
      const seen = old === undefined ? (fields as SeenEntity) : (Object.assign(old, fields) as SeenEntity);
      if (old === undefined) this.entities.set(fields.id, seen);
      if (h !== undefined) this.byHandle.set(h, seen);
    }
    const moved = u.moved;
    if (moved !== undefined) {
      for (let i = 0; i + 2 < moved.length; i += 3) {
        const seen = this.byHandle.get(moved[i]!);
        if (seen === undefined || this.entities.get(seen.id) !== seen) throw new Error(`world:update moves handle ${moved[i]}, which names nothing in view`);
        seen.x = moved[i + 1]!;
        seen.z = moved[i + 2]!;
      }
    }
    for (const id of u.removed) this.entities.delete(id);
  }
}
