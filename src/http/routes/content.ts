/**
 * Content endpoints:
 * - `GET /manifests/{file}`: the cached manifests, with `Cache-Control: public, max-age=300,
 *   must-revalidate`, a strong ETag and 304 on a matching `If-None-Match`; nested paths work;
 *   traversal, hidden files and non-JSON paths are refused (400).
 * - `GET /manifests/index.json`: `{"files": [...]}`, every manifest the directory holds now (at
 *   startup: what the server loaded; a file of that name in it is not served). The
 *   browser client and another server's manifest sync (src/manifests/sync.ts) ask for the files
 *   it names instead of trying every known name and meeting 404s.
 * - `GET /api/data/skill-unlocks` (public): `{<skill>: [{level, description, type}]}`, by level.
 * - `GET /api/v1/world/areas` (bearer token): every world area.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Router, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import { isSafeManifestPath } from "../../manifests/catalog.ts";
import { listManifestFiles } from "../../manifests/validate.ts";
import type { ContentRegistry } from "../../manifests/registry.ts";
import { skillUnlock } from "../../manifests/schemas/misc.ts";
import { area, areaNpc, areaResource, areaStation, mobSpawn } from "../../manifests/schemas/world.ts";
import { BadRequestError, NotFoundError } from "../errors.ts";
import { ok } from "../schemas.ts";

export const MANIFEST_CACHE_CONTROL = "public, max-age=300, must-revalidate";

/** A placed area as `GET /api/v1/world/areas` lists it: the manifest's fields, absent ones null, and its group. */
const placedArea = z.strictObject({
  id: area.shape.id,
  name: area.shape.name,
  description: z.string().nullable(),
  group: z.string().describe("the group of world-areas.json it is listed in (`starterTowns`, …)"),
  difficultyLevel: z.int().min(0),
  bounds: area.shape.bounds,
  biomeType: z.string().nullable(),
  safeZone: z.boolean(),
  pvpEnabled: z.boolean(),
  npcs: z.array(areaNpc),
  resources: z.array(areaResource),
  mobSpawns: z.array(mobSpawn),
  stations: z.array(areaStation),
});

export const CONTENT_RESPONSES = {
  manifest: z
    .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .describe("the manifest file as stored; its schema depends on the file (src/manifests/catalog.ts)"),
  index: z.strictObject({ files: z.array(z.string()).describe("manifest paths, sorted, e.g. `npcs.json`, `items/food.json`") }),
  skillUnlocks: z.record(z.string(), z.array(skillUnlock)).describe("per skill, its unlocks sorted by level"),
  areas: ok({ areas: z.array(placedArea) }),
};

/** A body served with its strong ETag. */
interface Tagged {
  etag: string;
  body: Buffer;
}
interface CachedFile extends Tagged {
  mtimeMs: number;
  size: number;
}

/** A strong ETag of a body: its SHA-256, shortened. */
function strongEtag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Reads a manifest, reusing the last read while the file's mtime and size are unchanged. */
function manifestReader(dir: string): (file: string) => CachedFile | undefined {
  const cache = new Map<string, CachedFile>();
  return (file) => {
    const full = path.join(dir, file);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch {
      cache.delete(file);
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit;
    const body = fs.readFileSync(full);
    const entry = { mtimeMs: stat.mtimeMs, size: stat.size, body, etag: strongEtag(body) };
    cache.set(file, entry);
    return entry;
  };
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}

/** The name of the list of a directory's manifests (the format src/manifests/sync.ts reads). */
export const MANIFEST_INDEX = "index.json";

/** A directory's modification time in ns (-1: not there), which changes when an entry is added, removed or renamed. */
function dirMtime(dir: string): bigint {
  try {
    return fs.statSync(dir, { bigint: true }).mtimeNs;
  } catch {
    return -1n;
  }
}

/**
 * `{"files": [...]}`: every manifest in `dir` (sorted), as served at `/manifests/index.json`. The
 * listing walks the tree (~0.3 ms for the bundled content, on the world's thread), so it is kept
 * while no directory of the tree has changed: a request then costs a stat per directory.
 */
function indexReader(dir: string): () => Tagged {
  let cached: { dirs: Map<string, bigint>; entry: Tagged } | undefined;
  return () => {
    if (cached !== undefined && [...cached.dirs].every(([d, m]) => dirMtime(d) === m)) return cached.entry;
    // The directories first: one changed during the listing is listed again at the next request.
    const dirs = new Map<string, bigint>([[dir, dirMtime(dir)]]);
    try {
      for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (e.isDirectory()) dirs.set(path.join(e.parentPath, e.name), dirMtime(path.join(e.parentPath, e.name)));
      }
    } catch {
      // No directory (yet): an empty list, listed again once it is there.
    }
    const files = listManifestFiles(dir).filter((f) => f !== MANIFEST_INDEX && isSafeManifestPath(f));
    const body = Buffer.from(JSON.stringify({ files }));
    cached = { dirs, entry: { body, etag: strongEtag(body) } };
    return cached.entry;
  };
}

/** A manifest (or the index) with its caching headers, or 304 to a matching `If-None-Match`. */
function sendCached(req: Request, res: Response, entry: Tagged): void {
  res.set({ "Cache-Control": MANIFEST_CACHE_CONTROL, ETag: entry.etag });
  if (etagMatches(req.get("if-none-match"), entry.etag)) {
    res.status(304).end();
    return;
  }
  res.type("application/json").send(entry.body);
}

export function manifestRoutes(dir: string): Router {
  const router = Router();
  const read = manifestReader(dir);
  const index = indexReader(dir);
  router.get(`/manifests/${MANIFEST_INDEX}`, (req, res) => sendCached(req, res, index()));
  router.get("/manifests/*file", (req, res) => {
    const segments = req.params.file;
    const file = segments.join("/");
    if (!isSafeManifestPath(file)) throw new BadRequestError(`not a manifest path: ${file}`, "INVALID_PATH");
    const entry = read(file);
    if (entry === undefined) throw new NotFoundError(`no manifest ${file}`);
    sendCached(req, res, entry);
  });
  return router;
}

export function dataRoutes(content: ContentRegistry, auth: RequestHandler): Router {
  const router = Router();
  router.get("/api/data/skill-unlocks", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").json(content.skillUnlocks);
  });
  router.get("/api/v1/world/areas", auth, (_req, res) => {
    res.json({
      success: true,
      areas: content.areas.map((a) => ({
        id: a.id,
        name: a.name,
        description: a.description ?? null,
        group: a.group,
        difficultyLevel: a.difficultyLevel,
        bounds: a.bounds,
        biomeType: a.biomeType ?? null,
        safeZone: a.safeZone,
        pvpEnabled: a.pvpEnabled,
        npcs: a.npcs,
        resources: a.resources,
        mobSpawns: a.mobSpawns,
        stations: a.stations,
      })),
    });
  });
  return router;
}
