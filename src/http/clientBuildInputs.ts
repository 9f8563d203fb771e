/**
 * What a build of the browser client was made from (client/buildInputs.ts writes it beside the
 * build), and whether a source of it changed since: after a `git pull` that changes the client,
 * `npm start` would otherwise serve the bundle `npm install` built before it. `npm start`
 * (`prestart`: scripts/client-fresh.ts) builds again when one did; the server warns when it serves
 * such a build (started another way).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** In the build directory; a dotfile, which the server's static files never serve. */
export const INPUTS_FILE = ".build-inputs.json";

export interface BuildInputs {
  /** When the build started (ms since the epoch): a file not written since is unchanged. */
  startedAt: number;
  /**
   * The files, relative to the project's root, with the SHA-256 of what the build read: a file
   * written since (a `git pull`, a checkout of another branch and back) is compared by its content.
   */
  files: Record<string, string>;
}

/** The SHA-256 of a file's content, in hex. */
export function digest(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** The project's root (this file is in src/http). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..", "..");

/**
 * Why the build in `dir` is older than its sources: the first source changed (or removed) since
 * it was built, or that it has no record of its sources; undefined when it is current. A build
 * without the project's sources beside it (shipped on its own) is current by definition.
 */
export function staleInputs(dir: string, root = PROJECT_ROOT): string | undefined {
  if (!fs.existsSync(path.join(root, "client", "src"))) return undefined;
  if (!fs.existsSync(path.join(dir, "index.html"))) return "never built";
  let inputs: BuildInputs;
  try {
    inputs = JSON.parse(fs.readFileSync(path.join(dir, INPUTS_FILE), "utf8")) as BuildInputs;
    if (typeof inputs.startedAt !== "number" || typeof inputs.files !== "object" || inputs.files === null || Array.isArray(inputs.files))
      throw new Error("malformed");
  } catch {
    return `no readable ${INPUTS_FILE}, built by an older version`;
  }
  for (const [file, hash] of Object.entries(inputs.files)) {
    const at = path.join(root, file);
    let mtime: number;
    try {
      mtime = fs.statSync(at).mtimeMs;
    } catch {
      return `${file} removed since it was built`;
    }
    // Not written since the build started: what it read. Written since: changed only if its content did.
    if (mtime > inputs.startedAt && digest(at) !== hash) return `${file} changed since it was built`;
  }
  return undefined;
}
