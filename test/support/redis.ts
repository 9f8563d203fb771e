/**
 * Redis for the cluster tests: the server at TEST_REDIS_URL; else a `redis-server` started here on
 * a free port (nothing kept on disk) when one is installed; else the one on 127.0.0.1:6379.
 * Each suite takes a database index of its own and empties it first ({@link freshRedisUrl}), so
 * that the cluster's shared keys (Colyseus' room listing, process stats, leases) never mix between
 * suites. The indexes are counted in this process only: two runs on one Redis (two checkouts on one
 * machine) would take the same ones and empty each other's mid-test, which is why a run starts a
 * Redis of its own rather than share 127.0.0.1:6379 whenever it can.
 */
import { spawn } from "node:child_process";
import { Redis } from "ioredis";
import { freePort } from "./postgres.ts";

export const DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379";

export interface RedisServer {
  url: string;
  kind: "existing" | "started";
  stop(): Promise<void>;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** A reachable Redis, started here if need be; undefined when there is none and `redis-server` is not installed. */
export async function provideRedis(): Promise<RedisServer | undefined> {
  const given = process.env.TEST_REDIS_URL;
  if (given && (await canConnect(given))) return { url: given, kind: "existing", stop: async () => {} };
  const started = await startRedis();
  if (started !== undefined) return started;
  if (!given && (await canConnect(DEFAULT_TEST_REDIS_URL))) return { url: DEFAULT_TEST_REDIS_URL, kind: "existing", stop: async () => {} };
  return undefined;
}

/** A `redis-server` of this run's own on a free port, if one is installed. */
async function startRedis(): Promise<RedisServer | undefined> {
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const spawned = await new Promise<boolean>((resolve) => {
    child.once("error", () => resolve(false));
    child.once("spawn", () => resolve(true));
  });
  if (!spawned) return undefined;
  const started = `redis://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 10_000; !(await canConnect(started));) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      return undefined;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: started,
    kind: "started",
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Database indexes the suites take in turn (Redis has 16; 0 is left to whoever else uses the server). */
const FIRST_DB = 1;
const DBS = 15;
let next = 0;

/** A URL of the test Redis on a database index of its own, emptied. */
export async function freshRedisUrl(): Promise<string> {
  const base = process.env.TEST_REDIS_URL;
  if (base === undefined || base === "") throw new Error("TEST_REDIS_URL is not set (test/run.ts sets it)");
  const db = FIRST_DB + (next++ % DBS);
  const url = `${base.replace(/\/\d*$/, "")}/${db}`;
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    await client.flushdb();
  } finally {
    client.disconnect();
  }
  return url;
}
