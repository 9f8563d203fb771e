/**
 * An error with an HTTP status and an error code: what a REST handler, or a service it calls (the
 * agent service), throws for an answer of the spec's error table. http/errors.ts turns it into the
 * common error body; nothing here knows Express.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  /** More fields of the error body (a ban's `until`). */
  readonly details: Record<string, unknown> | undefined;
  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string, code = "BAD_REQUEST") {
    super(400, code, message);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message = "missing or invalid authentication token", code = "UNAUTHORIZED") {
    super(401, code, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = "insufficient permissions for this action", code = "FORBIDDEN") {
    super(403, code, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = "resource does not exist", code = "NOT_FOUND") {
    super(404, code, message);
  }
}
