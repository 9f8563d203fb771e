/**
 * One world's store stock (the state store.ts's rules read and change): counts per store and
 * item that drift back to the content's base stock, and who has which store open. Below World,
 * which holds one; the prices and the buying and selling are store.ts's.
 */
import type { StoreDef } from "../manifests/schemas/misc.ts";

/** Ticks per item of drift where the content gives no restock time (LostCity's general store: 100). */
export const DRIFT_TICKS = 100;
const TICK_SECONDS = 0.6;

export type StoreEntry = StoreDef["items"][number];

interface Level {
  count: number;
  /** The tick the drift counts from; absent while the count is at its base. */
  anchor: number | undefined;
}

/** One world's stores: live stock per store and item, and who is looking at which store. */
export class StoreStock {
  private readonly levels = new Map<string, Map<string, Level>>();
  /** Player id → the store they have open, its keeper, and the view last sent. */
  readonly viewers = new Map<string, { storeId: string; npcId: string; sent: string }>();

  private of(storeId: string): Map<string, Level> {
    let m = this.levels.get(storeId);
    if (m === undefined) this.levels.set(storeId, (m = new Map<string, Level>()));
    return m;
  }

  /** The count of an item (for an unlimited one: the surplus players sold it) after drift up to `tick`. */
  count(store: StoreDef, itemId: string, tick: number): number {
    const m = this.of(store.id);
    const l = m.get(itemId);
    const { base, every, rises } = drift(store, itemId);
    if (l === undefined) return base;
    if (l.anchor !== undefined && (l.count > base || rises)) {
      const steps = Math.floor((tick - l.anchor) / every);
      if (steps > 0) {
        l.count = l.count > base ? Math.max(base, l.count - steps) : Math.min(base, l.count + steps);
        l.anchor += steps * every;
      }
    }
    if (l.count === base) {
      m.delete(itemId);
      return base;
    }
    return l.count;
  }

  /** Moves an item's count by `by` (after drift); the drift clock starts when it leaves its base. */
  change(store: StoreDef, itemId: string, by: number, tick: number): void {
    const count = this.count(store, itemId, tick) + by;
    const m = this.of(store.id);
    const { base } = drift(store, itemId);
    const l = m.get(itemId);
    if (count === base) m.delete(itemId);
    else if (l === undefined) m.set(itemId, { count, anchor: tick });
    else l.count = count;
  }

  /** Items players sold the store that it does not list, with a count above 0. */
  extras(store: StoreDef, tick: number): string[] {
    const m = this.levels.get(store.id);
    if (m === undefined) return [];
    return [...m.keys()].filter((id) => listing(store, id) === undefined && this.count(store, id, tick) > 0);
  }
}

export function listing(store: StoreDef, itemId: string): StoreEntry | undefined {
  return store.items.find((i) => i.itemId === itemId);
}

export /** Base count, ticks per item of drift, and whether a count below the base restocks. */
function drift(store: StoreDef, itemId: string): { base: number; every: number; rises: boolean } {
  const e = listing(store, itemId);
  if (e === undefined || e.stockQuantity < 0) return { base: 0, every: DRIFT_TICKS, rises: false };
  const rises = e.restockTime > 0;
  return { base: e.stockQuantity, every: rises ? Math.max(1, Math.round(e.restockTime / TICK_SECONDS)) : DRIFT_TICKS, rises };
}
