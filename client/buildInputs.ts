/**
 * The Vite plugin that records, beside a build of the client, every source file that went into it
 * (the project's own, not node_modules: a dependency that changes comes with an `npm install`,
 * whose `prepare` builds again) and when the build started. src/http/clientBuildInputs.ts reads it:
 * `npm start` builds again when a source changed since, and the server warns if it serves a build
 * older than its sources.
 */
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import { digest, INPUTS_FILE, PROJECT_ROOT, type BuildInputs } from "../src/http/clientBuildInputs.ts";

/** The Vite plugin that writes {@link INPUTS_FILE} into the build directory. */
export function buildInputs(extra: string[]): Plugin {
  let startedAt = 0;
  let outDir = "";
  const files = new Set<string>();
  return {
    name: "rsworld-build-inputs",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    buildStart() {
      startedAt = Date.now();
      files.clear();
    },
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        for (const id of output.moduleIds) {
          // Virtual modules (\0…) and queries (?html-proxy, ?inline) name no file of their own.
          const file = id.split("?")[0]!;
          if (file.startsWith("\0") || !path.isAbsolute(file) || file.split(path.sep).includes("node_modules")) continue;
          if (fs.existsSync(file)) files.add(path.relative(PROJECT_ROOT, file));
        }
      }
    },
    writeBundle() {
      for (const file of extra) files.add(path.relative(PROJECT_ROOT, path.resolve(file)));
      const hashes: Record<string, string> = {};
      for (const file of [...files].sort()) {
        const at = path.join(PROJECT_ROOT, file);
        // Written while the build ran: what it read is not known, so it counts as changed.
        hashes[file] = fs.statSync(at).mtimeMs > startedAt ? "" : digest(at);
      }
      const inputs: BuildInputs = { startedAt, files: hashes };
      fs.writeFileSync(path.join(outDir, INPUTS_FILE), `${JSON.stringify(inputs, null, 1)}\n`);
    },
  };
}
