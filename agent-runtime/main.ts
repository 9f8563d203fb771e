/**
 * `npm run agents`: the agent runtime, a separate process and a client of the game server (its
 * public REST and `/ws` only). `npm run agents -- --spawn N` also creates N demo agents on fresh
 * anonymous accounts (anonymous mode), for a first look and for load.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseEnv } from "node:util";
import { parseCli } from "../src/cli.ts";
import { pino } from "pino";
import { corsSettings, DEFAULT_MUX_MAX_SESSIONS } from "../src/config/env.ts";
import { createOriginCheck } from "../src/http/originCheck.ts";
import { modelBrainFromEnv, modelConfigFromEnv } from "./brain/llm.ts";
import { createRuntimeApp } from "./http.ts";
import { loadKnowledge, type Knowledge } from "./knowledge.ts";
import { DEFAULT_MUX_SESSIONS, Runtime } from "./Runtime.ts";
import { ServerApi } from "./serverApi.ts";
import { spawnDemoAgents } from "./spawn.ts";
import { AgentStore } from "./store.ts";

// A `.env` in the working directory, as the server reads one: the real environment wins over it.
if (fs.existsSync(".env")) for (const [k, v] of Object.entries(parseEnv(fs.readFileSync(".env", "utf8")))) process.env[k] ??= v;
const env = process.env;
const { values: args } = parseCli(
  {
    command: "npm run agents -- [options]",
    summary: "The agent runtime: plays the server's agents (docs/agents.md); configured by the environment (AGENT_RT_PORT, PUBLIC_API_URL, …).",
    help: { spawn: "demo agents to create and start at launch (0 to 5000)", seed: "the seed of the agents' choices (AGENT_SEED)" },
  },
  { options: { spawn: { type: "string" }, seed: { type: "string" } } },
);
const port = Number(env.AGENT_RT_PORT ?? 4001);
const serverPort = env.PORT ?? "5555";
const apiUrl = env.PUBLIC_API_URL ?? `http://localhost:${serverPort}`;
const wsUrl = env.PUBLIC_WS_URL ?? `ws://localhost:${serverPort}/ws`;
const worldDir = path.resolve(env.WORLD ?? "world");
const seed = args.seed ?? env.AGENT_SEED ?? "rsworld";
const spawn = args.spawn === undefined ? 0 : Number(args.spawn);
// Agents over multiplexed `/ws` connections (the default), this many on each; `AGENT_RT_MUX=0`: one socket per agent.
const muxSetting = (env.AGENT_RT_MUX ?? "1").trim().toLowerCase();
const mux = ["1", "true", "on", "yes"].includes(muxSetting);
const muxSessions = Number(env.AGENT_RT_MUX_SESSIONS ?? DEFAULT_MUX_SESSIONS);
// JSON lines in production and tests, readable lines in development (as the server's logs).
const pretty = (env.NODE_ENV ?? "development") === "development";
const logger = pino({
  level: env.LOG_LEVEL ?? "info",
  base: { component: "agent-runtime" },
  ...(pretty ? { transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,component" } } } : {}),
});

const problems: string[] = [];
if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`AGENT_RT_PORT: expected a port number, got "${env.AGENT_RT_PORT}"`);
if (!Number.isInteger(spawn) || spawn < 0 || spawn > 5000) problems.push(`--spawn: expected a number of agents from 0 to 5000, got "${args.spawn}"`);
if (!mux && !["0", "false", "off", "no"].includes(muxSetting))
  problems.push(`AGENT_RT_MUX: expected 1 (multiplexed connections) or 0 (one socket per agent), got "${env.AGENT_RT_MUX}"`);
if (!Number.isInteger(muxSessions) || muxSessions < 1)
  problems.push(`AGENT_RT_MUX_SESSIONS: expected a number of agents per connection (1 or more), got "${env.AGENT_RT_MUX_SESSIONS}"`);
let isAllowedOrigin;
let model: ReturnType<typeof modelConfigFromEnv>;
try {
  // Port 0 (any free port, for tests) names no origin of its own.
  isAllowedOrigin = createOriginCheck(corsSettings(port === 0 ? { ...env, AGENT_RT_PORT: undefined } : env));
} catch (err) {
  problems.push((err as Error).message);
}
try {
  // A model brain is optional; a wrong setting of one is a startup error, not a silent fallback.
  model = modelConfigFromEnv(env);
} catch (err) {
  problems.push((err as Error).message);
}
if (problems.length > 0 || isAllowedOrigin === undefined) {
  logger.fatal({ problems }, `the agent runtime cannot start:\n  ${problems.join("\n  ")}`);
  process.exit(78);
}

// The server refuses sessions beyond its WS_MUX_MAX_SESSIONS (the runtime would retry them in vain).
if (mux && muxSessions > DEFAULT_MUX_MAX_SESSIONS)
  logger.warn(
    { muxSessions },
    `AGENT_RT_MUX_SESSIONS is above the server's default limit of ${DEFAULT_MUX_MAX_SESSIONS} sessions per connection: the server must allow as many (WS_MUX_MAX_SESSIONS)`,
  );

const api = new ServerApi(apiUrl);

/** The content from the game server, waiting for it to come up (1 s doubling to 30 s). */
async function knowledge(): Promise<Knowledge> {
  for (let wait = 1_000; ; wait = Math.min(30_000, wait * 2)) {
    try {
      return await loadKnowledge(apiUrl);
    } catch (err) {
      logger.warn({ err: (err as Error).message, retryInMs: wait }, `the game server at ${apiUrl} is not reachable yet`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

const store = new AgentStore(path.join(worldDir, "local", "agent-runtime.json"));
store.load();
const know = await knowledge();
const runtime = new Runtime({
  api,
  wsUrl,
  know,
  store,
  seed,
  logger,
  mux,
  muxSessions,
  brainFor: (_agentId, fallback) => modelBrainFromEnv(env, fallback),
});
const app = createRuntimeApp({ runtime, api, isAllowedOrigin, logger });
const server = http.createServer(app);
try {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, env.HOST, resolve);
  });
} catch (err) {
  const inUse = (err as NodeJS.ErrnoException).code === "EADDRINUSE";
  const message = inUse
    ? `AGENT_RT_PORT: port ${port} on ${env.HOST ?? "every interface"} is already in use (EADDRINUSE): is another agent runtime running there? Stop it, or set AGENT_RT_PORT to a free port`
    : `could not listen on port ${port}: ${(err as Error).message}`;
  logger.fatal({ port }, `the agent runtime cannot start: ${message}`);
  process.exit(1);
}
runtime.start();
const address = server.address();
const boundPort = typeof address === "object" && address !== null ? address.port : port;
logger.info(
  {
    port: boundPort,
    server: apiUrl,
    agents: runtime.agents.size,
    sockets: mux ? `multiplexed, ${muxSessions} agents each` : "one per agent",
    brain: model !== undefined ? `${model.provider}:${model.model} (scripted fallback)` : "scripted",
  },
  `agent runtime listening on http://localhost:${boundPort}`,
);
// Machine-readable line for the tests and benches that start this process.
if (env.AGENT_RT_READY_LINE === "true") process.stdout.write(`AGENT_RT_READY ${boundPort}\n`);

if (spawn > 0) {
  spawnDemoAgents({ api, runtime, count: spawn, logger, gameUrl: apiUrl }).catch((err: unknown) => logger.error({ err }, "could not spawn the demo agents"));
}

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "leaving the world");
    runtime.close();
    server.close();
    server.closeAllConnections();
    // The sockets close within a moment; do not wait on a stuck one.
    setTimeout(() => process.exit(0), 1_000).unref();
  });
}
