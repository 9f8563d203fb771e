/* eslint-disable no-console */
/**
 * Before `npm start` and `npm run dev` (`prestart`, `predev`): builds the browser client again when
 * a source of it changed since client/dist was built (a `git pull`, an edit), so that the server
 * never serves a bundle older than its code. Silent and quick (a stat per source) when the build
 * is current. Without Vite (an install without the development dependencies) it says so and goes
 * on: such an install serves the build it was shipped with.
 *
 * With `--always` (`prepare`, which `npm install` runs) it builds even a current client: a
 * dependency upgraded by the install (Vite, Phaser) is no source it compares. Without Vite (`npm
 * install --omit=dev`) it says so and the install goes on: the server runs without a client, or
 * serves the client/dist shipped to it.
 *
 *   npm start                       # runs this first
 *   node scripts/client-fresh.ts    # by hand
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { staleInputs } from "../src/http/clientBuildInputs.ts";
import { parseCli } from "../src/cli.ts";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "client", "dist");
const { values: cli } = parseCli(
  {
    summary: "Builds the browser client (client/dist) again when a source of it changed since it was built; npm start and npm run dev run it first.",
    help: { always: "build even a current client (npm install's prepare)" },
  },
  { options: { always: { type: "boolean", default: false } } },
);
const always = cli.always;
const why = always ? "built on every npm install" : staleInputs(dist, root);
if (why !== undefined) {
  const vite = path.join(root, "node_modules", "vite", "bin", "vite.js");
  if (!fs.existsSync(vite) && always) {
    console.warn(
      "rs-world: Vite is not installed (a development dependency: npm install --omit=dev), so the browser client is not built; the server runs without it. Build it where the development dependencies are (npm install, then npm run build:client) and ship client/dist",
    );
  } else if (!fs.existsSync(vite)) {
    console.warn(`rs-world: client/dist is out of date (${why}), and Vite is not installed to build it: run npm install, or ship a current client/dist`);
  } else {
    console.log(`rs-world: building the browser client (client/dist: ${why})`);
    const started = Date.now();
    const run = spawnSync(process.execPath, [vite, "build", "client", "--logLevel", "error"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    if (run.status !== 0) {
      console.error(`rs-world: the client build failed (${run.signal ?? `exit ${run.status}`}): fix it, or run npm run build:client to see why`);
      process.exit(1);
    }
    console.log(`rs-world: built client/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
