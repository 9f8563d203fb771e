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
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, corsHeadersFor, type OriginCheck } from "./originCheck.ts";

export { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, createOriginCheck, corsHeadersFor, type OriginCheck } from "./originCheck.ts";

/**
 * Points Colyseus' matchmaker at the allowlist. Its defaults would answer every origin with
 * `Access-Control-Allow-Origin: *` (and echo any origin), so both are replaced.
 */
export function installColyseusCors(isAllowed: OriginCheck): void {
  (matchMaker.controller as { DEFAULT_CORS_HEADERS: Record<string, string> }).DEFAULT_CORS_HEADERS = {};
  matchMaker.controller.getCorsHeaders = (headers: Headers) => corsHeadersFor(isAllowed, headers.get("origin") ?? undefined);
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
