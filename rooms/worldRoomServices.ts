/** What a world room is given by its server (src/app.config.ts): the world's service, its keys and limits. */
import type { Authenticator } from "../src/auth/Authenticator.ts";
import type { ServerMetrics } from "../src/metrics.ts";
import type { WorldService } from "../src/sessions/WorldService.ts";
import type { AuthAttempts } from "../src/auth/attemptLimiter.ts";
import type { LoginBudgets } from "../src/ws/loginBudgets.ts";
import type { WorldMetadata } from "../src/cluster/worlds.ts";

export interface WorldRoomServices {
  service: WorldService;
  /** Only the server knows it: rooms are created by the server, never by a client's matchmaking call. */
  createKey: string;
  metrics?: ServerMetrics;
  auth: Authenticator;
  anonymousMode: boolean;
  tickMs?: number;
  /**
   * How a tick's Colyseus patches are written (`TICK_WRITES`, see tickOnce): N sockets at a time, as
   * soon as N patches are encoded (the `/ws` frames, once in, with the next batch); 1 is each as soon
   * as encoded; `TICK_WRITES_BURST` (src/config/env.ts) every socket once all are encoded, the `/ws` ones first.
   */
  tickWrites?: number;
  /**
   * Seconds a seat reserved by matchmaking waits for its client's socket (`SEAT_RESERVATION_S`):
   * a world taking a burst of logins answers the matchmaking at once and reaches the sockets later.
   */
  seatReservationS?: number;
  /** Authentication attempts per client address (see AuthAttempts). */
  attempts: AuthAttempts;
  /** Logins per character, shared with `/ws` (src/ws/loginBudgets.ts); absent: unlimited. */
  logins?: LoginBudgets;
  /** What the world publishes in its room listing (src/cluster/worlds.ts): read every `WORLD_LISTING_MS` (WorldRoom.ts). */
  listing?: () => WorldMetadata;
  /**
   * The room was disposed. By the server's close, as it should be; any other way (a bug, a
   * `disconnect()` from elsewhere) the world no longer ticks, and the server ends the process.
   */
  onDisposed?: () => void;
}
