/**
 * One error body for every REST failure (PROTOCOL.md "REST"):
 * `{"success": false, "error": {"code": "...", "message": "..."}}`, with the status of the spec's
 * error table. Handlers throw an {@link HttpError}; anything else becomes a 500 whose details
 * stay in the log.
 */
import type { ServerResponse } from "node:http";
import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import type { Logger } from "../logger.ts";
import { BadRequestError, ForbiddenError, HttpError, NotFoundError, UnauthorizedError } from "../httpError.ts";

export { BadRequestError, ForbiddenError, HttpError, NotFoundError, UnauthorizedError };

/** Where sendError leaves the code on the response, for the error counter (see errorCodeOf). */
const ERROR_CODE = Symbol("errorCode");

export function sendError(res: Response, status: number, code: string, message: string, details?: Record<string, unknown>): void {
  (res as unknown as Record<symbol, string>)[ERROR_CODE] = code;
  res.status(status).json({ success: false, error: { ...details, code, message } });
}

/** The error code an answer was sent with by sendError, if it was. */
export function errorCodeOf(res: ServerResponse): string | undefined {
  return (res as unknown as Record<symbol, string | undefined>)[ERROR_CODE];
}

/**
 * A path whose decoded form holds a control character (NUL, a newline, …) is malformed: no id,
 * name or file has one, and a NUL in a lookup made PostgreSQL fail (a 500). Checked once for every
 * route, ahead of them; a percent-encoding that does not decode is malformed too.
 */
export const rejectMalformedPath: RequestHandler = (req, res, next) => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(req.path);
  } catch {
    decoded = "\0";
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(decoded)) {
    sendError(res, 400, "BAD_REQUEST", "malformed path");
    return;
  }
  next();
};

/** Unknown route: 404 in the common shape. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, 404, "NOT_FOUND", `no route for ${req.method} ${req.path}`);
};

/** Last middleware: maps thrown errors to the common shape; never leaks a stack in production. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof HttpError) {
      sendError(res, err.status, err.code, err.message, err.details);
      return;
    }
    // body-parser errors carry a status and a type: malformed JSON, too large, bad charset.
    const e = err as { status?: number; type?: string; message?: string };
    if (typeof e.status === "number" && e.status >= 400 && e.status < 500) {
      const code = e.type === "entity.parse.failed" ? "MALFORMED_JSON" : e.type === "entity.too.large" ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST";
      const message = e.type === "entity.parse.failed" ? "request body is not valid JSON" : (e.message ?? "bad request");
      sendError(res, e.status, code, message);
      return;
    }
    // The details stay in the log, in every mode: a database's or a library's error text tells a
    // client about the server's insides.
    logger.error({ err, method: req.method, path: req.path }, "unhandled error in HTTP handler");
    sendError(res, 500, "INTERNAL_ERROR", "internal server error");
  };
}
