/**
 * What every agent knows of the world before it sees anything: the content the server publishes
 * under /manifests/ (the same files and the same registry code as the server and the browser
 * client), boiled down to where things are: banks, store keepers, ranges, resource and monster
 * spawns, areas. Live state (depleted trees, monsters alive, fires) comes only from what an agent
 * sees over its connection.
 */
import { applySchemas, KNOWN_MANIFESTS } from "../src/manifests/catalog.ts";
import { buildRegistry, type ContentRegistry } from "../src/manifests/registry.ts";
import { counted, npcDisplayName, sentenceCase } from "../src/game/sentence.ts";

export interface Spot {
  x: number;
  z: number;
}

export interface Knowledge {
  registry: ContentRegistry;
  spawn: Spot;
  /** Banker NPCs' content ids and where they stand. */
  banks: (Spot & { npcRef: string })[];
  /** Store keepers: content id, store, where they stand. */
  keepers: (Spot & { npcRef: string; storeId: string })[];
  /** Cooking ranges (stations usable as `cook` targets by id). */
  ranges: (Spot & { id: string })[];
  /** Altars (stations an `interact` recharges prayer points at, by id). */
  altars: (Spot & { id: string })[];
  /** Where each resource type is placed. */
  resourceSpots: ReadonlyMap<string, Spot[]>;
  /** Where each monster type spawns. */
  mobSpots: ReadonlyMap<string, Spot[]>;
  areas: { id: string; name: string; bounds: { minX: number; maxX: number; minZ: number; maxZ: number } }[];
  /** The gathering skills' tools (item ids). */
  tools: ReadonlySet<string>;
  /** Item ids that are tools (of gathering and of making), a making consumable (thread), weapons or runes: an agent keeps them when it banks. */
  keep: ReadonlySet<string>;
}

/** Fetches the manifests from the server (a file it does not have is absent, as on the server). */
export async function loadKnowledge(apiUrl: string, fetchImpl: typeof fetch = fetch): Promise<Knowledge> {
  const files = new Map<string, unknown>();
  await Promise.all(
    KNOWN_MANIFESTS.map(async (file) => {
      const res = await fetchImpl(new URL(`/manifests/${file}`, apiUrl));
      if (res.ok) files.set(file, await res.json());
      else if (res.status !== 404) throw new Error(`${apiUrl}/manifests/${file}: HTTP ${res.status}`);
      else await res.body?.cancel();
    }),
  );
  // Through the schemas, as the server reads them: defaults (a recipe's absent `consumables`) applied.
  return knowledgeOf(buildRegistry(applySchemas(files)).registry);
}

export function knowledgeOf(registry: ContentRegistry): Knowledge {
  const resourceSpots = new Map<string, Spot[]>();
  const mobSpots = new Map<string, Spot[]>();
  const add = (m: Map<string, Spot[]>, key: string, p: Spot) => m.set(key, [...(m.get(key) ?? []), { x: p.x, z: p.z }]);
  for (const area of registry.areas) {
    for (const r of area.resources) add(resourceSpots, r.resourceId, r.position);
    for (const m of area.mobSpawns) add(mobSpots, m.mobId, m.position);
  }
  const npcs = registry.areas.flatMap((a) => a.npcs);
  const tools = new Set([...registry.resources.values()].map((r) => r.toolRequired));
  // The tools and consumables of making are kept too (a hammer, a knife, a needle and its thread).
  const making = [...registry.production.values()].flatMap((r) => (r.unsupported === undefined ? [...r.tools, ...r.consumables.map((c) => c.itemId)] : []));
  const keep = new Set<string>([
    ...tools,
    ...making,
    "tinderbox",
    "coins",
    ...registry.magic.runes.keys(),
    ...[...registry.items.values()].filter((i) => i.equipSlot !== undefined || i.tool !== undefined).map((i) => i.id),
  ]);
  return {
    registry,
    spawn: { x: registry.world.spawn.x, z: registry.world.spawn.z },
    banks: npcs.filter((n) => n.type === "bank").map((n) => ({ npcRef: n.id, x: n.position.x, z: n.position.z })),
    keepers: npcs.flatMap((n) => (n.storeId !== undefined ? [{ npcRef: n.id, storeId: n.storeId, x: n.position.x, z: n.position.z }] : [])),
    ranges: registry.areas.flatMap((a) =>
      a.stations.filter((s) => s.type === "range" && s.id !== undefined).map((s) => ({ id: s.id!, x: s.position.x, z: s.position.z })),
    ),
    altars: registry.areas.flatMap((a) =>
      a.stations.filter((s) => s.type === "altar" && s.id !== undefined).map((s) => ({ id: s.id!, x: s.position.x, z: s.position.z })),
    ),
    resourceSpots,
    mobSpots,
    // Exploring walks; an underground area is reached only by a ladder (docs/gameplay.md), so it is not a place to walk to.
    areas: registry.areas.filter((a) => a.underground !== true).map((a) => ({ id: a.id, name: a.name, bounds: a.bounds })),
    tools,
    keep,
  };
}

/**
 * A content id as players read it (an item's, a resource's, an NPC's or a quest's name; the id if
 * none): for the activity log ("goal: Do a quest (Straight and True)", not the quest's id), named
 * as the world view names it: a resource and a monster in sentence case ("Brindle cow", "Shallow
 * water"; src/game/sentence.ts, the browser client's names.ts), not the manifests' Title Case.
 */
export function nameOf(know: Knowledge, id: string): string {
  const r = know.registry;
  const resource = r.resources.get(id);
  const npc = r.npcs.get(id);
  return (
    r.items.get(id)?.name ??
    (resource !== undefined ? sentenceCase(resource.name) : undefined) ??
    (npc !== undefined ? npcDisplayName(npc) : undefined) ??
    r.quests.quests.get(id)?.name ??
    id
  );
}

/** "2 Bronze daggers", "1 Logs", "3 Meadow rats": a count of a thing by {@link nameOf}, plural over one as the browser client writes it. */
export function countOf(know: Knowledge, quantity: number, id: string): string {
  return counted(quantity, nameOf(know, id));
}

export const chebyshev = (a: Spot, b: Spot): number => Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));

/** The nearest of `spots` to `from`, or undefined. */
export function nearest<T extends Spot>(from: Spot, spots: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestD = Infinity;
  for (const s of spots) {
    const d = chebyshev(from, s);
    if (d < bestD) {
      best = s;
      bestD = d;
    }
  }
  return best;
}
