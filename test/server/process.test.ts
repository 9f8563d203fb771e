import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import { SHUTDOWN_WATCHDOG_MS as WATCHDOG_MS } from "../../src/exit.ts";
import { ROOT, runToExit, spawnNpmStart, spawnServer, type Running } from "../support/process.ts";
import { makeWorldDir } from "../support/world.ts";
import { createTestDatabase } from "../support/postgres.ts";
import { startTcpProxy } from "../support/tcpProxy.ts";
import { WsTestClient } from "../support/wsClient.ts";

const PROD_SECRETS = {
  NODE_ENV: "production",
  JWT_SECRET: "p".repeat(32),
  ADMIN_CODE: "admin-code-0123",
  PUBLIC_IDP_APP_ID: "app",
  IDP_APP_SECRET: "secret",
};

/** The processes under `pid`, children first (Linux: from /proc). */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …; comm may hold spaces and parentheses.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const out: number[] = [];
  for (let i = -1; i < out.length; i++) {
    const of = i < 0 ? pid : out[i]!;
    for (const [child, parent] of parentOf) if (parent === of) out.push(child);
  }
  return out;
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

describe("the server process", function () {
  this.timeout(40_000);
  let world: string;
  let running: Running | undefined;
  beforeEach(() => {
    world = makeWorldDir();
  });
  afterEach(() => {
    running?.child.kill("SIGKILL");
    running = undefined;
    fs.rmSync(world, { recursive: true, force: true });
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`shuts down gracefully on ${signal}: closes /ws clients, closes the database, exits 0`, async () => {
      running = await spawnServer({ NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", WORLD: world });
      const ws = await WsTestClient.connect(`ws://127.0.0.1:${running.port}/ws`);
      await ws.next("welcome");
      running.child.kill(signal);
      const closed = await ws.waitClosed(10_000);
      assert.equal(closed.code, 1001);
      const exit = await running.exited;
      // Exit code 0 and no watchdog line: it finished on its own, before the watchdog (which exits 1).
      assert.equal(exit.code, 0, exit.stderr);
      assert.doesNotMatch(exit.stdout, /exiting anyway/);
      assert.match(exit.stdout, /"msg":"shutdown complete"/);
      await assert.rejects(fetch(`http://127.0.0.1:${running.port}/health`), "no longer accepting");
    });
  }

  it("shuts down gracefully when a supervisor sends SIGTERM to `npm start` (npm's shell does not pass it on)", async () => {
    // `docker stop` on a container whose command is `npm start` signals npm alone: npm passes the
    // signal to its child, which was a shell waiting for the server; the shell died, the server
    // was left running without its parent, and the container's end then killed it unsaved.
    running = await spawnNpmStart({ NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", WORLD: world });
    const server = descendants(running.child.pid!).filter(
      (pid) => /(^|\/)node$/.test(commandLine(pid).split(" ")[0]!) && commandLine(pid).includes("src/main.ts"),
    );
    assert.equal(server.length, 1, `the server under npm: ${server.map(commandLine).join("; ")}`);
    // Not left running by a failure here (afterEach kills npm alone).
    const serverPid = server[0]!;
    const reap = () => {
      for (const pid of [...descendants(serverPid), serverPid]) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    };
    try {
      const ws = await WsTestClient.connect(`ws://127.0.0.1:${running.port}/ws`);
      await ws.next("welcome");
      running.child.kill("SIGTERM");
      assert.equal((await ws.waitClosed(10_000)).code, 1001);
      const exit = await running.exited;
      assert.match(exit.stdout, /"msg":"shutdown complete"/);
      assert.doesNotMatch(exit.stdout, /exiting anyway/);
      // npm waited for the server, which is gone with it.
      assert.equal(exit.code, 0, exit.stderr);
      assert.throws(() => process.kill(serverPid, 0), { code: "ESRCH" });
    } finally {
      reap();
    }
  });

  it("shuts down gracefully on a SIGTERM sent the moment it says it listens, and on one sent while it starts", async () => {
    // The handlers were installed after the start: a supervisor quick to stop a server that had just
    // come up killed it with the signal's default action (code null), 1 time in 3 here.
    for (let i = 0; i < 4; i++) {
      running = await spawnServer({ NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", WORLD: world });
      running.child.kill("SIGTERM");
      const exit = await running.exited;
      assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null }, exit.stdout.slice(-2000));
      assert.match(exit.stdout, /"msg":"shutdown complete"/);
    }
    // Long before it listens (right after the process starts): it finishes starting, then stops.
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [path.join(ROOT, "src", "main.ts")], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", WORLD: world },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      // The first line is logged before the server starts (the generated token secret).
      if (!child.killed) child.kill("SIGTERM");
    });
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on("exit", (c, s) => resolve([c, s])));
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, out.slice(-2000));
    assert.match(out, /"msg":"server listening"[\s\S]*"msg":"shutdown complete"/);
  });

  it("exits on its 10 s watchdog when shutdown hangs, with a non-zero code", async function () {
    if (!process.env.TEST_PG_URL) this.skip();
    const pgDb = await createTestDatabase();
    const target = new URL(pgDb.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    try {
      target.host = `127.0.0.1:${proxy.port}`;
      running = await spawnServer({ NODE_ENV: "test", LOG_LEVEL: "info", PORT: "0", WORLD: world, DATABASE_URL: target.toString() });
      proxy.stall();
      // A health probe now hangs on the database, holding its connection.
      await fetch(`http://127.0.0.1:${running.port}/status`);
      const started = Date.now();
      running.child.kill("SIGTERM");
      const exit = await running.exited;
      const elapsed = Date.now() - started;
      // The watchdog's own line and code say it ended the process; the time says only that the
      // shutdown was waited for (a busy machine makes the exit later, never earlier).
      assert.equal(exit.code, 1);
      assert.match(exit.stdout, new RegExp(`shutdown did not finish within ${WATCHDOG_MS} ms: exiting anyway`));
      assert.ok(elapsed >= WATCHDOG_MS - 1_000, `exited after ${elapsed} ms`);
    } finally {
      await proxy.close();
      await pgDb.drop();
    }
  });

  it("logs JSON lines in production", async () => {
    running = await spawnServer({ ...PROD_SECRETS, LOG_LEVEL: "info", PORT: "0", WORLD: world, DATABASE_URL: `sqlite:${path.join(world, "db.sqlite")}` });
    running.child.kill("SIGTERM");
    const exit = await running.exited;
    const lines = exit.stdout.trim().split("\n");
    assert.ok(lines.length >= 3);
    for (const line of lines) {
      const entry = JSON.parse(line) as { level: number; time: number; msg: string };
      assert.equal(typeof entry.level, "number");
      assert.equal(typeof entry.time, "number");
      assert.equal(typeof entry.msg, "string");
    }
  });

  it("warns at startup when TRUST_PROXY trusts every hop, and not for a hop count", async () => {
    const warnings = async (trust: string) => {
      running = await spawnServer({
        ...PROD_SECRETS,
        LOG_LEVEL: "info",
        PORT: "0",
        WORLD: world,
        DATABASE_URL: `sqlite:${path.join(world, "db.sqlite")}`,
        TRUST_PROXY: trust,
      });
      running.child.kill("SIGTERM");
      const exit = await running.exited;
      return exit.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((e) => e.level === 40 && /TRUST_PROXY/.test(e.msg));
    };
    assert.equal((await warnings("true")).length, 1);
    assert.equal((await warnings("1")).length, 0);
  });

  it("exits with a clear error when its port is taken, instead of waiting forever", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const exit = await runToExit({ NODE_ENV: "test", LOG_LEVEL: "info", HOST: "127.0.0.1", PORT: String(port), WORLD: world });
      assert.equal(exit.code, 1, exit.stdout.slice(-2000) + exit.stderr);
      assert.match(exit.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use \\(EADDRINUSE\\)`));
      // One line, no stack trace, and not logged a second time by the transport.
      assert.equal(exit.stderr.trim().split("\n").length, 1, exit.stderr);
      assert.doesNotMatch(exit.stdout + exit.stderr, /\bat \S+ \(|address already in use/);
    } finally {
      taken.close();
    }
  });

  it("names every interface, not an undefined host, when its port is taken without HOST", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const exit = await runToExit({ NODE_ENV: "test", LOG_LEVEL: "info", PORT: String(port), WORLD: world });
      assert.equal(exit.code, 1);
      assert.equal(
        exit.stderr,
        `rs-world-server: failed to start: port ${port} on every interface is already in use (EADDRINUSE): is another server running there? Stop it, or set PORT to a free port\n`,
      );
    } finally {
      taken.close();
    }
  });

  it("pretty-prints logs in development, and says where the game and the dashboard are", async () => {
    // A client build of one page: the server serves it, so it says where.
    const build = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-build-"));
    fs.writeFileSync(path.join(build, "index.html"), "<!doctype html><title>RS World</title>");
    try {
      running = await spawnServer({ NODE_ENV: "development", LOG_LEVEL: "info", PORT: "0", WORLD: world, CLIENT_BUILD_DIR: build });
      const port = running.port;
      running.child.kill("SIGTERM");
      const exit = await running.exited;
      assert.match(exit.stdout, /INFO.*server listening/);
      assert.match(exit.stdout, new RegExp(`INFO.*the game is at http://localhost:${port}/ and the agent dashboard at http://localhost:${port}/agents`));
      assert.throws(() => JSON.parse(exit.stdout.trim().split("\n")[0]!));
    } finally {
      fs.rmSync(build, { recursive: true, force: true });
    }
    // Without a client build there is no game to point at.
    running = await spawnServer({
      NODE_ENV: "development",
      LOG_LEVEL: "info",
      PORT: "0",
      WORLD: world,
      CLIENT_BUILD_DIR: path.join(os.tmpdir(), "rsworld-no-build-here"),
    });
    running.child.kill("SIGTERM");
    assert.doesNotMatch((await running.exited).stdout, /the game is at/);
  });
});

describe("ecosystem.config.cjs", () => {
  it("runs src/main.ts under PM2 with the pinned Node, one world per core, waiting for each to be ready", () => {
    // PM2 loads the file with require(); do the same.
    const cfg = createRequire(import.meta.url)(path.join(ROOT, "ecosystem.config.cjs")) as { apps: Record<string, unknown>[] };
    assert.equal(cfg.apps.length, 1);
    const app = cfg.apps[0]!;
    assert.equal(app.script, "src/main.ts");
    assert.equal(app.exec_mode, "fork");
    assert.equal(app.instances, os.availableParallelism());
    assert.equal(app.wait_ready, true);
    assert.ok(fs.existsSync(path.join(ROOT, String(app.script))));
    assert.ok(fs.existsSync(path.join(ROOT, String(app.interpreter))), "interpreter exists");
    assert.ok(Number(app.kill_timeout) > 10_000, "PM2 waits longer than the shutdown watchdog");
  });
});
