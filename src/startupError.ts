/**
 * A start that cannot go on for a reason its user fixes (a port in use, a missing package, a
 * directory the postgres user cannot enter). main.ts prints a failed start's stack: this one's is
 * its message alone, since a trace would only bury the fix. The error it came from stays as `cause`
 * (main.ts prints its trace under LOG_LEVEL=debug). `exitCode`: the process's (1 unless given; see
 * ./exit.ts for the others).
 */
export class StartupError extends Error {
  readonly exitCode: number;
  constructor(message: string, options?: { cause?: unknown; exitCode?: number }) {
    super(message, options);
    this.name = "StartupError";
    this.stack = message;
    this.exitCode = options?.exitCode ?? 1;
  }
}

/** Error codes of a connection that never reached its server (PostgreSQL, Redis), and how each reads. */
export const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "its host name could not be looked up",
  EAI_NONAME: "no such host",
  ETIMEDOUT: "no answer",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ECONNRESET: "connection reset",
};

/** The codes of `err` and of what it came from (`cause`, an AggregateError's `errors`: a host name with several addresses). */
export function codesOf(err: unknown, depth = 0): string[] {
  if (typeof err !== "object" || err === null || depth > 4) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === "string" ? [e.code] : [];
  const nested = Array.isArray(e.errors) ? e.errors.flatMap((x) => codesOf(x, depth + 1)) : [];
  return [...own, ...nested, ...codesOf(e.cause, depth + 1)];
}

/** How an unreachable server's error reads ({@link UNREACHABLE}), or undefined for any other error. */
export function unreachableReason(err: unknown): string | undefined {
  const code = codesOf(err).find((c) => c in UNREACHABLE);
  return code === undefined ? undefined : UNREACHABLE[code];
}

/** `host:port` of a service's URL (never its user or password); `defaultPort` when the URL names none. */
export function urlAddress(url: string, defaultPort: number): string {
  try {
    const u = new URL(url);
    return `${u.hostname || "localhost"}:${u.port || String(defaultPort)}`;
  } catch {
    return "(an unparsable address)";
  }
}

/**
 * The one line for a service the process cannot reach (its database, Redis): what and where, from
 * which variable, why, and what to do (`start`: how to start it).
 */
export function cannotReachLine(service: string, address: string, variable: string, reason: string, start: string): string {
  return `cannot reach ${service} at ${address} (${variable}): ${reason}; ${start} or fix ${variable}`;
}
