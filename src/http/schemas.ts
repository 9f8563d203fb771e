/**
 * The shapes every REST answer shares: the error body (errors.ts `sendError`) and the
 * `{success: true, …}` envelope of a success. The routes' own schemas sit beside their handlers;
 * the OpenAPI document (openapi.ts) is generated from all of them, and outside production each
 * answer is checked against them (responseCheck.ts).
 */
import { z } from "zod";

/** `{success: false, error: {code, message}}`; `until` (ISO, null: permanent) for BANNED and RESTARTING. */
export const ERROR_BODY = z.strictObject({
  success: z.literal(false),
  error: z.strictObject({
    code: z.string().min(1),
    message: z.string(),
    until: z.iso.datetime().nullable().optional(),
  }),
});

/** The error body with its `code` one of `codes`. */
export function errorBody(codes: readonly [string, ...string[]]) {
  return ERROR_BODY.extend({ error: ERROR_BODY.shape.error.extend({ code: z.enum(codes) }) });
}

/** A success answer: `{success: true}` and the given fields, nothing else. */
export function ok<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.strictObject({ success: z.literal(true), ...shape });
}

/** A time as JSON carries it (`Date.toISOString()`). */
export const isoTime = z.iso.datetime();
