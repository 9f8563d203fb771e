/**
 * Fetching manifests from a content host into the local cache (`world/assets/manifests/`).
 *
 * Conditional requests: the ETag of every cached file is kept in `.etags.json` beside the files;
 * a file is requested with `If-None-Match`, and rewritten only when the host sends different
 * content (written to a temporary file, then renamed over the old one, so a crash never leaves a
 * half-written manifest). Files the host does not have (404) are left as they are.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../logger.ts";
import { isSafeManifestPath, KNOWN_MANIFESTS } from "./catalog.ts";

export const ETAG_FILE = ".etags.json";
export const FETCH_TIMEOUT_MS = 10_000;
export const FETCH_CONCURRENCY = 6;

export interface SyncReport {
  /** False when the host could not be reached at all (nothing was changed). */
  reachable: boolean;
  updated: string[];
  unchanged: string[];
  missing: string[];
  failed: { file: string; reason: string }[];
}

export class HostUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    super(`content host unreachable at ${url}: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = "HostUnreachableError";
  }
}

/** Writes `data` to `file` atomically: a temporary file in the same directory, then a rename. */
export function writeFileAtomic(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function readEtags(dir: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(dir, ETAG_FILE), "utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  try {
    return await fetch(url, { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "follow" });
  } catch (err) {
    throw new HostUnreachableError(url, (err as Error).cause ?? err);
  }
}

/** The files to ask a host for: the known list plus what its optional `index.json` names. */
async function fileList(base: string, logger: Logger): Promise<string[]> {
  const files = new Set(KNOWN_MANIFESTS);
  const res = await get(`${base}/manifests/index.json`);
  if (res.ok) {
    try {
      const body = (await res.json()) as { files?: unknown };
      if (Array.isArray(body.files)) {
        for (const f of body.files) {
          if (typeof f === "string" && isSafeManifestPath(f)) files.add(f);
          else logger.warn({ entry: f }, "manifests/index.json: ignoring an entry that is not a safe manifest path");
        }
      }
    } catch {
      logger.warn("manifests/index.json is not valid JSON: using the built-in list only");
    }
  } else {
    await res.body?.cancel();
  }
  return [...files].sort();
}

/**
 * Brings the cache in `dir` up to date with `{baseUrl}/manifests/`. Throws
 * {@link HostUnreachableError} only if the host cannot be reached at all.
 */
export async function syncFromHost(baseUrl: string, dir: string, logger: Logger): Promise<SyncReport> {
  const base = baseUrl.replace(/\/+$/, "");
  const files = await fileList(base, logger);
  const etags = readEtags(dir);
  const report: SyncReport = { reachable: true, updated: [], unchanged: [], missing: [], failed: [] };

  const syncOne = async (file: string): Promise<void> => {
    const local = path.join(dir, file);
    const cached = fs.existsSync(local) ? fs.readFileSync(local) : undefined;
    const etag = etags[file];
    const res = await get(`${base}/manifests/${file}`, cached !== undefined && etag !== undefined ? { "If-None-Match": etag } : {});
    if (res.status === 304) {
      report.unchanged.push(file);
      return;
    }
    if (res.status === 404) {
      await res.body?.cancel();
      report.missing.push(file);
      return;
    }
    if (!res.ok) {
      await res.body?.cancel();
      report.failed.push({ file, reason: `HTTP ${res.status}` });
      return;
    }
    const body = Buffer.from(await res.arrayBuffer());
    const newEtag = res.headers.get("etag");
    if (newEtag !== null) etags[file] = newEtag;
    else delete etags[file];
    if (cached !== undefined && cached.equals(body)) {
      report.unchanged.push(file);
      return;
    }
    writeFileAtomic(local, body);
    report.updated.push(file);
  };

  const queue = [...files];
  const workers = Array.from({ length: FETCH_CONCURRENCY }, async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      try {
        await syncOne(file);
      } catch (err) {
        if (err instanceof HostUnreachableError) throw err;
        report.failed.push({ file, reason: (err as Error).message });
      }
    }
  });
  await Promise.all(workers);
  if (report.updated.length > 0 || fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    writeFileAtomic(path.join(dir, ETAG_FILE), `${JSON.stringify(etags, Object.keys(etags).sort(), 2)}\n`);
  }
  for (const f of report.failed) logger.warn({ file: f.file, reason: f.reason }, "manifest could not be fetched; keeping the cached copy");
  return report;
}
