/* eslint-disable no-console */
/**
 * The screenshot gallery of docs/gallery.md: runs the browser tests that take the pictures (real
 * Chromium against a real server, test/client/), then copies the chosen screenshots from
 * test-artifacts/browser/ into docs/gallery/ and writes docs/gallery.md, so a reader sees the game
 * before installing it.
 *
 *   npm run gallery                 # run the tests, then copy (~5 min)
 *   npm run gallery -- --no-tests   # copy what the last test run left in test-artifacts/browser/
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseCli } from "../src/cli.ts";

const root = path.resolve(import.meta.dirname, "..");
const artifacts = path.join(root, "test-artifacts", "browser");
const out = path.join(root, "docs", "gallery");

/** Each picture: the screenshot's name, the test file that takes it, and its caption. */
export const SHOTS = [
  { name: "characters", test: "test/client/play.test.ts", caption: "The start screen: your characters, a new one's name and look, and Play." },
  {
    name: "art-town",
    test: "test/client/art.test.ts",
    caption: "Brackenford, the starter town: the bank, the stores, the smithy, townsfolk by their trade, and the minimap.",
  },
  { name: "play-combat", test: "test/client/play.test.ts", caption: "A fight: hit splats by style, health bars, and the xp drops." },
  { name: "art-bank-dialog", test: "test/client/art.test.ts", caption: "The bank, with item icons (game-icons, CC BY 3.0: see the client's Credits)." },
  { name: "minimap", test: "test/client/minimap.test.ts", caption: "The minimap: banks, stores, stations, altars and quest starts; a click walks there." },
  { name: "make-furnace", test: "test/client/make.test.ts", caption: "Making things: the furnace's recipes, what each needs, Make 1 / 5 / X / All." },
  { name: "places-cistern", test: "test/client/places.test.ts", caption: "Below ground: the Sunken Cistern, reached down the old well." },
  { name: "quest-journal", test: "test/client/quests.test.ts", caption: "The quest journal after taking A Settler's Charter." },
  { name: "dashboard-watch", test: "test/client/watch.test.ts", caption: "The agent dashboard watching an agent play, beside its goal and decisions." },
] as const;

const { values: cli } = parseCli(
  {
    command: "npm run gallery",
    summary: "Runs the browser tests that take the gallery's screenshots, then copies them into docs/gallery/ and writes docs/gallery.md.",
    help: { "no-tests": "copy what the last test run left in test-artifacts/browser/ instead of running the tests" },
  },
  { options: { "no-tests": { type: "boolean", default: false } } },
);

if (!cli["no-tests"]) {
  const tests = [...new Set(SHOTS.map((s) => s.test))];
  console.log(`gallery: running ${tests.join(", ")}`);
  const run = spawnSync(process.execPath, ["test/run.ts", ...tests], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) {
    console.error(`gallery: the browser tests failed (exit ${run.status ?? run.signal}); nothing copied`);
    process.exit(1);
  }
}

const missing = SHOTS.filter((s) => !fs.existsSync(path.join(artifacts, `${s.name}.png`)));
if (missing.length > 0) {
  console.error(`gallery: no screenshot ${missing.map((s) => `${s.name}.png`).join(", ")} in test-artifacts/browser/ (run npm run gallery without --no-tests)`);
  process.exit(1);
}
fs.mkdirSync(out, { recursive: true });
for (const s of SHOTS) fs.copyFileSync(path.join(artifacts, `${s.name}.png`), path.join(out, `${s.name}.png`));
const page = [
  "# Gallery",
  "",
  "What the browser client looks like, taken by its own tests in real Chromium (headless, software",
  "WebGL) against a real server with the default world. `npm run gallery` takes them again.",
  "",
  ...SHOTS.flatMap((s) => [`## ${s.caption}`, "", `![${s.caption}](gallery/${s.name}.png)`, ""]),
].join("\n");
fs.writeFileSync(path.join(root, "docs", "gallery.md"), page);
console.log(`gallery: ${SHOTS.length} pictures in docs/gallery/, docs/gallery.md written`);
