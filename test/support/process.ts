/**
 * The server as a separate process (`node src/main.ts`), for what only a process shows: refusing
 * to start, `.env` files, signals, log format.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const MAIN = path.join(ROOT, "src", "main.ts");

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ChildProcess;
  port: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exited>;
}

/** Environment for a child server: only what the test gives, plus PATH/HOME. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
}

/** Runs the server and waits for it to exit (for startup refusals). */
export function runToExit(env: Record<string, string>, cwd = ROOT, timeoutMs = 20_000): Promise<Exited> {
  return start(env, cwd, timeoutMs).exited;
}

/** `command`: what to run instead of `node [nodeArgs] src/main.ts` (e.g. `npm start`). */
function start(
  env: Record<string, string>,
  cwd: string,
  timeoutMs = 20_000,
  nodeArgs: string[] = [],
  command?: [string, string[]],
): Running & { ready: Promise<number> } {
  const [file, args] = command ?? [process.execPath, [...nodeArgs, MAIN]];
  const child = spawn(file, args, { cwd, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let resolveReady: (port: number) => void;
  let rejectReady: (e: Error) => void;
  const ready = new Promise<number>((res, rej) => {
    resolveReady = res;
    rejectReady = rej;
  });
  const timer = setTimeout(() => {
    rejectReady(new Error(`server did not start within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`));
    child.kill("SIGKILL");
  }, timeoutMs);
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    // JSON logs (test, production) or pino-pretty (development).
    const m = /"port":(\d+)[^\n]*"msg":"server listening"/.exec(out) ?? /server listening[\s\S]*?port: (\d+)/.exec(out);
    if (m) {
      clearTimeout(timer);
      resolveReady(Number(m[1]));
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<Exited>((resolve) => {
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      rejectReady(new Error(`server exited (code ${code}, signal ${signal}) before listening\nstdout:\n${out}\nstderr:\n${err}`));
      // Let the pipes drain before reporting.
      setImmediate(() => resolve({ code, signal, stdout: out, stderr: err }));
    });
  });
  ready.catch(() => {});
  return { child, port: 0, stdout: () => out, stderr: () => err, exited, ready };
}

/** Starts the server process (with Node flags before the entry point, e.g. `--import`) and waits until it listens. */
export async function spawnServer(env: Record<string, string>, cwd = ROOT, timeoutMs = 20_000, nodeArgs: string[] = []): Promise<Running> {
  const r = start(env, cwd, timeoutMs, nodeArgs);
  const port = await r.ready;
  return { ...r, port };
}

/** `npm start` in `cwd` (the project's own start script, through npm and its shell), once the server listens. */
export async function spawnNpmStart(env: Record<string, string>, cwd = ROOT, timeoutMs = 20_000): Promise<Running> {
  const r = start(env, cwd, timeoutMs, [], ["npm", ["start"]]);
  const port = await r.ready;
  return { ...r, port };
}
