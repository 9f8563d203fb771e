/**
 * The world room's connection as the player sees it: a status line (Connecting, Connected,
 * Connection lost: reconnecting…, Disconnected) and the SDK's automatic reconnection, tuned to the
 * seat the server keeps for a dropped player (WorldRoom's `allowReconnection`, 30 s): retries
 * back off to 2 s and stop when the seat is gone. After a final disconnection a button goes back to
 * the start screen.
 */
import type { Room } from "@colyseus/sdk";

/** How long the server keeps a dropped player's seat (rooms/WorldRoom.ts RECONNECT_SECONDS, the spec's 30 s). */
export const SEAT_SECONDS = 30;
/** Longest wait between two attempts (ms). */
const MAX_RETRY_DELAY_MS = 2_000;
/** The SDK's first delays (its exponential backoff from 100 ms: 200, 400, 800, 1,600 ms). */
const RAMP = [200, 400, 800, 1_600];

/** Close codes the server uses (Colyseus' own, src/sessions/WorldService.ts CLOSE_*). */
const LEAVE_REASONS: Record<number, string> = {
  1011: "the server had repeated errors with this connection",
  4000: "you left",
  4001: "your sign-in is no longer valid",
  4003: "the connection could not be restored",
  4009: "this character logged in from another connection",
  4010: "the character was taken over by another server",
};

export function status(text: string, state: "connecting" | "connected" | "reconnecting" | "disconnected" | "offline"): void {
  const el = document.getElementById("connection")!;
  el.textContent = text;
  el.dataset.state = state;
}

/**
 * Rooms being left on purpose (a logout, the old world of a hop): their closing is not a
 * disconnection. Each holds the close code, once it closed, and what saying it would do.
 */
const leftOnPurpose = new WeakMap<Room, { code?: number }>();
const sayLeft = new WeakMap<Room, (code: number) => void>();

/** Marks a room as being left on purpose, before it is left (or replaced by a hop). */
export function leaveQuietly(room: Room): void {
  leftOnPurpose.set(room, {});
}

/** A hop that failed: the room is ours again; if it closed meanwhile, that is said now. */
export function stopLeavingQuietly(room: Room): void {
  const quiet = leftOnPurpose.get(room);
  leftOnPurpose.delete(room);
  if (quiet?.code !== undefined) sayLeft.get(room)?.(quiet.code);
}

export function keepConnected(room: Room, hooks: { reconnected(): void; left(): void } = { reconnected() {}, left() {} }): void {
  const r = room.reconnection;
  r.maxDelay = MAX_RETRY_DELAY_MS;
  r.maxRetries = RAMP.length + Math.floor((SEAT_SECONDS * 1000 - RAMP.reduce((a, b) => a + b, 0)) / MAX_RETRY_DELAY_MS);
  // The SDK does not retry for a room joined less than minUptime ago (its guard against a crash
  // loop, 5 s by default): a socket lost in the first seconds lost the seat the server still held
  // for it. Here every drop is retried; the retries end with the seat, and a server that refuses
  // the player closes with a code of its own (4xxx), which the SDK never retries.
  r.minUptime = 0;
  room.onDrop(() => status("Connection lost: reconnecting…", "reconnecting"));
  room.onReconnect(() => {
    status("Connected", "connected");
    hooks.reconnected();
  });
  const left = (code: number) => {
    status(`Disconnected: ${LEAVE_REASONS[code] ?? `connection closed (${code})`}`, "disconnected");
    const back = document.getElementById("rejoin") as HTMLButtonElement;
    back.hidden = false;
    back.onclick = () => location.reload();
    hooks.left();
  };
  sayLeft.set(room, left);
  room.onLeave((code: number) => {
    const quiet = leftOnPurpose.get(room);
    if (quiet !== undefined) quiet.code = code;
    else left(code);
  });
}
