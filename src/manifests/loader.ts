/**
 * Manifest loading (spec "Manifest loading"):
 * 1. Manifests come from `{PUBLIC_CDN_URL}/manifests/` and are cached in `<WORLD>/assets/manifests/`.
 * 2. Production and CI (`CI=true`): always fetched, conditionally (ETags), only changed files
 *    rewritten; an unreachable host leaves the cache in use (warning).
 * 3. Development (and test): no fetch when the required manifests are already cached; fetched
 *    when they are not.
 * 4. Development fallback: when the local host is down and required manifests are missing, the
 *    production content host (`MANIFEST_FALLBACK_CDN_URL`) bootstraps them.
 * 5. `SKIP_MANIFESTS=true`: no fetching and no validation gate: what is cached is read, files that
 *    do not fit their schema are left out with a warning, and startup never fails on content.
 *
 * Then every file is validated. A schema problem stops startup (naming file, JSON path and
 * problem); a dangling reference is a warning and its entry is dropped, or an error with
 * `MANIFESTS_STRICT=true`. Every recipe the server cannot support is listed, one line each.
 */
import fs from "node:fs";
import type { Logger } from "../logger.ts";
import { missingRequired } from "./catalog.ts";
import { buildRegistry, type ContentRegistry } from "./registry.ts";
import { HostUnreachableError, syncFromHost, type SyncReport } from "./sync.ts";
import { formatProblem, listManifestFiles, ManifestValidationError, readManifestDir, type ManifestProblem } from "./validate.ts";

export interface ManifestLoadOptions {
  dir: string;
  cdnUrl: string;
  fallbackCdnUrl: string | undefined;
  /** Production or CI: always fetch. */
  alwaysFetch: boolean;
  skip: boolean;
  strictReferences: boolean;
  logger: Logger;
}

export type SyncOutcome =
  | { action: "skipped"; reason: string }
  | { action: "fetched"; from: string; report: SyncReport }
  | { action: "unreachable"; from: string; usingCache: boolean };

export interface LoadedContent {
  registry: ContentRegistry;
  sync: SyncOutcome;
  warnings: ManifestProblem[];
}

function present(dir: string): Set<string> {
  return new Set(listManifestFiles(dir));
}

/** Step 1: bring the cache up to date as the mode requires. */
export async function syncManifests(opts: ManifestLoadOptions): Promise<SyncOutcome> {
  const { dir, logger } = opts;
  if (opts.skip) return { action: "skipped", reason: "SKIP_MANIFESTS=true" };

  if (!opts.alwaysFetch) {
    const missing = missingRequired(present(dir));
    if (missing.length === 0) return { action: "skipped", reason: "local manifests present (development)" };
    logger.info({ missing }, "required manifests missing locally: fetching them");
  }

  try {
    const report = await syncFromHost(opts.cdnUrl, dir, logger);
    logger.info({ from: opts.cdnUrl, updated: report.updated.length, unchanged: report.unchanged.length, missing: report.missing.length }, "manifests synced");
    return { action: "fetched", from: opts.cdnUrl, report };
  } catch (err) {
    if (!(err instanceof HostUnreachableError)) throw err;
    const stillMissing = missingRequired(present(dir));
    if (!opts.alwaysFetch && stillMissing.length > 0 && opts.fallbackCdnUrl !== undefined && opts.fallbackCdnUrl !== opts.cdnUrl) {
      logger.warn({ local: opts.cdnUrl, fallback: opts.fallbackCdnUrl }, "local content host is down: bootstrapping from the production content host");
      try {
        const report = await syncFromHost(opts.fallbackCdnUrl, dir, logger);
        return { action: "fetched", from: opts.fallbackCdnUrl, report };
      } catch (fallbackErr) {
        if (!(fallbackErr instanceof HostUnreachableError)) throw fallbackErr;
        logger.warn({ err: fallbackErr.message }, "production content host unreachable too");
        return { action: "unreachable", from: opts.fallbackCdnUrl, usingCache: false };
      }
    }
    logger.warn({ err: err.message }, "content host unreachable: using the cached manifests");
    return { action: "unreachable", from: opts.cdnUrl, usingCache: stillMissing.length === 0 };
  }
}

/** Steps 1 and 2: sync, then validate and build the registry (or throw with every problem). */
export async function loadContent(opts: ManifestLoadOptions): Promise<LoadedContent> {
  const { dir, logger } = opts;
  const sync = await syncManifests(opts);
  if (!fs.existsSync(dir) && !opts.skip) {
    throw new ManifestValidationError([{ file: "(none)", path: "$", message: `no manifests in ${dir} and none could be fetched` }]);
  }

  const parsed = readManifestDir(dir);
  const missing = opts.skip ? [] : missingRequired(present(dir));
  const schemaProblems = [...parsed.problems, ...missing.map((m) => ({ file: m, path: "$", message: "required manifest is missing" }))];
  const { registry, problems: referenceProblems } = buildRegistry(parsed.data);

  const errors = opts.skip ? [] : [...schemaProblems, ...(opts.strictReferences ? referenceProblems : [])];
  const warnings = [...(opts.skip ? schemaProblems : []), ...(opts.strictReferences && !opts.skip ? [] : referenceProblems)];
  if (errors.length > 0) throw new ManifestValidationError(errors);
  if (warnings.length > 0) {
    logger.warn({ count: warnings.length, first: warnings.slice(0, 10).map(formatProblem) }, "manifest problems: the entries concerned are left out");
  }
  // Every recipe the server cannot support, one line each (a make of it is refused: UNSUPPORTED_RECIPE).
  for (const r of registry.production.values()) {
    if (r.unsupported !== undefined) logger.warn({ recipe: r.id, file: r.source.file }, `unsupported recipe ${r.id}: ${r.unsupported}`);
  }
  logger.info({ files: registry.files.length, items: registry.items.size, npcs: registry.npcs.size, areas: registry.areas.length }, "content loaded");
  return { registry, sync, warnings };
}
