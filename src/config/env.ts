/**
 * Configuration: every variable of the spec's configuration table, parsed once at startup into a
 * typed, frozen object. Nothing else in the server reads `process.env`.
 *
 * Rules (spec "Configuration" + issue 2):
 * - `NODE_ENV` is one of development | production | test (default development).
 * - An invalid value (`PORT=abc`) is a startup error that names the variable.
 * - Production refuses to start unless every secret in {@link PRODUCTION_REQUIRED} is set and
 *   strong enough (see productionSecrets.ts), and lists every problem at once.
 * - `DISABLE_RATE_LIMIT` and `USE_LOCAL_POSTGRES` are honoured outside production only.
 */
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { csv, flag, flagOrAuto, integer, optionalInteger, optionalString, url } from "./envValues.ts";
import { MIN_ADMIN_CODE_LENGTH, MIN_JWT_SECRET_BYTES, PRODUCTION_REQUIRED, productionSecretProblems } from "./productionSecrets.ts";

export const DEFAULT_PORT = 5555;
export const DEFAULT_AGENT_RT_PORT = 4001;
export const DEFAULT_SAVE_INTERVAL_S = 60;
/** The game tick (PROTOCOL.md: 600 ms). Shorter only for tests and benchmarks. */
export const DEFAULT_TICK_MS = 600;
/** Sessions one multiplexed `/ws` connection may hold at once (src/ws/mux.ts; WS_MUX_MAX_SESSIONS). */
export const DEFAULT_MUX_MAX_SESSIONS = 1_000;
/**
 * Seconds a Colyseus seat waits for its client's socket after matchmaking (rooms/WorldRoom.ts).
 * Colyseus' own 15 failed joins at 2,000 players when logins came at 100 a second: their sockets
 * queued behind the ticks for longer (bench/README.md, world-load).
 */
export const DEFAULT_SEAT_RESERVATION_S = 45;
/**
 * How a tick's Colyseus patches are written (rooms/WorldRoom.ts, tickOnce): N sockets at a time, as
 * soon as N patches are encoded (`TICK_WRITES=each` is 1), or {@link TICK_WRITES_BURST}, every
 * socket once all are encoded (the default: bench/README.md, world-load).
 */
export const TICK_WRITES_BURST = 0;
export const DEFAULT_TICK_WRITES = TICK_WRITES_BURST;
/** `/ws` heartbeat ping interval (src/ws/WsGateway.ts). Shorter only for tests. */
export const DEFAULT_WS_HEARTBEAT_MS = 30_000;
/** Character lease lifetime (src/persistence/leases.ts). Shorter only for tests. */
export const DEFAULT_CHARACTER_LEASE_MS = 30_000;
/** How long a new PostgreSQL connection may take to be answered (node-postgres waits forever by default). */
export const DEFAULT_PG_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_CDN_URL = "http://localhost:8080";
/** The production content host, used to bootstrap a development machine whose local host is down. */
export const DEFAULT_FALLBACK_CDN_URL = "https://cdn.rsworld.gg";
/** A world's players at most (peers hold about 2,000 a world on a 600 ms tick). */
export const DEFAULT_WORLD_CAPACITY = 2_000;
/** Entering another world is refused this long after entering one (the spec is silent; RuneScape-like worlds have a hop timer). */
export const DEFAULT_HOP_COOLDOWN_S = 10;
/** Not 5432, so that a local PostgreSQL started for development never collides with a system one. */
export const DEFAULT_LOCAL_POSTGRES_PORT = 54329;

export { MIN_ADMIN_CODE_LENGTH, MIN_JWT_SECRET_BYTES, PRODUCTION_REQUIRED };

export type NodeEnv = "development" | "production" | "test";

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

const envSchema = z.object({
  NODE_ENV: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? "development" : v.trim()))
    .pipe(z.enum(["development", "production", "test"], { message: "expected development, production or test" })),
  PORT: integer(DEFAULT_PORT, 0, 65535),
  HOST: optionalString,
  METRICS_PORT: optionalInteger(0, 65535),
  METRICS_HOST: optionalString,
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "" || v.trim() === "false") return false;
      if (v.trim() === "true") return true;
      if (/^\d{1,2}$/.test(v.trim())) return Number(v.trim());
      ctx.addIssue({ code: "custom", message: `expected true, false or a number of proxy hops, got "${v}"` });
      return z.NEVER;
    }),
  WORLD: optionalString,
  WORLD_ID: optionalInteger(1, 9_999),
  WORLD_CAPACITY: integer(DEFAULT_WORLD_CAPACITY, 1, 100_000),
  HOP_COOLDOWN_S: integer(DEFAULT_HOP_COOLDOWN_S, 0, 3_600),
  REDIS_URL: url(["redis", "rediss"]),
  PUBLIC_ADDRESS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      const s = v.trim().replace(/\/+$/, "");
      if (!/^[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~/-]*)?$/.test(s) && !/^\[[0-9A-Fa-f:]+\](:\d{1,5})?(\/[A-Za-z0-9._~/-]*)?$/.test(s)) {
        ctx.addIssue({ code: "custom", message: `expected host[:port][/path] without a scheme, got "${v}"` });
        return z.NEVER;
      }
      return s;
    }),
  NODE_APP_INSTANCE: optionalInteger(0, 999),
  DATABASE_URL: optionalString,
  USE_LOCAL_POSTGRES: flag(false),
  LOCAL_POSTGRES_PORT: integer(DEFAULT_LOCAL_POSTGRES_PORT, 1, 65535),
  JWT_SECRET: optionalString,
  ADMIN_CODE: optionalString,
  PUBLIC_IDP_APP_ID: optionalString,
  IDP_APP_SECRET: optionalString,
  IDP_JWKS_URL: url(["http", "https"]),
  PUBLIC_CDN_URL: url(["http", "https"]),
  PUBLIC_API_URL: url(["http", "https"]),
  PUBLIC_WS_URL: url(["ws", "wss"]),
  PUBLIC_APP_URL: url(["http", "https"]),
  CLIENT_URL: url(["http", "https"]),
  AGENT_RT_API_URL: url(["http", "https"]),
  AGENT_RT_URL: url(["http", "https", "ws", "wss"]),
  AGENT_RT_PORT: integer(DEFAULT_AGENT_RT_PORT, 1, 65535),
  VOICE_API_KEY: optionalString,
  VOICE_API_SECRET: optionalString,
  VOICE_URL: url(["http", "https", "ws", "wss"]),
  SKIP_MANIFESTS: flag(false),
  MANIFEST_FALLBACK_CDN_URL: url(["http", "https"]),
  MANIFESTS_STRICT: flag(false),
  SKIP_ASSETS: flag(false),
  CI: flag(false),
  SAVE_INTERVAL: integer(DEFAULT_SAVE_INTERVAL_S, 1, 86_400),
  TICK_MS: integer(DEFAULT_TICK_MS, 10, 10_000),
  SEAT_RESERVATION_S: integer(DEFAULT_SEAT_RESERVATION_S, 1, 600),
  TICK_WRITES: z
    .string()
    .optional()
    .transform((v) => {
      const word = v?.trim().toLowerCase() ?? "";
      if (word === "") return DEFAULT_TICK_WRITES;
      return word === "burst" ? TICK_WRITES_BURST : word === "each" ? 1 : /^[1-9][0-9]{0,5}$/.test(word) ? Number(word) : Number.NaN;
    })
    .pipe(z.number({ message: "expected burst, each or a number of sockets from 1" })),
  // A second thread pays where there is a second core to run it (bench/README.md, world-load).
  WS_DELTAS_WORKER: flagOrAuto(() => availableParallelism() >= 2),
  // The sockets' writes and reads on the other core (src/io/SocketProcess.ts; bench/README.md, world-load).
  SOCKET_PROCESS: flagOrAuto(() => availableParallelism() >= 2),
  WS_HEARTBEAT_MS: integer(DEFAULT_WS_HEARTBEAT_MS, 100, 3_600_000),
  WS_MUX_MAX_SESSIONS: integer(DEFAULT_MUX_MAX_SESSIONS, 1, 100_000),
  CHARACTER_LEASE_MS: integer(DEFAULT_CHARACTER_LEASE_MS, 300, 3_600_000),
  PG_CONNECT_TIMEOUT_MS: integer(DEFAULT_PG_CONNECT_TIMEOUT_MS, 100, 600_000),
  DISABLE_RATE_LIMIT: flag(false),
  COMMIT_HASH: optionalString,
  CLIENT_BUILD_DIR: optionalString,
  LOG_LEVEL: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()))
    .pipe(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional()),
  // CORS: the spec's fixed origins, as domains so that a studio can point them at its own.
  CORS_FRONTEND_DOMAIN: optionalString,
  CORS_STATIC_DOMAIN: optionalString,
  CORS_API_ORIGIN: url(["http", "https"]),
  CORS_APP_DOMAIN: optionalString,
  CORS_SOCIAL_DOMAINS: csv,
  CORS_IDP_DOMAIN: optionalString,
});

/** Every variable the server reads (docs/configuration.md's table and `.env.example` list each). */
export const CONFIG_VARIABLES: readonly string[] = Object.freeze(Object.keys(envSchema.shape));

export interface CorsSettings {
  /** Production frontend domain: https://D and https://www.D. */
  frontendDomain: string;
  /** Static-hosting domain: https://D (plus http://D) and preview subdomains over http or https. */
  staticDomain: string;
  /** Production API origin, exactly. */
  apiOrigin: string;
  /** Application-hosting domain: preview subdomains over https. */
  appDomain: string;
  /** Social-frame domains: subdomains over https. */
  socialDomains: string[];
  /** Identity-provider domain: subdomains over https. */
  idpDomain: string;
  /** Exact extra origins: PUBLIC_APP_URL, CLIENT_URL, agent-runtime addresses. */
  extraOrigins: string[];
  /**
   * Any port of localhost and the loopback addresses, for a local client in development and
   * tests; never in production, where a page on the visitor's own machine is anyone's page.
   */
  allowLocalhost: boolean;
}

export interface Config {
  nodeEnv: NodeEnv;
  isProduction: boolean;
  port: number;
  host: string | undefined;
  /**
   * The Prometheus endpoint (`GET /metrics`), served on a port of its own (METRICS_PORT) and
   * address (METRICS_HOST, else HOST); undefined when METRICS_PORT is unset: no metrics server.
   */
  metrics: { port: number; host: string | undefined } | undefined;
  /** Express `trust proxy`: how client addresses (rate limits) are read behind a proxy. */
  trustProxy: boolean | number;
  /** Absolute path of the world directory (content, local data). */
  worldDir: string;
  /**
   * The numbered world this process runs (one world a process, as RuneScape-like servers run them),
   * its capacity, and the least time between entering two different worlds.
   */
  world: { id: number; capacity: number; hopCooldownMs: number };
  /**
   * The cluster: with `REDIS_URL`, Colyseus' Redis presence and driver share rooms, worlds and
   * messages between processes; `publicAddress` is where clients reach this process (host:port).
   * Undefined: one process on its own (LocalPresence, LocalDriver).
   */
  cluster: { redisUrl: string; publicAddress: string } | undefined;
  databaseUrl: string | undefined;
  useLocalPostgres: boolean;
  localPostgresPort: number;
  jwtSecret: string | undefined;
  adminCode: string | undefined;
  idp: { appId: string | undefined; appSecret: string | undefined; jwksUrl: string | undefined };
  /** True when no identity provider is configured: temporary identities (spec Authentication 4). */
  anonymousMode: boolean;
  publicCdnUrl: string;
  publicApiUrl: string;
  publicWsUrl: string;
  publicAppUrl: string | undefined;
  clientUrl: string | undefined;
  agentRuntime: { apiUrl: string; url: string; port: number };
  voice: { apiKey: string; apiSecret: string; url: string } | undefined;
  skipManifests: boolean;
  /** Production content host for the development fallback. */
  fallbackCdnUrl: string;
  /** Dangling references in the content are errors instead of warnings. */
  manifestsStrict: boolean;
  /** `<WORLD>/assets/manifests`: the manifest cache. */
  manifestDir: string;
  skipAssets: boolean;
  ci: boolean;
  saveIntervalS: number;
  tickMs: number;
  /** Seconds a Colyseus seat reserved by matchmaking waits for its client's socket. */
  seatReservationS: number;
  /** The Colyseus sockets a tick writes at a time, as soon as their patches are encoded; 0: all once all are. */
  tickWrites: number;
  /** Build the `/ws` deltas in a worker thread (see src/ws/WsDeltas.ts). */
  wsDeltasWorker: boolean;
  /** Hold the WebSocket connections in a child process that writes and reads them (see src/io/SocketProcess.ts). */
  socketProcess: boolean;
  /** How often `/ws` sockets are pinged; one that missed the last ping is terminated. */
  wsHeartbeatMs: number;
  /** Sessions one multiplexed `/ws` connection may hold (`/ws?mux=1`). */
  wsMuxMaxSessions: number;
  /** How long a character lease lives without renewal (renewed every third of it). */
  characterLeaseMs: number;
  /** How long a new PostgreSQL connection may take (a host that accepts and never answers: a start that says so instead of hanging). */
  pgConnectTimeoutMs: number;
  rateLimitDisabled: boolean;
  commitHash: string | undefined;
  /** A built client served in production when it has an index.html. */
  clientBuildDir: string;
  logLevel: string;
  cors: CorsSettings;
}

/** Origin form of a URL (scheme://host[:port]); agent-runtime ws URLs count as their http twin. */
function originOf(raw: string): string {
  const u = new URL(raw);
  const scheme = u.protocol === "wss:" ? "https:" : u.protocol === "ws:" ? "http:" : u.protocol;
  return `${scheme}//${u.host}`;
}

const CORS_KEYS = {
  NODE_ENV: true,
  CORS_FRONTEND_DOMAIN: true,
  CORS_STATIC_DOMAIN: true,
  CORS_API_ORIGIN: true,
  CORS_APP_DOMAIN: true,
  CORS_SOCIAL_DOMAINS: true,
  CORS_IDP_DOMAIN: true,
  PUBLIC_APP_URL: true,
  CLIENT_URL: true,
  AGENT_RT_API_URL: true,
  AGENT_RT_URL: true,
  AGENT_RT_PORT: true,
} as const;
type CorsEnv = Pick<z.infer<typeof envSchema>, keyof typeof CORS_KEYS>;

function agentRuntimeOf(e: CorsEnv): Config["agentRuntime"] {
  return {
    apiUrl: e.AGENT_RT_API_URL ?? `http://localhost:${e.AGENT_RT_PORT}`,
    url: e.AGENT_RT_URL ?? `http://localhost:${e.AGENT_RT_PORT}`,
    port: e.AGENT_RT_PORT,
  };
}

function corsOf(e: CorsEnv): CorsSettings {
  const production = e.NODE_ENV === "production";
  // The runtime's default addresses are localhost ones: in production only the ones set count.
  const rt = production ? { apiUrl: e.AGENT_RT_API_URL, url: e.AGENT_RT_URL } : agentRuntimeOf(e);
  return {
    frontendDomain: (e.CORS_FRONTEND_DOMAIN ?? "rsworld.gg").toLowerCase(),
    staticDomain: (e.CORS_STATIC_DOMAIN ?? "rsworld.pages.dev").toLowerCase(),
    apiOrigin: e.CORS_API_ORIGIN ?? "https://api.rsworld.gg",
    appDomain: (e.CORS_APP_DOMAIN ?? "up.railway.app").toLowerCase(),
    socialDomains: e.CORS_SOCIAL_DOMAINS.length > 0 ? e.CORS_SOCIAL_DOMAINS : ["farcaster.xyz", "warpcast.com"],
    idpDomain: (e.CORS_IDP_DOMAIN ?? "privy.io").toLowerCase(),
    extraOrigins: [e.PUBLIC_APP_URL, e.CLIENT_URL, rt.apiUrl, rt.url].filter((v): v is string => v !== undefined).map(originOf),
    allowLocalhost: !production,
  };
}

/**
 * The CORS allowlist's settings alone, from the same variables and defaults as the server's: for
 * the agent runtime, which answers browsers (the dashboard) with the same allowlist.
 */
export function corsSettings(env: Record<string, string | undefined>): CorsSettings {
  const parsed = envSchema.pick(CORS_KEYS).safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".") || "environment"}: ${i.message}`));
  return corsOf(parsed.data);
}

export function loadConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  const production = parsed.success ? parsed.data.NODE_ENV === "production" : env.NODE_ENV?.trim() === "production";
  const secretProblems = production ? productionSecretProblems(env) : [];
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "environment"}: ${i.message}`);
    throw new ConfigError([...problems, ...secretProblems]);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === "production";

  const problems: string[] = [...secretProblems];
  if (isProduction && e.USE_LOCAL_POSTGRES) problems.push("USE_LOCAL_POSTGRES: development only, not allowed in production");
  // Processes that each made their own secret could not check one another's tokens or signed
  // client addresses (src/cluster/forwarded.ts). Production lists a missing JWT_SECRET already.
  if (e.REDIS_URL !== undefined && e.JWT_SECRET === undefined && !isProduction) {
    problems.push(
      "JWT_SECRET: required with REDIS_URL, so that every process of the cluster signs and checks with one secret (npm run cluster:start makes one)",
    );
  }
  if (e.PUBLIC_ADDRESS !== undefined && e.REDIS_URL === undefined) {
    problems.push("PUBLIC_ADDRESS: set without REDIS_URL; a process on its own is reached at the address the client used");
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    problems.push(`METRICS_PORT: must differ from PORT (both are ${e.PORT}): metrics are served on a port of their own`);
  }
  if (e.METRICS_HOST !== undefined && e.METRICS_PORT === undefined) {
    problems.push("METRICS_HOST: set without METRICS_PORT, which turns the metrics server on");
  }
  if (e.PUBLIC_WS_URL !== undefined && !new URL(e.PUBLIC_WS_URL).pathname.endsWith("/ws")) {
    problems.push(`PUBLIC_WS_URL: must end in /ws, got "${e.PUBLIC_WS_URL}"`);
  }
  if ((e.PUBLIC_IDP_APP_ID === undefined) !== (e.IDP_APP_SECRET === undefined) && e.IDP_JWKS_URL === undefined) {
    problems.push("PUBLIC_IDP_APP_ID and IDP_APP_SECRET must be set together (or IDP_JWKS_URL with the app id)");
  }
  const voiceParts = [e.VOICE_API_KEY, e.VOICE_API_SECRET, e.VOICE_URL].filter((v) => v !== undefined).length;
  if (voiceParts !== 0 && voiceParts !== 3) {
    problems.push("VOICE_API_KEY, VOICE_API_SECRET and VOICE_URL must be set together");
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const agentRuntime = agentRuntimeOf(e);
  const publicAppUrl = e.PUBLIC_APP_URL;
  const clientUrl = e.CLIENT_URL;

  const worldDir = path.resolve(cwd, e.WORLD ?? "world");
  // Under PM2 each instance i (NODE_APP_INSTANCE) runs world 1 + i on PORT + i (METRICS_PORT + i),
  // so one ecosystem entry with `instances: N` starts N worlds.
  const instance = e.NODE_APP_INSTANCE ?? 0;
  const port = e.PORT === 0 ? 0 : e.PORT + instance;
  const metricsPort = e.METRICS_PORT === undefined || e.METRICS_PORT === 0 ? e.METRICS_PORT : e.METRICS_PORT + instance;
  const config: Config = {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port,
    host: e.HOST,
    metrics: metricsPort === undefined ? undefined : { port: metricsPort, host: e.METRICS_HOST ?? e.HOST },
    trustProxy: e.TRUST_PROXY,
    worldDir,
    world: { id: e.WORLD_ID ?? 1 + instance, capacity: e.WORLD_CAPACITY, hopCooldownMs: e.HOP_COOLDOWN_S * 1000 },
    cluster: e.REDIS_URL === undefined ? undefined : { redisUrl: e.REDIS_URL, publicAddress: e.PUBLIC_ADDRESS ?? `localhost:${port}` },
    databaseUrl: e.DATABASE_URL,
    useLocalPostgres: !isProduction && e.USE_LOCAL_POSTGRES,
    localPostgresPort: e.LOCAL_POSTGRES_PORT,
    jwtSecret: e.JWT_SECRET,
    adminCode: e.ADMIN_CODE,
    idp: { appId: e.PUBLIC_IDP_APP_ID, appSecret: e.IDP_APP_SECRET, jwksUrl: e.IDP_JWKS_URL },
    anonymousMode: e.PUBLIC_IDP_APP_ID === undefined,
    publicCdnUrl: e.PUBLIC_CDN_URL ?? DEFAULT_CDN_URL,
    publicApiUrl: e.PUBLIC_API_URL ?? `http://localhost:${port}`,
    publicWsUrl: e.PUBLIC_WS_URL ?? `ws://localhost:${port}/ws`,
    publicAppUrl,
    clientUrl,
    agentRuntime,
    voice:
      e.VOICE_API_KEY !== undefined && e.VOICE_API_SECRET !== undefined && e.VOICE_URL !== undefined
        ? { apiKey: e.VOICE_API_KEY, apiSecret: e.VOICE_API_SECRET, url: e.VOICE_URL }
        : undefined,
    skipManifests: e.SKIP_MANIFESTS,
    fallbackCdnUrl: e.MANIFEST_FALLBACK_CDN_URL ?? DEFAULT_FALLBACK_CDN_URL,
    manifestsStrict: e.MANIFESTS_STRICT,
    manifestDir: path.join(worldDir, "assets", "manifests"),
    skipAssets: e.SKIP_ASSETS,
    ci: e.CI,
    saveIntervalS: e.SAVE_INTERVAL,
    tickMs: e.TICK_MS,
    seatReservationS: e.SEAT_RESERVATION_S,
    tickWrites: e.TICK_WRITES,
    wsDeltasWorker: e.WS_DELTAS_WORKER,
    socketProcess: e.SOCKET_PROCESS,
    wsHeartbeatMs: e.WS_HEARTBEAT_MS,
    wsMuxMaxSessions: e.WS_MUX_MAX_SESSIONS,
    characterLeaseMs: e.CHARACTER_LEASE_MS,
    pgConnectTimeoutMs: e.PG_CONNECT_TIMEOUT_MS,
    rateLimitDisabled: !isProduction && e.DISABLE_RATE_LIMIT,
    commitHash: e.COMMIT_HASH,
    clientBuildDir: path.resolve(cwd, e.CLIENT_BUILD_DIR ?? path.join("client", "dist")),
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
    cors: corsOf(e),
  };
  return Object.freeze(config);
}

/**
 * The public client environment served by `/env.js`: `PUBLIC_*` values only, never a secret.
 * `PUBLIC_AGENT_RT_URL` is the agent runtime's address (`AGENT_RT_URL`), where the agent dashboard
 * hands agents over; an address, like the others here, not a credential.
 */
export function publicEnv(config: Config): Record<string, string> {
  const out: Record<string, string> = {
    PUBLIC_API_URL: config.publicApiUrl,
    PUBLIC_WS_URL: config.publicWsUrl,
    PUBLIC_CDN_URL: config.publicCdnUrl,
    PUBLIC_AGENT_RT_URL: config.agentRuntime.url,
  };
  if (config.idp.appId !== undefined) out.PUBLIC_IDP_APP_ID = config.idp.appId;
  if (config.publicAppUrl !== undefined) out.PUBLIC_APP_URL = config.publicAppUrl;
  return out;
}
