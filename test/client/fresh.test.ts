/**
 * A client build older than its sources is noticed: `npm start` (`prestart`:
 * scripts/client-fresh.ts) builds it again, and the server warns when it serves one. The script
 * runs in a copy of the project (its own client/dist), built by the real Vite.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { digest, INPUTS_FILE, staleInputs } from "../../src/http/clientBuildInputs.ts";
import { ROOT, spawnServer } from "../support/process.ts";
import { makeWorldDir } from "../support/world.ts";

/** A file's modification time set to now, or `s` seconds from now. */
function touch(file: string, s = 0): void {
  const t = Date.now() / 1000 + s;
  fs.utimesSync(file, t, t);
}

describe("a client build older than its sources", function () {
  this.timeout(120_000);

  describe("staleInputs", () => {
    let root: string;
    let dist: string;
    beforeEach(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-stale-"));
      dist = path.join(root, "client", "dist");
      fs.mkdirSync(path.join(root, "client", "src"), { recursive: true });
      fs.mkdirSync(path.join(root, "src"), { recursive: true });
      fs.mkdirSync(dist);
      for (const f of ["client/src/main.ts", "src/shared.ts"]) fs.writeFileSync(path.join(root, f), "export {};\n");
      touch(path.join(root, "client/src/main.ts"), -10);
      touch(path.join(root, "src/shared.ts"), -10);
      fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html>");
      const files = Object.fromEntries(["client/src/main.ts", "src/shared.ts"].map((f) => [f, digest(path.join(root, f))]));
      fs.writeFileSync(path.join(dist, INPUTS_FILE), JSON.stringify({ startedAt: Date.now() - 5_000, files }));
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it("is current while no source changed since the build started", () => {
      assert.equal(staleInputs(dist, root), undefined);
    });

    it("names a source changed since, the client's or a shared one", () => {
      fs.appendFileSync(path.join(root, "src/shared.ts"), "export const changed = 1;\n");
      assert.equal(staleInputs(dist, root), "src/shared.ts changed since it was built");
    });

    it("is current when a source was written since but holds what the build read (a branch checked out and back)", () => {
      const file = path.join(root, "client/src/main.ts");
      fs.writeFileSync(file, fs.readFileSync(file));
      touch(file);
      assert.ok(fs.statSync(file).mtimeMs > Date.now() - 5_000);
      assert.equal(staleInputs(dist, root), undefined);
    });

    it("names a source removed since", () => {
      fs.rmSync(path.join(root, "client/src/main.ts"));
      assert.equal(staleInputs(dist, root), "client/src/main.ts removed since it was built");
    });

    it("is stale without a build, or without a readable record of its sources", () => {
      fs.writeFileSync(path.join(dist, INPUTS_FILE), "{not json");
      assert.match(staleInputs(dist, root)!, /no readable \.build-inputs\.json/);
      fs.writeFileSync(path.join(dist, INPUTS_FILE), JSON.stringify({ files: {} }));
      assert.match(staleInputs(dist, root)!, /no readable/);
      // The list of an earlier format (file names without their content's hash).
      fs.writeFileSync(path.join(dist, INPUTS_FILE), JSON.stringify({ startedAt: 0, files: ["client/src/main.ts"] }));
      assert.match(staleInputs(dist, root)!, /no readable/);
      fs.rmSync(path.join(dist, INPUTS_FILE));
      assert.match(staleInputs(dist, root)!, /no readable/);
      fs.rmSync(path.join(dist, "index.html"));
      assert.equal(staleInputs(dist, root), "never built");
    });

    it("is current where the client's sources are not beside it (a build shipped on its own)", () => {
      fs.rmSync(path.join(root, "client", "src"), { recursive: true });
      fs.rmSync(path.join(dist, INPUTS_FILE));
      assert.equal(staleInputs(dist, root), undefined);
    });
  });

  describe("scripts/client-fresh.ts (npm start's prestart), in a copy of the project", () => {
    let root: string;
    const dist = () => path.join(root, "client", "dist");
    const fresh = () => spawnSync(process.execPath, [path.join(root, "scripts", "client-fresh.ts")], { cwd: root, encoding: "utf8", timeout: 60_000 });
    before(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-fresh-"));
      for (const part of ["src", "entities", "schema", "rooms", "package.json", "tsconfig.json", "scripts/client-fresh.ts"]) {
        fs.cpSync(path.join(ROOT, part), path.join(root, part), { recursive: true });
      }
      fs.cpSync(path.join(ROOT, "client"), path.join(root, "client"), { recursive: true, filter: (src) => !src.startsWith(path.join(ROOT, "client", "dist")) });
      fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
    });
    after(() => fs.rmSync(root, { recursive: true, force: true }));

    it("builds a client never built, recording every source it took, the shared ones included", () => {
      const run = fresh();
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /building the browser client \(client\/dist: never built\)/);
      assert.match(run.stdout, /built client\/dist in [\d.]+ s/);
      assert.ok(fs.existsSync(path.join(dist(), "index.html")));
      const inputs = JSON.parse(fs.readFileSync(path.join(dist(), INPUTS_FILE), "utf8")) as { startedAt: number; files: Record<string, string> };
      for (const f of ["client/src/main.ts", "client/src/api.ts", "client/index.html", "client/vite.config.ts", "src/game/serverEvents.ts"]) {
        assert.equal(inputs.files[f], digest(path.join(root, f)), `${f} is recorded with its content's hash`);
      }
      assert.ok(!Object.keys(inputs.files).some((f) => f.includes("node_modules") || path.isAbsolute(f)), "only the project's own files, relative to its root");
    });

    it("does nothing, quietly, while the build is current", () => {
      const before = fs.statSync(path.join(dist(), "index.html")).mtimeMs;
      const run = fresh();
      assert.deepEqual([run.status, run.stdout, run.stderr], [0, "", ""]);
      assert.equal(fs.statSync(path.join(dist(), "index.html")).mtimeMs, before, "not built again");
    });

    it("builds again once a source changed (a git pull, an edit): a shared module of src/ as the client's own", () => {
      const marker = "freshly-built-marker";
      const api = path.join(root, "client", "src", "api.ts");
      fs.appendFileSync(api, `\nconsole.info(${JSON.stringify(marker)});\n`);
      touch(api);
      const run = fresh();
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /building the browser client \(client\/dist: client\/src\/api\.ts changed since it was built\)/);
      const bundle = fs
        .readdirSync(path.join(dist(), "assets"))
        .filter((f) => f.endsWith(".js"))
        .map((f) => fs.readFileSync(path.join(dist(), "assets", f), "utf8"))
        .join("");
      assert.ok(bundle.includes(marker), "the new source is in the bundle");
      // Written again as it was: nothing to build.
      const shared = path.join(root, "src", "game", "serverEvents.ts");
      fs.writeFileSync(shared, fs.readFileSync(shared));
      touch(shared);
      assert.equal(fresh().stdout, "");
      fs.appendFileSync(shared, "\n// changed\n");
      assert.match(fresh().stdout, /src\/game\/serverEvents\.ts changed/);
      assert.equal(fresh().stdout, "");
    });

    it("stops the start (exit 1) when the build fails, leaving the last build in place", () => {
      const api = path.join(root, "client", "src", "api.ts");
      const good = fs.readFileSync(api, "utf8");
      fs.writeFileSync(api, `${good}\nexport const broken = ;\n`);
      touch(api);
      try {
        const run = fresh();
        assert.equal(run.status, 1);
        assert.match(run.stderr, /the client build failed \(exit 1\)/);
        assert.ok(fs.existsSync(path.join(dist(), "index.html")), "the last build is still there");
      } finally {
        fs.writeFileSync(api, good);
        touch(api);
      }
      assert.equal(fresh().status, 0);
    });

    it("says so and goes on where Vite is not installed (an install without the development dependencies)", () => {
      fs.rmSync(path.join(root, "node_modules"));
      fs.mkdirSync(path.join(root, "node_modules"));
      for (const name of fs.readdirSync(path.join(ROOT, "node_modules"))) {
        if (name !== "vite") fs.symlinkSync(path.join(ROOT, "node_modules", name), path.join(root, "node_modules", name));
      }
      fs.appendFileSync(path.join(root, "client", "src", "main.ts"), "\n// changed\n");
      const run = fresh();
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, "");
      assert.match(
        run.stderr,
        /client\/dist is out of date \(client\/src\/main\.ts changed since it was built\), and Vite is not installed to build it: run npm install/,
      );
    });
  });

  it("the server warns when it serves a build older than its sources, and never serves the record", async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-stale-dist-"));
    const world = makeWorldDir();
    fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>client</title>");
    // Built before any source of this project was last written, from other content.
    fs.writeFileSync(path.join(dist, INPUTS_FILE), JSON.stringify({ startedAt: 0, files: { "client/src/main.ts": "0".repeat(64) } }));
    const s = await spawnServer({ NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", WORLD: world, CLIENT_BUILD_DIR: dist });
    try {
      assert.match(
        s.stdout(),
        /"why":"client\/src\/main\.ts changed since it was built"[^\n]*"msg":"the client build is older than its sources: run npm run build:client \(npm start does it first\)"/,
      );
      assert.equal((await fetch(`http://127.0.0.1:${s.port}/${INPUTS_FILE}`)).status, 404);
      assert.equal((await fetch(`http://127.0.0.1:${s.port}/`)).status, 200);
    } finally {
      s.child.kill("SIGTERM");
      await s.exited;
      fs.rmSync(dist, { recursive: true, force: true });
      fs.rmSync(world, { recursive: true, force: true });
    }
  });
});
