/**
 * Interest management for clients that receive `world:update` deltas (the `/ws` transport): per
 * client, what it was last told about each entity in view (by version), so each update carries
 * only what entered, changed or left its view since the last one.
 */
import { publicPlayer, type World } from "./World.ts";
import type { Player } from "./Player.ts";
import type { EntityView } from "./entities.ts";

export interface WorldUpdate {
  tick: number;
  entities: (ReturnType<typeof publicPlayer> | EntityView)[];
  removed: string[];
}

export class ViewTracker {
  /** Entity id → the version last sent. */
  private readonly sent = new Map<string, number>();

  /** The delta for this tick, or undefined when nothing changed in view. */
  update(world: World, viewer: Player): WorldUpdate | undefined {
    const entities: WorldUpdate["entities"] = [];
    const seen = new Set<string>();
    for (const p of world.playersNear(viewer)) {
      seen.add(p.id);
      if (this.sent.get(p.id) === p.publicVersion) continue;
      this.sent.set(p.id, p.publicVersion);
      entities.push(publicPlayer(p));
    }
    for (const { view, version } of world.entitiesNear(viewer, viewer.id)) {
      seen.add(view.id);
      if (this.sent.get(view.id) === version) continue;
      this.sent.set(view.id, version);
      entities.push(view);
    }
    const removed: string[] = [];
    for (const id of this.sent.keys()) {
      if (!seen.has(id)) {
        removed.push(id);
        this.sent.delete(id);
      }
    }
    if (entities.length === 0 && removed.length === 0) return undefined;
    return { tick: world.tick, entities, removed };
  }

  /** Forget everything (the next update is a full one). */
  reset(): void {
    this.sent.clear();
  }
}
