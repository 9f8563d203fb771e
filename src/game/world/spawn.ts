/**
 * Populates a world from the content: resource nodes and stations where the areas place them,
 * service NPCs (bankers, shopkeepers), and mobs within their spawn radius on walkable tiles.
 */
import type { NpcDef } from "../../manifests/schemas/npcs.ts";
import type { CollisionMap } from "../map/CollisionMap.ts";
import type { ContentRegistry } from "../../manifests/registry.ts";
import { LIFEPOINTS_PER_HITPOINT, type NpcInstance, type ResourceInstance, type StationInstance } from "./entities.ts";

function serviceDef(id: string, name: string): NpcDef {
  return { id, name, category: "neutral" };
}

export function spawnResources(content: ContentRegistry): Map<string, ResourceInstance> {
  const out = new Map<string, ResourceInstance>();
  for (const area of content.areas) {
    area.resources.forEach((r, i) => {
      const node = content.resources.get(r.resourceId);
      if (node === undefined) return;
      const id = `res-${area.id}-${i}`;
      out.set(id, { id, node, x: Math.round(r.position.x), z: Math.round(r.position.z), depletedUntil: 0, version: 0, mark: 0 });
    });
  }
  return out;
}

export function spawnStations(content: ContentRegistry): StationInstance[] {
  return content.areas.flatMap((area) =>
    area.stations.map((s, i) => ({ id: s.id ?? `station-${area.id}-${i}`, type: s.type, x: Math.round(s.position.x), z: Math.round(s.position.z) })),
  );
}

export function npcMaxHealth(def: NpcDef): number {
  return (def.stats?.health ?? 1) * LIFEPOINTS_PER_HITPOINT;
}

export function spawnNpcs(content: ContentRegistry, collision: CollisionMap, random: () => number): Map<string, NpcInstance> {
  const out = new Map<string, NpcInstance>();
  const make = (id: string, def: NpcDef, x: number, z: number, service: NpcInstance["service"]): NpcInstance => ({
    id,
    def,
    x,
    z,
    spawnX: x,
    spawnZ: z,
    wanderRadius: def.movement?.wanderRadius ?? 0,
    health: npcMaxHealth(def),
    maxHealth: npcMaxHealth(def),
    service,
    targetId: undefined,
    nextAttackTick: 0,
    deadUntil: 0,
    damageBy: new Map(),
    version: 0,
    mark: 0,
  });
  for (const area of content.areas) {
    for (const n of area.npcs) {
      const def = content.npcs.get(n.id) ?? serviceDef(n.id, n.name ?? n.id);
      const id = `npc-${area.id}-${n.id}`;
      out.set(id, make(id, def, Math.round(n.position.x), Math.round(n.position.z), { type: n.type, storeId: n.storeId }));
    }
    area.mobSpawns.forEach((spawn, s) => {
      const def = content.npcs.get(spawn.mobId);
      if (def === undefined) return;
      for (let i = 0; i < spawn.maxCount; i++) {
        let x = Math.round(spawn.position.x);
        let z = Math.round(spawn.position.z);
        for (let attempt = 0; attempt < 20; attempt++) {
          const cx = x + Math.round((random() * 2 - 1) * spawn.spawnRadius);
          const cz = z + Math.round((random() * 2 - 1) * spawn.spawnRadius);
          if (collision.isWalkable(cx, cz)) {
            x = cx;
            z = cz;
            break;
          }
        }
        const id = `npc-${area.id}-${spawn.mobId}-${s}-${i}`;
        out.set(id, make(id, def, x, z, undefined));
      }
    });
  }
  return out;
}
