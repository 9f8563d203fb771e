/**
 * Shared by the agents benchmark's modes (ladder.ts, scale.ts): registering agents over the game
 * server's public REST, and the agent runtime as its own process (`node agent-runtime/main.ts`),
 * reached over its HTTP API only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pool, ROOT } from "../world-load/common.ts";

export const RUNTIME_MAIN = path.join(ROOT, "agent-runtime", "main.ts");
/** The server's character limit per account (`MAX_CHARACTERS_PER_ACCOUNT`): agents are registered five to an owner. */
export const AGENTS_PER_OWNER = 5;

export class HttpFailure extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** One JSON call; a non-2xx answer throws with its status and body. */
export async function call<T>(base: string, method: string, route: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new HttpFailure(res.status, `${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return (text === "" ? {} : JSON.parse(text)) as T;
}

/** An agent registered on the game server, with what its owner and the runtime need. */
export interface RegisteredAgent {
  ownerToken: string;
  accountId: string;
  characterId: string;
  name: string;
  agentId: string;
  agentToken: string;
}

/**
 * Registers `n` agents as an owner would: `POST /api/auth/anonymous` (one account per five
 * agents), `POST /api/character {name, templateId?}`, `POST /api/agent {characterId}`.
 */
export async function registerAgents(
  apiUrl: string,
  n: number,
  opts: { prefix: string; templateId?: string | undefined; concurrency?: number },
): Promise<RegisteredAgent[]> {
  const owners = Math.ceil(n / AGENTS_PER_OWNER);
  const perOwner = await pool(
    Array.from({ length: owners }, (_, i) => i),
    opts.concurrency ?? 8,
    async (o) => {
      const auth = await call<{ token: string; accountId: string }>(apiUrl, "POST", "/api/auth/anonymous");
      const out: RegisteredAgent[] = [];
      for (let k = 0; k < AGENTS_PER_OWNER && o * AGENTS_PER_OWNER + k < n; k++) {
        const name = `${opts.prefix}${o * AGENTS_PER_OWNER + k}`;
        const body = opts.templateId === undefined ? { name } : { name, templateId: opts.templateId };
        const character = await call<{ character: { id: string } }>(apiUrl, "POST", "/api/character", auth.token, body);
        const reg = await call<{ agent: { agentId: string }; token: string }>(apiUrl, "POST", "/api/agent", auth.token, {
          characterId: character.character.id,
        });
        out.push({
          ownerToken: auth.token,
          accountId: auth.accountId,
          characterId: character.character.id,
          name,
          agentId: reg.agent.agentId,
          agentToken: reg.token,
        });
      }
      return out;
    },
  );
  return perOwner.flat();
}

/** `GET /stats` of the agent runtime (agent-runtime/Runtime.ts `stats()`). */
export interface RuntimeStats {
  agents: number;
  byState: Record<string, number>;
  progressing: number;
  progressingShare: number | null;
  steps: number;
  stepCpuMicros: number;
  messagesSent: number;
  memory: { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
  cpu: { user: number; system: number };
}

export interface RuntimeProcess {
  readonly proc: ChildProcess;
  readonly url: string;
  readonly exited: boolean;
  /** How it exited (code or signal), once it has. */
  readonly exitStatus: string | undefined;
  /** The end of its output (stdout and stderr). */
  tail(): string;
  stats(): Promise<RuntimeStats>;
  /** Hands an agent over: `POST /agents` with the owner's bearer. */
  play(agent: RegisteredAgent): Promise<void>;
  /** SIGTERM and wait for the exit (SIGKILL after 15 s). */
  stop(): Promise<{ code: number | null; signal: string | null }>;
}

/**
 * Starts the agent runtime pointed at a game server (as test/support/agentRuntime.ts does), its
 * output appended to `logFile`, and waits for its `AGENT_RT_READY <port>` line (60 s at most).
 */
export async function startRuntime(opts: {
  apiUrl: string;
  wsUrl: string;
  worldDir: string;
  logFile: string;
  args?: string[];
  nodeArgs?: string[];
  env?: Record<string, string>;
}): Promise<RuntimeProcess> {
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), RUNTIME_MAIN, ...(opts.args ?? [])], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      AGENT_RT_PORT: "0",
      HOST: "127.0.0.1",
      AGENT_RT_READY_LINE: "true",
      PUBLIC_API_URL: opts.apiUrl,
      PUBLIC_WS_URL: opts.wsUrl,
      WORLD: opts.worldDir,
      LOG_LEVEL: "info",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = fs.createWriteStream(opts.logFile, { flags: "a" });
  let head = "";
  let last = "";
  let exited = false;
  let exitStatus: string | undefined;
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => proc.once("exit", (code, signal) => resolve({ code, signal })));
  void exit.then(({ code, signal }) => {
    exited = true;
    exitStatus = signal ?? `exit code ${code}`;
  });
  const keep = (c: Buffer) => {
    last = (last + c.toString()).slice(-4000);
    log.write(c);
  };
  proc.stdout.on("data", (c: Buffer) => {
    if (head.length < 100_000) head += c.toString();
    keep(c);
  });
  proc.stderr.on("data", keep);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the agent runtime did not start within 60 s:\n${head.slice(-2000)}`)), 60_000);
    const check = () => {
      const m = /AGENT_RT_READY (\d+)/.exec(head);
      if (m === null) return;
      clearTimeout(timer);
      resolve(Number(m[1]));
    };
    proc.stdout.on("data", check);
    void exit.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the agent runtime exited (${code ?? signal}) before it was ready:\n${head.slice(-2000)}`));
    });
  }).catch((err: unknown) => {
    if (!exited) proc.kill("SIGKILL");
    throw err;
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    proc,
    url,
    get exited() {
      return exited;
    },
    get exitStatus() {
      return exitStatus;
    },
    tail: () => last,
    stats: () => call<RuntimeStats>(url, "GET", "/stats"),
    async play(agent) {
      await call(url, "POST", "/agents", agent.ownerToken, { agentId: agent.agentId, token: agent.agentToken });
    },
    async stop() {
      if (!exited) proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      const r = await exit;
      clearTimeout(timer);
      log.end();
      return r;
    },
  };
}

/** Short git description of the code measured: the commit, and "+ uncommitted changes" under agent-runtime/, src/ or bench/agents/ when there are any. */
export async function codeVersion(): Promise<string> {
  const run = (args: string[]) =>
    new Promise<string>((resolve) => {
      const p = spawn("git", args, { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] });
      let out = "";
      p.stdout.on("data", (c: Buffer) => (out += c.toString()));
      p.once("error", () => resolve(""));
      p.once("exit", () => resolve(out.trim()));
    });
  // Retried: a commit by someone else in this shared tree can hold the repository's lock for a moment.
  let commit = "";
  for (let i = 0; i < 5 && commit === ""; i++) commit = await run(["rev-parse", "--short", "HEAD"]);
  const dirty = await run(["status", "--porcelain", "--untracked-files=no", "--", "agent-runtime", "src", "bench/agents"]);
  return `${commit || "unknown"}${dirty !== "" ? " + uncommitted changes" : ""}`;
}
