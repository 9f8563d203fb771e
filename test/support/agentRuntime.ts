/**
 * The agent runtime as the separate process it is (`node agent-runtime/main.ts`), pointed at a test
 * server: the tests reach it over its HTTP API only, as an owner's dashboard would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ROOT } from "./process.ts";

export interface RuntimeProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Sends the signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startAgentRuntime(opts: {
  apiUrl: string;
  wsUrl: string;
  worldDir: string;
  env?: Record<string, string>;
  args?: string[];
}): Promise<RuntimeProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, "agent-runtime", "main.ts"), ...(opts.args ?? [])], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      AGENT_RT_PORT: "0",
      HOST: "127.0.0.1",
      AGENT_RT_READY_LINE: "true",
      PUBLIC_API_URL: opts.apiUrl,
      PUBLIC_WS_URL: opts.wsUrl,
      WORLD: opts.worldDir,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "warn",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the agent runtime did not start within 20 s:\n${out}`)), 20_000);
    const check = () => {
      const m = /AGENT_RT_READY (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on("data", check);
    void exited.then((code) => reject(new Error(`the agent runtime exited (${code}) before it was ready:\n${out}`)));
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
