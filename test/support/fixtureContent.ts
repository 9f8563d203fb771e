/** The real public content set (../shared/fixtures/hyperscape-manifests) as a registry, loaded once. */
import { pino } from "pino";
import { loadContent } from "../../src/manifests/loader.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import { FIXTURE_MANIFESTS } from "./world.ts";

let fixture: Promise<ContentRegistry> | undefined;

export function fixtureContent(): Promise<ContentRegistry> {
  fixture ??= loadContent({
    dir: FIXTURE_MANIFESTS,
    cdnUrl: "http://unused.invalid",
    fallbackCdnUrl: undefined,
    alwaysFetch: false,
    skip: false,
    strictReferences: false,
    logger: pino({ level: "silent" }),
  }).then((c) => c.registry);
  return fixture;
}
