/** Temporary world directories for tests, with real content in them. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const BUNDLED_MANIFESTS = path.join(ROOT, "world", "assets", "manifests");
export const FIXTURE_MANIFESTS = path.resolve(ROOT, "..", "shared", "fixtures", "hyperscape-manifests");

export type WorldContent = "bundled" | "fixture" | "none";

/** A fresh world directory; `bundled` copies our default content, `fixture` the public set. */
export function makeWorldDir(content: WorldContent = "bundled"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-world-"));
  fs.chmodSync(dir, 0o755);
  if (content !== "none") {
    fs.cpSync(content === "bundled" ? BUNDLED_MANIFESTS : FIXTURE_MANIFESTS, path.join(dir, "assets", "manifests"), {
      recursive: true,
      filter: (src) => !path.basename(src).startsWith("."),
    });
  }
  return dir;
}
