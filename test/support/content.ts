/** Content registries for game tests: the bundled world, or a small hand-made one. */
import { pino } from "pino";
import { loadContent } from "../../src/manifests/loader.ts";
import { buildRegistry, type ContentRegistry } from "../../src/manifests/registry.ts";
import { BUNDLED_MANIFESTS } from "./world.ts";

let bundled: Promise<ContentRegistry> | undefined;

export function bundledContent(): Promise<ContentRegistry> {
  bundled ??= loadContent({
    dir: BUNDLED_MANIFESTS,
    cdnUrl: "http://unused.invalid",
    fallbackCdnUrl: undefined,
    alwaysFetch: false,
    skip: false,
    strictReferences: true,
    logger: pino({ level: "silent" }),
  }).then((c) => c.registry);
  return bundled;
}

/** An open 101×101 world (-50..50) with the given blocked rectangles and no content. */
export function openWorldContent(blocked: { minX: number; maxX: number; minZ: number; maxZ: number }[] = []): ContentRegistry {
  const data = new Map<string, unknown>([
    ["world-config.json", { game: { spawn: { x: 0, y: 10, z: 0 }, starterKit: [], bounds: { minX: -50, maxX: 50, minZ: -50, maxZ: 50 }, blocked } }],
  ]);
  return buildRegistry(data).registry;
}
