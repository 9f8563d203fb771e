/**
 * The CORS allowlist, in one place (spec "CORS"). It drives both Express (`cors`) and Colyseus'
 * own request listener, which sets CORS headers on every response and answers every OPTIONS
 * preflight before Express sees it (`matchMaker.controller`).
 *
 * The request origin is echoed back, never `*`; a refused origin gets no
 * `Access-Control-Allow-Origin` at all.
 */
import { matchMaker } from "@colyseus/core";
import cors from "cors";
import type { RequestHandler } from "express";
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
    if (LOCAL_HOSTS.has(u.hostname)) return true;
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

/**
 * Points Colyseus' matchmaker at the allowlist. Its defaults would answer every origin with
 * `Access-Control-Allow-Origin: *` (and echo any origin), so both are replaced.
 */
export function installColyseusCors(isAllowed: OriginCheck): void {
  (matchMaker.controller as { DEFAULT_CORS_HEADERS: Record<string, string> }).DEFAULT_CORS_HEADERS = {};
  matchMaker.controller.getCorsHeaders = (headers: Headers) =>
    corsHeadersFor(isAllowed, headers.get("origin") ?? undefined);
}

/** The same allowlist as Express middleware, for requests that reach Express. */
export function corsMiddleware(isAllowed: OriginCheck): RequestHandler {
  return cors({
    origin: (origin, callback) => callback(null, isAllowed(origin)),
    credentials: true,
    methods: CORS_ALLOWED_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
  });
}
