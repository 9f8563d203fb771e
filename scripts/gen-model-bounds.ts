/**
 * Regenerates world/assets/manifests/model-bounds.json from the "dimensions" blocks declared in the
 * content manifests, in the same format as the reference (Hyperscape) model-bounds.json:
 *   { generatedAt, tileSize, models: [{ id, assetPath, bounds: {min, max}, dimensions: {x, y, z}, footprint: {width, depth} }] }
 *
 * Every manifest entry that names a model (modelPath, equippedModelPath, depletedModelPath, or
 * "model" for stations and vegetation) declares its native size next to it as
 * "dimensions": { width, depth, height } in metres (1 tile = 1 metre). depletedModelPath uses
 * "depletedDimensions" when present, else "dimensions". The box is centred on x/z and spans y 0..height;
 * the footprint is the box rounded up to whole tiles (at least 1x1).
 *
 * Usage:
 *   node scripts/gen-model-bounds.ts           write the file
 *   node scripts/gen-model-bounds.ts --check   exit 1 if the file is missing or out of date
 *
 * Output is deterministic: models sorted by assetPath, object keys sorted, trailing newline.
 * generatedAt is taken from SOURCE_DATE_EPOCH (seconds) if set, else the Unix epoch.
 */
import fs from "node:fs";
import path from "node:path";
import { parseCli } from "../src/cli.ts";

type Dimensions = { width: number; depth: number; height: number };
type Vec3 = { x: number; y: number; z: number };
type ModelBounds = {
  id: string;
  assetPath: string;
  bounds: { min: Vec3; max: Vec3 };
  dimensions: Vec3;
  footprint: { width: number; depth: number };
};

const ROOT = path.resolve(import.meta.dirname, "..");
const MANIFEST_DIR = path.join(ROOT, "world", "assets", "manifests");
const OUTPUT = path.join(MANIFEST_DIR, "model-bounds.json");
const TILE_SIZE = 1;

/** Model path field -> the field holding its declared dimensions (first one present wins). */
const MODEL_FIELDS: Record<string, string[]> = {
  modelPath: ["dimensions"],
  equippedModelPath: ["dimensions"],
  depletedModelPath: ["depletedDimensions", "dimensions"],
  model: ["dimensions"],
};

function listJsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listJsonFiles(full));
    else if (entry.isFile() && entry.name.endsWith(".json") && full !== OUTPUT) out.push(full);
  }
  return out.sort();
}

/** Vegetation uses paths relative to asset://models/; everything else is already absolute. */
function normaliseAssetPath(p: string): string {
  return /^[a-z]+:\/\//.test(p) ? p : `asset://models/${p.replace(/^\/+/, "")}`;
}

/** "asset://models/trees/oak/oak.glb" -> "trees/oak"; "asset://avatars/x.vrm" -> "avatars". */
function modelId(assetPath: string): string {
  let rel = assetPath.replace(/^[a-z]+:\/\//, "");
  if (rel.startsWith("models/")) rel = rel.slice("models/".length);
  const dir = path.posix.dirname(rel);
  return dir === "." ? path.posix.basename(rel, path.posix.extname(rel)) : dir;
}

function isDimensions(v: unknown): v is Dimensions {
  if (typeof v !== "object" || v === null) return false;
  const d = v as Record<string, unknown>;
  return ["width", "depth", "height"].every((k) => typeof d[k] === "number" && Number.isFinite(d[k]) && d[k] > 0);
}

function tiles(size: number): number {
  // Tolerate float noise (e.g. 2.0000000001 m is still 2 tiles).
  return Math.max(1, Math.ceil(size / TILE_SIZE - 1e-9));
}

function toBounds(id: string, assetPath: string, d: Dimensions): ModelBounds {
  return {
    id,
    assetPath,
    bounds: {
      min: { x: -d.width / 2, y: 0, z: -d.depth / 2 },
      max: { x: d.width / 2, y: d.height, z: d.depth / 2 },
    },
    dimensions: { x: d.width, y: d.height, z: d.depth },
    footprint: { width: tiles(d.width), depth: tiles(d.depth) },
  };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "object" && value !== null) {
    const obj = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj).sort()) out[key] = sortKeys(obj[key]);
    return out;
  }
  return value;
}

function collect(): { models: Map<string, { dims: Dimensions; source: string }>; errors: string[] } {
  const models = new Map<string, { dims: Dimensions; source: string }>();
  const errors: string[] = [];

  const visit = (node: unknown, where: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => visit(child, `${where}[${i}]`));
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const obj = node as Record<string, unknown>;
    for (const [field, dimFields] of Object.entries(MODEL_FIELDS)) {
      const raw = obj[field];
      if (typeof raw !== "string" || raw.length === 0) continue;
      const label = `${where}.${field}`;
      const dimField = dimFields.find((f) => obj[f] !== undefined);
      const dims = dimField === undefined ? undefined : obj[dimField];
      if (!isDimensions(dims)) {
        errors.push(`${label} (${raw}): missing or invalid ${dimFields.join("/")} {width, depth, height}`);
        continue;
      }
      const assetPath = normaliseAssetPath(raw);
      const clean: Dimensions = { width: dims.width, depth: dims.depth, height: dims.height };
      const seen = models.get(assetPath);
      if (seen === undefined) {
        models.set(assetPath, { dims: clean, source: label });
      } else if (seen.dims.width !== clean.width || seen.dims.depth !== clean.depth || seen.dims.height !== clean.height) {
        errors.push(`${assetPath}: ${label} declares ${JSON.stringify(clean)} but ${seen.source} declared ${JSON.stringify(seen.dims)}`);
      }
    }
    for (const [key, child] of Object.entries(obj)) {
      if (typeof child === "object" && child !== null) visit(child, `${where}.${key}`);
    }
  };

  for (const file of listJsonFiles(MANIFEST_DIR)) {
    const rel = path.relative(MANIFEST_DIR, file);
    let data: unknown;
    try {
      data = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (err) {
      errors.push(`${rel}: invalid JSON (${(err as Error).message})`);
      continue;
    }
    visit(data, rel);
  }
  return { models, errors };
}

function main(): void {
  const { values } = parseCli(
    {
      summary: 'Regenerates world/assets/manifests/model-bounds.json from the "dimensions" blocks of the content manifests.',
      help: { check: "write nothing: exit 1 if the file is missing or out of date" },
    },
    { options: { check: { type: "boolean", default: false } } },
  );
  const check = values.check;
  const { models, errors } = collect();
  if (errors.length > 0) {
    for (const e of errors) process.stderr.write(`gen-model-bounds: ${e}\n`);
    process.exit(1);
  }

  const epoch = Number(process.env.SOURCE_DATE_EPOCH ?? "0");
  const generatedAt = new Date((Number.isFinite(epoch) ? epoch : 0) * 1000).toISOString();
  const list = [...models.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([assetPath, { dims }]) => toBounds(modelId(assetPath), assetPath, dims));
  const text = JSON.stringify(sortKeys({ generatedAt, tileSize: TILE_SIZE, models: list }), null, 2) + "\n";

  if (check) {
    const current = fs.existsSync(OUTPUT) ? fs.readFileSync(OUTPUT, "utf8") : "";
    if (current !== text) {
      process.stderr.write("gen-model-bounds: model-bounds.json is out of date; run node scripts/gen-model-bounds.ts\n");
      process.exit(1);
    }
    process.stdout.write(`gen-model-bounds: up to date (${list.length} models)\n`);
    return;
  }
  fs.writeFileSync(OUTPUT, text);
  process.stdout.write(`gen-model-bounds: wrote ${path.relative(ROOT, OUTPUT)} (${list.length} models)\n`);
}

main();
