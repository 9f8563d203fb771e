/**
 * Is Redis there? Asked once, before a cluster process starts (src/server.ts) and before PM2
 * starts the cluster (scripts/check-redis.ts). Without it, a Redis that was down at startup showed
 * as ~20 `[ioredis] Unhandled error event` traces a second while Colyseus retried its first
 * command, then a crash, which PM2 restarted in a loop: now one line naming REDIS_URL, exit 69.
 */
import { Redis } from "ioredis";
import { EXIT_CONFIG, EXIT_UNAVAILABLE } from "../exit.ts";
import { cannotReachLine, StartupError, unreachableReason, urlAddress } from "../startupError.ts";

/** How long the check waits for a connection and a PONG. */
export const REDIS_CHECK_TIMEOUT_MS = 3_000;

/** `host:port` of a Redis URL (no password). */
export function redisAddress(url: string): string {
  return urlAddress(url, 6379);
}

/** Why Redis at `url` did not answer a PING, and the exit code that fits; undefined when it did. */
export async function redisProblem(url: string, timeoutMs = REDIS_CHECK_TIMEOUT_MS): Promise<{ reason: string; exitCode: number; cause: unknown } | undefined> {
  // One try, no reconnection, no queue: the answer is this attempt's.
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError: unknown;
  // Every ioredis client needs a listener, or it prints each error with its trace.
  client.on("error", (err: unknown) => {
    lastError = err;
  });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (err) {
    const seen = lastError ?? err;
    const message = seen instanceof Error ? seen.message : String(seen);
    if (/NOAUTH|WRONGPASS|invalid password|invalid username-password/i.test(message))
      return { reason: `it refused the login (${message})`, exitCode: EXIT_CONFIG, cause: seen };
    return { reason: unreachableReason(seen) ?? (/timeout/i.test(message) ? "no answer" : message), exitCode: EXIT_UNAVAILABLE, cause: seen };
  } finally {
    client.disconnect();
  }
}

/** The line for Redis not answering at `url` (`variable`: where the URL came from). */
export function redisProblemLine(url: string, reason: string, variable = "REDIS_URL"): string {
  return cannotReachLine("Redis", redisAddress(url), variable, reason, "start Redis (redis-server --daemonize yes)");
}

/** Throws a one-line {@link StartupError} (exit 69, or 78 for a refused login) unless Redis answers. */
export async function requireRedis(url: string): Promise<void> {
  const problem = await redisProblem(url);
  if (problem !== undefined) throw new StartupError(redisProblemLine(url, problem.reason), { cause: problem.cause, exitCode: problem.exitCode });
}
