/**
 * The world's content as the server has it: the manifests it serves under /manifests/, assembled by
 * the server's own registry code and collision builder (imported from ../src, not copied), so the
 * map drawn here is the map the server walks on.
 */
import { buildRegistry, type ContentRegistry } from "../../src/manifests/registry.ts";
import { KNOWN_MANIFESTS } from "../../src/manifests/catalog.ts";
import { buildCollision } from "../../src/game/world/World.ts";
import type { CollisionMap } from "../../src/game/map/CollisionMap.ts";

export interface Content {
  registry: ContentRegistry;
  collision: CollisionMap;
}

export async function loadContent(): Promise<Content> {
  const files = new Map<string, unknown>();
  // A file the host does not have (404) is simply absent, as on the server.
  await Promise.all(
    KNOWN_MANIFESTS.map(async (file) => {
      const res = await fetch(`/manifests/${file}`);
      if (res.ok) files.set(file, await res.json());
      else if (res.status !== 404) throw new Error(`/manifests/${file}: HTTP ${res.status}`);
    }),
  );
  const { registry } = buildRegistry(files);
  return { registry, collision: buildCollision(registry) };
}

/** An item's display name: `Logs`, `Logs x 3`. */
export function itemLabel(content: Content, itemId: string, quantity: number): string {
  const name = content.registry.items.get(itemId)?.name ?? itemId;
  return quantity > 1 ? `${name} x ${quantity}` : name;
}
