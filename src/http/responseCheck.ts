/**
 * Keeps the OpenAPI document honest: outside production, every JSON answer of a route the document
 * lists is checked, as the client will read it (after JSON serialization), against the schema of
 * its status: a success against the route's answer schema, a refusal against the error body with
 * the route's codes for that status. A mismatch is logged as an error; under NODE_ENV=test the
 * answer becomes a 500 RESPONSE_SCHEMA_MISMATCH naming it, so any test that meets an undocumented
 * answer fails. Production does not install it.
 *
 * Answers sent before a route matched (a malformed path or body, the `/api` rate limit, an unknown
 * route) are not checked: they belong to no operation.
 */
import type { Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import type { Logger } from "../logger.ts";
import { answersByOperation, type Answers } from "./openapi.ts";

export const RESPONSE_SCHEMA_MISMATCH = "RESPONSE_SCHEMA_MISMATCH";

/** What is wrong with a JSON body for a schema (undefined: it fits), as the client would parse it. */
export function schemaMismatch(schema: z.ZodType, body: unknown): string | undefined {
  const text = JSON.stringify(body);
  const r = schema.safeParse(text === undefined ? undefined : JSON.parse(text));
  if (r.success) return undefined;
  return r.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "body"}: ${i.message}`)
    .join("; ");
}

/** What is wrong with an answer of an operation (undefined: the document has it). */
export function answerMismatch(answers: Answers, status: number, body: unknown): string | undefined {
  if (answers.responses.has(status)) {
    const schema = answers.responses.get(status);
    return schema ? schemaMismatch(schema, body) : "a body where the document has none";
  }
  const refusal = answers.refusals.get(status);
  if (refusal === undefined) return `status ${status} is not documented`;
  return schemaMismatch(refusal, body);
}

/** Express path syntax (`:id`, `*file`) to OpenAPI's (`{id}`, `{file}`). */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, "{$1}").replace(/\*(\w+)/g, "{$1}");
}

function matches(expressPath: string, path: string): boolean {
  const pattern = expressPath
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.startsWith("*") ? ".+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${pattern}$`).test(path);
}

/** The operation (`get /api/…/{id}`) of the route that matched the request, if one did. */
export function operationOf(req: Request): string | undefined {
  const route = req.route as { path?: unknown } | undefined;
  if (route === undefined) return undefined;
  // A route may have several paths (the login gate's): the one the request took.
  const paths = (Array.isArray(route.path) ? route.path : [route.path]).filter((p): p is string => typeof p === "string").map((p) => req.baseUrl + p);
  const path = paths.length === 1 ? paths[0] : paths.find((p) => matches(p, req.baseUrl + req.path));
  if (path === undefined) return undefined;
  const method = req.method === "HEAD" ? "get" : req.method.toLowerCase();
  return `${method} ${openApiPath(path)}`;
}

/**
 * Wraps `res.json` of every request. `refuse`: answer a mismatch with a 500
 * RESPONSE_SCHEMA_MISMATCH instead of the body (tests); else only log it (development).
 */
export function checkResponses(logger: Logger, refuse: boolean): RequestHandler {
  const operations = answersByOperation();
  return (req, res, next) => {
    const json = res.json.bind(res);
    res.json = ((body: unknown) => {
      const operation = operationOf(req);
      const answers = operation === undefined ? undefined : operations.get(operation);
      const status = res.statusCode;
      const problem = answers === undefined ? undefined : answerMismatch(answers, status, body);
      if (problem === undefined) return json(body);
      logger.error({ operation, status, problem }, "an answer does not match its OpenAPI schema");
      if (!refuse) return json(body);
      res.status(500);
      return json({ success: false, error: { code: RESPONSE_SCHEMA_MISMATCH, message: `${operation} ${status}: ${problem}` } });
    }) as Response["json"];
    next();
  };
}
