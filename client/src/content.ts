/**
 * The world's content as the server has it: the manifests it serves under /manifests/, assembled by
 * the server's own registry code and collision builder (imported from ../src, not copied), so the
 * map drawn here is the map the server walks on.
 */
import { buildRegistry, type ContentRegistry } from "../../src/manifests/registry.ts";
import { isSafeManifestPath } from "../../src/manifests/catalog.ts";
import { buildCollision } from "../../src/game/world/World.ts";
import type { CollisionMap } from "../../src/game/map/CollisionMap.ts";

export interface Content {
  registry: ContentRegistry;
  collision: CollisionMap;
}

/** The manifests the server loaded: its `/manifests/index.json` (`{"files": [...]}`). */
async function manifestList(): Promise<string[]> {
  const res = await fetch("/manifests/index.json");
  if (!res.ok) throw new Error(`/manifests/index.json: HTTP ${res.status}`);
  const body = (await res.json()) as { files?: unknown };
  if (!Array.isArray(body.files)) throw new Error("/manifests/index.json: no files list");
  return body.files.filter((f): f is string => typeof f === "string" && isSafeManifestPath(f));
}

export async function loadContent(): Promise<Content> {
  const files = new Map<string, unknown>();
  await Promise.all(
    (await manifestList()).map(async (file) => {
      const res = await fetch(`/manifests/${file}`);
      if (!res.ok) throw new Error(`/manifests/${file}: HTTP ${res.status}`);
      files.set(file, await res.json());
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
