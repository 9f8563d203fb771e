/**
 * The `/ws` wire envelope (PROTOCOL.md "/ws wire format"): text frames, each one JSON object
 * `{"type": "<event>", "data": {...}}`. Anything else is answered with an `error` event and the
 * socket stays open.
 */
export const MAX_FRAME_BYTES = 64 * 1024;
export const MAX_EVENT_NAME_LENGTH = 64;

export type WsErrorCode =
  | "BAD_JSON"
  | "BAD_FRAME"
  | "UNKNOWN_EVENT"
  | "INVALID_PAYLOAD"
  | "RATE_LIMITED"
  | "NOT_AUTHENTICATED"
  | "AUTH_UNAVAILABLE"
  | "ALREADY_AUTHENTICATED"
  | "FORBIDDEN"
  | "CHARACTER_IN_USE"
  | "INVALID_WORLD"
  | "UNKNOWN_WORLD"
  | "WORLD_UNAVAILABLE"
  | "INTERNAL_ERROR";

export interface Envelope {
  type: string;
  data: Record<string, unknown>;
}

export type ParseResult = { ok: true; envelope: Envelope } | { ok: false; code: WsErrorCode; message: string; event?: string };

export function parseFrame(raw: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, code: "BAD_JSON", message: "frame is not valid JSON" };
  }
  return parseEnvelope(value);
}

/** An envelope out of a frame's parsed JSON. */
export function parseEnvelope(value: unknown): ParseResult {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, code: "BAD_FRAME", message: 'frame must be a JSON object {"type", "data"}' };
  }
  const { type, data } = value as { type?: unknown; data?: unknown };
  if (typeof type !== "string" || type.length === 0 || type.length > MAX_EVENT_NAME_LENGTH) {
    return { ok: false, code: "BAD_FRAME", message: '"type" must be a non-empty event name' };
  }
  if (data !== undefined && (typeof data !== "object" || data === null || Array.isArray(data))) {
    return { ok: false, code: "INVALID_PAYLOAD", message: '"data" must be an object', event: type };
  }
  return { ok: true, envelope: { type, data: (data ?? {}) as Record<string, unknown> } };
}

/** Frames of messages sent to many connections (a chat line to everyone in view): encoded once. */
const shared = new WeakMap<object, { type: string; frame: string }>();

export function encode(type: string, data: object): string {
  const hit = shared.get(data);
  if (hit !== undefined && hit.type === type) return hit.frame;
  const frame = JSON.stringify({ type, data });
  shared.set(data, { type, frame });
  return frame;
}

export function errorEvent(code: WsErrorCode, message: string, event?: string): string {
  return encode("error", event === undefined ? { code, message } : { code, message, event });
}
