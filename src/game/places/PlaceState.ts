/**
 * The world's places (`world-objects.json`) as they stand now: doors open or shut, ladders and
 * stairs, agility obstacles, each an entity clients see (`kind: "object"`, `ref` the place's kind,
 * a door's `open`). A door's state is the world's, shared by every player; it lives here, below
 * World, so that World holds it without importing the rules that change it (places/interact.ts).
 */
import type { ContentRegistry } from "../../manifests/registry.ts";
import type { DoorDef, LadderDef, ObstacleDef } from "../../manifests/schemas/places.ts";
import type { CollisionMap } from "../map/CollisionMap.ts";

interface PlaceBase {
  /** The content's id: what `interact` names. */
  id: string;
  x: number;
  z: number;
  version: number;
  /** Scratch mark of the interest refresh running now (see Interest.refresh). */
  mark?: number;
}

export interface DoorInstance extends PlaceBase {
  placeKind: "door";
  def: DoorDef;
  open: boolean;
  /** The tick it was last opened or shut (once a tick at most). */
  toggledAt: number;
}
export type PlaceInstance = DoorInstance | (PlaceBase & { placeKind: "ladder"; def: LadderDef }) | (PlaceBase & { placeKind: "obstacle"; def: ObstacleDef });

export class PlaceState {
  readonly byId = new Map<string, PlaceInstance>();
  private readonly collision: CollisionMap;

  constructor(content: ContentRegistry, collision: CollisionMap) {
    this.collision = collision;
    const base = (d: { id: string; x: number; z: number }) => ({ id: d.id, x: d.x, z: d.z, version: 0, mark: 0 });
    const { doors, ladders, obstacles } = content.places;
    for (const def of doors) this.byId.set(def.id, { ...base(def), placeKind: "door", def, open: def.open, toggledAt: -1 });
    for (const def of ladders) this.byId.set(def.id, { ...base(def), placeKind: "ladder", def });
    for (const def of obstacles) this.byId.set(def.id, { ...base(def), placeKind: "obstacle", def });
  }

  get(id: string): PlaceInstance | undefined {
    return this.byId.get(id);
  }

  values(): IterableIterator<PlaceInstance> {
    return this.byId.values();
  }

  /** Opens or shuts a door: its tile is walkable (and seen through) exactly while it is open. */
  setOpen(door: DoorInstance, open: boolean, tick: number): void {
    door.open = open;
    door.toggledAt = tick;
    door.version++;
    if (open) this.collision.unblockTile(door.x, door.z);
    else this.collision.blockTile(door.x, door.z);
  }
}
