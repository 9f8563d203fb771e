/**
 * The world's content as the server has it: the manifests it serves under /manifests/, assembled by
 * the server's own registry code and collision builder (imported from ../src, not copied), so the
 * map drawn here is the map the server walks on.
 */
import { buildRegistry, type ContentRegistry } from "../../src/manifests/registry.ts";
import { applySchemas, isSafeManifestPath } from "../../src/manifests/catalog.ts";
import { buildCollision } from "../../src/game/world/World.ts";
import type { CollisionMap } from "../../src/game/map/CollisionMap.ts";
import { applyDisplayNames, type NameChanges } from "./names.ts";

export interface Content {
  registry: ContentRegistry;
  collision: CollisionMap;
  /** The manifests as served (the art reads what the registry leaves out: buildings, biomes, why a tile is blocked). */
  files?: ReadonlyMap<string, unknown>;
  /** The content's names the client shows otherwise (sentence case: names.ts), for the server's lines. */
  renamed?: NameChanges;
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
  // Through the schemas, as the server reads them: the defaults they fill in (a recipe's absent
  // `consumables`, an area's `blocked`, a door's `open`) are here too.
  const { registry } = buildRegistry(applySchemas(files));
  const collision = buildCollision(registry);
  // Kinds of things in sentence case, as the genre names them ("Bank booth", "Meadow rat"): names.ts.
  return { registry, collision, files, renamed: applyDisplayNames(registry) };
}

/** An item's display name: `Logs`, `Logs x 3`. */
export function itemLabel(content: Content, itemId: string, quantity: number): string {
  const name = content.registry.items.get(itemId)?.name ?? itemId;
  return quantity > 1 ? `${name} x ${quantity}` : name;
}
