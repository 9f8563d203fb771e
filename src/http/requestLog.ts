/**
 * One log line per HTTP request (pino-http on the server's pino logger), for every request the
 * HTTP server takes: REST, Colyseus matchmaking, the client's files. What a line holds is chosen
 * here, not the whole request: method, path and query with credentials replaced, the client's
 * address, the status and the time; never a header (an `Authorization` bearer, an admin's Basic
 * credentials, cookies). Levels: a 5xx or a failed response `error`, health probes (`/status`,
 * `/health`, polled every few seconds by the platform) `debug`, everything else `info`. Its message
 * is the request in brief (`GET /api/v1/world 200 in 3 ms`). Tests run with a silent logger, so
 * they stay quiet.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { pinoHttp, type HttpLogger } from "pino-http";
import type { Logger } from "../logger.ts";

/** Query parameters whose values are credentials (the `/ws` token, Colyseus' reconnection token). */
export const SECRET_QUERY_PARAMS = ["token", "reconnectionToken", "access_token", "code", "adminCode", "password", "secret"];
const PROBE_PATHS = new Set(["/status", "/health"]);
export const REDACTED = "[redacted]";

/** The request's path and query, with every credential's value replaced. */
export function redactUrl(raw: string | undefined): string {
  if (raw === undefined) return "";
  const q = raw.indexOf("?");
  if (q < 0) return raw;
  const params = new URLSearchParams(raw.slice(q + 1));
  const secret = new Set(SECRET_QUERY_PARAMS.map((p) => p.toLowerCase()));
  let changed = false;
  for (const key of new Set(params.keys())) {
    if (!secret.has(key.toLowerCase())) continue;
    params.set(key, REDACTED);
    changed = true;
  }
  return changed ? `${raw.slice(0, q)}?${params.toString()}` : raw;
}

/** What a request line shows of its URL: the path and query as asked, credentials redacted. */
function shownUrl(req: IncomingMessage & { originalUrl?: string }): string {
  return redactUrl(req.originalUrl ?? req.url);
}

function pathOf(url: string | undefined): string {
  const q = (url ?? "").indexOf("?");
  return q < 0 ? (url ?? "") : url!.slice(0, q);
}

export function requestLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    // Not the standard serializers (they log every header): only what an operator needs.
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; originalUrl?: string }) => ({
        id: req.id,
        method: req.method,
        url: shownUrl(req),
        // Set by the server from the trusted proxy chain before anything reads it (clientAddress.ts).
        remoteAddress: req.headers["x-real-ip"] ?? req.socket?.remoteAddress,
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    // The line's message says it all (its fields stay for JSON logs): in development, where the
    // fields are left out of the pretty print (logger.ts), a request is one line, not thirteen.
    customSuccessMessage: (req, res, responseTime) => `${req.method} ${shownUrl(req)} ${res.statusCode} in ${Math.round(responseTime)} ms`,
    customErrorMessage: (req, res, err) => `${req.method} ${shownUrl(req)} ${res.statusCode}: ${err.message}`,
    customLogLevel: (req, res, err) => {
      if (err !== undefined || res.statusCode >= 500) return "error";
      return PROBE_PATHS.has(pathOf(req.url)) ? "debug" : "info";
    },
  });
}
