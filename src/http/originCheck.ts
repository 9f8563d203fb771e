/**
 * The CORS allowlist itself (spec "CORS"), with no server dependency: the server (src/http/cors.ts)
 * and the agent runtime answer browsers with the same rules.
 *
 * The request origin is echoed back, never `*`; a refused origin gets no
 * `Access-Control-Allow-Origin` at all.
 */
import type { CorsSettings } from "../config/env.ts";

export const CORS_ALLOWED_METHODS = "GET, PUT, POST, DELETE, OPTIONS, PATCH";
export const CORS_ALLOWED_HEADERS = "Content-Type, Authorization, X-Requested-With";

/** One DNS label; subdomain patterns accept one or more of them in front of the domain. */
const LABELS = "(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+";
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export type OriginCheck = (origin: string | undefined) => boolean;

/**
 * Builds the allowlist predicate. Every rule matches a whole origin (scheme, host and port), so
 * `https://evil.com/?x=rsworld.gg` or `https://rsworld.gg.evil.com` never pass.
 */
export function createOriginCheck(settings: CorsSettings): OriginCheck {
  const exact = new Set<string>([
    `https://${settings.frontendDomain}`,
    `https://www.${settings.frontendDomain}`,
    `https://${settings.staticDomain}`,
    `http://${settings.staticDomain}`,
    settings.apiOrigin.toLowerCase(),
    ...settings.extraOrigins.map((o) => o.toLowerCase()),
  ]);
  const patterns: RegExp[] = [
    new RegExp(`^https?://${LABELS}${escapeRegex(settings.staticDomain)}$`),
    new RegExp(`^https://${LABELS}${escapeRegex(settings.appDomain)}$`),
    ...settings.socialDomains.map((d) => new RegExp(`^https://${LABELS}${escapeRegex(d)}$`)),
    new RegExp(`^https://${LABELS}${escapeRegex(settings.idpDomain)}$`),
  ];

  return (origin) => {
    if (origin === undefined || origin === "" || origin === "null") return false;
    let u: URL;
    try {
      u = new URL(origin);
    } catch {
      return false;
    }
    // An origin is scheme://host[:port] and nothing else.
    if (u.username !== "" || u.password !== "" || `${u.protocol}//${u.host}` !== origin.toLowerCase()) return false;
    if (u.protocol !== "http:" && u.protocol !== "https:") return false;
    // A local client (any port) outside production only (CorsSettings.allowLocalhost); in
    // production a local origin passes only when configured exactly (CLIENT_URL, …).
    if (LOCAL_HOSTS.has(u.hostname) && settings.allowLocalhost) return true;
    const normalized = `${u.protocol}//${u.host}`;
    return exact.has(normalized) || patterns.some((p) => p.test(normalized));
  };
}

/** The headers for an allowed origin; an empty object for any other. */
export function corsHeadersFor(isAllowed: OriginCheck, origin: string | undefined): Record<string, string> {
  if (origin === undefined || !isAllowed(origin)) return { Vary: "Origin" };
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Allow-Methods": CORS_ALLOWED_METHODS,
    "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
    Vary: "Origin",
  };
}
