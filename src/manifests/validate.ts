/**
 * Reads a manifest directory and checks every file against its schema. A problem names the file,
 * the JSON path inside it and what is wrong: `items/food.json $[3].healAmount: expected an integer`.
 */
import fs from "node:fs";
import path from "node:path";
import { schemaFor } from "./catalog.ts";

export interface ManifestProblem {
  file: string;
  /** JSONPath of the offending value (`$` for the whole file). */
  path: string;
  message: string;
}

export function formatProblem(p: ManifestProblem): string {
  return `${p.file} ${p.path}: ${p.message}`;
}

export class ManifestValidationError extends Error {
  readonly problems: ManifestProblem[];
  constructor(problems: ManifestProblem[]) {
    const shown = problems.slice(0, 50).map(formatProblem);
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : "";
    super(`Invalid game content (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n  ${shown.join("\n  ")}${more}`);
    this.name = "ManifestValidationError";
    this.problems = problems;
  }
}

export function jsonPath(segments: readonly PropertyKey[]): string {
  let out = "$";
  for (const s of segments) {
    if (typeof s === "number") out += `[${s}]`;
    else if (typeof s === "string" && /^[A-Za-z_$][\w$]*$/.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(String(s))}]`;
  }
  return out;
}

/** Every `*.json` below `dir` (relative, `/`-separated, sorted), skipping hidden files. */
export function listManifestFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .globSync("**/*.json", { cwd: dir })
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => !f.split("/").some((part) => part.startsWith(".")))
    .sort();
}

export interface ParsedSet {
  /** Valid files' data, after schema defaults were applied. */
  data: Map<string, unknown>;
  /** Schema problems (a file with any is left out of `data`). */
  problems: ManifestProblem[];
}

export function parseManifest(file: string, raw: string): { data?: unknown; problems: ManifestProblem[] } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return { problems: [{ file, path: "$", message: `not valid JSON: ${(err as Error).message}` }] };
  }
  const result = schemaFor(file).safeParse(json);
  if (result.success) return { data: result.data, problems: [] };
  return { problems: result.error.issues.map((i) => ({ file, path: jsonPath(i.path), message: i.message })) };
}

export function readManifestDir(dir: string): ParsedSet {
  const data = new Map<string, unknown>();
  const problems: ManifestProblem[] = [];
  for (const file of listManifestFiles(dir)) {
    const parsed = parseManifest(file, fs.readFileSync(path.join(dir, file), "utf8"));
    if (parsed.problems.length > 0) problems.push(...parsed.problems);
    else data.set(file, parsed.data);
  }
  return { data, problems };
}
