/**
 * Bad frames from Colyseus clients are logged at most once per connection per
 * {@link BAD_FRAME_LOG_INTERVAL_MS}, as one line without a stack.
 *
 * Colyseus decodes a room frame (`RoomMessages.onData`/`onRequest`: the msgpack payload) and, when
 * that fails, writes the error's full stack trace through its logger, then closes the client. Every
 * frame already received is decoded (and logged) before the close lands, and the client may come
 * back, so one client could fill the disk with stack traces. Colyseus logs these synchronously while
 * a room handles the frame: {@link attributeFrames} marks the client for that time, and the logger
 * handed to Colyseus ({@link colyseusLogger}) treats an error logged then as that client's bad input.
 */
import type { Client, Room } from "@colyseus/core";
import type { Logger } from "../src/logger.ts";

export const BAD_FRAME_LOG_INTERVAL_MS = 60_000;

/** The client whose frame a room is handling now (synchronously), and its room. */
let current: { client: Client; room: Room } | undefined;

/** Per connection: when its last bad frame was logged and how many were not logged since. */
const badFrames = new WeakMap<Client, { at: number; suppressed: number }>();

/** Colyseus' logger interface (its Logger.ts): the same calls are passed to pino. */
type LogFn = (...args: unknown[]) => void;
export interface ColyseusLogger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  trace: LogFn;
}

/** The logger for Colyseus: as `logger`, except for a client's bad frames (see the module comment). */
export function colyseusLogger(logger: Logger, now: () => number = Date.now): ColyseusLogger {
  // pino's LogFn overloads take no spread: the assertion is needed (the rule's fix does not compile).
  const pass =
    (level: "debug" | "info" | "warn" | "error" | "trace"): LogFn =>
    (...args) =>
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      (logger[level] as (...a: unknown[]) => void)(...args);
  const error = pass("error");
  return {
    debug: pass("debug"),
    info: pass("info"),
    warn: pass("warn"),
    trace: pass("trace"),
    error: (...args) => {
      if (current === undefined) return error(...args);
      const { client, room } = current;
      const last = badFrames.get(client);
      const at = now();
      if (last !== undefined && at - last.at < BAD_FRAME_LOG_INTERVAL_MS) {
        last.suppressed++;
        return;
      }
      badFrames.set(client, { at, suppressed: 0 });
      // The first line names the error (the stack's frames are Colyseus' own decoder).
      const first = args[0] instanceof Error ? args[0].message : String(args[0]).split("\n", 1)[0]!;
      logger.warn(
        { room: room.roomName, roomId: room.roomId, sessionId: client.sessionId, error: first.slice(0, 200), suppressed: last?.suppressed ?? 0 },
        "bad frame from a Colyseus client",
      );
    },
  };
}

/** Marks the client while `room` handles each of its frames (call in onCreate, before anyone joins). */
export function attributeFrames(room: Room): void {
  // `_onMessage` is Colyseus' per-frame entry (bound to each client at its join); private in its types.
  const r = room as unknown as { _onMessage(client: Client, buffer: Uint8Array): void };
  const original = r._onMessage;
  r._onMessage = function (this: Room, client: Client, buffer: Uint8Array): void {
    const previous = current;
    current = { client, room: this };
    try {
      original.call(this, client, buffer);
    } finally {
      current = previous;
    }
  };
}
